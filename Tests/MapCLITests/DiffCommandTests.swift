import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("mapraster diff")
struct DiffCommandTests {
    /// Writes two 20x10 images: white, and white with `dots` black pixels on the first row.
    static func pair(in dir: TemporaryDirectory, dots: Int) throws {
        let white = RGBAImage(width: 20, height: 10, red: 255, green: 255, blue: 255, alpha: 255)
        var changed = white
        for x in 0..<dots { changed.bytes.replaceSubrange((x * 8)..<(x * 8 + 4), with: [0, 0, 0, 255]) }
        try white.writePNG(to: dir.file("a.png"))
        try changed.writePNG(to: dir.file("b.png"))
    }

    @Test("identical images: exit 0 and PASS")
    func identical() throws {
        try withTemporaryDirectory { dir in
            try Self.pair(in: dir, dots: 0)
            let result = try CLI.run(["diff", "a.png", "b.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardOutput.hasPrefix("0 of 200 pixels differ") && result.standardOutput.contains("PASS"))
        }
    }

    static let allowances: [([String], Int32)] = [
        ([], 1), (["--max-diff-pixels", "3"], 0), (["--max-diff-pixels", "2"], 1),
        (["--max-diff-ratio", "0.015"], 0), (["--max-diff-ratio", "0.01"], 1),
        (["--max-diff-pixels", "3", "--max-diff-ratio", "0.01"], 1),
    ]

    @Test("exit 1 beyond the allowance, 0 within it; --max-diff-pixels and --max-diff-ratio", arguments: allowances)
    func allowance(extra: [String], exitCode: Int32) throws {
        try withTemporaryDirectory { dir in
            try Self.pair(in: dir, dots: 3)
            let result = try CLI.run(["diff", "a.png", "b.png"] + extra, in: dir.url)
            #expect(result.exitCode == exitCode, "\(result)")
            #expect(result.standardOutput.hasPrefix("3 of 200 pixels differ (1.5000 %)"), "\(result)")
        }
    }

    @Test("--json prints the counts; -o writes the diff image with red differing pixels")
    func jsonAndImage() throws {
        try withTemporaryDirectory { dir in
            try Self.pair(in: dir, dots: 2)
            let result = try CLI.run(["diff", "a.png", "b.png", "--json", "-o", "diff.png"], in: dir.url)
            #expect(result.exitCode == 1, "\(result)")
            let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
            #expect(json?["differentPixels"] as? Int == 2)
            #expect(json?["totalPixels"] as? Int == 200)
            #expect(json?["pass"] as? Bool == false)
            #expect(json?["width"] as? Int == 20 && json?["height"] as? Int == 10)
            let diff = try RGBAImage(contentsOfPNG: dir.file("diff.png"))
            #expect(diff.pixel(x: 0, y: 0) == ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
            #expect(diff.pixel(x: 1, y: 0).red == diff.pixel(x: 1, y: 0).blue, "unchanged pixels are grey")
        }
    }

    @Test("--ignore rectangles and --mask leave pixels out")
    func ignore() throws {
        try withTemporaryDirectory { dir in
            try Self.pair(in: dir, dots: 3)  // black at x = 0, 2, 4 of row 0
            let rects = try CLI.run(
                ["diff", "a.png", "b.png", "--ignore", "0,0,1,1", "--ignore", "4,0,1,1"], in: dir.url)
            #expect(rects.exitCode == 1 && rects.standardOutput.hasPrefix("1 of 200"), "\(rects)")
            #expect(rects.standardOutput.contains("2 pixels ignored"))
            var mask = RGBAImage(width: 20, height: 10, red: 0, green: 0, blue: 0, alpha: 255)
            for x in 0..<20 { mask.bytes.replaceSubrange((x * 4)..<(x * 4 + 4), with: [255, 255, 255, 255]) }
            try mask.writePNG(to: dir.file("mask.png"))
            let masked = try CLI.run(["diff", "a.png", "b.png", "--mask", "mask.png"], in: dir.url)
            #expect(masked.exitCode == 0 && masked.standardOutput.contains("20 pixels ignored"), "\(masked)")
        }
    }

    struct BadDiff: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var mentions: [String]
        var testDescription: String { name }
    }

    static let badCases: [BadDiff] = [
        BadDiff(name: "one file", arguments: ["a.png"], mentions: ["two PNG files"]),
        BadDiff(name: "missing file", arguments: ["a.png", "nope.png"], mentions: ["nope.png", "no such file"]),
        BadDiff(name: "not a PNG", arguments: ["a.png", "text.png"], mentions: ["text.png", "not a PNG"]),
        BadDiff(name: "truncated PNG", arguments: ["a.png", "cut.png"], mentions: ["cut.png"]),
        BadDiff(name: "different sizes", arguments: ["a.png", "small.png"], mentions: ["20x10", "5x5"]),
        BadDiff(
            name: "mask of the wrong size", arguments: ["a.png", "b.png", "--mask", "small.png"],
            mentions: ["5x5", "20x10", "mask"]),
        BadDiff(
            name: "threshold 2", arguments: ["a.png", "b.png", "--threshold", "2"], mentions: ["--threshold", "0...1"]),
        BadDiff(
            name: "bad ignore", arguments: ["a.png", "b.png", "--ignore", "1,2,3"],
            mentions: ["--ignore", "X,Y,WIDTH,HEIGHT"]),
        BadDiff(
            name: "bad color", arguments: ["a.png", "b.png", "--diff-color", "nope"],
            mentions: ["--diff-color", "nope"]),
        BadDiff(
            name: "negative max pixels", arguments: ["a.png", "b.png", "--max-diff-pixels", "-1"],
            mentions: ["--max-diff-pixels"]),
        BadDiff(name: "unknown option", arguments: ["a.png", "b.png", "--bogus"], mentions: ["--bogus"]),
    ]

    @Test("errors exit 2, name the input, and write no diff image", arguments: badCases)
    func badInput(_ bad: BadDiff) throws {
        try withTemporaryDirectory { dir in
            try Self.pair(in: dir, dots: 1)
            try Data("not a png".utf8).write(to: dir.file("text.png"))
            let real = try Data(contentsOf: dir.file("a.png"))
            try real.prefix(40).write(to: dir.file("cut.png"))
            try RGBAImage(width: 5, height: 5, red: 0, green: 0, blue: 0, alpha: 255).writePNG(
                to: dir.file("small.png"))
            let before = try dir.listing()
            let result = try CLI.run(["diff"] + bad.arguments + ["-o", "out.png"], in: dir.url)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.standardError.hasPrefix("mapraster: error:"), "\(result)")
            for text in bad.mentions {
                #expect(result.standardError.contains(text), "should mention \(text): \(result)")
            }
            #expect(try dir.listing() == before)
        }
    }
}
