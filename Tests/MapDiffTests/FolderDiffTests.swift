import Foundation
import FoundationXML
import MapDiff
import MapGraphics
import MapTestSupport
import Testing

@Suite("FolderDiff: whole folders of goldens, with reports")
struct FolderDiffTests {
    static func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "folderdiff-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 300x20 image (wider than a thumbnail) with a dark bar from x 10 to 10 + `bar`.
    static func image(bar: Int, shade: UInt8 = 0) -> RGBAImage {
        var image = RGBAImage(width: 300, height: 20, red: 255, green: 255, blue: 255, alpha: 255)
        for y in 5..<15 {
            for x in 10..<(10 + bar) {
                image.bytes.replaceSubrange(
                    ((y * 300 + x) * 4)..<((y * 300 + x) * 4 + 4), with: [shade, shade, shade, 255])
            }
        }
        return image
    }

    static func write(_ image: RGBAImage, _ dir: URL, _ path: String) throws {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try image.writePNG(to: url)
    }

    /// expected/ and actual/ with one image of each outcome, bad files, a link out of the folder and an
    /// override that lets one changed image pass.
    static func makeFolders() throws -> (root: URL, expected: URL, actual: URL) {
        let root = try folder("cases")
        let expected = root.appendingPathComponent("expected")
        let actual = root.appendingPathComponent("actual")
        for dir in [expected, actual] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        // same: byte-equal files; recoded: equal pixels, different bytes (a palette PNG); changed: 100 pixels.
        try write(image(bar: 50), expected, "a/same.png")
        try write(image(bar: 50), actual, "a/same.png")
        try write(image(bar: 50), expected, "a/recoded.png")
        try FileManager.default.createDirectory(
            at: actual.appendingPathComponent("a"), withIntermediateDirectories: true)
        try image(bar: 50).palettePNGData().write(to: actual.appendingPathComponent("a/recoded.png"))
        try write(image(bar: 50), expected, "b/changed.png")
        try write(image(bar: 60), actual, "b/changed.png")
        // allowed: 100 pixels differ, thresholds.json allows 100.
        try write(image(bar: 50), expected, "b/allowed.png")
        try write(image(bar: 60), actual, "b/allowed.png")
        try write(image(bar: 20), actual, "new.png")
        try write(image(bar: 20), expected, "missing.png")
        // Bad files: not a PNG, truncated, 16-bit (compared, with a note).
        try Data("not a png".utf8).write(to: actual.appendingPathComponent("text.png"))
        try write(image(bar: 5), expected, "text.png")
        let full = try image(bar: 5).pngData()
        try write(image(bar: 5), expected, "truncated.png")
        try full.prefix(full.count / 2).write(to: actual.appendingPathComponent("truncated.png"))
        for dir in [expected, actual] {
            try FileManager.default.copyItem(
                at: Fixtures.url("graphics/rgb16.png"), to: dir.appendingPathComponent("rgb16.png"))
        }
        // A link out of the folder, to a PNG that exists: not followed.
        let outside = root.appendingPathComponent("outside.png")
        try write(image(bar: 5), root, "outside.png")
        try write(image(bar: 5), expected, "link.png")
        try FileManager.default.createSymbolicLink(
            at: actual.appendingPathComponent("link.png"), withDestinationURL: outside)
        try Data(#"{"images": {"b/allowed.png": {"maxDiffPixels": 100}}}"#.utf8)
            .write(to: expected.appendingPathComponent("thresholds.json"))
        return (root, expected, actual)
    }

    @Test("each image gets its status; bad files are reported per file and the rest compared")
    func statuses() throws {
        let (root, expected, actual) = try Self.makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        let overrides = try ToleranceOverrides(contentsOf: expected.appendingPathComponent("thresholds.json"))
        let run = try FolderDiff(expected: expected, actual: actual, overrides: overrides, threads: 3).run()
        let status = Dictionary(uniqueKeysWithValues: run.entries.map { ($0.path, $0.status) })
        #expect(
            status == [
                "a/same.png": .passed, "a/recoded.png": .passed, "b/changed.png": .changed, "b/allowed.png": .passed,
                "new.png": .new, "missing.png": .missing, "text.png": .error, "truncated.png": .error,
                "rgb16.png": .passed, "link.png": .error,
            ])
        let byPath = Dictionary(uniqueKeysWithValues: run.entries.map { ($0.path, $0) })
        // The bar grows by 10 columns x 10 rows: 100 pixels, as pixelmatch counts a flat black bar (the
        // new pixels have 5 equal neighbours, so none is anti-aliasing).
        #expect(byPath["b/changed.png"]?.result?.differentPixels == 100)
        #expect(byPath["b/allowed.png"]?.result?.differentPixels == 100)
        #expect(byPath["link.png"]?.message?.contains("not followed") == true)
        #expect(byPath["text.png"]?.message?.contains("not a PNG") == true)
        #expect(byPath["rgb16.png"]?.message?.contains("16-bit") == true)
        #expect(!run.passed)
        #expect(run.entries.map(\.path) == run.entries.map(\.path).sorted())
    }

    @Test("the report holds the images of changed entries, worst first; JUnit XML parses with the failures")
    func reports() throws {
        let (root, expected, actual) = try Self.makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        let reportFolder = root.appendingPathComponent("report")
        let report = try DiffReport(folder: reportFolder)
        let run = try FolderDiff(expected: expected, actual: actual, threads: 2).run(changed: report.add)
        let page = try report.finish(run, expected: expected.path, actual: actual.path)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("http://") && !html.contains("https://"), "no network")
        for file in ["expected.png", "actual.png", "diff.png", "thumb.png"] {
            #expect(
                FileManager.default.fileExists(
                    atPath: reportFolder.appendingPathComponent("images/b/changed/\(file)").path), "\(file)")
        }
        let diff = try RGBAImage(contentsOfPNG: reportFolder.appendingPathComponent("images/b/changed/diff.png"))
        #expect(diff.pixel(x: 65, y: 10).red == 255 && diff.pixel(x: 65, y: 10).green == 0, "changed pixels are red")
        // Errors first, then missing, new, changed.
        let order = ["text.png", "missing.png", "new.png", "b/changed.png"].map {
            html.range(of: ">\($0)<")?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())

        let xml = DiffReport.junit(run, suite: "goldens")
        final class Counter: NSObject, XMLParserDelegate {
            var cases = 0, failures = 0, errors = 0
            func parser(
                _ p: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if name == "testcase" { cases += 1 }
                if name == "failure" { failures += 1 }
                if name == "error" { errors += 1 }
            }
        }
        let counter = Counter()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = counter
        #expect(parser.parse())
        // changed, allowed (no thresholds file given here), new, missing fail; text, truncated, link are errors.
        #expect((counter.cases, counter.failures, counter.errors) == (10, 4, 3))
    }

    @Test(
        "counts and diff images do not depend on the number of threads",
        arguments: ["la-edited", "eu-alpha", "world-roll1px"])
    func threadCounts(_ pair: String) throws {
        let a = try RGBAImage(contentsOfPNG: Fixtures.url("diff/corpus/\(pair)-a.png"))
        let b = try RGBAImage(contentsOfPNG: Fixtures.url("diff/corpus/\(pair)-b.png"))
        let mask = IgnoreMask(rects: [.init(x: 30, y: 40, width: 50, height: 20)])
        let one = try PixelMatch.diffImage(a, b, mask: mask, threads: 1)
        for threads in [2, 3, 7] {
            let many = try PixelMatch.diffImage(a, b, mask: mask, threads: threads)
            #expect(many.result == one.result && many.image == one.image, "\(threads) threads")
        }
    }

    @Test("thresholds.json: exact paths beat patterns, unknown members and bad values are refused")
    func overrides() throws {
        let json =
            #"{"default": {"maxDiffPixels": 5}, "images": {"t/*.png": {"threshold": 0.3}, "t/1.png": {"maxDiffRatio": 0.5}}}"#
        let o = try ToleranceOverrides(json: Data(json.utf8), source: "t.json")
        #expect(o.tolerance(for: "t/1.png", default: Tolerance()) == Tolerance(maxDiffPixels: 5, maxDiffRatio: 0.5))
        #expect(o.tolerance(for: "t/2.png", default: Tolerance()) == Tolerance(threshold: 0.3, maxDiffPixels: 5))
        #expect(o.tolerance(for: "u.png", default: Tolerance()) == Tolerance(maxDiffPixels: 5))
        for bad in [
            #"{"images": {"a.png": {"treshold": 0.1}}}"#, #"{"images": {"a.png": {"threshold": 2}}}"#,
            #"{"images": {"a.png": {"maxDiffPixels": -1}}}"#, #"{"defaults": {}}"#,
        ] {
            #expect(throws: ToleranceOverridesError.self) {
                try ToleranceOverrides(json: Data(bad.utf8), source: "t.json")
            }
        }
    }
}
