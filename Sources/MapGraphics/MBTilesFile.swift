import Foundation

/// A problem reading an MBTiles file.
public enum MBTilesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be opened as an SQLite database.
    case cannotOpen(path: String, reason: String)
    /// A query failed, usually because the file is not an MBTiles file.
    case query(sql: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "cannot open MBTiles file '\(path)': \(reason)"
        case let .query(sql, reason): return "MBTiles query '\(sql)' failed: \(reason)"
        }
    }
}

/// A read-only MBTiles 1.3 file: tiles in the `tiles` table (TMS rows) and the `metadata` table.
public final class MBTilesFile {
    /// The file's path.
    public let path: String
    private let connection: SQLiteConnection
    /// The `metadata` table as name/value pairs.
    public let metadata: [String: String]

    /// Opens an MBTiles file read-only and reads its metadata.
    ///
    /// - Throws: ``MBTilesError`` when the file is not a readable SQLite database with `tiles` and
    ///   `metadata` tables.
    public init(path: String) throws {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw MBTilesError.cannotOpen(path: path, reason: "no such readable file")
        }
        self.path = path
        connection = try SQLiteConnection(readOnlyPath: path)
        var metadata: [String: String] = [:]
        do {
            for row in try connection.query("SELECT name, value FROM metadata") {
                if case .text(let name) = row[0], case .text(let value) = row[1] { metadata[name] = value }
            }
            _ = try connection.query("SELECT 1 FROM tiles LIMIT 1")
        } catch MBTilesError.query(_, let reason) {
            throw MBTilesError.cannotOpen(path: path, reason: "not an MBTiles file (\(reason))")
        }
        self.metadata = metadata
    }

    /// The bytes of a tile (usually PNG), or nil when the file has no such tile. Rows are TMS rows,
    /// counted from the south, as MBTiles stores them.
    public func tileData(zoom: Int, column: Int, tmsRow: Int) throws -> Data? {
        let rows = try connection.query(
            "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
            [zoom, column, tmsRow])
        guard let first = rows.first, case .blob(let data) = first[0] else { return nil }
        return data
    }
}
