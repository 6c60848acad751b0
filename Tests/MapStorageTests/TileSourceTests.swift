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

    /// MapLibre's `tiles` URLs: one without placeholders is fetched for every tile; an empty response (a 204)
    /// is an empty tile, which is not a missing one.
    @Test func oneFileForEveryTileAndEmptyTiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tilesource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("only.mvt")
        try Data([0x1A, 0x00]).write(to: file)
        let one = try openTileSource(at: file.path)
        #expect(one.info.format == .mvt)
        for id in [try TileID(z: 0, x: 0, y: 0), try TileID(z: 14, x: 8802, y: 5374)] {
            #expect(try one.tile(id) == Data([0x1A, 0x00]))
        }
        try Data().write(to: folder.appendingPathComponent("1-0-0.png"))
        let sparse = try openTileSource(at: folder.path + "/{z}-{x}-{y}.png")
        #expect(try sparse.tile(TileID(z: 1, x: 0, y: 0)) == Data())
        #expect(try sparse.tile(TileID(z: 1, x: 1, y: 0)) == nil)
        // An MBTiles file named without its extension is still read as one (by its SQLite header).
        let copy = folder.appendingPathComponent("tiles-without-extension")
        try FileManager.default.copyItem(at: Fixtures.url("tilestores/tippecanoe.mbtiles"), to: copy)
        #expect(try openTileSource(at: copy.path) is MBTilesTileSource)
        #expect(throws: StorageError.self) { try openTileSource(at: folder.appendingPathComponent("none.mvt").path) }
    }
}

@Suite struct OverzoomTests {
    static let info = TileSourceInfo(format: .mvt, minZoom: 2, maxZoom: 14)

    @Test(arguments: [
        (18, 132_101, 95_837, "14/8256/5989", 5.0 / 16, 13.0 / 16, 1.0 / 16),
        (14, 8529, 5974, "14/8529/5974", 0.0, 0.0, 1.0),
        (15, 17059, 11949, "14/8529/5974", 0.5, 0.5, 0.5),
        (5, 16, 11, "5/16/11", 0.0, 0.0, 1.0),
    ])
    func deepViewsDrawFromTheMaxZoomAncestor(
        z: Int, x: Int, y: Int, parent: String, wx: Double, wy: Double, size: Double
    )
        throws
    {
        let id = try TileID(z: z, x: x, y: y)
        #expect(Self.info.sourceTile(for: id)?.description == parent)
        let window = Self.info.overzoomWindow(for: id)
        #expect(window.x == wx && window.y == wy && window.size == size)
    }

    @Test func tilesAboveMinZoomAreNotRead() throws {
        #expect(Self.info.sourceTile(for: try TileID(z: 1, x: 0, y: 0)) == nil)
    }

    @Test func badVectorTileNamesSourceAndTile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("badmvt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x1A, 0x7F, 0x0A]).write(to: folder.appendingPathComponent("3-2-1.mvt"))
        let source = try TileTemplateSource(template: folder.path + "/{z}-{x}-{y}.mvt")
        let error = #expect(throws: StorageError.self) { try source.vectorTile(TileID(z: 3, x: 2, y: 1)) }
        #expect(
            error?.description.hasPrefix(
                "tile 3/2/1 of '\(folder.path)/{z}-{x}-{y}.mvt' is unusable: corrupt vector tile") == true)
        #expect(try source.vectorTile(TileID(z: 3, x: 2, y: 2)) == nil)
    }
}
