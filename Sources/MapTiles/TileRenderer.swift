import Foundation
import MapAnnotations
import MapBaseMap
import MapGeometry
import MapGraphics
import MapOverlays
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
    /// Encoded single-color tiles by color, shared across threads.
    private let singleColorCache = OnceCache<[UInt8], Data>()

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

    /// Lays out the base map's labels and the annotation views of a whole zoom level once, so that
    /// every metatile of that zoom draws them identically (see ``MapSnapshotter/sharedPlacement``).
    package func placement(forZoom z: Int, metatiles: [Metatile]) throws -> SharedPlacement? {
        let tiles = metatiles.filter { $0.z == z }.flatMap(\.tiles)
        guard let first = metatiles.first(where: { $0.z == z }), !tiles.isEmpty else { return nil }
        let side = TileID.mapPointSize(atZoom: z)
        var area = MapRect.null
        for tile in tiles { area = area.union(tile.mapRect) }
        return try sharedPlacement(covering: area, zoomSide: side, first: first)
    }

    /// Lays out the labels and annotation views of the pyramid's whole zoom `z` once (see
    /// ``placement(forZoom:metatiles:)``), from the zoom's tile ranges rather than a list of its metatiles.
    package func placement(forZoom z: Int) throws -> SharedPlacement? {
        guard let grid = pyramid.grid(atZoom: z), let first = pyramid.metatiles(atZoom: z).first(where: { _ in true })
        else { return nil }
        let side = TileID.mapPointSize(atZoom: z)
        var area = MapRect.null
        for part in grid.columns where !part.isEmpty {
            area = area.union(
                MapRect(
                    x: Double(part.lowerBound) * side, y: Double(grid.rows.lowerBound) * side,
                    width: Double(part.count) * side, height: Double(grid.rows.count) * side))
        }
        return try sharedPlacement(covering: area, zoomSide: side, first: first)
    }

    private func sharedPlacement(covering tiles: MapRect, zoomSide side: Double, first: Metatile) throws
        -> SharedPlacement?
    {
        // One tile more on each side, so that labels of features just outside compete as they should.
        var area = tiles.insetBy(dx: -side, dy: -side)
        let top = max(0, area.minY)
        area = MapRect(x: area.minX, y: top, width: area.width, height: min(WebMercator.worldSize, area.maxY) - top)
        return try makeSnapshotter(options(for: first)).makeSharedPlacement(covering: area)
    }

    private func options(for metatile: Metatile) -> MapSnapshotter.Options {
        let side = Double(pyramid.tileSize)
        var options = MapSnapshotter.Options(
            size: Size(width: Double(metatile.columns.count) * side, height: Double(metatile.rows.count) * side),
            scale: Double(pyramid.scale))
        options.visibleMapRect = metatile.mapRect
        options.showsAttribution = false
        return options
    }

    /// Renders one metatile and returns its pyramid tiles, encoded, in (row, column) order; `skip` leaves
    /// tiles out (already written, when resuming); `placement` is its zoom's shared label and annotation
    /// layout.
    package func render(_ metatile: Metatile, skip: Set<TileID> = [], placement: SharedPlacement? = nil) throws
        -> [(TileID, Data)]
    {
        let wanted = metatile.tiles.filter { !skip.contains($0) }
        guard let left = wanted.map(\.x).min(), let right = wanted.map(\.x).max(), let top = wanted.map(\.y).min(),
            let bottom = wanted.map(\.y).max()
        else { return [] }
        // Only the block of the wanted tiles is drawn: at the low zooms of a small pyramid a metatile of 64
        // tiles holds one or two of them (tiles are cut at whole tiles, so their pixels do not move).
        var options = options(for: metatile)
        let side = Double(pyramid.tileSize)
        let mapSide = TileID.mapPointSize(atZoom: metatile.z)
        options.size = Size(width: Double(right - left + 1) * side, height: Double(bottom - top + 1) * side)
        options.visibleMapRect = MapRect(
            x: Double(left) * mapSide, y: Double(top) * mapSide, width: Double(right - left + 1) * mapSide,
            height: Double(bottom - top + 1) * mapSide)
        let snapshotter = try makeSnapshotter(options)
        snapshotter.sharedPlacement = placement
        let image = try snapshotter.snapshot().image
        let pixels = pyramid.pixelSize
        return try wanted.map { tile in
            let x = (tile.x - left) * pixels
            let y = (tile.y - top) * pixels
            // An opaque PNG tile is encoded straight from the metatile surface (the same bytes, no RGBA copy).
            if pyramid.format == .png {
                if let color = image.singleColor(x: x, y: y, width: pixels, height: pixels), color[3] == 255 {
                    let data = try singleColorCache.value(color) {
                        try encodeFresh(
                            RGBAImage(
                                width: pixels, height: pixels,
                                bytes: image.rgbaBytes(x: x, y: y, width: pixels, height: pixels)))
                    }
                    return (tile, data)
                }
                if let data = try image.opaquePNGData(
                    x: x, y: y, width: pixels, height: pixels, compressionLevel: pyramid.compressionLevel)
                {
                    return (tile, data)
                }
            }
            // Each tile is read straight out of the metatile surface: one pass, no full-size copy.
            let bytes = image.rgbaBytes(x: x, y: y, width: pixels, height: pixels)
            return (tile, try encode(RGBAImage(width: pixels, height: pixels, bytes: bytes)))
        }
    }

    /// Encodes a tile; single-color tiles (open ocean) are encoded once per color.
    func encode(_ tile: RGBAImage) throws -> Data {
        if tile.isSingleColor {
            let key = Array(tile.bytes.prefix(4))
            return try singleColorCache.value(key) { try encodeFresh(tile) }
        }
        return try encodeFresh(tile)
    }

    private func encodeFresh(_ tile: RGBAImage) throws -> Data {
        try tile.encoded(as: pyramid.format, quality: pyramid.quality, compressionLevel: pyramid.compressionLevel)
    }
}
