import MapGeometry

/// A failure reading or writing tile storage.
public enum StorageError: MapRasterError, Equatable {
    /// SQLite reported an error; the message is SQLite's own.
    case sqlite(path: String, message: String)
    /// The file is not an MBTiles database MapRaster can use.
    case notMBTiles(path: String, reason: String)
    /// The output exists and neither overwriting nor resuming was asked for.
    case outputExists(path: String)
    /// The file cannot be opened or read.
    case unreadable(path: String, reason: String)
    /// The file cannot be created (the operating system's reason in plain words).
    case uncreatable(path: String, reason: String)
    /// The file is not a PMTiles version 3 archive (wrong magic bytes or version).
    case notPMTiles(path: String, reason: String)
    /// A PMTiles archive whose header or directories are inconsistent (an offset or length past the end
    /// of the file or its section, a broken directory, leaf directories nested too deeply).
    case corruptPMTiles(path: String, reason: String)
    /// One tile's data cannot be used (bad gzip, inflating past the limit, unsupported compression).
    case badTile(path: String, tile: String, reason: String)
    /// A `{z}/{x}/{y}` tile path template without one of its placeholders.
    case badTemplate(template: String, reason: String)

    public var description: String {
        switch self {
        case let .sqlite(path, message): return "SQLite failed on '\(path)': \(message)"
        case let .notMBTiles(path, reason): return "'\(path)' is not a usable MBTiles file: \(reason)"
        case let .outputExists(path):
            return "'\(path)' exists; replace it only on purpose, or open it with resume: true to finish it"
        case let .unreadable(path, reason): return "cannot read '\(path)': \(reason)"
        case let .uncreatable(path, reason): return "cannot create '\(path)': \(reason)"
        case let .notPMTiles(path, reason): return "'\(path)' is not a PMTiles v3 archive: \(reason)"
        case let .corruptPMTiles(path, reason): return "PMTiles archive '\(path)' is corrupt: \(reason)"
        case let .badTile(path, tile, reason): return "tile \(tile) of '\(path)' is unusable: \(reason)"
        case let .badTemplate(template, reason): return "tile path template '\(template)': \(reason)"
        }
    }
}
