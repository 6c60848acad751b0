import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Feature ids: [\"id\"], $id and promoteId select the same features as their properties do")
struct FeatureIDTests {
    static func render(_ style: Style, center: LocationCoordinate2D, zoom: Double) throws -> [UInt8] {
        let size = Size(width: 512, height: 512)
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: zoom).visibleMapRect
        options.style = style
        options.showsAttribution = false
        return try MapSnapshotter(options: options).snapshot().image.rgbaBytes()
    }

    static func style(source: String, filter: String) throws -> Style {
        let text = #"""
            {"version": 8, "sources": {"s": \#(source)},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "c", "type": "circle", "source": "s", "source-layer": "place_label", "filter": \#(filter),
                         "paint": {"circle-radius": 8, "circle-color": "#d00000"}}]}
            """#
        return try Style.decode(Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: "/"))
    }

    @Test("vector tiles: a feature found by its tile id, by $id, by its name, and by its name promoted to id")
    func vectorTileIDs() throws {
        // A real Mapbox Streets tile; its place_label "Brandywine on the Little Miami" has id 301441532
        // (fixtures/vectortiles/truth.json, decoded by mapbox-vector-tile).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("14/4357"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: Fixtures.root.appendingPathComponent("vectortiles/mapbox-streets-14-4357-6245.mvt"),
            to: dir.appendingPathComponent("14/4357/6245.pbf"))
        let tiles = #"{"type": "vector", "tiles": ["\#(dir.path)/{z}/{x}/{y}.pbf"], "maxzoom": 14"#
        let tile = try TileID(z: 14, x: 4357, y: 6245)
        let center = MapPoint(x: tile.mapRect.midX, y: tile.mapRect.midY).coordinate
        let name = #""Brandywine on the Little Miami""#
        let byID = try Self.render(
            try Self.style(source: tiles + "}", filter: #"["==", ["id"], 301441532]"#), center: center, zoom: 15)
        let byName = try Self.render(
            try Self.style(source: tiles + "}", filter: #"["==", ["get", "name"], \#(name)]"#), center: center, zoom: 15
        )
        let legacy = try Self.render(
            try Self.style(source: tiles + "}", filter: #"["==", "$id", 301441532]"#), center: center, zoom: 15)
        let promoted = try Self.render(
            try Self.style(
                source: tiles + #", "promoteId": {"place_label": "name"}}"#, filter: #"["==", ["id"], \#(name)]"#),
            center: center, zoom: 15)
        let none = try Self.render(
            try Self.style(source: tiles + "}", filter: #"["==", ["id"], 1]"#), center: center, zoom: 15)
        #expect(byID != none, "the feature was not drawn")
        #expect(byID == byName)
        #expect(byID == legacy)
        #expect(byID == promoted)
    }

    @Test("GeoJSON: the feature's id member, or the promoted property")
    func geoJSONIDs() throws {
        let data = #"""
            {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": 7, "properties": {"code": "a"}, "geometry": {"type": "Point", "coordinates": [-20, 0]}},
              {"type": "Feature", "id": "x", "properties": {"code": "b"}, "geometry": {"type": "Point", "coordinates": [20, 0]}}]}
            """#
        func style(_ promote: String, _ filter: String) throws -> Style {
            let text = #"""
                {"version": 8, "sources": {"s": \#(data)\#(promote)}},
                 "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                            {"id": "c", "type": "circle", "source": "s", "filter": \#(filter),
                             "paint": {"circle-radius": 8, "circle-color": "#d00000"}}]}
                """#
            return try Style.decode(Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: "/"))
        }
        let center = LocationCoordinate2D(latitude: 0, longitude: 0)
        let seven = try Self.render(try style("", #"["==", ["id"], 7]"#), center: center, zoom: 1)
        let a = try Self.render(try style("", #"["==", ["get", "code"], "a"]"#), center: center, zoom: 1)
        let x = try Self.render(try style("", #"["==", ["id"], "x"]"#), center: center, zoom: 1)
        let b = try Self.render(try style("", #"["==", ["get", "code"], "b"]"#), center: center, zoom: 1)
        let promoted = try Self.render(
            try style(#", "promoteId": "code""#, #"["==", ["id"], "b"]"#), center: center, zoom: 1)
        #expect(seven == a && seven != b)
        #expect(x == b && promoted == b)
    }
}
