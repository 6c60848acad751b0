internal import CSQLite
import Foundation

// The one place that calls SQLite.

/// SQLite's destructor constant telling it to copy bound buffers.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// Owns one SQLite connection.
final class SQLiteConnection {
    let raw: OpaquePointer
    let path: String

    init(path: String, readOnly: Bool) throws {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(db)
            throw StorageError.sqlite(path: path, message: message)
        }
        raw = db
        self.path = path
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit { sqlite3_close_v2(raw) }

    func error(_ context: String) -> StorageError {
        .sqlite(path: path, message: "\(context): \(String(cString: sqlite3_errmsg(raw)))")
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(raw, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw StorageError.sqlite(path: path, message: "\(sql.prefix(60)): \(text)")
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(raw, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw error("preparing \(sql.prefix(60))")
        }
        return SQLiteStatement(raw: statement, connection: self)
    }
}

/// Owns one prepared statement.
final class SQLiteStatement {
    let raw: OpaquePointer
    let connection: SQLiteConnection

    init(raw: OpaquePointer, connection: SQLiteConnection) {
        self.raw = raw
        self.connection = connection
    }

    deinit { sqlite3_finalize(raw) }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(raw, index, sqlite3_int64(value)) }
    func bind(_ index: Int32, _ value: String) { sqlite3_bind_text(raw, index, value, -1, transient) }
    func bind(_ index: Int32, _ value: Data) {
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(raw, index, bytes.baseAddress, Int32(bytes.count), transient)
        }
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws -> Bool {
        switch sqlite3_step(raw) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error("running a statement")
        }
    }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(raw, column)) }
    func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(raw, column) else { return "" }
        return String(cString: text)
    }
    func blob(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(raw, column))
        guard count > 0, let bytes = sqlite3_column_blob(raw, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

enum SQLiteVersion {
    static var string: String { String(cString: sqlite3_libversion()) }
}
