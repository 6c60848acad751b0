import Foundation
import MapData
import MapGeometry
import MapGraphics

/// Writes what a folder comparison found: a self-contained HTML report (every image and the script in
/// the report's folder, nothing from the network), JUnit XML and JSON.
///
/// The HTML page lists the images that did not pass worst first (errors, missing, new, then changed
/// images by the fraction of differing pixels), each with its counts, expected / actual / diff side by
/// side and an overlay slider between expected and actual; images wider or taller than
/// ``thumbnailSide`` get thumbnails in the list. Passed images are counted and listed by name.
///
/// ```swift
/// let report = try DiffReport(folder: URL(fileURLWithPath: "report"))
/// let run = try FolderDiff(expected: goldens, actual: renders).run(changed: report.add)
/// try report.finish(run, title: "goldens")
/// ```
public final class DiffReport: Sendable {
    /// The report's folder.
    public let folder: URL
    /// The longest side of a thumbnail, in pixels.
    public static let thumbnailSide = 256
    /// The most passed images listed by name (the rest are counted).
    public static let listedPassed = 2000
    /// Problems writing images, by path (the report says which images are missing).
    private let failures = Locked([String: String]())

    /// Prepares the report folder (created when missing).
    ///
    /// - Throws: ``DiffReportError`` when the folder cannot be created.
    public init(folder: URL) throws {
        self.folder = folder
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw DiffReportError(path: folder.path, reason: error.localizedDescription)
        }
    }

    /// The folder (relative to the report) holding one image's files: `images/<path without .png>`.
    public static func imageFolder(_ path: String) -> String {
        let stem = path.lowercased().hasSuffix(".png") ? String(path.dropLast(4)) : path
        return "images/" + stem
    }

    /// Writes one image's files (expected and actual as they were, the diff image, thumbnails). Safe to call
    /// from several threads; pass it to ``FolderDiff/run(changed:)``.
    @Sendable public func add(_ entry: FolderDiff.Entry, _ images: FolderDiff.Images) {
        let dir = folder.appendingPathComponent(Self.imageFolder(entry.path), isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            if let data = images.expectedFile, images.expected != nil {
                try AtomicFile.write(data, to: dir.appendingPathComponent("expected.png"))
            }
            if let data = images.actualFile, images.actual != nil {
                try AtomicFile.write(data, to: dir.appendingPathComponent("actual.png"))
            }
            if let diff = images.diff { try diff.writePNG(to: dir.appendingPathComponent("diff.png")) }
            let thumbSource = images.diff ?? images.actual ?? images.expected
            if let thumbSource, max(thumbSource.width, thumbSource.height) > Self.thumbnailSide {
                try thumbSource.thumbnail(maxSide: Self.thumbnailSide).writePNG(
                    to: dir.appendingPathComponent("thumb.png"))
            }
        } catch {
            failures.withLock { $0[entry.path] = "\(error)" }
        }
    }

    /// The order of the report: errors, missing, new, changed by differing fraction (largest first), passed;
    /// ties by path.
    public static func worstFirst(_ entries: [FolderDiff.Entry]) -> [FolderDiff.Entry] {
        func rank(_ s: FolderDiff.Entry.Status) -> Int {
            switch s {
            case .error: return 0
            case .missing: return 1
            case .new: return 2
            case .changed: return 3
            case .passed: return 4
            }
        }
        return entries.sorted { a, b in
            if rank(a.status) != rank(b.status) { return rank(a.status) < rank(b.status) }
            let ra = a.result?.differentRatio ?? 0
            let rb = b.result?.differentRatio ?? 0
            if ra != rb { return ra > rb }
            return a.path < b.path
        }
    }

    /// Writes `index.html`.
    ///
    /// - Returns: the page's URL.
    /// - Throws: ``DiffReportError`` or a file-writing error.
    @discardableResult
    public func finish(_ run: FolderDiff.Run, expected: String, actual: String) throws -> URL {
        let page = DiffReportPage(
            entries: Self.worstFirst(run.entries), expected: expected, actual: actual,
            writeFailures: failures.withLock { $0 }, thumbnailSide: Self.thumbnailSide,
            listedPassed: Self.listedPassed)
        let url = folder.appendingPathComponent("index.html")
        try AtomicFile.write(Data(page.html().utf8), to: url)
        return url
    }

    /// JUnit XML: one test suite, one test case per image; changed, new and missing images are failures
    /// with the counts, unreadable ones errors.
    public static func junit(_ run: FolderDiff.Run, suite: String) -> String {
        let failures = run.entries.filter { [.changed, .new, .missing].contains($0.status) }.count
        let errors = run.count(.error)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"mapraster diff\" tests=\"\(run.entries.count)\" failures=\"\(failures)\" "
            + "errors=\"\(errors)\">\n"
        xml +=
            "  <testsuite name=\"\(escape(suite))\" tests=\"\(run.entries.count)\" failures=\"\(failures)\" "
            + "errors=\"\(errors)\" skipped=\"0\">\n"
        for entry in run.entries {
            xml += "    <testcase classname=\"mapraster.diff\" name=\"\(escape(entry.path))\""
            let summary = Self.summary(entry)
            switch entry.status {
            case .passed:
                xml += "/>\n"
            case .changed, .new, .missing:
                xml +=
                    ">\n      <failure type=\"\(entry.status.rawValue)\" message=\"\(escape(summary))\">"
                    + "\(escape(summary))</failure>\n    </testcase>\n"
            case .error:
                xml +=
                    ">\n      <error type=\"error\" message=\"\(escape(summary))\">\(escape(summary))</error>\n"
                    + "    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// One line about an entry: "changed: 1234 of 65536 pixels differ (1.8829 %), allowed none".
    public static func summary(_ entry: FolderDiff.Entry) -> String {
        var text = entry.status.rawValue
        if let r = entry.result {
            text +=
                ": \(r.differentPixels) of \(r.totalPixels) pixels differ ("
                + String(format: "%.4f", r.differentRatio * 100) + " %) at threshold "
                + Tolerance.number(entry.tolerance.threshold) + ", allowed " + entry.tolerance.allowedText
            if r.ignoredPixels > 0 { text += "; \(r.ignoredPixels) ignored" }
        }
        if let message = entry.message { text += (entry.result == nil ? ": " : "; ") + message }
        return text
    }

    /// The run as JSON: a summary and one object per image.
    public static func json(_ run: FolderDiff.Run, expected: String, actual: String, report: String?) -> JSONValue {
        func n(_ v: Int) -> JSONValue { .number(Double(v)) }
        let images = run.entries.map { e -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("path", .string(e.path)), ("status", .string(e.status.rawValue)),
                ("width", n(e.width)), ("height", n(e.height)),
            ]
            if let r = e.result {
                members += [
                    ("totalPixels", n(r.totalPixels)), ("differentPixels", n(r.differentPixels)),
                    ("differentRatio", .number(r.differentRatio)), ("antialiasedPixels", n(r.antialiasedPixels)),
                    ("ignoredPixels", n(r.ignoredPixels)),
                ]
            }
            members += [
                ("threshold", .number(e.tolerance.threshold)), ("includeAA", .bool(e.tolerance.includeAA)),
                ("maxDiffPixels", e.tolerance.maxDiffPixels.map(n) ?? .null),
                ("maxDiffRatio", e.tolerance.maxDiffRatio.map(JSONValue.number) ?? .null),
                ("message", e.message.map(JSONValue.string) ?? .null), ("pass", .bool(e.passed)),
            ]
            return .object(members)
        }
        var summary: [(String, JSONValue)] = [("images", n(run.entries.count))]
        for status in FolderDiff.Entry.Status.allCases { summary.append((status.rawValue, n(run.count(status)))) }
        return .object([
            ("expected", .string(expected)), ("actual", .string(actual)), ("pass", .bool(run.passed)),
            ("summary", .object(summary)), ("report", report.map(JSONValue.string) ?? .null),
            ("images", .array(images)),
        ])
    }

    /// Text escaped for XML and HTML.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // XML 1.0 allows no control characters but tab, newline and carriage return.
                if c.value < 0x20 && c != "\t" && c != "\n" && c != "\r" {
                    out += "?"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }
}

/// The report folder cannot be written.
public struct DiffReportError: MapRasterError, Equatable {
    /// The folder.
    public var path: String
    /// Why.
    public var reason: String

    public var description: String { "cannot write the report folder '\(path)': \(reason); give a writable folder" }
}

extension RGBAImage {
    /// A smaller copy whose longest side is at most `maxSide`: each output pixel is the mean of a square of
    /// source pixels (alpha-weighted colors).
    func thumbnail(maxSide: Int) -> RGBAImage {
        let factor = max(1, (max(width, height) + maxSide - 1) / maxSide)
        let w = max(1, width / factor)
        let h = max(1, height / factor)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for ty in 0..<h {
            for tx in 0..<w {
                var sum = (0, 0, 0, 0)
                for y in (ty * factor)..<min(height, (ty + 1) * factor) {
                    for x in (tx * factor)..<min(width, (tx + 1) * factor) {
                        let k = (y * width + x) * 4
                        let a = Int(bytes[k + 3])
                        sum.0 += Int(bytes[k]) * a
                        sum.1 += Int(bytes[k + 1]) * a
                        sum.2 += Int(bytes[k + 2]) * a
                        sum.3 += a
                    }
                }
                let o = (ty * w + tx) * 4
                let n = factor * factor
                if sum.3 > 0 {
                    out[o] = UInt8(sum.0 / sum.3)
                    out[o + 1] = UInt8(sum.1 / sum.3)
                    out[o + 2] = UInt8(sum.2 / sum.3)
                }
                out[o + 3] = UInt8(sum.3 / n)
            }
        }
        return RGBAImage(width: w, height: h, bytes: out)
    }
}
