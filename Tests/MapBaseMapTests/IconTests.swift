import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapRender
import MapTestSupport
import Testing

@testable import MapBaseMap
@testable import MapStyle

/// Icons of symbol layers (#12): bad sprites are refused with errors naming the file and the image, a
/// missing image draws nothing and is reported, and an icon and its text are placed together.
@Suite("Icons: sprite checks, missing images, icon and text together")
struct IconTests {
    /// A folder with `s.json` (the given text) and `s.png` (a 4x4 red PNG, or `png` bytes when given).
    static func sprite(json: String, png: Data? = nil) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icons-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: folder.appendingPathComponent("s.json"))
        let red = try ImageSurface(
            rgba: [UInt8](repeating: 255, count: 64).enumerated().map {
                $0.offset % 4 == 1 || $0.offset % 4 == 2 ? 0 : 255
            }, width: 4, height: 4)
        try (png ?? red.pngData()).write(to: folder.appendingPathComponent("s.png"))
        return folder
    }

    @Test(
        "a bad sprite is refused with an error naming the file and the image",
        arguments: [
            (#"{"far": {"x": 2, "y": 0, "width": 4, "height": 4}}"#, nil, "far"),
            (#"{"neg": {"x": 0, "y": 0, "width": -4, "height": 4}}"#, nil, "neg"),
            (#"{"big": {"x": 0, "y": 0, "width": 1e9, "height": 4}}"#, nil, "big"),
            (#"{"st": {"x": 0, "y": 0, "width": 4, "height": 4, "stretchX": [[3, 9]]}}"#, nil, "st"),
            (#"{"ct": {"x": 0, "y": 0, "width": 4, "height": 4, "content": [0, 0, 5, 4]}}"#, nil, "ct"),
            (#"{"sd": {"x": 0, "y": 0, "width": 4, "height": 4, "sdf": "yes"}}"#, nil, "sd"),
            (#"{"ok": {"x": 0, "y": 0, "width": 4, "height": 4}}"#, Data("not a png".utf8), "s.png"),
            (#"{"half": {"x": 0.5, "y": 0, "width": 2, "height": 2}}"#, nil, "half"),
            (#"{"pr": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 0}}"#, nil, "pixelRatio"),
            (#"[1, 2]"#, nil, "object"),
            (#"{"cut": "#, nil, "s.json"),
        ] as [(String, Data?, String)])
    func badSprites(json: String, png: Data?, named: String) throws {
        let folder = try Self.sprite(json: json, png: png)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try Sprite.decode(stem: folder.appendingPathComponent("s").path)
            Issue.record("accepted \(json)")
        } catch {
            let message = "\(error)"
            #expect(message.contains(named), "\(message)")
            #expect(message.contains("s.json") || message.contains("s.png"), "\(message)")
        }
    }

    @Test("the sprite's sdf, stretchX, stretchY and content are read")
    func spriteFields() throws {
        let folder = try Self.sprite(
            json: #"{"a": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 2, "sdf": true, "#
                + #""stretchX": [[1, 3]], "stretchY": [[0, 1], [2, 4]], "content": [1, 1, 3, 3]}}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let entry = try #require(try Sprite.decode(stem: folder.appendingPathComponent("s").path).entries["a"])
        #expect(entry.sdf && entry.pixelRatio == 2)
        #expect(entry.stretchX == [1...3] && entry.stretchY == [0...1, 2...4] && entry.content == [1, 1, 3, 3])
    }

    static func render(_ layers: String, sprite folder: URL, size: Double = 32) throws -> RGBAImage {
        let text =
            #"{"version": 8, "sprite": "\#(folder.appendingPathComponent("s").path)", "sources": {"p": "#
            + #"{"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": [\#(layers)]}"#
        let style = try Style.decode(Data(text.utf8), source: "test", baseURL: folder)
        var options = MapSnapshotter.Options(size: Size(width: size, height: size), scale: 1)
        options.style = style
        options.showsAttribution = false
        return RGBAImage(try MapSnapshotter(options: options).snapshot().image)
    }

    @Test("a missing image draws nothing and is reported; a present one is drawn at its pixel size / pixelRatio")
    func missingAndPixelRatio() throws {
        let folder = try Self.sprite(
            json: #"{"one": {"x": 0, "y": 0, "width": 4, "height": 4}, "half": {"x": 0, "y": 0, "width": 4, "#
                + #""height": 4, "pixelRatio": 2}}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try Self.render(
            #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "no-such-icon-7"}}"#, sprite: folder
        )
        #expect(missing.pixel(x: 16, y: 16).alpha == 0)
        #expect(MissingImages.shared.wasReported("no-such-icon-7"))
        // 4 image pixels at pixelRatio 1: 4 points, centered on the point (x 14..<18); at pixelRatio 2: 2 points.
        func redColumns(_ name: String) throws -> [Int] {
            let image = try Self.render(
                #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "\#(name)"}}"#, sprite: folder)
            return (0..<32).filter { image.pixel(x: $0, y: 16).alpha > 127 }
        }
        #expect(try redColumns("one") == [14, 15, 16, 17])
        #expect(try redColumns("half") == [15, 16])
    }

    @Test("an icon and its text are shown together or not at all, unless one is optional")
    func iconAndTextTogether() throws {
        let folder = try Self.sprite(json: #"{"one": {"x": 0, "y": 0, "width": 4, "height": 4}}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A top layer's allowed-overlap box covers the point; the layer below has an icon (which would
        // collide) and a text (which would not: it is offset 1.2 em, 16.8 pixels, below; 14 pixels high so that
        // its distance-field glyphs have fully covered pixels).
        let blocker =
            #"{"id": "top", "type": "symbol", "source": "p", "layout": {"icon-image": "one", "icon-size": 2, "#
            + #""icon-allow-overlap": true, "icon-padding": 0}, "paint": {"icon-opacity": 0}}"#
        func below(_ extra: String) -> String {
            #"{"id": "below", "type": "symbol", "source": "p", "layout": {"icon-image": "one", "text-field": "Ab", "#
                + #""text-offset": [0, 1.2], "text-size": 14\#(extra)}, "paint": {"text-color": "blue"}}"#
        }
        func textShown(_ extra: String) throws -> Bool {
            let image = try Self.render(below(extra) + "," + blocker, sprite: folder, size: 64)
            return (0..<64).contains { x in
                (36..<50).contains { y in image.pixel(x: x, y: y).blue > 200 && image.pixel(x: x, y: y).alpha > 200 }
            }
        }
        #expect(try !textShown(""))
        #expect(try textShown(#", "icon-optional": true"#))
    }

    /// A 6x6 sprite image: a 2-pixel blue frame around a 2x2 red middle, stretchable in its middle third.
    static func frameSprite(stretch: Bool) throws -> URL {
        let zones = stretch ? #", "stretchX": [[2, 4]], "stretchY": [[2, 4]]"# : ""
        return try frameSprite(width: 6, zones: zones)
    }

    /// A `width`x6 sprite image "frame": a 2-pixel blue frame around a red middle.
    static func frameSprite(width: Int, zones: String = "") throws -> URL {
        var bytes: [UInt8] = []
        for y in 0..<6 {
            for x in 0..<width {
                let inner = (2..<width - 2).contains(x) && (2..<4).contains(y)
                bytes += inner ? [255, 0, 0, 255] : [0, 0, 255, 255]
            }
        }
        let png = try ImageSurface(rgba: bytes, width: width, height: 6).pngData()
        return try sprite(json: #"{"frame": {"x": 0, "y": 0, "width": \#(width), "height": 6\#(zones)}}"#, png: png)
    }

    @Test("icon-text-fit both: the icon covers the text box plus icon-text-fit-padding (the spec's definition)")
    func textFitBoth() throws {
        let folder = try Self.frameSprite(stretch: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.render(
            #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "frame", "text-field": "MMMM", "#
                + #""text-size": 10, "icon-text-fit": "both", "icon-text-fit-padding": [3, 5, 3, 5]}, "#
                + #""paint": {"text-opacity": 0}}"#, sprite: folder, size: 96)
        // MapLibre's text box: whole-pixel advances at 24 pixels, times size / 24 (see IconTextFitTests).
        let font = try Font.load(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let width = 4 * font.shape("M", size: 24).width.rounded(.down) * 10 / 24
        let height = 1.2 * 10.0  // one line of text-line-height 1.2 ems
        let painted = (0..<96).filter { image.pixel(x: $0, y: 48).alpha > 127 }
        let rows = (0..<96).filter { image.pixel(x: 48, y: $0).alpha > 127 }
        // Centered on the image center (48, 48): x from 48 - w/2 - 5 to 48 + w/2 + 5, y ±(h/2 + 3).
        #expect(abs(Double(painted.first ?? 0) - (48 - width / 2 - 5)) <= 1, "\(painted)")
        #expect(abs(Double((painted.last ?? 0) + 1) - (48 + width / 2 + 5)) <= 1, "\(painted)")
        #expect(abs(Double(rows.first ?? 0) - (48 - height / 2 - 3)) <= 1, "\(rows)")
        #expect(abs(Double((rows.last ?? 0) + 1) - (48 + height / 2 + 3)) <= 1, "\(rows)")
    }

    @Test("a nine-part image keeps its fixed frame 2 points wide when stretched; without stretchX it grows")
    func ninePart() throws {
        // Blue-dominant pixels from the left edge of the icon along the middle row.
        func frameWidth(stretch: Bool) throws -> (frame: Int, width: Int) {
            let folder = try Self.frameSprite(stretch: stretch)
            defer { try? FileManager.default.removeItem(at: folder) }
            let image = try Self.render(
                #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "frame", "text-field": "MMMM", "#
                    + #""text-size": 10, "icon-text-fit": "both"}, "paint": {"text-opacity": 0}}"#, sprite: folder,
                size: 96)
            let row = (0..<96).map { image.pixel(x: $0, y: 48) }
            let painted = row.indices.filter { row[$0].alpha > 200 }
            let first = painted.first ?? 0
            let frame = row[first...].prefix { $0.blue > $0.red }.count
            return (frame, painted.count)
        }
        let stretched = try frameWidth(stretch: true)
        let scaled = try frameWidth(stretch: false)
        // The same box (text + no padding) both ways, wider than the 6-point image.
        #expect(abs(stretched.width - scaled.width) <= 2 && stretched.width > 30, "\(stretched) \(scaled)")
        // Fixed frame: 2 points (the blue texels), give or take one filtered pixel; scaled: 2 of 6 texels
        // of a box over 30 points wide, 10 or more.
        #expect((1...3).contains(stretched.frame), "\(stretched)")
        #expect(scaled.frame >= 8, "\(scaled)")
    }

    @Test("text-variable-anchor: a label blocked at its first anchor moves to the next one")
    func variableAnchor() throws {
        let folder = try Self.sprite(json: #"{"one": {"x": 0, "y": 0, "width": 4, "height": 4}}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A blocker icon (invisible, 12x12 points around the point) on top; below it a label that would be
        // centered on the point ("center" collides) and next tries "left" (text starts right of the point,
        // radial offset 1 em = 10 points).
        let blocker =
            #"{"id": "top", "type": "symbol", "source": "p", "layout": {"icon-image": "one", "icon-size": 3, "#
            + #""icon-allow-overlap": true, "icon-padding": 0}, "paint": {"icon-opacity": 0}}"#
        let label =
            #"{"id": "label", "type": "symbol", "source": "p", "layout": {"text-field": "Ab", "text-size": 10, "#
            + #""text-variable-anchor": ["center", "left"], "text-radial-offset": 1}, "paint": {"text-color": "blue"}}"#
        let image = try Self.render(label + "," + blocker, sprite: folder, size: 64)
        let columns = (0..<64).filter { x in (24..<40).contains { image.pixel(x: x, y: $0).alpha > 100 } }
        let first = try #require(columns.first)
        #expect(first >= 32 + 10 - 2, "\(columns)")
    }
}
