import Foundation
import MapRaster
import MapTestSupport
import Testing

/// Issue 25: the six OpenMapTiles styles, as published (fixtures/styles/openmaptiles), render with nothing but
/// `--source openmaptiles=...` and `--sprite`; what they have that MapRaster does not support is a warning;
/// `--strict` keeps the refusals; `mapraster style check` lists it all.
@Suite("Published styles: lenient reading, --strict, --sprite, style check")
struct PublishedStylesTests {
    static let names = ["osm-bright", "positron", "dark-matter", "maptiler-basic", "maptiler-toner", "maptiler-3d"]
    static let tiles = Fixtures.packageRoot.appendingPathComponent(
        "Sources/MapBaseMap/Resources/vectortiles/osm-omt.mbtiles"
    ).path
    static func style(_ name: String) -> String {
        Fixtures.root.appendingPathComponent("styles/openmaptiles/\(name)/style.json").path
    }
    static func sprite(_ name: String) -> [String] {
        let prefix = Fixtures.root.appendingPathComponent("styles/openmaptiles/\(name)/sprite").path
        return FileManager.default.fileExists(atPath: prefix + ".json") ? ["--sprite", prefix] : []
    }
    static let view = ["--center", "43.7384,7.4246", "--zoom", "15", "--size", "256x192", "--no-attribution"]

    @Test(
        "each style renders as published with --source and --sprite: exit 0, warnings naming JSON paths",
        arguments: names)
    func renders(name: String) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["render", "--style", Self.style(name), "--source", "openmaptiles=\(Self.tiles)"] + Self.sprite(name)
                    + Self.view + ["-o", "map.png"], in: dir.url, timeout: 300)
            #expect(result.exitCode == 0, "\(result)")
            // `id` and the other descriptive root members of the spec are read without a word.
            #expect(!result.standardError.contains("unknown style member"), "\(result)")
            #expect(!result.standardError.contains("error"), "\(result)")
            #expect(!result.standardError.contains("sources.openmaptiles"), "replaced, so not warned about")
            if name == "maptiler-3d" { #expect(!result.standardError.contains("fill-extrusion"), "drawn: \(result)") }
            #expect(!result.standardError.contains("pitch-alignment"), "drawn: \(result)")
            let image = try RGBAImage(contentsOfPNG: dir.file("map.png"))
            #expect(image.width == 256 && image.height == 192)
        }
    }

    /// maptiler-basic paints its water `hsl(205, 56%, 73%)`: m2 = 0.73 + 0.56 - 0.4088 = 0.8812, m1 = 0.5788,
    /// so (by hand) R = m1 = 147.6 -> 148, G = m1 + (m2 - m1)(2/3 - 205/360) 6 = 0.7552 -> 193, B = m2 = 224.7
    /// -> 225; the harbour of Monaco is that colour. Its background `hsl(47, 26%, 88%)` is (232, 229, 216):
    /// m2 = 0.9112, m1 = 0.8488, R = m2, G = m1 + (m2 - m1) 6 (47/360) = 0.8977, B = m1.
    @Test("maptiler-basic's hsl() water and background are drawn in the colours computed by hand")
    func hslWater() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["render", "--style", Self.style("maptiler-basic"), "--source", "openmaptiles=\(Self.tiles)"]
                    + Self.sprite("maptiler-basic") + Self.view + ["-o", "map.png"], in: dir.url, timeout: 300)
            #expect(result.exitCode == 0, "\(result)")
            let image = try RGBAImage(contentsOfPNG: dir.file("map.png"))
            #expect(image.pixel(x: 200, y: 170) == ImageSurface.Pixel(red: 148, green: 193, blue: 225, alpha: 255))
            #expect(image.pixel(x: 5, y: 5) == ImageSurface.Pixel(red: 232, green: 229, blue: 216, alpha: 255))
        }
    }

    @Test("without --sprite the network sprite is one warning, not one per missing icon; the rest renders")
    func networkSprite() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["render", "--style", Self.style("osm-bright"), "--source", "openmaptiles=\(Self.tiles)"]
                    + ["--center", "43.7384,7.4246", "--zoom", "16", "--size", "512x384", "-o", "map.png"], in: dir.url,
                timeout: 300)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError.components(separatedBy: "sprite: the network sprite").count == 2, "\(result)")
            #expect(!result.standardError.contains("is not in the style's sprite"), "\(result)")
        }
    }

    @Test("--strict refuses them as before; without --source nothing can be drawn and the error names it")
    func strictAndMissingSource() throws {
        try withTemporaryDirectory { dir in
            // positron with a property MapRaster does not support (its `text-pitch-alignment` renamed).
            let original = try String(contentsOfFile: Self.style("positron"), encoding: .utf8)
            let renamed = original.replacingOccurrences(of: "\"text-pitch-alignment\"", with: "\"symbol-z-elevate\"")
            try Data(renamed.utf8).write(to: dir.file("positron.json"))
            let strict = try CLI.run(
                ["render", "--style", "positron.json", "--source", "openmaptiles=\(Self.tiles)", "--strict"]
                    + Self.sprite("positron") + Self.view + ["-o", "map.png"], in: dir.url)
            #expect(
                strict.exitCode == 1 && strict.standardError.contains("symbol-z-elevate: unknown layout property"),
                "\(strict)")
            let bare = try CLI.run(
                ["render", "--style", Self.style("positron")] + Self.view + ["-o", "map.png"], in: dir.url)
            #expect(bare.exitCode == 1, "\(bare)")
            #expect(bare.standardError.contains("--source openmaptiles=PATH"), "\(bare)")
            #expect(bare.standardError.contains("sprite: the network sprite"), "\(bare)")
            #expect(try dir.listing() == ["positron.json"], "no image written")
        }
    }

    @Test("style check lists the warnings and the error, and says what they do to the exit code")
    func styleCheck() throws {
        try withTemporaryDirectory { dir in
            let bare = try CLI.run(["style", "check", Self.style("maptiler-3d")], in: dir.url)
            #expect(bare.exitCode == 1, "\(bare)")
            #expect(!bare.standardOutput.contains("unknown style member"), "\(bare)")
            #expect(bare.standardOutput.contains("warning: glyphs: network glyphs"), "\(bare)")
            #expect(bare.standardOutput.contains("error: sources: nothing can be drawn"), "\(bare)")
            #expect(bare.standardOutput.hasSuffix("style.json: 1 error, 2 warnings\n"), "\(bare)")
            let replaced = ["--source", "openmaptiles=\(Self.tiles)"]
            let check = try CLI.run(["style", "check", Self.style("maptiler-3d")] + replaced, in: dir.url)
            #expect(check.exitCode == 0, "warnings alone pass: \(check)")
            #expect(!check.standardOutput.contains("building-3d"), "fill-extrusion is drawn: \(check)")
            #expect(check.standardOutput.contains("no font of the stack is installed"), "\(check)")
            #expect(check.standardOutput.contains("0 errors"), "\(check)")
            let strict = try CLI.run(["style", "check", Self.style("maptiler-3d"), "--strict"] + replaced, in: dir.url)
            #expect(strict.exitCode == 1, "with --strict warnings fail: \(strict)")
            let clean = try CLI.run(
                ["style", "check", Fixtures.packageRoot.appendingPathComponent("styles/streets.json").path], in: dir.url
            )
            #expect(
                clean.exitCode == 0 && clean.standardOutput.hasSuffix("0 errors, 0 warnings (renders as written)\n"),
                "\(clean)")
            let bad = try dir.write("bad.json", "{\"version\": 8,\n \"layers\": [}")
            let malformed = try CLI.run(["style", "check", bad.path], in: dir.url)
            #expect(malformed.exitCode == 1 && malformed.standardOutput.contains("line 2, column"), "\(malformed)")
            #expect(try CLI.run(["style", "check"], in: dir.url).exitCode == 64)
            #expect(
                try CLI.run(["style", "chek", "x.json"], in: dir.url).standardError.contains("did you mean 'check'"))
        }
    }

    @Test("a style with 100,000 unknown properties logs 20 warnings and a count, and renders; --strict refuses it")
    func hostileStyle() throws {
        try withTemporaryDirectory { dir in
            let paint = (0..<100_000).map { #""p\#($0)": 1"# }.joined(separator: ",")
            _ = try dir.write(
                "s.json",
                #"{"version": 8, "layers": [{"id": "b", "type": "background", "paint": {"background-color": "hsl(120, 100%, 25%)", \#(paint)}}]}"#
            )
            let result = try CLI.run(["render", "--style", "s.json", "--size", "64x64", "-o", "m.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 21, "\(lines.prefix(3))")
            #expect(
                lines.last
                    == "mapraster: warning: s.json: ... and 99980 more warnings (mapraster style check lists them)")
            let image = try RGBAImage(contentsOfPNG: dir.file("m.png"))
            #expect(image.pixel(x: 10, y: 10) == ImageSurface.Pixel(red: 0, green: 128, blue: 0, alpha: 255))
            let strict = try CLI.run(["render", "--style", "s.json", "--strict", "-o", "n.png"], in: dir.url)
            #expect(strict.exitCode == 1 && strict.standardError.contains("layers[0].paint.p0"), "\(strict)")
        }
    }
}
