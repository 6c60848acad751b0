import Foundation
import MapGeometry
import MapGraphics
import MapRender

/// Draws metatiles with a snapshotter and cuts them into encoded tiles.
///
/// Each metatile is one snapshot of its map rect at the pyramid's zoom, so lines, areas and annotation
/// views that cross inner tile edges are drawn once and cut; metatile edges fall on the world pixel grid,
/// so neighbouring metatiles draw shared features at identical pixel positions.
public final class TileRenderer: Sendable {
    /// The pyramid drawn.
    public let pyramid: TilePyramid
    private let makeSnapshotter: @Sendable (MapSnapshotter.Options) throws -> MapSnapshotter
    private let singleColorCache = EncodedTileCache()

    /// Creates a renderer. `makeSnapshotter` builds a configured snapshotter (base map, annotations,
    /// overlays) for the given options; it is called once per metatile, from several threads.
    public init(
        pyramid: TilePyramid,
        makeSnapshotter: @escaping @Sendable (MapSnapshotter.Options) throws -> MapSnapshotter = {
            try MapSnapshotter(options: $0)
        }
    ) {
        self.pyramid = pyramid
        self.makeSnapshotter = makeSnapshotter
    }

    /// Renders one metatile and returns its pyramid tiles, encoded, in (row, column) order; `skip` leaves
    /// tiles out (already written, when resuming).
    public func render(_ metatile: Metatile, skip: Set<TileID> = []) throws -> [(TileID, Data)] {
        let wanted = metatile.tiles.filter { !skip.contains($0) }
        guard !wanted.isEmpty else { return [] }
        let side = Double(pyramid.tileSize)
        var options = MapSnapshotter.Options(
            size: Size(width: Double(metatile.columns.count) * side, height: Double(metatile.rows.count) * side),
            scale: Double(pyramid.scale))
        options.visibleMapRect = metatile.mapRect
        options.showsAttribution = false
        let snapshotter = try makeSnapshotter(options)
        let image = RGBAImage(try snapshotter.snapshot().image)
        let pixels = pyramid.pixelSize
        return try wanted.map { tile in
            let crop = image.cropped(
                x: (tile.x - metatile.columns.lowerBound) * pixels, y: (tile.y - metatile.rows.lowerBound) * pixels,
                width: pixels, height: pixels)
            return (tile, try encode(crop))
        }
    }

    /// Encodes a tile; single-color tiles (open ocean) are encoded once per color.
    func encode(_ tile: RGBAImage) throws -> Data {
        if tile.isSingleColor {
            let key = Array(tile.bytes.prefix(4))
            return try singleColorCache.data(for: key) { try encodeFresh(tile) }
        }
        return try encodeFresh(tile)
    }

    private func encodeFresh(_ tile: RGBAImage) throws -> Data {
        switch pyramid.format {
        case .png: return try tile.pngData(compressionLevel: pyramid.compressionLevel)
        case .png8: return try tile.palettePNGData(compressionLevel: pyramid.compressionLevel)
        }
    }
}

/// Encoded single-color tiles by color, shared across threads.
final class EncodedTileCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [[UInt8]: Data] = [:]

    func data(for key: [UInt8], make: () throws -> Data) throws -> Data {
        lock.lock()
        if let data = entries[key] {
            lock.unlock()
            return data
        }
        lock.unlock()
        let data = try make()
        lock.lock()
        entries[key] = data
        lock.unlock()
        return data
    }
}
