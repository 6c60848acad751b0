import Foundation
import MapRaster
import MapTestSupport
import Testing

/// A GeoJSON file source that declares its extent (RFC 7946 `bbox` before its features) is not read for a
/// view away from it (issue #11, cold start), and draws exactly what the same file without a `bbox` draws,
/// whatever the view: the truth is the same style over the file without its `bbox`.
@Suite("GeoJSON sources with a declared bbox: skipped away from the view, the same pixels everywhere")
struct DeclaredExtentTests {
    /// A north-south line and a square near Helsinki.
    static let features =
        #"[{"type":"Feature","properties":{"k":"line"},"geometry":{"type":"LineString","coordinates":"#
        + #"[[24.94,60.18],[24.94,60.16]]}},"#
        + #"{"type":"Feature","properties":{"k":"area"},"geometry":{"type":"Polygon","coordinates":"#
        + #"[[[24.945,60.165],[24.95,60.165],[24.95,60.17],[24.945,60.17],[24.945,60.165]]]}}]"#
    static let bbox = "[24.94,60.16,24.95,60.18]"

    static func withFiles<T>(_ files: [String: String], _ body: (URL) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-bbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return try body(dir)
    }

    static func render(file: URL, lineOffset: Double, center: LocationCoordinate2D, zoom: Double) throws -> [UInt8] {
        let text = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": "\#(file.path)"}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": "#2060c0"}},
                        {"id": "l", "type": "line", "source": "s", "filter": ["==", ["get", "k"], "line"],
                         "paint": {"line-color": "#d00000", "line-width": 6, "line-offset": \#(lineOffset)}},
                        {"id": "t", "type": "circle", "source": "s", "paint": {"circle-radius": 5}}]}
            """#
        // Strict: a broken feature or a feature outside its declared bbox is an error of the views that meet
        // it (read leniently, the default, it is left out with a warning: SourceDataLeniencyTests).
        let style = try Style.decode(
            Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: "/"), options: StyleLoadOptions(strict: true)
        )
        let size = Size(width: 256, height: 256)
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: zoom).visibleMapRect
        options.style = style
        options.showsAttribution = false
        return try MapSnapshotter(options: options).snapshot().image.rgbaBytes()
    }

    struct View: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var latitude: Double
        var longitude: Double
        var zoom: Double
        var lineOffset: Double = 0
    }

    // At zoom 16 a degree of longitude is about 46,600 points. A view centred at 24.959 E has its west edge
    // about 290 points east of the data's bbox (east edge 24.95), beyond the distance (the view's size, 256
    // points) at which a file is loaded at once, and is 885 points east of the line (24.94): with a line
    // offset of 900 points east (-900: west of a line running south is +) the line is drawn into the view
    // from the deferred file.
    static let views: [View] = [
        View(testDescription: "on the data", latitude: 60.17, longitude: 24.945, zoom: 16),
        View(testDescription: "whole data", latitude: 60.17, longitude: 24.945, zoom: 13),
        View(testDescription: "far away (Andorra)", latitude: 42.5075, longitude: 1.5218, zoom: 16),
        View(testDescription: "beside it", latitude: 60.17, longitude: 24.959, zoom: 16),
        View(
            testDescription: "far east, line offset into view", latitude: 60.17, longitude: 24.959, zoom: 16,
            lineOffset: -900),
        View(
            testDescription: "far east, line offset away", latitude: 60.17, longitude: 24.959, zoom: 16,
            lineOffset: 900),
        View(testDescription: "world", latitude: 0, longitude: 0, zoom: 1),
    ]

    @Test("same pixels as the file without a bbox", arguments: views)
    func samePixels(_ view: View) throws {
        let plain = #"{"type":"FeatureCollection","features":\#(Self.features)}"#
        let declared = #"{"type":"FeatureCollection","bbox":\#(Self.bbox),"features":\#(Self.features)}"#
        try Self.withFiles(["plain.geojson": plain, "declared.geojson": declared]) { dir in
            let center = LocationCoordinate2D(latitude: view.latitude, longitude: view.longitude)
            let expected = try Self.render(
                file: dir.appendingPathComponent("plain.geojson"), lineOffset: view.lineOffset, center: center,
                zoom: view.zoom)
            let actual = try Self.render(
                file: dir.appendingPathComponent("declared.geojson"), lineOffset: view.lineOffset, center: center,
                zoom: view.zoom)
            #expect(actual == expected)
        }
    }

    @Test("the line drawn into a view from a deferred file is really there")
    func offsetLineShows() throws {
        let declared = #"{"type":"FeatureCollection","bbox":\#(Self.bbox),"features":\#(Self.features)}"#
        try Self.withFiles(["declared.geojson": declared]) { dir in
            let center = LocationCoordinate2D(latitude: 60.17, longitude: 24.959)
            let file = dir.appendingPathComponent("declared.geojson")
            let drawn = try Self.render(file: file, lineOffset: -900, center: center, zoom: 16)
            let blank = try Self.render(file: file, lineOffset: 0, center: center, zoom: 16)
            #expect(drawn != blank)
        }
    }

    @Test("a file away from the view is not read: invalid after its bbox, it draws the view and fails on it")
    func notRead() throws {
        let broken = #"{"type":"FeatureCollection","bbox":\#(Self.bbox),"features":[{"type":"Feature",oops]}"#
        try Self.withFiles(["broken.geojson": broken]) { dir in
            let file = dir.appendingPathComponent("broken.geojson")
            _ = try Self.render(
                file: file, lineOffset: 0, center: LocationCoordinate2D(latitude: 42.5075, longitude: 1.5218), zoom: 16)
            #expect(throws: RenderError.self) {
                try Self.render(
                    file: file, lineOffset: 0, center: LocationCoordinate2D(latitude: 60.17, longitude: 24.945),
                    zoom: 16)
            }
        }
    }

    @Test("a bbox that does not contain the features is an error naming the file, the feature and the bbox")
    func lyingBox() throws {
        let lying = #"{"type":"FeatureCollection","bbox":[24.94,60.16,24.948,60.18],"features":\#(Self.features)}"#
        try Self.withFiles(["lying.geojson": lying]) { dir in
            let file = dir.appendingPathComponent("lying.geojson")
            do {
                _ = try Self.render(
                    file: file, lineOffset: 0, center: LocationCoordinate2D(latitude: 60.17, longitude: 24.945),
                    zoom: 16)
                Issue.record("no error")
            } catch {
                let text = "\(error)"
                #expect(text.contains("lying.geojson"), "\(text)")
                #expect(text.contains("features[1]"), "\(text)")
                #expect(text.contains("bbox"), "\(text)")
            }
        }
    }
}
