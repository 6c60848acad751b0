import Foundation
import MapData
import MapTestSupport
import Testing

/// Checks the decoder against `fixtures/vectortiles/truth.json`, written by
/// `Scripts/make-vectortile-fixtures.py` with PyPI mapbox-vector-tile's decoder and Google's protobuf runtime.
@Suite struct VectorTileTests {
    static let truth: JSONValue = {
        guard let data = try? Fixtures.data("vectortiles/truth.json"), let json = try? JSONValue.parse(data) else {
            return .null
        }
        return json
    }()

    static let tileNames: [String] = (truth.members ?? []).map(\.0)

    @Test func truthIsThere() {
        #expect(Self.tileNames.count == 7)
    }

    @Test(arguments: tileNames)
    func decodesLikeThePythonDecoder(tile name: String) throws {
        let tile = try VectorTile(data: Fixtures.data("vectortiles/\(name)"))
        let expectedLayers = try #require(Self.truth[name]?["layers"]?.array)
        #expect(tile.layerNames == expectedLayers.compactMap { $0["name"]?.string })
        for expected in expectedLayers {
            let layerName = try #require(expected["name"]?.string)
            let layer = try #require(try tile.layer(named: layerName))
            #expect(layer.extent == Int(expected["extent"]?.number ?? -1))
            #expect(layer.version == Int(expected["version"]?.number ?? -1))
            let features = try #require(expected["features"]?.array)
            try #require(layer.features.count == features.count, "layer \(layerName)")
            for (index, (feature, truth)) in zip(layer.features, features).enumerated() {
                let context = "\(name) \(layerName) #\(index)"
                #expect(feature.id.map { "\($0)" } == truth["id"]?.string, "\(context)")
                let properties = try #require(truth["properties"]?.members)
                #expect(feature.properties.count == properties.count, "\(context)")
                for (key, typed) in properties {
                    let pair = typed.array ?? []
                    let kind = pair.first?.string ?? ""
                    let text = pair.last?.string ?? ""
                    #expect(Self.matches(feature.properties[key], kind: kind, text: text), "\(context) \(key)")
                }
                #expect(Self.digest(feature.geometry) == Self.expectedDigest(truth["geometry"]), "\(context)")
            }
        }
    }

    static func matches(_ value: VectorTileValue?, kind: String, text: String) -> Bool {
        switch value {
        case let .string(v): return kind == "string" && v == text
        case let .float(v): return kind == "float" && Double(v) == Double(text)
        case let .double(v): return kind == "double" && v == Double(text)
        case let .int(v): return kind == "int" && "\(v)" == text
        case let .uint(v): return kind == "uint" && "\(v)" == text
        case let .sint(v): return kind == "sint" && "\(v)" == text
        case let .bool(v): return kind == "bool" && "\(v)" == text
        case nil: return false
        }
    }

    /// The script's digest: per part [points, sum x, sum y, sum (k+1)(x + 3y)], polygon rings closed.
    static func partDigest(_ points: [VectorTilePoint]) -> [Int64] {
        var sums: [Int64] = [Int64(points.count), 0, 0, 0]
        for (k, point) in points.enumerated() {
            sums[1] += Int64(point.x)
            sums[2] += Int64(point.y)
            sums[3] += Int64(k + 1) * (Int64(point.x) + 3 * Int64(point.y))
        }
        return sums
    }

    static func closed(_ ring: [VectorTilePoint]) -> [VectorTilePoint] {
        ring.last == ring.first ? ring : ring + ring.prefix(1)
    }

    static func digest(_ geometry: VectorTileGeometry) -> [[[Int64]]] {
        switch geometry {
        case let .points(points): return [[[1]], [partDigest(points)]]
        case let .lines(lines): return [[[2]], lines.map(partDigest)]
        case let .polygons(polygons):
            return [[[3]]]
                + polygons.map { polygon in ([polygon.exterior] + polygon.holes).map { partDigest(closed($0)) } }
        }
    }

    static func expectedDigest(_ json: JSONValue?) -> [[[Int64]]] {
        guard let json, let type = json["type"]?.number else { return [] }
        func part(_ value: JSONValue) -> [Int64] { (value.array ?? []).map { Int64($0.number ?? -1) } }
        if type == 3 {
            return [[[3]]] + (json["polygons"]?.array ?? []).map { ($0.array ?? []).map(part) }
        }
        return [[[Int64(type)]], (json["parts"]?.array ?? []).map(part)]
    }

    @Test func layersAreDecodedOnlyWhenAsked() throws {
        let tile = try VectorTile(data: Fixtures.data("vectortiles/mapbox-streets-14-4357-6245.mvt"))
        #expect(tile.layerNames.first == "landuse")
        #expect(try tile.layer(named: "no such layer") == nil)
        #expect(try tile.layers().count == tile.layerNames.count)
    }

    @Test func holesAndExteriorsFollowTheWinding() throws {
        let tile = try VectorTile(data: Fixtures.data("vectortiles/generated-all-types.mvt"))
        let polygons = try #require(try tile.layer(named: "polygons"))
        guard case let .polygons(parts) = polygons.features[1].geometry else {
            Issue.record("expected polygons")
            return
        }
        #expect(parts.count == 2)
        #expect(parts[0].holes.count == 1)
        #expect(parts[1].holes.isEmpty)
        #expect(
            Set(parts[0].exterior) == [
                .init(x: 100, y: 100), .init(x: 1000, y: 100), .init(x: 1000, y: 1000), .init(x: 100, y: 1000),
            ])
    }
}
