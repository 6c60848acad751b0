import Foundation
import MapData
import MapGeometry
import Testing

/// `GeoJSON.decodeFeaturesSkippingInvalid`: a FeatureCollection's invalid features are left out and counted
/// (the first one's error kept), the valid ones are exactly those `decodeFeatures` gives for the collection
/// without the invalid ones; a document that is not GeoJSON as a whole still fails.
@Suite("GeoJSON decoded leniently: invalid features left out and counted")
struct GeoJSONLenientDecodingTests {
    static func point(_ lon: String, _ lat: String, extra: String = "") -> String {
        #"{"type": "Feature"\#(extra), "properties": {}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
    }
    static func collection(_ features: [String]) -> Data {
        Data(#"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#.utf8)
    }

    static let valid = [point("1", "2"), point("-3", "4"), point("5", "-6")]
    static let invalid = [
        point("500", "0"),  // longitude out of range
        point("0", "1e7"),  // latitude beyond any folding
        point("\"x\"", "0"),  // a string coordinate
        point("0", "null"),  // a null coordinate
        point("0", "0", extra: #", "id": [1]"#),  // an id that is neither a string nor a number
        #"{"type": "Feature", "properties": 7, "geometry": null}"#,  // properties not an object
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "Circle", "coordinates": [0, 0]}}"#,
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1]]}}"#,
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [200, 10]}]}}"#,
        #"[1, 2]"#,  // not a feature
    ]

    @Test("every kind of invalid feature is left out; the valid ones are decoded as decodeFeatures decodes them")
    func skipsInvalid() throws {
        var mixed: [String] = []
        for (i, bad) in Self.invalid.enumerated() {
            mixed.append(bad)
            if i < Self.valid.count { mixed.append(Self.valid[i]) }
        }
        let lenient = try GeoJSON.decodeFeaturesSkippingInvalid(Self.collection(mixed), source: "t.geojson")
        let strict = try GeoJSON.decodeFeatures(Self.collection(Self.valid), source: "t.geojson")
        #expect(lenient.skipped == Self.invalid.count)
        #expect(lenient.features.map(\.geometry) == strict.map(\.geometry))
        #expect(lenient.features.map(\.location) == ["features[1]", "features[3]", "features[5]"])
        #expect(lenient.firstError?.description.contains("features[0].geometry.coordinates") == true)
        // Each invalid feature alone fails the strict decoding: the count is of real errors.
        for bad in Self.invalid {
            #expect(throws: GeoJSONError.self) { try GeoJSON.decodeFeatures(Self.collection([bad]), source: "t") }
        }
    }

    /// MapLibre's GeoJSON tiler (geojson-vt) projects y from sin(latitude), so a latitude of 100° is drawn
    /// at 80° and -95° at -85° (MapLibre's render test text-offset/line-sharp-outside has such a line); the
    /// strict decoding still refuses them.
    @Test("latitudes beyond ±90° are kept at the latitude of the same sine, counted; strict decoding refuses them")
    func foldsLatitudes() throws {
        let line = #"{"type": "LineString", "coordinates": [[-50, 100], [0, -50], [50, -95], [10, 20]]}"#
        let lenient = try GeoJSON.decodeFeaturesSkippingInvalid(Data(line.utf8), source: "t")
        #expect(lenient.skipped == 0 && lenient.foldedPositions == 2)
        #expect(lenient.firstFolded == "coordinates[0]: [-50.0, 100.0]")
        guard case .lineString(let points)? = lenient.features.first?.geometry else {
            Issue.record("expected one line")
            return
        }
        let expected = [(80.0, -50.0), (-50.0, 0.0), (-85.0, 50.0), (20.0, 10.0)]
        #expect(points.count == expected.count)
        for (p, (lat, lon)) in zip(points, expected) {
            #expect(abs(p.latitude - lat) < 1e-9 && p.longitude == lon)
            // the same Mercator y as MapLibre's sin-based projection of the original latitude
        }
        #expect(throws: GeoJSONError.self) { try GeoJSON.decodeFeatures(Data(line.utf8), source: "t") }
        let tree = try GeoJSON.decodeFeaturesSkippingInvalid(
            try JSONValue.parse(Data(line.utf8)), source: "t", path: "data")
        #expect(tree.foldedPositions == 2 && tree.features.map(\.geometry) == lenient.features.map(\.geometry))
    }

    @Test("the same result from a parsed JSON tree (inline GeoJSON of a style)")
    func fromTree() throws {
        let data = Self.collection(Self.invalid + Self.valid)
        let tree = try GeoJSON.decodeFeaturesSkippingInvalid(try JSONValue.parse(data), source: "t", path: "data")
        let bytes = try GeoJSON.decodeFeaturesSkippingInvalid(data, source: "t")
        #expect(tree.skipped == bytes.skipped && tree.features.map(\.geometry) == bytes.features.map(\.geometry))
        #expect(tree.firstError?.description.contains("data.features[0]") == true)
    }

    @Test(
        "a document that is not GeoJSON as a whole still fails",
        arguments: [
            "{", "[]", #"{"features": []}"#, #"{"type": "FeatureCollection"}"#,
            #"{"type": "FeatureCollection", "features": 3}"#, #"{"type": "Point", "coordinates": [181, 0]}"#,
        ])
    func wholeDocument(text: String) {
        #expect(throws: GeoJSONError.self) {
            try GeoJSON.decodeFeaturesSkippingInvalid(Data(text.utf8), source: "t")
        }
    }

    @Test("an invalid single Feature is one feature left out")
    func singleFeature() throws {
        let result = try GeoJSON.decodeFeaturesSkippingInvalid(Data(Self.point("0", "\"north\"").utf8), source: "t")
        #expect(result.features.isEmpty && result.skipped == 1)
    }
}
