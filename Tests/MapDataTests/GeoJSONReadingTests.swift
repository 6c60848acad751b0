import Foundation
import MapData
import MapGeometry
import MapTestSupport
import Testing

/// `GeoJSON.decodeFeatures(Data)` reads coordinates straight from the bytes (issue #11); the truth it is
/// checked against is the decoding of the same text through a `JSONValue` tree (the general path, which
/// inline GeoJSON of styles and scenes takes), and for numbers the standard library's `Double(String)`.
@Suite("GeoJSON read from bytes: the same features, errors and doubles as through a JSON tree")
struct GeoJSONReadingTests {
    /// Either the features or the error's text.
    enum Outcome: Equatable {
        case success([GeoJSONFeature])
        case failure(String)
    }

    static func outcome(_ body: () throws -> [GeoJSONFeature]) -> Outcome {
        do { return .success(try body()) } catch { return .failure("\(error)") }
    }

    static func throughTree(_ text: String) -> Outcome {
        outcome {
            let json: JSONValue
            do { json = try JSONValue.parse(Data(text.utf8)) } catch let error as JSONError {
                throw GeoJSONError.syntax(source: "t", error)
            }
            return try GeoJSON.decodeFeatures(json, source: "t", path: "")
        }
    }

    static func fromBytes(_ text: String) -> Outcome {
        outcome { try GeoJSON.decodeFeatures(Data(text.utf8), source: "t") }
    }

    static func feature(_ geometry: String) -> String {
        #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":1},"geometry":"#
            + geometry + "}]}"
    }

    static let texts: [String] = [
        // Valid, every geometry type, members in both orders, altitudes, foreign members.
        feature(#"{"type":"Point","coordinates":[24.94,60.17]}"#),
        feature(#"{"coordinates":[24.94,60.17,12.5],"type":"Point"}"#),
        feature(#"{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}"#),
        feature(#"{"type":"LineString","coordinates":[[1,2],[3,4,5],[-180,-90]], "bbox":[1,2,3,4]}"#),
        feature(#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8]]]}"#),
        feature(
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],"#
                + #"[[0.2,0.2],[0.3,0.2],[0.2,0.3],[0.2,0.2]]]}"#),
        feature(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}"#),
        feature(
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},"#
                + #"{"type":"LineString","coordinates":[[1,2],[3,4]]}]}"#),
        feature("null"),
        #"{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[1e1,2E-1]},"properties":null}"#,
        #"{"type":"Point","coordinates":[ 1 , 2 ]}"#,
        #"{"features":[{"geometry":{"coordinates":[1,2],"type":"Point"},"type":"Feature"}],"type":"FeatureCollection"}"#,
        // Duplicate members: the last counts.
        feature(#"{"type":"Point","coordinates":[1,2],"coordinates":[3,4]}"#),
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"geometry":null}"#,
        // Valid but not packed: empty arrays, mixed or extra non-number items.
        feature(#"{"type":"MultiPolygon","coordinates":[]}"#),
        feature(#"{"type":"Polygon","coordinates":[[]]}"#),
        feature(#"{"type":"LineString","coordinates":[[1,2,"x"],[3,4,null]]}"#),
        // Properties that look like GeoJSON stay plain JSON.
        #"{"type":"Feature","geometry":null,"properties":{"coordinates":[[1,2]],"geometry":{"type":"Point"}}}"#,
        // Invalid GeoJSON: every error of the decoder.
        feature(#"{"type":"Point","coordinates":[[1,2]]}"#),
        feature(#"{"type":"LineString","coordinates":[1,2]}"#),
        feature(#"{"type":"Polygon","coordinates":[[1,2],[3,4]]}"#),
        feature(#"{"type":"MultiPolygon","coordinates":[[[1,2]]]}"#),
        feature(#"{"type":"LineString","coordinates":[[1,2],[3]]}"#),
        feature(#"{"type":"LineString","coordinates":[[1,2],[181,4]]}"#),
        feature(#"{"type":"Point","coordinates":[1,91]}"#),
        feature(#"{"type":"LineString","coordinates":[[1,2],[[3,4]]]}"#),
        feature(#"{"type":"LineString","coordinates":[[[1,2]],[3,4]]}"#),
        feature(#"{"type":"Point","coordinates":"here"}"#),
        feature(#"{"type":"Point"}"#),
        feature(#"{"type":"Circle","coordinates":[1,2]}"#),
        feature(#"{"coordinates":[1,2]}"#),
        feature(#"{"type":"GeometryCollection"}"#),
        feature(#"{"type":"Polygon","coordinates":[[[[[1,2]]]]]}"#),
        feature("[1,2]"),
        #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":[1]}]}"#,
        #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"id":[1]}]}"#,
        #"{"type":"FeatureCollection","features":[{"type":"Feat"}]}"#,
        #"{"type":"FeatureCollection","features":[5]}"#,
        #"{"type":"FeatureCollection","features":{}}"#,
        #"{"type":"FeatureCollection"}"#,
        #"{"features":[]}"#,
        "[]",
        "42",
        // Invalid JSON inside coordinates and elsewhere: the same line, column and message.
        feature(#"{"type":"Point","coordinates":[1,2,]}"#),
        feature(#"{"type":"Point","coordinates":[1,02]}"#),
        feature(#"{"type":"Point","coordinates":[1,-]}"#),
        feature(#"{"type":"Point","coordinates":[1,2.]}"#),
        feature(#"{"type":"Point","coordinates":[1,1e999]}"#),
        feature(#"{"type":"Point","coordinates":[1,2}"#),
        feature(#"{"type":"Point","coordinates":[[1,2]"#),
        feature(#"{"type":"Point","coordinates":[1 2]}"#),
        feature(#"{"type":"Point","coordinates":[1,2]"#),
        feature(#"{"type":"Point","coordinates":[1,x]}"#),
        #"{"type":"FeatureCollection","features":[{"type":"Feature",}]}"#,
        #"{"type":"FeatureCollection","features":[1,]}"#,
        #"{"type":"FeatureCollection" "features":[]}"#,
        #"{"type":"Point","coordinates":[1,2]} x"#,
        String(repeating: "[", count: 600),
        #"{"type":"Point","coordinates":"# + String(repeating: "[", count: 600),
        #"{"type":"Point","coordinates":[1,2]}"#.replacingOccurrences(of: "2", with: "\u{1}"),
        "",
    ]

    @Test("the same features or the same error as through a JSON tree", arguments: texts)
    func sameAsTree(_ text: String) {
        let expected = Self.throughTree(text)
        let actual = Self.fromBytes(text)
        #expect(actual == expected)
        if case .success(let a) = actual, case .success(let b) = expected {
            #expect(Self.bits(a) == Self.bits(b), "coordinates must be bit-identical (-0 included)")
        }
    }

    /// Every coordinate's bit patterns, in order.
    static func bits(_ features: [GeoJSONFeature]) -> [UInt64] {
        var out: [UInt64] = []
        func add(_ c: [LocationCoordinate2D]) {
            for p in c { out += [p.longitude.bitPattern, p.latitude.bitPattern] }
        }
        func walk(_ g: GeoJSONGeometry) {
            switch g {
            case .point(let p): add([p])
            case .multiPoint(let c), .lineString(let c): add(c)
            case .multiLineString(let c), .polygon(let c): c.forEach(add)
            case .multiPolygon(let c): c.forEach { $0.forEach(add) }
            case .geometryCollection(let items): items.forEach(walk)
            }
        }
        for feature in features { feature.geometry.map(walk) }
        return out
    }

    /// The numbers of a JSON text outside strings, in order, each through `Double(String)` (strtod).
    static func numbersByStrtod(_ bytes: [UInt8]) -> [UInt64] {
        var out: [UInt64] = []
        var i = 0
        var inString = false
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if b == UInt8(ascii: "\\") { i += 1 } else if b == UInt8(ascii: "\"") { inString = false }
                i += 1
            } else if b == UInt8(ascii: "\"") {
                inString = true
                i += 1
            } else if b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) {
                var j = i
                while j < bytes.count, "+-.eE0123456789".utf8.contains(bytes[j]) { j += 1 }
                out.append(Double(String(decoding: bytes[i..<j], as: UTF8.self))?.bitPattern ?? 0)
                i = j
            } else {
                i += 1
            }
        }
        return out
    }

    /// The numbers of a decoded document, in file order (properties and coordinates).
    static func numbers(_ features: [GeoJSONFeature]) -> [UInt64] {
        var out: [UInt64] = []
        func walk(_ json: JSONValue) {
            switch json {
            case .number(let v): out.append(v.bitPattern)
            case .array(let items): items.forEach(walk)
            case .object(let members): members.forEach { walk($0.1) }
            default: break
            }
        }
        for feature in features { walk(feature.properties) }
        return out
    }

    static let shippedFiles: [String] = [
        "naturalearth/ne_50m_countries.geojson", "naturalearth/ne_110m_countries.geojson",
        "naturalearth/ne_50m_lakes.geojson", "naturalearth/ne_50m_rivers.geojson",
        "naturalearth/ne_10m_admin1.geojson", "geonames/cities_100k.geojson", "helsinki/roads.geojson",
        "helsinki/buildings.geojson",
    ]

    @Test("shipped files: the same features as through a JSON tree, every double as strtod's", arguments: shippedFiles)
    func shippedFile(_ name: String) throws {
        let url = Fixtures.packageRoot.appendingPathComponent("Sources/MapBaseMap/Resources/" + name)
        let data = try Data(contentsOf: url)
        let features = try GeoJSON.decodeFeatures(data, source: name)
        let tree = try GeoJSON.decodeFeatures(try JSONValue.parse(data), source: name, path: "")
        #expect(features == tree)
        #expect(Self.bits(features) == Self.bits(tree))
        // Every number of the file, properties and coordinates, against strtod. The files put
        // `properties` before `geometry` in every feature, so file order is each feature's properties'
        // numbers, then its coordinates; a feature's own `bbox` (the 1:50m countries') comes before both.
        var decoded: [UInt64] = []
        let slots = GeoJSON.featureSlots(data)
        for (index, feature) in features.enumerated() {
            if let box = slots?[index].boundingBox {
                decoded += [box.west, box.south, box.east, box.north].map(\.bitPattern)
            }
            decoded += Self.numbers([feature])
            decoded += Self.bits([feature])
        }
        var expected = Self.numbersByStrtod(Array(data))
        // A declared `bbox` (the Helsinki files') comes before the features: its four numbers first.
        if let box = GeoJSON.declaredBoundingBox(data) {
            #expect(Array(expected.prefix(4)) == [box.west, box.south, box.east, box.north].map(\.bitPattern))
            expected.removeFirst(min(4, expected.count))
        }
        #expect(decoded.count == expected.count)
        #expect(decoded == expected)
    }

    static let hardNumbers: [String] = [
        "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.2", "0.3", "0.30000000000000004", "179.999999",
        "-179.999999", "89.9999999999999", "123456789012345", "999999999999999", "1234567890123456",
        "9007199254740992", "9007199254740993", "9007199254740995", "18014398509481993",
        "0.000000000000001", "0.0000000000000001", "0.0000000000000000000001", "0.00000000000000000000001",
        "1.7976931348623157e308", "-1.7976931348623157e308", "2.2250738585072014e-308",
        "2.2250738585072011e-308", "4.9e-324", "5e-324", "2.4703282292062328e-324", "1e-400", "1e23",
        "8.98846567431158e307", "123456.78901234567890123", "0.1000000000000000055511151231257827",
        "0.1000000000000000055511151231257828", "7.038531e-26", "1.00000000000000011102230246251565404",
        "2.000000000000000444089209850062616169452667236328125", "3.14159265358979323846264338327950288",
        "-24.943650", "60.1699000000000001", "1448997445238699", "17976931348623157",
    ]

    @Test("hard decimals as coordinates parse bit for bit as Double(String)", arguments: hardNumbers)
    func hardNumber(_ text: String) throws {
        let expected = try #require(Double(text))
        let doc = #"{"type":"MultiPoint","coordinates":[["# + text + ",0],[0," + text + "]]}"
        let result = Self.fromBytes(doc)
        #expect(result == Self.throughTree(doc))
        guard case .success(let features) = result, case .multiPoint(let points)? = features.first?.geometry,
            points.count == 2
        else {
            #expect(abs(expected) > 90, "only a latitude out of range may be refused")
            return
        }
        #expect(points[0].longitude.bitPattern == expected.bitPattern)
        #expect(points[1].latitude.bitPattern == expected.bitPattern)
        let value = try JSONValue.parse(Data("[\(text)]".utf8)).array?.first?.number
        #expect(value?.bitPattern == expected.bitPattern)
    }
}
