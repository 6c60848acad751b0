import MapData
import MapGeometry

/// A style file that cannot be used.
public enum StyleError: MapRasterError, Equatable {
    /// The file is not JSON; carries the line and column.
    case syntax(source: String, JSONError)
    /// The JSON is not a valid style; `path` says where, such as `layers[2].paint.fill-color`.
    case invalid(source: String, path: String, message: String)
    /// A file the style refers to cannot be read or decoded.
    case sourceData(source: String, path: String, message: String)

    public var description: String {
        switch self {
        case let .syntax(source, error): return "\(source): \(error.description)"
        case let .invalid(source, path, message): return "\(source): \(path): \(message)"
        case let .sourceData(source, path, message): return "\(source): \(path): \(message)"
        }
    }
}
