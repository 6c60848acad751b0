import Foundation
import MapData
import MapRaster
import MapStyle
import MapTestSupport
import Testing

/// Widths computed by expressions far past any image (1e12 points) are capped at the image's ceiling
/// (``StyleLimits/widthCeiling(width:height:)``): they draw what a wide-enough stroke draws. The work is bounded
/// by that ceiling (checked by value in `ceiling` and `sane`), not measured with a clock here.
///
/// Truth is geometric, not a recorded image: a stroke at least twice the image's diagonal around a line
/// crossing the image covers every pixel; a gap that wide leaves none; a disc that large fills the image;
/// a circle's stroke starts at its radius, so the disc keeps its fill.
@Suite("Wide strokes: widths past the image are capped at its ceiling, drawing what a wide stroke draws")
struct WideStrokeTests {
    static let red = ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255)
    static let white = ImageSurface.Pixel(red: 255, green: 255, blue: 255, alpha: 255)
    static let blue = ImageSurface.Pixel(red: 0, green: 0, blue: 255, alpha: 255)

    /// A `w` computed by an expression: 1e12 points, past every limit (a literal that large is refused).
    static let huge = #"["*", ["get", "w"], 1000000]"#

    /// Renders `layer` (JSON) over a white background at 64x64 points around (0, 0), 10 degrees across,
    /// with a line along the equator and a point at (0, 0), both with `w` = 1,000,000.
    static func render(layer: String, size: Double = 64) throws -> ImageSurface {
        let data =
            #"{"type": "FeatureCollection", "features": ["#
            + #"{"type": "Feature", "properties": {"w": 1000000}, "geometry": {"type": "LineString", "coordinates": [[-20, 0], [20, 0]]}},"#
            + #"{"type": "Feature", "properties": {"w": 1000000}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#
        let text =
            #"{"version": 8, "sources": {"d": {"type": "geojson", "data": \#(data)}}, "layers": ["#
            + #"{"id": "bg", "type": "background", "paint": {"background-color": "rgb(255, 255, 255)"}}, \#(layer)]}"#
        var options = MapSnapshotter.Options(size: Size(width: size, height: size))
        options.style = try Style.decode(
            Data(text.utf8), source: "test", baseURL: FileManager.default.temporaryDirectory)
        options.region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 0, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 10, longitudeDelta: 10))
        options.showsAttribution = false
        return try MapSnapshotter(options: options).snapshot().image
    }

    /// Every pixel of the image.
    static func pixels(_ image: ImageSurface) -> [ImageSurface.Pixel] {
        (0..<image.height).flatMap { y in (0..<image.width).map { x in image.pixel(x: x, y: y) } }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var layer: String
        /// Pixels (x, y) and what they must be; nil pixel list: every pixel must be `all`.
        var all: ImageSurface.Pixel?
        var spots: [(x: Int, y: Int, pixel: ImageSurface.Pixel)]
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(
            id: "line-width",
            layer:
                #"{"id": "l", "type": "line", "source": "d", "paint": {"line-color": "rgb(255, 0, 0)", "line-width": \#(huge)}}"#,
            all: red, spots: []),
        Case(
            id: "line-gap-width",
            layer:
                #"{"id": "l", "type": "line", "source": "d", "paint": {"line-color": "rgb(255, 0, 0)", "line-width": 4, "line-gap-width": \#(huge)}}"#,
            all: white, spots: []),
        Case(
            id: "line-width-with-gap",
            layer:
                #"{"id": "l", "type": "line", "source": "d", "paint": {"line-color": "rgb(255, 0, 0)", "line-gap-width": 20, "line-width": \#(huge)}}"#,
            all: nil, spots: [(32, 32, white), (32, 24, white), (0, 0, red), (63, 63, red), (32, 5, red), (5, 58, red)]),
        // Not huge: a horizontal casing crossing the image's edges is hollow (Cairo 1.16's CLEAR operator left
        // such rectilinear strokes unerased, so the casing was a solid bar).
        Case(
            id: "horizontal-casing",
            layer:
                #"{"id": "l", "type": "line", "source": "d", "paint": {"line-color": "rgb(255, 0, 0)", "line-gap-width": 20, "line-width": 4}}"#,
            all: nil,
            spots: [(32, 32, white), (32, 25, white), (0, 20, red), (63, 44, red), (32, 5, white), (32, 58, white)]),
        Case(
            id: "circle-stroke-width",
            layer:
                #"{"id": "c", "type": "circle", "source": "d", "paint": {"circle-color": "rgb(0, 0, 255)", "circle-radius": 8, "circle-stroke-color": "rgb(255, 0, 0)", "circle-stroke-width": \#(huge)}}"#,
            all: nil, spots: [(32, 32, blue), (36, 32, blue), (0, 0, red), (63, 63, red), (63, 0, red), (32, 20, red)]),
        Case(
            id: "circle-radius",
            layer:
                #"{"id": "c", "type": "circle", "source": "d", "paint": {"circle-color": "rgb(0, 0, 255)", "circle-radius": \#(huge)}}"#,
            all: blue, spots: []),
    ]

    @Test("a width of 1e12 points draws what a wide-enough one draws", arguments: cases)
    func huge(_ c: Case) throws {
        let image = try Self.render(layer: c.layer)
        if let all = c.all {
            let wrong = Self.pixels(image).filter { $0 != all }.count
            #expect(wrong == 0, "\(c.id): \(wrong) pixels are not \(all)")
        }
        for spot in c.spots {
            #expect(image.pixel(x: spot.x, y: spot.y) == spot.pixel, "\(c.id) at \(spot.x),\(spot.y)")
        }
    }

    /// Image width and height in points, and the ceiling (diagonals from Python's math.hypot).
    static let ceilings: [(width: Double, height: Double, ceiling: Double)] = [
        (64, 64, 2 * (90.50966799187809 + 64)), (256, 256, 2 * (362.03867196751236 + 64)),
        (1, 1, 2 * (1.4142135623730951 + 64)), (300, 400, 1000), (4096, 4096, 1000), (.nan, 64, 1000),
        (.infinity, 64, 1000),
    ]

    @Test("the ceiling is twice the diagonal plus the circle margin, at most 1000 points", arguments: ceilings)
    func ceiling(_ c: (width: Double, height: Double, ceiling: Double)) {
        #expect(abs(StyleLimits.widthCeiling(width: c.width, height: c.height) - c.ceiling) < 1e-9)
    }

    @Test("widths at or under the ceiling are unchanged; only width properties are capped")
    func sane() throws {
        let style = try Style.decode(
            Data(
                #"{"version": 8, "sources": {"d": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "l", "type": "line", "source": "d", "paint": {"line-width": ["get", "w"], "line-gap-width": ["get", "w"], "line-opacity": ["get", "o"]}, "layout": {"line-miter-limit": ["get", "w"]}}]}"#
                    .utf8), source: "test", baseURL: FileManager.default.temporaryDirectory)
        let layer: StyleLayer = try #require(style.layers.first)
        let table: [(w: Double, cap: Double, expected: Double)] = [
            (5, 100, 5), (100, 100, 100), (100.5, 100, 100), (1e12, 100, 100), (1e12, 5000, 1000),
        ]
        for (w, cap, expected) in table {
            let context = EvaluationContext(
                zoom: 1, properties: ["w": .number(w), "o": .number(0.5)], geometryType: "LineString", maximumWidth: cap
            )
            #expect(layer.number(.lineWidth, context) == expected)
            #expect(layer.number(.lineGapWidth, context) == expected)
            #expect(layer.number(.lineMiterLimit, context) == min(w, 1000), "not a width: not capped by the image")
            #expect(layer.number(.lineOpacity, context) == 0.5)
        }
    }

    @Test(
        "a 1000-point casing of every country border of Natural Earth 1:50m finishes (it ran over 5 minutes), its outline within 1 % of the width"
    )
    func wideCasingOfRealData() throws {
        let url = Fixtures.packageRoot.appendingPathComponent(
            "Sources/MapBaseMap/Resources/naturalearth/ne_50m_countries.geojson")
        func style(width: Double, gap: Double) throws -> Style {
            let text = #"""
                {"version": 8, "sources": {"ne": {"type": "geojson", "data": "\#(url.path)"}}, "layers": [
                 {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                 {"id": "l", "type": "line", "source": "ne", "layout": {"line-join": "round"},
                  "paint": {"line-color": "#ff0000", "line-width": \#(width), "line-gap-width": \#(gap)}}]}
                """#
            return try Style.decode(Data(text.utf8), source: "wide", baseURL: URL(fileURLWithPath: "/"))
        }
        var options = MapSnapshotter.Options(size: Size(width: 512, height: 512))
        options.style = try style(width: 1000, gap: 1000)
        options.showsAttribution = false
        // The casing with its gap ends (it once ran over 5 minutes). No clock here: a hang shows as a suite that
        // does not finish, and speed belongs to Benchmarks/.
        _ = try MapSnapshotter(options: options).snapshot().image
        // Without the gap, a 1000-point stroke around the world's borders covers the whole 512-point world.
        options.style = try style(width: 1000, gap: 0)
        let covered = try MapSnapshotter(options: options).snapshot().image
        #expect(Self.pixels(covered).allSatisfy { $0 == Self.red })
    }
}
