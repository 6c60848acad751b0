import MapGeometry

/// A JSON document that cannot be used: a style, a GeoJSON file or a scene. The one error of the
/// package's three document decoders (`StyleError`, ``GeoJSONError`` and `SceneError` are this type).
public enum DocumentError: MapRasterError, Equatable {
    /// The text is not JSON; carries the line and column.
    case syntax(source: String, JSONError)
    /// The JSON is not a valid document; `path` says where, such as `features[2].geometry.coordinates`
    /// or `layers[2].paint.fill-color`.
    case invalid(source: String, path: String, message: String)

    public var description: String {
        switch self {
        case let .syntax(source, error): return "\(source): invalid JSON at \(error.description)"
        case let .invalid(source, path, message): return "\(source): \(path): \(message)"
        }
    }
}
