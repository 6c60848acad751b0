import Foundation
import MapData
import MapRaster
import MapStyle
import MapTestSupport
import Testing

/// Invalid GeoJSON in a style's sources, as MapLibre treats it: a source that is not GeoJSON draws nothing
/// (one warning naming it) and the rest of the style renders; an invalid feature is left out with a
/// counted warning; with `--strict` (``StyleLoadOptions/strict``) either stays an error. Also `within` in a
/// filter, drawn, and fractional device scales.
///
/// Truth is geometric: a red circle at a known point, a blue background elsewhere. The warnings' text is
/// checked on standard error through the command line (SourceDataWarningsTests).
@Suite("Source data leniency: invalid GeoJSON, invalid features, within filters and fractional scales")
struct SourceDataLeniencyTests {
    static let red = ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255)
    static let blue = ImageSurface.Pixel(red: 0, green: 0, blue: 255, alpha: 255)

    /// A style of a blue background and red circles (radius 6 points) of sources `good` and `bad`.
    static func style(good: String, bad: String, filter: String? = nil) -> String {
        let circle = { (id: String) in
            #"{"id": "\#(id)", "type": "circle", "source": "\#(id)", "#
                + (filter.map { #""filter": \#($0), "# } ?? "")
                + #""paint": {"circle-radius": 6, "circle-color": "rgb(255, 0, 0)"}}"#
        }
        return #"{"version": 8, "sources": {"good": {"type": "geojson", "data": \#(good)}, "#
            + #""bad": {"type": "geojson", "data": \#(bad)}}, "layers": ["#
            + #"{"id": "bg", "type": "background", "paint": {"background-color": "rgb(0, 0, 255)"}}, "#
            + circle("good") + ", " + circle("bad") + "]}"
    }

    static func point(_ lon: Double, _ lat: Double, properties: String = "{}") -> String {
        #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
    }

    static func collection(_ features: [String]) -> String {
        #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
    }

    /// Renders `text` at 100x100 points, 20 degrees across around (0, 0) (about 5 points a degree).
    static func render(_ text: String, strict: Bool = false, scale: Double = 1) throws -> ImageSurface {
        var options = MapSnapshotter.Options(size: Size(width: 100, height: 100), scale: scale)
        options.style = try Style.decode(
            Data(text.utf8), source: "test", baseURL: FileManager.default.temporaryDirectory,
            options: StyleLoadOptions(strict: strict))
        options.region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 0, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 20))
        options.showsAttribution = false
        return try MapSnapshotter(options: options).snapshot().image
    }

    /// The device pixel of a coordinate in a render of ``render(_:strict:scale:)``.
    static func pixel(_ image: ImageSurface, lon: Double, lat: Double, scale: Double = 1) -> ImageSurface.Pixel {
        // Mercator is close to linear within 10 degrees of the equator: 5 points a degree, within a point.
        image.pixel(x: Int((50 + lon * 5) * scale), y: Int((50 - lat * 5) * scale))
    }

    @Test("a source that is not GeoJSON: one warning naming it, its layers draw nothing, the rest renders")
    func malformedSource() throws {
        let text = Self.style(
            good: Self.collection([Self.point(-5, 0)]), bad: #"{"type": "FeatureCollection", "features": 3}"#)
        let image = try Self.render(text)
        #expect(Self.pixel(image, lon: -5, lat: 0) == Self.red)
        #expect(Self.pixel(image, lon: 5, lat: 0) == Self.blue)
        #expect(throws: (any Error).self) { try Self.render(text, strict: true) }
    }

    @Test("invalid features (a position out of range, a string coordinate, a bad id) are left out and counted")
    func invalidFeatures() throws {
        let bad = Self.collection([
            Self.point(5, 0),
            #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [500, 0]}}"#,
            #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": ["x", 0]}}"#,
            #"{"type": "Feature", "id": [1], "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 5]}}"#,
            #"{"type": "Feature", "properties": 7, "geometry": {"type": "Point", "coordinates": [0, -5]}}"#,
        ])
        let text = Self.style(good: Self.collection([Self.point(-5, 0)]), bad: bad)
        let image = try Self.render(text)
        #expect(Self.pixel(image, lon: -5, lat: 0) == Self.red)
        #expect(Self.pixel(image, lon: 5, lat: 0) == Self.red)  // the valid feature of the bad source
        #expect(Self.pixel(image, lon: 0, lat: 5) == Self.blue)
        #expect(Self.pixel(image, lon: 0, lat: -5) == Self.blue)
        #expect(throws: (any Error).self) { try Self.render(text, strict: true) }
    }

    @Test("a GeoJSON file with invalid features: the valid ones are drawn, the file's source named once")
    func invalidFeaturesInAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapraster-leniency-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("points.geojson")
        try Data(
            Self.collection([
                Self.point(5, 0),
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 95]}}"#,
            ]).utf8
        ).write(to: file)
        let text = Self.style(good: Self.collection([Self.point(-5, 0)]), bad: "\"\(file.path)\"")
        let image = try Self.render(text)
        #expect(Self.pixel(image, lon: 5, lat: 0) == Self.red)
        #expect(throws: (any Error).self) { try Self.render(text, strict: true) }
    }

    /// MapLibre's `within`: points strictly inside the polygon pass; on its edge or outside they do not.
    @Test("a within filter draws the points inside the polygon only")
    func withinFilter() throws {
        let polygon =
            #"["within", {"type": "Polygon", "coordinates": [[[-8, -8], [8, -8], [8, 8], [-8, 8], [-8, -8]]]}]"#
        let text = Self.style(
            good: Self.collection([Self.point(-5, 0), Self.point(-9, 5)]),
            bad: Self.collection([Self.point(5, 0), Self.point(9, -5)]), filter: polygon)
        let image = try Self.render(text)
        #expect(Self.pixel(image, lon: -5, lat: 0) == Self.red)
        #expect(Self.pixel(image, lon: 5, lat: 0) == Self.red)
        #expect(Self.pixel(image, lon: -9, lat: 5) == Self.blue)
        #expect(Self.pixel(image, lon: 9, lat: -5) == Self.blue)
    }

    /// A fractional scale draws the same map at 1.5 device pixels a point: the image is 150 pixels wide and
    /// a circle of radius 6 points covers 9 device pixels on each side of its centre.
    @Test("a fractional scale (1.5) gives an image of size x 1.5 with widths and radii in points")
    func fractionalScale() throws {
        let text = Self.style(good: Self.collection([Self.point(0, 0)]), bad: Self.collection([]))
        let image = try Self.render(text, scale: 1.5)
        #expect(image.width == 150 && image.height == 150)
        #expect(image.pixel(x: 75, y: 75) == Self.red)
        #expect(image.pixel(x: 75 + 7, y: 75) == Self.red)
        #expect(image.pixel(x: 75 + 11, y: 75) == Self.blue)
        #expect(image.pixel(x: 75, y: 75 - 11) == Self.blue)
        #expect(throws: (any Error).self) { try Self.render(text, scale: 4.5) }
        #expect(throws: (any Error).self) { try Self.render(text, scale: 0.25) }
    }
}
