/// A failure while rendering a snapshot.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Data the renderer ships with could not be loaded.
    case missingData(name: String, reason: String)
    /// A map type that this version cannot draw yet.
    case unsupportedMapType(String)
    /// Snapshot options that do not fit together.
    case invalidOptions(String)

    public var description: String {
        switch self {
        case let .missingData(name, reason): return "cannot load map data '\(name)': \(reason)"
        case let .unsupportedMapType(name):
            return "map type '\(name)' is not available in this version; use 'standard'"
        case let .invalidOptions(message): return message
        }
    }
}
