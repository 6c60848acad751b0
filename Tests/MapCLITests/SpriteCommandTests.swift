import Foundation
import MapGraphics
import MapTestSupport
import Testing

/// `mapraster sprite`: the files written (all four with --retina), the summary, warnings naming skipped
/// files, failures that write nothing, and prefixes that would give surprising names.
@Suite("mapraster sprite")
struct SpriteCommandTests {
    static let icons = Fixtures.url("sprites/osm-bright-icons").path

    @Test("--retina writes PREFIX.json/.png and PREFIX@2x.json/.png; the index is spritezero's format")
    func retina() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["sprite", Self.icons, "-o", "sprite", "--retina"], in: dir.url)
            #expect(result.exitCode == 0 && result.standardError.isEmpty, "\(result)")
            #expect(try dir.listing() == ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"])
            #expect(result.standardOutput.contains("sprite.json and sprite.png"), "\(result)")
            #expect(result.standardOutput.hasSuffix(": 6 images\n"), "\(result)")
            let sheet = try RGBAImage(contentsOfPNG: dir.file("sprite@2x.png"))
            #expect(result.standardOutput.contains("(\(sheet.width)x\(sheet.height) px)"), "\(result)")
            let index = try String(contentsOf: dir.file("sprite.json"), encoding: .utf8)
            #expect(index.hasPrefix("{\n  \"bar_11\": {\n    \"height\": 17,\n    \"pixelRatio\": 1,\n"))
            #expect(index.hasSuffix("}"))
            // Without --retina only the 1x files; a second run gives the same bytes.
            let plain = try CLI.run(["sprite", Self.icons, "-o", "one"], in: dir.url)
            #expect(plain.exitCode == 0, "\(plain)")
            #expect(try Data(contentsOf: dir.file("one.png")) == Data(contentsOf: dir.file("sprite.png")))
            #expect(!FileManager.default.fileExists(atPath: dir.file("one@2x.png").path))
        }
    }

    @Test("--sdf marks every entry \"sdf\": true")
    func sdf() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["sprite", Self.icons, "-o", "s", "--sdf"], in: dir.url)
            #expect(result.exitCode == 0 && result.standardOutput.contains("(SDF)"), "\(result)")
            let index = try String(contentsOf: dir.file("s.json"), encoding: .utf8)
            #expect(index.components(separatedBy: "\"sdf\": true").count - 1 == 6)
        }
    }

    @Test("a bad SVG is named in a warning and skipped; the others are written, exit 0")
    func badSVG() throws {
        try withTemporaryDirectory { dir in
            let icons = dir.file("icons")
            try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: Self.icons + "/bar_11.svg", toPath: icons.appendingPathComponent("bar_11.svg").path)
            try Data("<svg oops".utf8).write(to: icons.appendingPathComponent("broken.svg"))
            let result = try CLI.run(["sprite", "icons", "-o", "s"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError.hasPrefix("mapraster: warning: "), "\(result)")
            #expect(result.standardError.contains("icons/broken.svg: not a valid SVG"), "\(result)")
            #expect(result.standardOutput.contains("1 image, 1 skipped"), "\(result)")
            #expect(try String(contentsOf: dir.file("s.json"), encoding: .utf8).contains("bar_11"))
        }
    }

    @Test("no usable SVG, a missing folder or an unwritable prefix fail with exit 1 and write nothing")
    func failures() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.file("empty"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: dir.file("bad"), withIntermediateDirectories: true)
            try Data("nope".utf8).write(to: dir.file("bad/x.svg"))
            let empty = try CLI.run(["sprite", "empty", "-o", "s"], in: dir.url)
            #expect(empty.exitCode == 1 && empty.standardError.contains("no usable SVG icon"), "\(empty)")
            let bad = try CLI.run(["sprite", "bad", "-o", "s"], in: dir.url)
            #expect(bad.exitCode == 1 && bad.standardError.contains("bad/x.svg: not a valid SVG"), "\(bad)")
            #expect(bad.standardError.contains("1 skipped"), "\(bad)")
            let missing = try CLI.run(["sprite", "nothing", "-o", "s"], in: dir.url)
            #expect(missing.exitCode == 1 && missing.standardError.contains("nothing"), "\(missing)")
            let nowhere = try CLI.run(["sprite", Self.icons, "-o", "no/such/folder/s", "--retina"], in: dir.url)
            #expect(nowhere.exitCode == 1 && nowhere.standardError.contains("does not exist"), "\(nowhere)")
            #expect(try dir.listing() == ["bad", "empty"])
        }
    }

    @Test(
        "usage errors: no folder, no -o, an extension or @2x in the prefix",
        arguments: [
            (["sprite", "-o", "s"], "ICONS_DIR"), (["sprite", "icons"], "-o PREFIX"),
            (["sprite", "icons", "-o", "s.png"], "-o s writes s.json and s.png"),
            (["sprite", "icons", "-o", "s@2x", "--retina"], "without @2x"),
            (["sprite", "icons", "more", "-o", "s"], "one icon folder"),
        ])
    func usage(arguments: [String], message: String) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(arguments, in: dir.url)
            #expect(result.exitCode == 64 && result.standardError.contains(message), "\(result)")
            #expect(try dir.listing().isEmpty)
        }
    }
}
