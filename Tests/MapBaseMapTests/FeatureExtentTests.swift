import Foundation
import MapRaster
import MapTestSupport
import Testing

/// A GeoJSON file source whose features declare their extents (a `bbox` in every feature) decodes only the
/// features a view meets (issue #11, cold start: one country of the 1:50m file for a view of Andorra), and
/// draws exactly what the same file without the `bbox` members draws, whatever the view: the truth is the
/// same style over the file without them (`DeclaredExtentTests.render`: fill, line with offset, circles).
@Suite("GeoJSON features with declared extents: decoded when a view meets them, the same pixels everywhere")
struct FeatureExtentTests {
    /// A north-south line, a square and a point near Helsinki, a square near Andorra la Vella, a null
    /// geometry and a GeometryCollection (both decoded at once), each with its exact bbox.
    static let features: [(text: String, bbox: String?)] = [
        (
            #"{"type":"Feature","properties":{"k":"line"},"geometry":{"type":"LineString","coordinates":"#
                + #"[[24.94,60.18],[24.94,60.16]]}}"#, "[24.94,60.16,24.94,60.18]"
        ),
        (
            #"{"type":"Feature","properties":{"k":"area"},"geometry":{"type":"Polygon","coordinates":"#
                + #"[[[24.945,60.165],[24.95,60.165],[24.95,60.17],[24.945,60.17],[24.945,60.165]]]}}"#,
            "[24.945,60.165,24.95,60.17]"
        ),
        (
            #"{"type":"Feature","properties":{"k":"dot"},"geometry":{"type":"Point","coordinates":[24.947,60.172]}}"#,
            "[24.947,60.172,24.947,60.172]"
        ),
        (#"{"type":"Feature","properties":{"k":"none"},"geometry":null}"#, nil),
        (
            #"{"type":"Feature","properties":{"k":"andorra"},"geometry":{"type":"Polygon","coordinates":"#
                + #"[[[1.52,42.507],[1.523,42.507],[1.523,42.509],[1.52,42.509],[1.52,42.507]]]}}"#,
            "[1.52,42.507,1.523,42.509]"
        ),
        (
            #"{"type":"Feature","properties":{"k":"both"},"geometry":{"type":"GeometryCollection","geometries":["#
                + #"{"type":"Point","coordinates":[24.9445,60.1685]},{"type":"Point","coordinates":[1.5215,42.508]}]}}"#,
            "[1.5215,42.508,24.9445,60.1685]"
        ),
    ]

    static func file(boxes: Bool, lie: Bool = false, extra: String? = nil) -> String {
        let items = features.map { feature -> String in
            guard boxes, var box = feature.bbox else { return feature.text }
            if lie, box == "[24.945,60.165,24.95,60.17]" { box = "[24.945,60.165,24.948,60.17]" }
            return feature.text.replacingOccurrences(
                of: #"{"type":"Feature","#, with: #"{"type":"Feature","bbox":\#(box),"#)
        }
        return #"{"type":"FeatureCollection","features":["# + (items + [extra].compactMap { $0 }).joined(separator: ",")
            + "]}"
    }

    static let views: [DeclaredExtentTests.View] =
        DeclaredExtentTests.views + [
            .init(testDescription: "on the Andorra square", latitude: 42.508, longitude: 1.5215, zoom: 17),
            .init(testDescription: "on the point", latitude: 60.172, longitude: 24.947, zoom: 18),
            .init(testDescription: "between the two groups", latitude: 51, longitude: 13, zoom: 5),
            .init(testDescription: "both groups", latitude: 51, longitude: 13, zoom: 3),
            .init(
                testDescription: "east of the line, offset into view", latitude: 60.17, longitude: 24.9425, zoom: 18,
                lineOffset: -300),
        ]

    @Test("same pixels as the file without bbox members", arguments: views)
    func samePixels(_ view: DeclaredExtentTests.View) throws {
        try DeclaredExtentTests.withFiles([
            "plain.geojson": Self.file(boxes: false), "boxed.geojson": Self.file(boxes: true),
        ]) { dir in
            let center = LocationCoordinate2D(latitude: view.latitude, longitude: view.longitude)
            let expected = try DeclaredExtentTests.render(
                file: dir.appendingPathComponent("plain.geojson"), lineOffset: view.lineOffset, center: center,
                zoom: view.zoom)
            let actual = try DeclaredExtentTests.render(
                file: dir.appendingPathComponent("boxed.geojson"), lineOffset: view.lineOffset, center: center,
                zoom: view.zoom)
            #expect(actual == expected)
        }
    }

    @Test("a feature whose bbox does not contain it is an error naming the file, the feature and the bbox")
    func lyingBox() throws {
        try DeclaredExtentTests.withFiles(["lying.geojson": Self.file(boxes: true, lie: true)]) { dir in
            let file = dir.appendingPathComponent("lying.geojson")
            // A view that does not meet the lying feature's box draws without reading it.
            _ = try DeclaredExtentTests.render(
                file: file, lineOffset: 0, center: LocationCoordinate2D(latitude: 42.508, longitude: 1.5215), zoom: 17)
            do {
                _ = try DeclaredExtentTests.render(
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

    @Test("an invalid feature fails the views that meet it with the whole file's error")
    func invalidFeature() throws {
        // Latitude 95: invalid GeoJSON, inside a box (the box itself is valid) near Andorra.
        let bad =
            #"{"type":"Feature","bbox":[1.5,42.5,1.6,42.6],"properties":{},"#
            + #""geometry":{"type":"Point","coordinates":[1.55,95]}}"#
        let boxed = Self.file(boxes: true, extra: bad)
        let plain = Self.file(boxes: false, extra: bad)
        try DeclaredExtentTests.withFiles(["boxed.geojson": boxed, "plain.geojson": plain]) { dir in
            func error(_ name: String, latitude: Double, longitude: Double) -> String? {
                do {
                    _ = try DeclaredExtentTests.render(
                        file: dir.appendingPathComponent(name), lineOffset: 0,
                        center: LocationCoordinate2D(latitude: latitude, longitude: longitude), zoom: 16)
                    return nil
                } catch { return "\(error)".replacingOccurrences(of: name, with: "FILE") }
            }
            // The whole file's error (the plain file fails every view).
            let expected = try #require(error("plain.geojson", latitude: 60.17, longitude: 24.945))
            #expect(error("boxed.geojson", latitude: 60.17, longitude: 24.945) == nil)
            #expect(error("boxed.geojson", latitude: 42.55, longitude: 1.55) == expected)
        }
    }
}
