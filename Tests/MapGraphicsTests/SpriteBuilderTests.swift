import Foundation
import MapData
import MapGeometry
import MapTestSupport
import Testing

@testable import MapGraphics

/// The sprite builder (`mapraster sprite`): names, sizes, positions and pixels against the sprite spritezero
/// built from the same SVGs (osm-bright's published gh-pages sprite), byte-identical output across runs,
/// bad and hostile SVGs skipped with their names, and SDF images checked against the analytic distance.
@Suite("Sprite builder: spritezero's layout and sizes, SDF, bad SVGs")
struct SpriteBuilderTests {
    static let icons = Fixtures.url("sprites/osm-bright-icons")
    static let published = Fixtures.url("styles/openmaptiles/osm-bright/sprite")

    /// The published index at `suffix` ("" or "@2x"): name -> (x, y, width, height, pixelRatio).
    static func publishedIndex(_ suffix: String) throws -> [String: [Int]] {
        let json = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: published.path + suffix + ".json")))
        var result: [String: [Int]] = [:]
        for (name, entry) in json.members ?? [] {
            result[name] = ["x", "y", "width", "height", "pixelRatio"].map { Int(entry[$0]?.number ?? -1) }
        }
        return result
    }

    /// A fresh folder holding `files` (relative path -> contents).
    static func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sprite-icons-\(UUID().uuidString)")
        for (path, text) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func svg(width: String, height: String, body: String = #"<rect width="100%" height="100%"/>"#) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)">\#(body)</svg>"#
    }

    @Test("shelf packing puts every image of the five published OpenMapTiles sprites where spritezero put it")
    func packingMatchesSpritezero() throws {
        for style in ["osm-bright", "positron", "dark-matter", "maptiler-basic", "maptiler-toner"] {
            for suffix in ["", "@2x"] {
                let url = Fixtures.url("styles/openmaptiles/\(style)/sprite\(suffix).json")
                let json = try JSONValue.parse(try Data(contentsOf: url))
                let members = json.members ?? []
                let items = members.map {
                    ShelfPacking.Item(
                        name: $0.0, width: Int($0.1["width"]?.number ?? 0), height: Int($0.1["height"]?.number ?? 0))
                }
                let layout = ShelfPacking.layout(items)
                let sheet = try RGBAImage(
                    contentsOfPNG: URL(
                        fileURLWithPath: url.path.replacingOccurrences(
                            of: ".json", with: ".png")))
                #expect(layout.width == sheet.width && layout.height == sheet.height, "\(style)\(suffix)")
                for (i, (name, entry)) in members.enumerated() {
                    let origin = layout.origins[i]
                    #expect(
                        origin.x == Int(entry["x"]?.number ?? -1) && origin.y == Int(entry["y"]?.number ?? -1),
                        "\(style)\(suffix) \(name)")
                }
            }
        }
    }

    @Test("names, sizes and pixel ratios at 1x and 2x are those of the published sprite")
    func namesAndSizes() throws {
        let build = try SpriteBuilder.build(folder: Self.icons, options: .init(pixelRatios: [1, 2]))
        #expect(build.skipped.isEmpty)
        #expect(build.sheets.map(\.pixelRatio) == [1, 2])
        for (sheet, suffix) in zip(build.sheets, ["", "@2x"]) {
            let published = try Self.publishedIndex(suffix)
            let names = sheet.entries.map(\.name).sorted()
            #expect(names == ["bar_11", "circle_11", "road_1", "us-state_1", "wave", "zoo_11"])
            for entry in sheet.entries {
                let expected = try #require(published[entry.name])
                #expect(entry.width == expected[2] && entry.height == expected[3], "\(entry.name)\(suffix)")
                #expect(expected[4] == sheet.pixelRatio)
            }
            let index = try JSONValue.parse(Data(sheet.indexJSON.utf8))
            #expect(index["road_1"]?["pixelRatio"]?.number == Double(sheet.pixelRatio))
            #expect(index["road_1"]?["sdf"] == nil)
        }
    }

    @Test("each icon's pixels are within a few levels of spritezero's (largest channel difference, 1x)")
    func pixelsMatchPublished() throws {
        let build = try SpriteBuilder.build(folder: Self.icons, options: .init(pixelRatios: [1]))
        let sheet = try #require(build.sheets.first)
        let published = try RGBAImage(contentsOfPNG: URL(fileURLWithPath: Self.published.path + ".png"))
        let index = try Self.publishedIndex("")
        for entry in sheet.entries {
            let p = try #require(index[entry.name])
            var worst = 0
            for y in 0..<entry.height {
                for x in 0..<entry.width {
                    let a = sheet.image.pixel(x: entry.x + x, y: entry.y + y)
                    let b = published.pixel(x: p[0] + x, y: p[1] + y)
                    // Colour differences only count where the pixel is visible.
                    let alpha = abs(Int(a.alpha) - Int(b.alpha))
                    let seen = min(Int(a.alpha), Int(b.alpha))
                    let colour =
                        [a.red, a.green, a.blue].enumerated().map { k, c in
                            abs(Int(c) - Int([b.red, b.green, b.blue][k])) * seen / 255
                        }.max() ?? 0
                    worst = max(worst, alpha, colour)
                }
            }
            // Cairo's and mapnik's antialiasing differ by a few levels on edges (measured: 2 for wave to 18 for
            // us-state_1).
            #expect(worst <= 24, "\(entry.name): \(worst)")
        }
    }

    @Test("the same icons give byte-identical JSON and PNG, whatever order the folder lists them in")
    func deterministic() throws {
        let first = try SpriteBuilder.build(folder: Self.icons, options: .init(pixelRatios: [1, 2]))
        let second = try SpriteBuilder.build(folder: Self.icons, options: .init(pixelRatios: [1, 2]))
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.icons.path).sorted().reversed() {
            files[name] = try String(contentsOf: Self.icons.appendingPathComponent(name), encoding: .utf8)
        }
        let copy = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: copy) }
        let third = try SpriteBuilder.build(folder: copy, options: .init(pixelRatios: [1, 2]))
        for k in 0..<2 {
            let bytes = try first.sheets[k].pngData()
            #expect(try second.sheets[k].pngData() == bytes && (try third.sheets[k].pngData()) == bytes)
            #expect(second.sheets[k].indexJSON == first.sheets[k].indexJSON)
            #expect(third.sheets[k].indexJSON == first.sheets[k].indexJSON)
        }
    }

    @Test("the index is written as spritezero-cli writes it (sorted keys, two spaces, no final newline)")
    func indexFormat() throws {
        let folder = try Self.folder([
            "b.svg": Self.svg(width: "2", height: "3"), "a.svg": Self.svg(width: "4", height: "1"),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try #require(try SpriteBuilder.build(folder: folder, options: .init(sdf: true)).sheets.first)
        #expect(
            sheet.indexJSON == """
                {
                  "a": {
                    "height": 7,
                    "pixelRatio": 1,
                    "sdf": true,
                    "width": 10,
                    "x": 0,
                    "y": 9
                  },
                  "b": {
                    "height": 9,
                    "pixelRatio": 1,
                    "sdf": true,
                    "width": 8,
                    "x": 0,
                    "y": 0
                  }
                }
                """)
    }

    @Test("bad, hostile and sizeless SVGs are named and skipped; the rest is built")
    func badSVGsSkipped() throws {
        let folder = try Self.folder([
            "good.svg": Self.svg(width: "10", height: "10"),
            "broken.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\"",
            "text.svg": "this is not XML",
            "empty.svg": "",
            "huge.svg": Self.svg(width: "100000", height: "100000"),
            "zero.svg": Self.svg(width: "0", height: "10"),
            "tiny.svg": Self.svg(width: "0.5", height: "10"),
            "sizeless.svg": #"<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>"#,
            "notes.txt": "not an icon",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let build = try SpriteBuilder.build(folder: folder, options: .init(pixelRatios: [1, 2]))
        #expect(build.sheets.map { $0.entries.map(\.name) } == [["good"], ["good"]])
        let skipped = Dictionary(
            uniqueKeysWithValues: build.skipped.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) })
        #expect(
            Set(skipped.keys) == [
                "broken.svg", "text.svg", "empty.svg", "huge.svg", "zero.svg", "tiny.svg", "sizeless.svg",
            ])
        #expect(skipped["huge.svg"]?.contains("2048") == true)
        #expect(skipped["tiny.svg"]?.contains("less than one pixel") == true)
        #expect(skipped["broken.svg"]?.contains("not a valid SVG") == true)
        #expect(skipped["sizeless.svg"]?.contains("size is unknown") == true)
        #expect(build.skipped.allSatisfy { "\($0)".hasPrefix(folder.path) && "\($0)".hasSuffix("; skipped") })
    }

    @Test("an empty folder, an all-bad folder and a missing folder are errors")
    func nothingToBuild() throws {
        let empty = try Self.folder(["readme.txt": "icons go here"])
        let bad = try Self.folder(["a.svg": "nope", "b.svg": Self.svg(width: "1e6", height: "1")])
        defer {
            try? FileManager.default.removeItem(at: empty)
            try? FileManager.default.removeItem(at: bad)
        }
        #expect(throws: SpriteBuildError.noIcons(folder: empty.path, skipped: [])) {
            try SpriteBuilder.build(folder: empty)
        }
        do {
            _ = try SpriteBuilder.build(folder: bad)
            Issue.record("an all-bad folder was built")
        } catch {
            guard case .noIcons(_, let skipped) = error else { throw error }
            #expect(skipped.count == 2)
            #expect("\(error)".contains("2 skipped"))
        }
        let missing = empty.appendingPathComponent("nothing-here")
        #expect(throws: SpriteBuildError.self) { try SpriteBuilder.build(folder: missing) }
        #expect(throws: SpriteBuildError.invalidPixelRatio(0)) {
            try SpriteBuilder.build(folder: Self.icons, options: .init(pixelRatios: [0]))
        }
    }

    @Test("a sheet beyond the pixel limit is refused before any icon is drawn")
    func sheetBound() throws {
        var files: [String: String] = [:]
        for i in 0..<17 { files["big\(i).svg"] = Self.svg(width: "2048", height: "2048") }
        let folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try SpriteBuilder.build(folder: folder)
            Issue.record("a sheet of 17 2048x2048 icons was built")
        } catch {
            guard case .sheetTooLarge(1, _, _, 16384, 1 << 26) = error else { throw error }
        }
    }

    @Test("subfolders with --recursive are named by path; dot files and folders are left out")
    func recursiveNames() throws {
        let folder = try Self.folder([
            "a.svg": Self.svg(width: "4", height: "4"), "transport/bus.svg": Self.svg(width: "4", height: "4"),
            "transport/rail/tram.svg": Self.svg(width: "4", height: "4"),
            ".hidden.svg": Self.svg(width: "4", height: "4"),
            ".git/x.svg": Self.svg(width: "4", height: "4"),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let flat = try SpriteBuilder.build(folder: folder)
        #expect(flat.sheets[0].entries.map(\.name) == ["a"])
        let deep = try SpriteBuilder.build(folder: folder, options: .init(recursive: true))
        #expect(deep.sheets[0].entries.map(\.name).sorted() == ["a", "transport/bus", "transport/rail/tram"])
    }

    @Test("SDF images: grown by 3 px per ratio, black, alpha = 255 * (0.75 - distance / 8 points) of a disc")
    func signedDistanceField() throws {
        // A disc of radius 5 in a 16x16 icon: the distance is |p - c| - 5 (points), exactly.
        let folder = try Self.folder([
            "dot.svg": Self.svg(width: "16", height: "16", body: #"<circle cx="8" cy="8" r="5"/>"#)
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let build = try SpriteBuilder.build(folder: folder, options: .init(pixelRatios: [1, 2], sdf: true))
        for sheet in build.sheets {
            let r = sheet.pixelRatio
            let entry = try #require(sheet.entries.first)
            #expect(entry.width == 16 * r + 6 * r && entry.height == 16 * r + 6 * r)
            #expect(try JSONValue.parse(Data(sheet.indexJSON.utf8))["dot"]?["sdf"] == .bool(true))
            var worst = 0.0
            for y in 0..<entry.height {
                for x in 0..<entry.width {
                    let p = sheet.image.pixel(x: entry.x + x, y: entry.y + y)
                    #expect(p.red == 0 && p.green == 0 && p.blue == 0)
                    // Pixel centers, in points, relative to the disc's center (3 points of border).
                    let dx = (Double(x) + 0.5) / Double(r) - 3 - 8
                    let dy = (Double(y) + 0.5) / Double(r) - 3 - 8
                    let distance = (dx * dx + dy * dy).squareRoot() - 5
                    let expected = max(0, min(255, 255 * (0.75 - distance / 8)))
                    // Only where the field is not clamped and near the edge (the halo's range).
                    guard expected > 0, expected < 255, abs(distance) < 3 else { continue }
                    worst = max(worst, abs(Double(p.alpha) - expected))
                }
            }
            // TinySDF's (and spreet's) field measures a pixel's distance to the nearest pixel center across the
            // edge (an antialiased pixel's to its own coverage), so it is up to half a pixel long: at most
            // 255 * 0.5 / (8 * ratio) levels plus antialiasing and rounding (measured: 15.6 at 1x, 9.5 at 2x).
            #expect(worst <= 255 * 0.5 / Double(8 * r) + 2, "ratio \(r): \(worst)")
        }
    }
}
