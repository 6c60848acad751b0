/// A point in a vector tile's own integer coordinates: (0, 0) is the tile's top-left corner,
/// (extent, extent) its bottom-right, y grows downward; points outside 0...extent lie in the tile's buffer.
public struct VectorTilePoint: Sendable, Hashable {
    public var x: Int32
    public var y: Int32

    /// A point at tile coordinates (`x`, `y`).
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// A polygon of a vector tile: one exterior ring (positive area in tile coordinates, clockwise on screen)
/// and its holes (negative area), as MVT 2.1 section 4.3.4.4 defines them.
///
/// Rings are as encoded: the closing point (equal to the first) is implied, not repeated.
public struct VectorTilePolygon: Sendable, Hashable {
    public var exterior: [VectorTilePoint]
    public var holes: [[VectorTilePoint]]

    /// A polygon with the given rings.
    public init(exterior: [VectorTilePoint], holes: [[VectorTilePoint]] = []) {
        self.exterior = exterior
        self.holes = holes
    }
}

/// The decoded geometry of a feature, in tile coordinates.
public enum VectorTileGeometry: Sendable, Hashable {
    /// One or more points (POINT).
    case points([VectorTilePoint])
    /// One or more line strings (LINESTRING), each of at least two points.
    case lines([[VectorTilePoint]])
    /// One or more polygons with holes (POLYGON). Rings of zero area are dropped.
    case polygons([VectorTilePolygon])

    /// The MVT geometry type: 1 point, 2 linestring, 3 polygon.
    public var typeCode: Int {
        switch self {
        case .points: return 1
        case .lines: return 2
        case .polygons: return 3
        }
    }

    /// The style specification's name for it: "Point", "LineString" or "Polygon" (as `["geometry-type"]`
    /// and `$type` see it; multi-geometries report the same name as singles, as MapLibre does).
    public var typeName: String {
        switch self {
        case .points: return "Point"
        case .lines: return "LineString"
        case .polygons: return "Polygon"
        }
    }
}

/// One feature of a vector tile layer.
public struct VectorTileFeature: Sendable, Hashable {
    /// The feature's id, if it has one.
    public var id: UInt64?
    /// Its properties (the layer's keys and values its tags point to; a repeated key keeps the last value).
    public var properties: [String: VectorTileValue]
    /// Its geometry, in tile coordinates.
    public var geometry: VectorTileGeometry

    /// A feature with the given parts.
    public init(id: UInt64?, properties: [String: VectorTileValue], geometry: VectorTileGeometry) {
        self.id = id
        self.properties = properties
        self.geometry = geometry
    }
}
