import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapRender
import MapTestSupport
import Testing

@testable import MapBaseMap
@testable import MapStyle

/// `icon-text-fit` against MapLibre's own images, the `image` expression, layers drawn above the labels
/// and one point symbol per part of a multi-geometry (issue #12).
@Suite("Icons: icon-text-fit as MapLibre measures text, image expression, layer order, per-part symbols")
struct IconTextFitTests {
    static func render(
        _ layers: String, sprite folder: URL, data: String = #"{"type": "Point", "coordinates": [0, 0]}"#,
        width: Double = 64, height: Double = 64
    ) throws -> RGBAImage {
        let text =
            #"{"version": 8, "sprite": "\#(folder.appendingPathComponent("s").path)", "sources": {"p": "#
            + #"{"type": "geojson", "data": \#(data)}}, "layers": [\#(layers)]}"#
        let style = try Style.decode(Data(text.utf8), source: "test", baseURL: folder)
        var options = MapSnapshotter.Options(size: Size(width: width, height: height), scale: 1)
        options.style = style
        options.showsAttribution = false
        return RGBAImage(try MapSnapshotter(options: options).snapshot().image)
    }

    /// Columns of MapLibre's frames in its render tests (icon-text-fit `both` or `width`, text anchor
    /// `center`, the label on the image's center), read from their expected.png: "ASDF" at 20 points in
    /// Open Sans Semibold (stretch-nine-part, 200 wide) fills x 76..<124; "Ügt" at 20 (width-text-anchor,
    /// 200 wide) 84..<116; "ABC" at 16 (both, 64 wide) 17..<47. MapLibre's box is the sum of whole-pixel
    /// advances at 24 pixels times size / 24 (57 x 20 / 24 = 47.5 for ASDF) and a pixel is painted when
    /// its center is inside.
    @Test(
        "icon-text-fit frames the text box MapLibre measures (its expected images' columns)",
        arguments: [
            ("ASDF", 20.0, 200.0, 76, 124),
            ("Ügt", 20.0, 200.0, 84, 116),
            ("ABC", 16.0, 64.0, 17, 47),
        ])
    func mapLibreTextBox(text: String, size: Double, width: Double, first: Int, end: Int) throws {
        let folder = try IconTests.frameSprite(stretch: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.render(
            #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "frame", "#
                + #""text-field": "\#(text)", "text-size": \#(size), "#
                + #""text-font": ["Open Sans Semibold"], "icon-text-fit": "both"}, "paint": {"text-opacity": 0}}"#,
            sprite: folder, width: width, height: width)  // square: one copy of the world, the point in the middle
        let row = Int(width / 2) - Int(size * 1.2 / 2) + 1  // inside the frame, above the text's middle
        let painted = (0..<Int(width)).filter { image.pixel(x: $0, y: row).alpha > 200 }
        #expect(painted.first == first && painted.last.map { $0 + 1 } == end, "\(painted)")
        // Nearest sampling, as MapLibre's: the edge columns are opaque, not blended with the padding.
        #expect(painted.count == end - first, "\(painted)")
    }

    /// MapLibre shapes vertical text as a line turned a quarter clockwise, and fits the icon to that line,
    /// turned with it (render tests text-writing-mode/point_label/*-icon-text-fit). A 12x6 frame with a
    /// 2-pixel border: along the tall label its length (12) spans the column's height, so the border at the
    /// top is 2 x height / 12 thick; stretched unturned it would be 2 x height / 6.
    @Test("icon-text-fit around vertical text: the icon is turned with the text's line, not stretched to the column")
    func verticalText() throws {
        let folder = try IconTests.frameSprite(width: 12)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.render(
            #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "frame", "#
                + #""text-field": "マップボックス", "text-size": 12, "text-writing-mode": ["vertical"], "#
                + #""icon-text-fit": "both"}, "paint": {"text-opacity": 0}}"#,
            sprite: folder, width: 128, height: 128)
        func isBlue(_ x: Int, _ y: Int) -> Bool { let p = image.pixel(x: x, y: y); return p.blue > 200 && p.red < 60 }
        func isRed(_ x: Int, _ y: Int) -> Bool { let p = image.pixel(x: x, y: y); return p.red > 200 && p.blue < 60 }
        let column = (0..<128).filter { isBlue(64, $0) || isRed(64, $0) }
        let row = (0..<128).filter { isBlue($0, 64) || isRed($0, 64) }
        let height = Double(column.count)
        #expect(height > 2 * Double(row.count), "a tall frame: \(column.count) x \(row.count)")
        let topBorder = Double(column.prefix { isBlue(64, $0) }.count)
        #expect(abs(topBorder - 2 * height / 12) <= 1.5, "top border \(topBorder) of \(height)")
    }

    /// A sprite with two 4x4 images, "a" red and "b" (the same PNG).
    static func twoImages() throws -> URL {
        try IconTests.sprite(
            json: #"{"a": {"x": 0, "y": 0, "width": 4, "height": 4}, "b": {"x": 0, "y": 0, "width": 4, "height": 4}}"#)
    }

    @Test(
        "the image expression: coalesce skips an image no sprite has (MapLibre's rule, last missing: the first asked)",
        arguments: [
            (#"["coalesce", ["image", "nope"], ["image", "b"]]"#, Set(["a", "b"]), "b"),
            (#"["coalesce", ["image", "a"], ["image", "b"]]"#, Set(["a", "b"]), "a"),
            (#"["coalesce", ["image", "x"], ["image", "y"]]"#, Set(["a"]), "x"),
            (#"["coalesce", ["image", "x"], "lit"]"#, Set(["a"]), "lit"),
            (#"["image", ["get", "icon"]]"#, Set(["a"]), "from-data"),
        ] as [(String, Set<String>, String)])
    func imageExpression(json: String, available: Set<String>, expected: String) throws {
        let parsed = try JSONValue.parse(Data(json.utf8))
        let expression = try StyleExpression.decode(parsed, path: "icon-image")
        var context = EvaluationContext(zoom: 1, properties: ["icon": .string("from-data")])
        context.availableImages = available
        #expect(expression.evaluate(context) == .string(expected))
    }

    @Test("icon-image [\"image\", name] in coalesce draws the first image the sprite has")
    func imageExpressionDraws() throws {
        let folder = try Self.twoImages()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.render(
            #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "#
                + #"["coalesce", ["image", "no-such-image-9"], ["image", "b"]]}}"#, sprite: folder, width: 32,
            height: 32)
        #expect(image.pixel(x: 16, y: 16).red == 255 && image.pixel(x: 16, y: 16).alpha == 255)
    }

    @Test("a layer after the last symbol layer is drawn above the labels (style order, as MapLibre)")
    func layerAboveLabels() throws {
        let folder = try Self.twoImages()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icon = #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "a", "icon-size": 3}}"#
        let dot =
            #"{"id": "c", "type": "circle", "source": "p", "paint": {"circle-radius": 2, "circle-color": "lime"}}"#
        let above = try Self.render(icon + "," + dot, sprite: folder, width: 32, height: 32)
        let below = try Self.render(dot + "," + icon, sprite: folder, width: 32, height: 32)
        // The 12-point red icon covers 10..<22; the 4-point green dot 14..<18.
        #expect(above.pixel(x: 16, y: 16).green == 255 && above.pixel(x: 16, y: 16).red == 0)
        #expect(below.pixel(x: 16, y: 16).red == 255 && below.pixel(x: 16, y: 16).green == 0)
    }

    @Test(
        "point symbols: one per point of a multipoint, at the start of each line (MapLibre's anchors)",
        arguments: [
            (#"{"type": "MultiPoint", "coordinates": [[-10, 0], [10, 0]]}"#, [-10.0, 10.0]),
            (#"{"type": "LineString", "coordinates": [[-10, 0], [10, 0]]}"#, [-10.0]),
            (#"{"type": "MultiLineString", "coordinates": [[[-10, 0], [0, 0]], [[10, 0], [0, 0]]]}"#, [-10.0, 10.0]),
        ] as [(String, [Double])])
    func perPartSymbols(data: String, longitudes: [Double]) throws {
        let folder = try Self.twoImages()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Zoom 0 at 256 points: 256 / 360 points per degree of longitude around the center (128, 128).
        let image = try Self.render(
            #"{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "a", "icon-allow-overlap": true}}"#,
            sprite: folder, data: data, width: 256, height: 256)
        let red = (0..<256).filter { image.pixel(x: $0, y: 128).alpha > 200 }
        let expected = longitudes.flatMap { lon -> [Int] in
            let x = Int((128 + lon * 256 / 360).rounded())
            return [x - 2, x - 1, x, x + 1]
        }
        #expect(red == expected, "\(red)")
    }
}
