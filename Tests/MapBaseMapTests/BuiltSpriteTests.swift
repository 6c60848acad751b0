import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapRender
import MapTestSupport
import Testing

@testable import MapBaseMap
@testable import MapStyle

/// Sprites built by `SpriteBuilder` (`mapraster sprite`) are read by the sprite loader as written and drawn
/// by symbol layers: plain icons at 1x and 2x, SDF icons tinted by `icon-color` with an `icon-halo-*` ring.
@Suite("Built sprites: loaded and drawn")
struct BuiltSpriteTests {
    /// Builds `folder` at 1x and 2x into a fresh folder; returns the prefix.
    static func built(_ folder: URL, sdf: Bool = false) throws -> (prefix: String, build: SpriteBuild) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("built-sprite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let build = try SpriteBuilder.build(folder: folder, options: .init(pixelRatios: [1, 2], sdf: sdf))
        let prefix = out.appendingPathComponent("s").path
        try build.write(prefix: prefix)
        return (prefix, build)
    }

    static func render(_ layer: String, sprite prefix: String, size: Double, scale: Double) throws -> RGBAImage {
        let text =
            #"{"version": 8, "sprite": "\#(prefix)", "sources": {"p": {"type": "geojson", "data": "#
            + #"{"type": "Point", "coordinates": [0, 0]}}}, "layers": [\#(layer)]}"#
        let style = try Style.decode(
            Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: prefix).deletingLastPathComponent())
        var options = MapSnapshotter.Options(size: Size(width: size, height: size), scale: scale)
        options.style = style
        options.showsAttribution = false
        return RGBAImage(try MapSnapshotter(options: options).snapshot().image)
    }

    @Test("the loader reads every entry as the builder placed it, with pixelRatio 1 and 2")
    func loads() throws {
        let (prefix, build) = try Self.built(Fixtures.url("sprites/osm-bright-icons"))
        defer {
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: prefix).deletingLastPathComponent().path)
        }
        for (sheet, stem) in zip(build.sheets, [prefix, prefix + "@2x"]) {
            let sprite = try Sprite.decode(stem: stem)
            #expect(sprite.sheet == sheet.image)
            #expect(sprite.entries.count == sheet.entries.count)
            for entry in sheet.entries {
                let loaded = try #require(sprite.entries[entry.name])
                #expect(
                    loaded.x == entry.x && loaded.y == entry.y && loaded.width == entry.width
                        && loaded.height == entry.height, "\(entry.name)")
                #expect(loaded.pixelRatio == Double(sheet.pixelRatio) && !loaded.sdf)
            }
        }
    }

    @Test("an icon draws at its size in points: the same coverage as the sheet's image, at scale 1 and 2")
    func draws() throws {
        let (prefix, build) = try Self.built(Fixtures.url("sprites/osm-bright-icons"))
        defer {
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: prefix).deletingLastPathComponent().path)
        }
        for (sheet, scale) in zip(build.sheets, [1.0, 2.0]) {
            let image = try Self.render(
                #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "bar_11"}}"#, sprite: prefix,
                size: 32, scale: scale)
            let entry = try #require(sheet.entries.first { $0.name == "bar_11" })
            var expected = 0
            for y in 0..<entry.height {
                for x in 0..<entry.width { expected += Int(sheet.image.pixel(x: entry.x + x, y: entry.y + y).alpha) }
            }
            let drawn = stride(from: 3, to: image.bytes.count, by: 4).reduce(0) { $0 + Int(image.bytes[$1]) }
            #expect(abs(drawn - expected) <= expected / 50, "scale \(scale): drawn \(drawn), sheet \(expected)")
            // The glass's stem (#444444) is just left of and below the middle of the view.
            let middle = image.pixel(x: Int(15.5 * scale), y: Int(17.5 * scale))
            #expect(middle.alpha > 200 && middle.red < 0x60, "\(middle)")
        }
    }

    @Test("an SDF icon is tinted by icon-color and ringed by icon-halo-color icon-halo-width points wide")
    func sdfHalo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdf-icons-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="5"/></svg>"#
                .utf8
        ).write(to: folder.appendingPathComponent("dot.svg"))
        let (prefix, _) = try Self.built(folder, sdf: true)
        defer {
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: prefix).deletingLastPathComponent().path)
        }
        #expect(try Sprite.decode(stem: prefix).entries["dot"]?.sdf == true)
        for scale in [1.0, 2.0] {
            let image = try Self.render(
                #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "dot"}, "paint": "#
                    + #"{"icon-color": "red", "icon-halo-color": "blue", "icon-halo-width": 2}}"#,
                sprite: prefix, size: 48, scale: scale)
            func at(_ dx: Double) -> ImageSurface.Pixel {
                image.pixel(x: Int((24 + dx) * scale), y: Int(24 * scale))
            }
            // Inside the disc (radius 5 points): red; half a point to 1 point outside: the blue halo (2 points wide);
            // 4 points outside: nothing.
            #expect(at(0).red > 240 && at(0).blue < 20 && at(0).alpha > 240, "scale \(scale): \(at(0))")
            #expect(at(-4).red > 200, "scale \(scale): \(at(-4))")
            #expect(at(5.5).blue > 200 && at(5.5).red < 40 && at(5.5).alpha > 200, "scale \(scale): \(at(5.5))")
            #expect(at(-6).blue > 200 && at(-6).alpha > 200, "scale \(scale): \(at(-6))")
            #expect(at(9).alpha < 30, "scale \(scale): \(at(9))")
        }
    }
}
