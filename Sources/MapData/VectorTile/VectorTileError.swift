import MapGeometry

/// A vector tile that is not valid Mapbox Vector Tile 2.1 data.
///
/// Callers that know which tile they read (source name and z/x/y) add that to the message; these cases
/// say what is wrong inside the tile.
public enum VectorTileError: MapRasterError, Equatable {
    /// The protocol-buffers encoding is broken at byte `offset` (a truncated tile, a bad varint, a length
    /// past the end of its message, a field of the wrong wire type).
    case malformed(offset: Int, reason: String)
    /// A layer without a name, with an unsupported version, or with duplicate structure.
    case badLayer(layer: String, reason: String)
    /// A layer's extent is 0 or larger than ``VectorTile/maximumExtent``.
    case badExtent(layer: String, extent: UInt64)
    /// A feature's geometry type is none of UNKNOWN (0), POINT (1), LINESTRING (2), POLYGON (3).
    case unknownGeometryType(layer: String, feature: Int, type: UInt64)
    /// A feature's geometry commands break the specification (section 4.3), such as a command count past
    /// the end of the geometry, an unknown command, or a coordinate that overflows 32 bits.
    case badGeometry(layer: String, feature: Int, reason: String)
    /// A feature's tags are odd in number or point past the layer's keys or values.
    case badTags(layer: String, feature: Int, reason: String)

    public var description: String {
        switch self {
        case let .malformed(offset, reason): return "corrupt vector tile at byte \(offset): \(reason)"
        case let .badLayer(layer, reason): return "vector tile layer '\(layer)': \(reason)"
        case let .badExtent(layer, extent):
            return "vector tile layer '\(layer)': extent \(extent) is outside 1...\(VectorTile.maximumExtent)"
        case let .unknownGeometryType(layer, feature, type):
            return "vector tile layer '\(layer)', feature \(feature): unknown geometry type \(type)"
                + " (expected 1 point, 2 linestring or 3 polygon)"
        case let .badGeometry(layer, feature, reason):
            return "vector tile layer '\(layer)', feature \(feature): bad geometry: \(reason)"
        case let .badTags(layer, feature, reason):
            return "vector tile layer '\(layer)', feature \(feature): bad tags: \(reason)"
        }
    }
}
