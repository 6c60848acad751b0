import MapGeometry

/// A failure while rendering a snapshot.
public enum RenderError: MapRasterError, Equatable {
    /// Data the renderer ships with could not be loaded.
    case missingData(name: String, reason: String)
    /// Snapshot options that do not fit together.
    case invalidOptions(String)

    public var description: String {
        switch self {
        case let .missingData(name, reason): return "cannot load map data '\(name)': \(reason)"
        case let .invalidOptions(message): return message
        }
    }
}
