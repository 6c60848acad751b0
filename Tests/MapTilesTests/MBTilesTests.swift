import Foundation
import MapGeometry
import MapStorage
import MapTiles
import Testing

@Suite("MBTiles")
struct MBTilesTests {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mbtiles-\(UUID().uuidString)-\(name)")
    }

    @Test("tiles are stored once per distinct image, rows in TMS, and read back by XYZ id")
    func storage() throws {
        let url = Self.temporary("a.mbtiles")
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + s) } }
        let file = try MBTilesFile.create(at: url, metadata: ["name": "t", "format": "png"])
        let ocean = Data([1, 2, 3])
        let land = Data([4, 5, 6, 7])
        try file.write([
            (try TileID(z: 1, x: 0, y: 0), ocean), (try TileID(z: 1, x: 1, y: 0), ocean),
            (try TileID(z: 1, x: 0, y: 1), land),
        ])
        #expect(try file.uniqueImageCount() == 2)
        #expect(try file.tileIDs().count == 3)
        #expect(try file.tile(try TileID(z: 1, x: 0, y: 1)) == land)
        try file.checkpoint()
        // The row stored for XYZ y = 1 at z1 is TMS row 0; read it with SQLite's own tool view.
        let reopened = try MBTilesFile.open(at: url)
        #expect(try reopened.metadata()["name"] == "t")
        #expect(
            try reopened.allTiles().map(\.0) == [
                try TileID(z: 1, x: 0, y: 0), try TileID(z: 1, x: 1, y: 0), try TileID(z: 1, x: 0, y: 1),
            ])
    }

    @Test("create refuses an existing file; open refuses files that are not MBTiles")
    func errors() throws {
        let url = Self.temporary("b.mbtiles")
        try Data("hello".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: StorageError.outputExists(path: url.path)) { try MBTilesFile.create(at: url, metadata: [:]) }
        #expect(throws: (any Error).self) { try MBTilesFile.open(at: url) }
        #expect(throws: StorageError.notMBTiles(path: "/nonexistent/x.mbtiles", reason: "no such file")) {
            try MBTilesFile.open(at: URL(fileURLWithPath: "/nonexistent/x.mbtiles"))
        }
    }
}
