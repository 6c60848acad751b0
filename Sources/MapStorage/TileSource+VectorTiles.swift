import Foundation
import MapData
import MapGeometry

extension TileSourceInfo {
    /// The tile to read for a view's tile `id`: `id` itself within minZoom...maxZoom, its ancestor at
    /// ``maxZoom`` when `id` is deeper (overzoom: a zoom-18 view draws from the zoom-14 tile), or nil
    /// above ``minZoom``, where the source has nothing.
    ///
    /// ```swift
    /// let wanted = try TileID(z: 18, x: 132_101, y: 95_837)
    /// let stored = source.info.sourceTile(for: wanted)   // 14/8256/5989
    /// ```
    public func sourceTile(for id: TileID) -> TileID? {
        guard id.z >= minZoom else { return nil }
        guard id.z > maxZoom else { return id }
        let shift = id.z - maxZoom
        return try? TileID(z: maxZoom, x: id.x >> shift, y: id.y >> shift)
    }

    /// Where the view's tile `id` lies inside the tile that ``sourceTile(for:)`` returns, in that tile's own
    /// coordinates scaled to 0...1: (x, y, size) with size 1 when no overzoom is needed and 1/2^k for k
    /// zooms of overzoom. Multiply by the layer's extent for tile coordinates.
    public func overzoomWindow(for id: TileID) -> (x: Double, y: Double, size: Double) {
        guard id.z > maxZoom else { return (0, 0, 1) }
        let shift = id.z - maxZoom
        let size = 1 / Double(1 << shift)
        let mask = (1 << shift) - 1
        return (Double(id.x & mask) * size, Double(id.y & mask) * size, size)
    }
}

extension TileSource {
    /// The vector tile with XYZ id `id`, decoded lazily (layers on demand), or nil when the source has no
    /// such tile.
    ///
    /// ```swift
    /// if let tile = try source.vectorTile(TileID(z: 14, x: 8529, y: 5974)),
    ///    let roads = try tile.layer(named: "transportation") { ... }
    /// ```
    ///
    /// - Throws: ``StorageError/badTile(path:tile:reason:)`` naming the source and the tile when the data
    ///   is not a vector tile; other ``StorageError``s when the source cannot be read. Errors from
    ///   ``VectorTile/layer(named:)`` later are ``VectorTileError``s: wrap them with ``badVectorTile(_:_:)``.
    public func vectorTile(_ id: TileID) throws -> VectorTile? {
        guard let data = try tile(id) else { return nil }
        do {
            return try VectorTile(data: data)
        } catch {
            throw badVectorTile(id, error)
        }
    }

    /// A ``StorageError`` naming this source and the tile for a decoding error found in it.
    public func badVectorTile(_ id: TileID, _ error: VectorTileError) -> StorageError {
        .badTile(path: location, tile: "\(id)", reason: error.description)
    }
}
