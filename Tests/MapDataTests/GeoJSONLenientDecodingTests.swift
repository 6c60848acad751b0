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
        point("0", "95"),  // latitude out of range
        point("\"x\"", "0"),  // a string coordinate
        point("0", "null"),  // a null coordinate
        point("0", "0", extra: #", "id": [1]"#),  // an id that is neither a string nor a number
        #"{"type": "Feature", "properties": 7, "geometry": null}"#,  // properties not an object
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "Circle", "coordinates": [0, 0]}}"#,
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1]]}}"#,
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [0, 100]}]}}"#,
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
            #"{"type": "FeatureCollection", "features": 3}"#, #"{"type": "Point", "coordinates": [0, 91]}"#,
        ])
    func wholeDocument(text: String) {
        #expect(throws: GeoJSONError.self) {
            try GeoJSON.decodeFeaturesSkippingInvalid(Data(text.utf8), source: "t")
        }
    }

    @Test("an invalid single Feature is one feature left out")
    func singleFeature() throws {
        let result = try GeoJSON.decodeFeaturesSkippingInvalid(Data(Self.point("0", "95").utf8), source: "t")
        #expect(result.features.isEmpty && result.skipped == 1)
    }
}
