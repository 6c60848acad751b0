import Foundation

/// The HTML of a ``DiffReport``: one page, its style and script inline, images by relative path.
struct DiffReportPage {
    var entries: [FolderDiff.Entry]
    var expected: String
    var actual: String
    var writeFailures: [String: String]
    var thumbnailSide: Int
    var listedPassed: Int

    func html() -> String {
        let e = DiffReport.escape
        let failing = entries.filter { !$0.passed }
        let passed = entries.filter(\.passed)
        var counts: [String] = []
        for status in FolderDiff.Entry.Status.allCases {
            let n = entries.lazy.filter { $0.status == status }.count
            if n > 0 { counts.append("<span class=\"badge \(status.rawValue)\">\(n) \(status.rawValue)</span>") }
        }
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>mapraster diff: \(failing.count) of \(entries.count) images differ</title>
            <style>\(Self.style)</style></head><body>
            <header><h1>mapraster diff: \(failing.count) of \(entries.count) images need a look</h1>
            <p class="paths">expected <code>\(e(expected))</code> &middot; actual <code>\(e(actual))</code></p>
            <p>\(counts.joined(separator: " "))</p></header>

            """
        if !failing.isEmpty {
            out += "<h2>Worst first</h2>\n<table class=\"list\"><tr><th></th><th>image</th><th>status</th>"
            out += "<th>differing pixels</th><th>%</th><th>allowed</th></tr>\n"
            for (i, entry) in failing.enumerated() {
                let dir = DiffReport.imageFolder(entry.path)
                let big = max(entry.width, entry.height) > thumbnailSide
                let thumbFile = big ? "thumb.png" : (entry.status == .changed ? "diff.png" : preview(entry))
                let thumb =
                    thumbFile.isEmpty
                    ? "" : "<img class=\"thumb\" loading=\"lazy\" src=\"\(e(dir))/\(thumbFile)\" alt=\"\">"
                let r = entry.result
                out += "<tr><td><a href=\"#i\(i)\">\(thumb)</a></td><td><a href=\"#i\(i)\">\(e(entry.path))</a></td>"
                out += "<td><span class=\"badge \(entry.status.rawValue)\">\(entry.status.rawValue)</span></td>"
                out += "<td class=\"n\">\(r.map { "\($0.differentPixels) of \($0.totalPixels)" } ?? "")</td>"
                out += "<td class=\"n\">\(r.map { String(format: "%.4f", $0.differentRatio * 100) } ?? "")</td>"
                out += "<td>\(e(entry.tolerance.allowedText))</td></tr>\n"
            }
            out += "</table>\n"
            for (i, entry) in failing.enumerated() { out += card(entry, index: i) }
        }
        out += "<h2>Passed (\(passed.count))</h2>\n<details><summary>list</summary><ul class=\"passed\">"
        for entry in passed.prefix(listedPassed) { out += "<li>\(e(entry.path))</li>" }
        if passed.count > listedPassed { out += "<li>and \(passed.count - listedPassed) more</li>" }
        out += "</ul></details>\n<script>\(Self.script)</script>\n</body></html>\n"
        return out
    }

    /// The image shown for a new or missing entry ("" when there is none).
    private func preview(_ entry: FolderDiff.Entry) -> String {
        switch entry.status {
        case .new: return "actual.png"
        case .missing: return "expected.png"
        default: return ""
        }
    }

    private func card(_ entry: FolderDiff.Entry, index: Int) -> String {
        let e = DiffReport.escape
        let dir = e(DiffReport.imageFolder(entry.path))
        var out = "<section class=\"card\" id=\"i\(index)\"><h3>\(e(entry.path)) "
        out += "<span class=\"badge \(entry.status.rawValue)\">\(entry.status.rawValue)</span></h3>\n"
        out += "<p>\(e(DiffReport.summary(entry)))</p>\n"
        if let failure = writeFailures[entry.path] { out += "<p class=\"warn\">images not written: \(e(failure))</p>" }
        let size = entry.width > 0 ? " width=\"\(entry.width)\" height=\"\(entry.height)\"" : ""
        func figure(_ file: String, _ caption: String) -> String {
            "<figure><img loading=\"lazy\" src=\"\(dir)/\(file)\"\(size) alt=\"\(caption)\">"
                + "<figcaption>\(caption)</figcaption></figure>"
        }
        switch entry.status {
        case .changed:
            out += "<div class=\"side\">" + figure("expected.png", "expected") + figure("actual.png", "actual")
            out += figure("diff.png", "diff") + "</div>\n"
            out += "<div class=\"overlay\" style=\"max-width:\(entry.width)px\">"
            out += "<img loading=\"lazy\" src=\"\(dir)/expected.png\"\(size) alt=\"expected\">"
            out += "<div class=\"top\"><img loading=\"lazy\" src=\"\(dir)/actual.png\"\(size) alt=\"actual\"></div>"
            out += "</div>\n<label class=\"slider\">expected <input type=\"range\" min=\"0\" max=\"100\" value=\"50\">"
            out += " actual</label>\n"
        case .new:
            out += "<div class=\"side\">" + figure("actual.png", "actual (new)") + "</div>\n"
        case .missing:
            out += "<div class=\"side\">" + figure("expected.png", "expected (not rendered)") + "</div>\n"
        case .error, .passed:
            break
        }
        return out + "</section>\n"
    }

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:0 24px 48px;color:#222;background:#fafafa}
        header{position:sticky;top:0;background:#fafafa;padding:8px 0;border-bottom:1px solid #ddd;z-index:2}
        h1{font-size:20px;margin:8px 0}code{font-size:12px}.paths{margin:4px 0;color:#555}
        .badge{display:inline-block;padding:1px 8px;border-radius:9px;font-size:12px;color:#fff;background:#888}
        .badge.changed{background:#d33}.badge.new{background:#27a}.badge.missing{background:#a60}
        .badge.error{background:#708}.badge.passed{background:#393}
        table.list{border-collapse:collapse}table.list td,table.list th{padding:4px 10px;border-bottom:1px solid #e4e4e4;
        text-align:left;vertical-align:middle}td.n{text-align:right;font-variant-numeric:tabular-nums}
        img.thumb{max-width:96px;max-height:96px;image-rendering:pixelated;border:1px solid #ccc;background:#fff}
        .card{margin:24px 0;padding:12px;background:#fff;border:1px solid #ddd;border-radius:6px}
        .card h3{margin:0 0 6px;font-size:16px}.side{display:flex;gap:12px;flex-wrap:wrap}
        figure{margin:0}figure img{max-width:min(100%,512px);height:auto;border:1px solid #ccc;image-rendering:pixelated}
        figcaption{color:#555;font-size:12px}.overlay{position:relative;margin-top:12px;border:1px solid #ccc}
        .overlay img{display:block;max-width:100%;height:auto;image-rendering:pixelated}
        .overlay .top{position:absolute;inset:0;clip-path:inset(0 0 0 50%)}.slider{display:block;margin:6px 0}
        .warn{color:#a00}ul.passed{columns:4;font-size:12px}
        """

    static let script = """
        for (const card of document.querySelectorAll('.card')) {
          const range = card.querySelector('input[type=range]');
          const top = card.querySelector('.overlay .top');
          if (!range || !top) continue;
          const update = () => { top.style.clipPath = 'inset(0 0 0 ' + range.value + '%)'; };
          range.addEventListener('input', update);
          update();
        }
        """
}
