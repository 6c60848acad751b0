import Foundation
import MapData
import MapGeometry
import MapTestSupport
import Testing

/// `GeoJSON.declaredBoundingBox` reads a document's `bbox` member (RFC 7946 §5: `[west, south, east,
/// north]`, or with altitudes `[west, south, low, east, north, high]`) from the start of the text, only
/// when it comes before the features, without parsing the rest.
@Suite("GeoJSON bbox: read before the features, RFC 7946 section 5")
struct GeoJSONBoundingBoxTests {
    static let box = GeoBoundingBox(west: 24.9, south: 60.1, east: 25, north: 60.2)

    static let cases: [(String, GeoBoundingBox?)] = [
        (#"{"type":"FeatureCollection","bbox":[24.9,60.1,25,60.2],"features":[]}"#, box),
        (#"{"bbox":[24.9,60.1,25,60.2],"type":"FeatureCollection","features":[]}"#, box),
        ("\u{FEFF}" + #" { "type" : "FeatureCollection" , "bbox" : [ 24.9 , 60.1 , 25 , 60.2 ] }"#, box),
        // Altitudes: the 2nd axis of each corner is latitude, the 3rd altitude.
        (#"{"type":"FeatureCollection","bbox":[24.9,60.1,-5,25,60.2,300],"features":[]}"#, box),
        // The rest of the text is not read: an unfinished or invalid document after the bbox.
        (#"{"type":"FeatureCollection","bbox":[24.9,60.1,25,60.2],"features":[{"type":"#, box),
        (#"{"type":"FeatureCollection","bbox":[24.9,60.1,25,60.2],"features":[nonsense"#, box),
        // Members before the bbox are skipped whatever they hold.
        (#"{"type":"FeatureCollection","name":"x","crs":{"a":[1,2,{"b":null}]},"bbox":[24.9,60.1,25,60.2]}"#, box),
        // A Feature's bbox before its geometry.
        (#"{"type":"Feature","bbox":[24.9,60.1,25,60.2],"geometry":null,"properties":null}"#, box),
        // After the features (or geometry): an ordinary member, not read.
        (#"{"type":"FeatureCollection","features":[],"bbox":[24.9,60.1,25,60.2]}"#, nil),
        (#"{"type":"Feature","geometry":null,"bbox":[24.9,60.1,25,60.2],"properties":null}"#, nil),
        (#"{"type":"Point","coordinates":[1,2],"bbox":[1,2,1,2]}"#, nil),
        // Not a bbox: wrong counts, non-numbers, south above north, past the poles, across the antimeridian,
        // not an array.
        (#"{"type":"FeatureCollection","bbox":[24.9,60.1,25]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":[24.9,60.1,25,60.2,1]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":[]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":[24.9,"60.1",25,60.2]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":[24.9,60.2,25,60.1]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":[24.9,-91,25,60.1]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":[170,10,-170,20]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":[1e999,10,20,20]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":{"west":1}}"#, nil),
        // Not a document with a bbox: invalid or cut before it, not an object, empty.
        (#"{"type":"FeatureCollection" "bbox":[24.9,60.1,25,60.2]}"#, nil),
        (#"{"type":"FeatureCollection","bbox":[24.9,60.1,25,"#, nil),
        (#"[{"bbox":[24.9,60.1,25,60.2]}]"#, nil),
        ("", nil),
        ("{", nil),
    ]

    @Test("texts", arguments: cases.indices)
    func texts(_ index: Int) {
        let (text, expected) = Self.cases[index]
        #expect(GeoJSON.declaredBoundingBox(Data(text.utf8)) == expected, "\(text)")
    }

    @Test("positions inside and outside a box, edges included, every geometry type")
    func containment() {
        let box = GeoBoundingBox(west: 0, south: 0, east: 10, north: 10)
        func c(_ lon: Double, _ lat: Double) -> LocationCoordinate2D {
            LocationCoordinate2D(latitude: lat, longitude: lon)
        }
        let inside: [GeoJSONGeometry] = [
            .point(c(0, 0)), .point(c(10, 10)), .lineString([c(0, 5), c(10, 5)]),
            .multiPolygon([[[c(1, 1), c(2, 1), c(2, 2), c(1, 1)]]]),
            .geometryCollection([.point(c(5, 5)), .multiPoint([c(0, 10)])]),
        ]
        for geometry in inside { #expect(box.firstPositionOutside(geometry) == nil, "\(geometry)") }
        let outside: [(GeoJSONGeometry, LocationCoordinate2D)] = [
            (.point(c(10.000001, 5)), c(10.000001, 5)), (.lineString([c(1, 1), c(-1, 1)]), c(-1, 1)),
            (.polygon([[c(1, 1), c(2, 1), c(2, 2)], [c(1, 1), c(1, 11), c(2, 2)]]), c(1, 11)),
            (.multiLineString([[c(1, 1)], [c(5, -0.5)]]), c(5, -0.5)),
            (.geometryCollection([.point(c(5, 5)), .point(c(20, 5))]), c(20, 5)),
        ]
        for (geometry, position) in outside { #expect(box.firstPositionOutside(geometry) == position, "\(geometry)") }
    }
}

/// The shipped Helsinki files declare their extent (written by `Scripts/make-basemap-data.py`): each
/// declared bbox is exactly the smallest and largest longitude and latitude of the file's positions, as
/// decoding the whole file finds them.
@Suite("GeoJSON bbox: the shipped Helsinki files declare their exact extent")
struct ShippedBoundingBoxTests {
    static let files = ["buildings", "landuse", "places", "pois", "railways", "roads", "water", "waterways"]

    @Test("declared bbox = extent of the decoded positions", arguments: files)
    func shipped(_ name: String) throws {
        let url = Fixtures.packageRoot.appendingPathComponent("Sources/MapBaseMap/Resources/helsinki/\(name).geojson")
        let data = try Data(contentsOf: url)
        let declared = try #require(GeoJSON.declaredBoundingBox(data))
        var positions: [LocationCoordinate2D] = []
        func walk(_ geometry: GeoJSONGeometry) {
            switch geometry {
            case .point(let c): positions.append(c)
            case .multiPoint(let c), .lineString(let c): positions += c
            case .multiLineString(let c), .polygon(let c): positions += c.joined()
            case .multiPolygon(let c): positions += c.joined().joined()
            case .geometryCollection(let items): items.forEach(walk)
            }
        }
        for feature in try GeoJSON.decodeFeatures(data, source: name) { feature.geometry.map(walk) }
        let lons = positions.map(\.longitude)
        let lats = positions.map(\.latitude)
        #expect(!positions.isEmpty)
        #expect(
            declared
                == GeoBoundingBox(
                    west: lons.min() ?? 0, south: lats.min() ?? 0, east: lons.max() ?? 0, north: lats.max() ?? 0))
    }
}
