import MapGeometry

/// A failure reading or writing tile storage.
public enum StorageError: MapRasterError, Equatable {
    /// SQLite reported an error; the message is SQLite's own.
    case sqlite(path: String, message: String)
    /// The file is not an MBTiles database MapRaster can use.
    case notMBTiles(path: String, reason: String)
    /// The output exists and neither overwriting nor resuming was asked for.
    case outputExists(path: String)

    public var description: String {
        switch self {
        case let .sqlite(path, message): return "SQLite failed on '\(path)': \(message)"
        case let .notMBTiles(path, reason): return "'\(path)' is not a usable MBTiles file: \(reason)"
        case let .outputExists(path):
            return "'\(path)' exists; replace it only on purpose, or open it with resume: true to finish it"
        }
    }
}
