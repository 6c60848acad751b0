import Foundation
import MapRaster
import MapTiles

/// Raster tiles drawn as `mapraster tiles` draws them: each metatile once for all its tiles, with the labels
/// of its zoom laid out region by region (`LabelRegions`), so that a served tile is byte-identical to the tile
/// a pyramid of the same style, zoom, tile size, scale and metatile size holds, and a label that crosses a
/// tile edge is drawn whole on both sides.
package final class MetatileRenderer: Sendable {
    /// What makes a metatile's tiles: the style, the pyramid's grid and the encoding.
    struct Key: Hashable, Sendable {
        let style: String
        let z: Int
        let x: Int
        let y: Int
        let size: Int
        let tileSize: Int
        let scale: Int
        let format: String
    }

    /// What makes a zoom's shared placement.
    struct PlacementKey: Hashable, Sendable {
        let style: String
        let z: Int
        let tileSize: Int
        let scale: Int
    }

    /// Encoded tiles of recently drawn metatiles, and the metatiles being drawn (a request for a tile of a
    /// metatile another request is drawing waits for it rather than drawing it again).
    private let tiles: OnceCache<Key, [TileID: Data]>
    /// Each zoom's label regions, shared by every metatile of that zoom.
    private let placements = OnceCache<PlacementKey, SharedPlacement?>(capacity: 64)

    /// A renderer whose finished metatiles' tiles take at most `cacheBytes` (the newest metatile is kept).
    init(cacheBytes: Int) {
        tiles = OnceCache(costLimit: max(0, cacheBytes)) { tiles in tiles.values.reduce(0) { $0 + $1.count } }
    }

    /// Bytes of tiles held from drawn metatiles.
    var cachedBytes: Int { tiles.totalCost }

    /// The metatile size used for tiles of `tileSize` points at `scale`: `configured`, halved while the
    /// metatile would be over ``ServerConfiguration/maximumMetatilePixels`` a side or larger than the zoom's
    /// world.
    package static func metatileSize(configured: Int, z: Int, tileSize: Int, scale: Int) -> Int {
        var size = max(1, configured)
        while size > 1 && (size * tileSize * scale > ServerConfiguration.maximumMetatilePixels || size > 1 << z) {
            size /= 2
        }
        return size
    }

    /// The encoded tile `id` of style `entry`, cut from its metatile (drawn now or earlier); PNG tiles at zlib
    /// level `compressionLevel` (one per server, so the metatile key leaves it out).
    ///
    /// - Throws: what drawing or encoding throws (``MapRaster/RenderError``, ``GraphicsError``, ``TileError``).
    func tile(
        _ id: TileID, of entry: ServerConfiguration.StyleEntry, tileSize: Int, scale: Int, format: ImageFormat,
        metatileSize configured: Int, compressionLevel: Int, deadline: DispatchTime?
    ) throws -> Data {
        let size = Self.metatileSize(configured: configured, z: id.z, tileSize: tileSize, scale: scale)
        let pyramid = try TilePyramid(
            minZoom: id.z, maxZoom: id.z, tileSize: tileSize, scale: scale, metatileSize: size, format: format,
            compressionLevel: compressionLevel)
        guard let metatile = pyramid.metatile(containing: id) else {
            throw TileError.invalidOption("tile \(id)", "a tile of the world's grid")
        }
        let renderer = TileRenderer(pyramid: pyramid) { options in
            var options = options
            options.deadline = deadline
            let snapshotter = try MapSnapshotter(options: options)
            snapshotter.baseMap = entry.baseMap
            return snapshotter
        }
        let placementKey = PlacementKey(style: entry.id, z: id.z, tileSize: tileSize, scale: scale)
        let key = Key(
            style: entry.id, z: id.z, x: metatile.x, y: metatile.y, size: size, tileSize: tileSize, scale: scale,
            format: format.rawValue)
        let cut = try tiles.value(key, remembersFailure: false) {
            let placement = try placements.value(placementKey, remembersFailure: false) {
                try renderer.placement(forZoom: id.z)
            }
            return Dictionary(uniqueKeysWithValues: try renderer.render(metatile, placement: placement))
        }
        guard let data = cut[id] else { throw TileError.invalidOption("tile \(id)", "a tile of its metatile") }
        return data
    }
}
