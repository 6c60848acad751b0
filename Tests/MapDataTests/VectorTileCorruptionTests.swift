import Foundation
import MapData
import MapTestSupport
import Testing

/// Broken tiles, written by hand in the protocol-buffers wire format: each must give its typed error.
@Suite struct VectorTileCorruptionTests {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return out + [UInt8(value)]
    }

    static func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }

    static func number(_ field: UInt64, _ value: UInt64) -> [UInt8] { varint(field << 3) + varint(value) }

    static func packed(_ field: UInt64, _ values: [UInt32]) -> [UInt8] {
        Self.field(field, values.flatMap { varint(UInt64($0)) })
    }

    static func zigzag(_ value: Int32) -> UInt32 { UInt32(bitPattern: (value << 1) ^ (value >> 31)) }

    /// A tile of one layer "l" holding one feature.
    static func tile(
        type: UInt64 = 3, geometry: [UInt32], tags: [UInt32] = [], extent: UInt64 = 4096, version: UInt64 = 2
    ) -> [UInt8] {
        let feature = number(3, type) + packed(2, tags) + packed(4, geometry)
        let value = field(1, Array("v".utf8))
        let layer =
            number(15, version) + field(1, Array("l".utf8)) + field(2, feature) + field(3, Array("k".utf8))
            + field(4, value) + number(5, extent)
        return field(3, layer)
    }

    static let square: [UInt32] = [9, 0, 0, 26, zigzag(10), 0, 0, zigzag(10), zigzag(-10), 0, 15]

    static let cases: [(id: String, bytes: [UInt8], expected: String)] = [
        ("varint-longer-than-64-bits", [0x1A] + [UInt8](repeating: 0xFF, count: 11), "malformed"),
        ("layer-length-past-end", [0x1A, 0x10, 0x0A, 0x01], "malformed"),
        ("group-wire-type", [0x1B, 0x00], "malformed"),
        ("extent-2^32", tile(geometry: square, extent: 1 << 32), "badExtent"),
        ("extent-0", tile(geometry: square, extent: 0), "badExtent"),
        ("version-3", tile(geometry: square, version: 3), "badLayer"),
        ("geometry-type-9", tile(type: 9, geometry: square), "unknownGeometryType"),
        ("command-count-past-end", tile(geometry: [9 | (1000 << 3), 2, 2]), "badGeometry"),
        ("moveto-count-huge", tile(type: 1, geometry: [UInt32.max & ~7 | 1, 2, 2]), "badGeometry"),
        ("unknown-command-5", tile(geometry: [13, 2, 2]), "badGeometry"),
        ("lineto-before-moveto", tile(type: 2, geometry: [10, 2, 2]), "badGeometry"),
        ("closepath-in-line", tile(type: 2, geometry: [9, 2, 2, 10, 4, 4, 15]), "badGeometry"),
        ("ring-not-closed", tile(geometry: [9, 0, 0, 26, 20, 0, 0, 20, 19, 0]), "badGeometry"),
        ("hole-before-exterior", tile(geometry: [9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15]), "badGeometry"),
        (
            "coordinate-overflow",
            tile(type: 1, geometry: [9 | (2 << 3), UInt32.max - 1, 0, UInt32.max - 1, 0]), "badGeometry"
        ),
        ("odd-tags", tile(geometry: square, tags: [0]), "badTags"),
        ("key-index-past-keys", tile(geometry: square, tags: [5, 0]), "badTags"),
        ("value-index-past-values", tile(geometry: square, tags: [0, 5]), "badTags"),
        (
            "feature-length-past-layer",
            field(3, field(1, Array("l".utf8)) + [0x12, 0x05, 0x18, 0x01]) + [0, 0, 0, 0], "malformed"
        ),
    ]

    @Test(arguments: cases.map(\.id))
    func brokenTileGivesTypedError(id: String) throws {
        let entry = try #require(Self.cases.first { $0.id == id })
        do {
            let tile = try VectorTile(bytes: entry.bytes)
            _ = try tile.layers()
            Issue.record("\(id): no error")
        } catch {
            let kind = Self.kind(error)
            #expect(kind == entry.expected, "\(id): \(error)")
            #expect(!error.description.isEmpty)
        }
    }

    static func kind(_ error: VectorTileError) -> String {
        switch error {
        case .malformed: return "malformed"
        case .badLayer: return "badLayer"
        case .badExtent: return "badExtent"
        case .unknownGeometryType: return "unknownGeometryType"
        case .badGeometry: return "badGeometry"
        case .badTags: return "badTags"
        }
    }

    @Test func messagesNameTheLayerAndFeature() throws {
        let error = #expect(throws: VectorTileError.self) {
            try VectorTile(bytes: Self.tile(type: 9, geometry: Self.square)).layers()
        }
        #expect(
            error?.description
                == "vector tile layer 'l', feature 0: unknown geometry type 9 (expected 1 point, 2 linestring or 3 polygon)"
        )
    }

    @Test func unknownTypeZeroAndEmptyGeometryAreSkipped() throws {
        #expect(try VectorTile(bytes: Self.tile(type: 0, geometry: Self.square)).layer(named: "l")?.features == [])
        #expect(try VectorTile(bytes: Self.tile(type: 3, geometry: [])).layer(named: "l")?.features == [])
        let one = try #require(try VectorTile(bytes: Self.tile(geometry: Self.square, tags: [0, 0])).layer(named: "l"))
        #expect(one.features.first?.properties == ["k": .string("v")])
    }

    /// Every prefix of a real tile either decodes or throws a typed error; none traps.
    @Test func everyTruncationIsATypedError() throws {
        let bytes = [UInt8](try Fixtures.data("vectortiles/mapbox-streets-counties-7-37-48.mvt"))
        var failures = 0
        for length in stride(from: 0, to: bytes.count, by: 7) {
            do {
                _ = try VectorTile(bytes: Array(bytes[0..<length])).layers()
            } catch {
                failures += 1
            }
        }
        #expect(failures > bytes.count / 7 - 2)
    }
}

/// 10,000 random mutations of the fixture tiles (bytes overwritten, inserted, deleted; cut short): the
/// decoder either decodes or throws its typed error.
@Suite struct VectorTileMutationTests {
    @Test func tenThousandMutationsNeverCrash() throws {
        let names = [
            "generated-all-types.mvt", "generated-extent-512.mvt", "mapbox-streets-7-70-42.mvt",
            "mapbox-streets-counties-7-37-48.mvt",
        ]
        let tiles = try names.map { [UInt8](try Fixtures.data("vectortiles/\($0)")) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % max(bound, 1)
        }
        var rejected = 0
        var decoded = 0
        for round in 0..<10_000 {
            var bytes = tiles[round % tiles.count]
            for _ in 0..<(1 + next(3)) {
                switch next(4) {
                case 0: bytes[next(bytes.count)] = UInt8(next(256))
                case 1: bytes.insert(UInt8(next(256)), at: next(bytes.count))
                case 2: if bytes.count > 1 { bytes.remove(at: next(bytes.count)) }
                default: bytes[next(bytes.count)] ^= UInt8(1 << next(8))
                }
            }
            if round % 10 == 0 { bytes = Array(bytes.prefix(next(bytes.count))) }
            if fuzzDecodeVectorTile(Data(bytes)) == nil { rejected += 1 } else { decoded += 1 }
        }
        // Both outcomes occur: mutations that keep the structure decode, the others are refused.
        #expect(rejected > 1_000)
        #expect(decoded > 1_000)
    }
}

@Suite("Vector tile inputs found by fuzzing")
struct VectorTileFuzzFindingsTests {
    /// libFuzzer's timeout was a starved fuzzer on a loaded machine, not a slow decoder. What is checked is
    /// the work, by counts: the decoder makes no more than the bytes can hold (each vertex takes two varint
    /// parameters of at least one byte), so decoding stays linear in the input.
    @Test("a 64 KB tile that timed out a starved libFuzzer run decodes to no more vertices than its bytes hold")
    func slowInput() throws {
        let data = try Data(
            contentsOf: Fixtures.root.appendingPathComponent("vectortiles/fuzz/timeout-slow-geometry.mvt"))
        let features = fuzzDecodeVectorTile(data)
        guard let layers = try? VectorTile(data: data).layers() else {
            #expect(features == nil)
            return
        }
        let all = layers.flatMap(\.features)
        #expect(features == all.count)
        let vertices = all.reduce(0) { total, feature in
            switch feature.geometry {
            case .points(let points): total + points.count
            case .lines(let lines): total + lines.reduce(0) { $0 + $1.count }
            case .polygons(let polygons):
                total + polygons.reduce(0) { $0 + $1.exterior.count + $1.holes.reduce(0) { $0 + $1.count } }
            }
        }
        #expect(all.count <= data.count && vertices <= data.count / 2, "\(all.count) features, \(vertices) vertices")
    }
}
