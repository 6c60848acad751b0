import Foundation
import MapGeometry

/// An MBTiles 1.3 database (SQLite) with the `map`/`images` layout: every distinct tile image is stored
/// once and referenced from each place it appears (ocean tiles repeat thousands of times), and a `tiles`
/// view gives the standard table. Rows are TMS (counted from the south), as the specification says; this
/// API speaks XYZ ``TileID``s.
///
/// Writes happen in transactions, one per ``write(_:)`` call, with SQLite's write-ahead log: killing the
/// process at any moment leaves a valid database holding every batch committed before.
///
/// ```swift
/// let file = try MBTilesFile.create(at: url, metadata: ["name": "world", "format": "png"])
/// try file.write([(try TileID(z: 0, x: 0, y: 0), png)])
/// ```
public final class MBTilesFile {
    let db: SQLiteConnection
    /// The file's path.
    public let path: String

    private init(db: SQLiteConnection) {
        self.db = db
        self.path = db.path
    }

    /// Creates a new, empty MBTiles file with the given metadata; a file already at `url` is an error.
    ///
    /// The file is created exclusively (`O_CREAT | O_EXCL`) before SQLite opens it, so that of two processes
    /// creating the same file at once exactly one succeeds and the other gets ``StorageError/outputExists(path:)``
    /// without touching the winner's file.
    ///
    /// - Throws: ``StorageError``.
    public static func create(at url: URL, metadata: [String: String]) throws -> MBTilesFile {
        let fd = Glibc.open(url.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            if errno == EEXIST { throw StorageError.outputExists(path: url.path) }
            throw StorageError.uncreatable(path: url.path, reason: String(cString: strerror(errno)))
        }
        close(fd)
        let file = MBTilesFile(db: try SQLiteConnection(path: url.path, readOnly: false))
        try file.db.execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA application_id = 0x4d504258;
            BEGIN;
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE UNIQUE INDEX metadata_name ON metadata (name);
            CREATE TABLE images (tile_id TEXT PRIMARY KEY, tile_data BLOB);
            CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
            CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
            CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                map.tile_row AS tile_row, images.tile_data AS tile_data
                FROM map JOIN images ON images.tile_id = map.tile_id;
            COMMIT;
            """)
        try file.setMetadata(metadata)
        return file
    }

    /// Opens an existing MBTiles file made with the `map`/`images` layout (MapRaster's) or a plain
    /// `tiles` table (read only).
    ///
    /// - Throws: ``StorageError/notMBTiles(path:reason:)`` when it is not an MBTiles database.
    public static func open(at url: URL, readOnly: Bool = true) throws -> MBTilesFile {
        // Checked before SQLite sees it: SQLite blocks forever opening a FIFO and calls a folder an I/O error.
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw StorageError.notMBTiles(path: url.path, reason: reason)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw StorageError.notMBTiles(path: url.path, reason: "is a directory")
        default:
            throw StorageError.notMBTiles(path: url.path, reason: "is not a regular file (a device, FIFO or socket)")
        }
        let file = MBTilesFile(db: try SQLiteConnection(path: url.path, readOnly: readOnly))
        let names: Set<String>
        do {
            let statement = try file.db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            var found = Set<String>()
            while try statement.step() { found.insert(statement.text(0)) }
            names = found
        } catch {
            throw StorageError.notMBTiles(path: url.path, reason: "not an SQLite database")
        }
        for required in ["tiles", "metadata"] where !names.contains(required) {
            throw StorageError.notMBTiles(
                path: url.path,
                reason: "it has no '\(required)' table or view (an MBTiles file needs 'tiles' and 'metadata')")
        }
        if !readOnly {
            guard names.contains("map"), names.contains("images") else {
                throw StorageError.notMBTiles(
                    path: url.path, reason: "it has no 'map' and 'images' tables, so MapRaster cannot add tiles to it")
            }
            try file.db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        }
        return file
    }

    /// Sets metadata rows (replacing rows of the same name).
    public func setMetadata(_ values: [String: String]) throws {
        let statement = try db.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)")
        try db.execute("BEGIN")
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            statement.reset()
            statement.bind(1, name)
            statement.bind(2, value)
            _ = try statement.step()
        }
        try db.execute("COMMIT")
    }

    /// All metadata rows.
    public func metadata() throws -> [String: String] {
        let statement = try db.prepare("SELECT name, value FROM metadata")
        var values: [String: String] = [:]
        while try statement.step() { values[statement.text(0)] = statement.text(1) }
        return values
    }

    /// Writes tiles in one transaction; identical images are stored once.
    public func write(_ tiles: [(TileID, Data)]) throws {
        guard !tiles.isEmpty else { return }
        let insertImage = try db.prepare("INSERT OR IGNORE INTO images (tile_id, tile_data) VALUES (?, ?)")
        let readImage = try db.prepare("SELECT tile_data FROM images WHERE tile_id = ?")
        let insertMap = try db.prepare(
            "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
        try db.execute("BEGIN IMMEDIATE")
        do {
            for (tile, data) in tiles {
                var id = ContentHash.hex(data)
                var suffix = 1
                while true {
                    readImage.reset()
                    readImage.bind(1, id)
                    if try readImage.step() {
                        if readImage.blob(0) == data { break }
                        suffix += 1
                        id = ContentHash.hex(data) + "-\(suffix)"
                        continue
                    }
                    insertImage.reset()
                    insertImage.bind(1, id)
                    insertImage.bind(2, data)
                    _ = try insertImage.step()
                    break
                }
                insertMap.reset()
                insertMap.bind(1, tile.z)
                insertMap.bind(2, tile.x)
                insertMap.bind(3, tile.tmsY)
                insertMap.bind(4, id)
                _ = try insertMap.step()
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// The tiles present, as XYZ ids.
    public func tileIDs() throws -> Set<TileID> {
        let statement = try db.prepare("SELECT zoom_level, tile_column, tile_row FROM tiles")
        var ids = Set<TileID>()
        while try statement.step() {
            if let id = try? TileID(z: statement.int(0), x: statement.int(1), tmsY: statement.int(2)) { ids.insert(id) }
        }
        return ids
    }

    /// One tile's image, or nil.
    public func tile(_ id: TileID) throws -> Data? {
        let statement = try db.prepare(
            "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
        statement.bind(1, id.z)
        statement.bind(2, id.x)
        statement.bind(3, id.tmsY)
        return try statement.step() ? statement.blob(0) : nil
    }

    /// The bytes of a tile addressed as MBTiles stores it (TMS row, counted from the south), or nil.
    public func tileData(zoom: Int, column: Int, tmsRow: Int) throws -> Data? {
        let statement = try db.prepare(
            "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
        statement.bind(1, zoom)
        statement.bind(2, column)
        statement.bind(3, tmsRow)
        return try statement.step() ? statement.blob(0) : nil
    }

    /// Every tile, in (z, y, x) order.
    public func allTiles() throws -> [(TileID, Data)] {
        let statement = try db.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        var tiles: [(TileID, Data)] = []
        while try statement.step() {
            if let id = try? TileID(z: statement.int(0), x: statement.int(1), tmsY: statement.int(2)) {
                tiles.append((id, statement.blob(3)))
            }
        }
        return tiles.sorted { $0.0 < $1.0 }
    }

    /// Calls `body` with every tile, one at a time, in (zoom, column, row) order: memory does not grow with
    /// the file.
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        let statement = try db.prepare(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY zoom_level, tile_column, tile_row")
        while try statement.step() {
            if let id = try? TileID(z: statement.int(0), x: statement.int(1), tmsY: statement.int(2)) {
                try body(id, statement.blob(3))
            }
        }
    }

    /// The number of distinct images stored.
    public func uniqueImageCount() throws -> Int {
        let statement = try db.prepare("SELECT count(*) FROM images")
        return try statement.step() ? statement.int(0) : 0
    }

    /// Folds the write-ahead log into the database file and leaves WAL mode, so that the `.mbtiles` file
    /// alone is complete and readers (even on read-only media) need no `-wal` or `-shm` files.
    public func checkpoint() throws {
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
    }

    /// The SQLite library's version.
    public static var sqliteVersion: String { SQLiteVersion.string }
}
