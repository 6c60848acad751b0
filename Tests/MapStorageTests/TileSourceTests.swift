import Foundation
import MapCompression
import MapData
import MapGeometry
import MapStorage
import MapTestSupport
import Testing

/// Tile stores written by tippecanoe and PyPI pmtiles (`Scripts/make-tilestore-fixtures.py`), checked
/// against `fixtures/tilestores/truth.json` (lengths and CRC-32s computed by Python's zlib).
@Suite struct TileSourceTests {
    static let truth: JSONValue = {
        guard let data = try? Fixtures.data("tilestores/truth.json"), let json = try? JSONValue.parse(data) else {
            return .null
        }
        return json
    }()

    static func ints(_ value: JSONValue) -> [Int] { (value.array ?? []).map { Int($0.number ?? -1) } }

    static func crc(_ data: Data) -> UInt32 { data.withUnsafeBytes { Deflate.crc32(0, $0) } }

    static func check(_ source: any TileSource, against store: String) throws {
        let tiles = try #require(truth[store]?["tiles"]?.array)
        #expect(tiles.count > 10)
        for tile in tiles {
            let v = ints(tile)
            let id = try TileID(z: v[0], x: v[1], y: v[2])
            let data = try #require(try source.tile(id), "\(store) \(id)")
            #expect(data.count == v[3], "\(store) \(id)")
            #expect(crc(data) == UInt32(v[4]), "\(store) \(id)")
        }
        for tile in truth[store]?["absent"]?.array ?? [] {
            let v = ints(tile)
            #expect(try source.tile(TileID(z: v[0], x: v[1], y: v[2])) == nil)
        }
    }

    @Test(arguments: ["tippecanoe.mbtiles", "tippecanoe.pmtiles"])
    func readsTippecanoeTiles(file: String) throws {
        let source = try openTileSource(at: Fixtures.url("tilestores/\(file)").path)
        try Self.check(source, against: "tippecanoe")
        #expect(source.info.format == .mvt)
        #expect(source.info.minZoom == 0)
        #expect(source.info.maxZoom == 6)
        #expect(source.info.vectorLayers == ["features"])
        #expect(source.info.attribution == "© OpenStreetMap contributors")
        // The inflated bytes are a vector tile with the features layer.
        let bytes = try #require(try source.tile(TileID(z: 6, x: 33, y: 23)))
        #expect(try VectorTile(data: bytes).layerNames == ["features"])
    }

    @Test func readsLeafDirectoriesAndRunLengths() throws {
        let archive = try PMTilesFile(path: Fixtures.url("tilestores/leaves.pmtiles").path)
        #expect((Self.truth["leaves"]?["leavesLength"]?.number ?? 0) > 0)
        try Self.check(archive, against: "leaves")
        #expect(archive.info.minZoom == 12 && archive.info.maxZoom == 13)
        #expect(archive.info.bounds == [-180, -85, 180, 85])
        #expect(archive.info.format == .unknown)
    }

    @Test func tileIDsFollowPMTilesHilbertCurve() throws {
        let table = try #require(Self.truth["tileIDs"]?.array)
        #expect(table.count > 90)
        for row in table {
            let v = row.array ?? []
            let id = try TileID(z: Int(v[0].number ?? -1), x: Int(v[1].number ?? -1), y: Int(v[2].number ?? -1))
            #expect(PMTilesFile.tileID(id) == UInt64(v[3].string ?? ""), "\(id)")
        }
    }

    @Test func mbtilesWithoutTilesTableIsAClearError() {
        let path = Fixtures.url("tilestores/no-tiles-table.mbtiles").path
        #expect(
            throws: StorageError.notMBTiles(
                path: path, reason: "it has no 'tiles' table or view (an MBTiles file needs 'tiles' and 'metadata')")
        ) { try MBTilesTileSource(path: path) }
    }

    @Test func templateFolderReadsFilesAndMissingTilesAreNil() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tilesource-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mbtiles = try MBTilesTileSource(path: Fixtures.url("tilestores/tippecanoe.mbtiles").path)
        let raw = try MBTilesFile.open(at: Fixtures.url("tilestores/tippecanoe.mbtiles"))
        for (id, data) in try raw.allTiles() {
            let tms = folder.appendingPathComponent("\(id.z)/\(id.x)/\(id.tmsY).pbf")
            try FileManager.default.createDirectory(
                at: tms.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: tms)  // gzip-compressed, as tippecanoe stored it
        }
        let source = try openTileSource(at: folder.path + "/{z}/{x}/{y}.pbf", scheme: .tms)
        #expect(source.info.format == .mvt)
        try Self.check(source, against: "tippecanoe")
        let id = try TileID(z: 5, x: 16, y: 11)
        #expect(try source.tile(id) == (try mbtiles.tile(id)))
        #expect(throws: StorageError.self) { try TileTemplateSource(template: folder.path + "/{z}/{x}.pbf") }
    }
}
