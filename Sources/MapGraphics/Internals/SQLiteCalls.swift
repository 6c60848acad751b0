internal import CSQLite
import Foundation

// The one place that calls SQLite. Every sqlite3_* call of MapRaster is in this file.

/// A read-only SQLite connection with one prepared statement at a time.
final class SQLiteConnection {
    private let db: OpaquePointer

    /// Opens a database file read-only.
    ///
    /// - Throws: ``MBTilesError/cannotOpen(path:reason:)``.
    init(readOnlyPath path: String) throws {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(handle)
            throw MBTilesError.cannotOpen(path: path, reason: reason)
        }
        db = handle
    }

    deinit { sqlite3_close(db) }

    /// Runs a query with text or integer parameters and returns each row's columns as blobs or strings.
    func query(_ sql: String, _ parameters: [Int] = []) throws -> [[SQLiteValue]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw MBTilesError.query(sql: sql, reason: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        for (i, value) in parameters.enumerated() {
            sqlite3_bind_int64(statement, Int32(i + 1), Int64(value))
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                throw MBTilesError.query(sql: sql, reason: String(cString: sqlite3_errmsg(db)))
            }
            var row: [SQLiteValue] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    if let bytes = sqlite3_column_blob(statement, column) {
                        row.append(.blob(Data(bytes: bytes, count: count)))
                    } else {
                        row.append(.blob(Data()))
                    }
                case SQLITE_NULL: row.append(.null)
                default:
                    row.append(.text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""))
                }
            }
            rows.append(row)
        }
        return rows
    }
}

/// A value of a result column.
enum SQLiteValue {
    case blob(Data)
    case text(String)
    case null
}
