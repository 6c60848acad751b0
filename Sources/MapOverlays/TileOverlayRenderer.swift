import Foundation
import MapGeometry
import MapGraphics

/// Draws a ``TileOverlay``: the tiles of the zoom level nearest the view's (within the overlay's
/// `minimumZ...maximumZ`; more detailed views enlarge the most detailed tiles, less detailed views show
/// nothing), put together into one image at their own resolution and scaled into place at once, so that
/// neighbours meet without seams. Under a heading or a pitch each tile lies on the turned or tilted ground
/// as a raster layer's tiles do (``Rasterizer/addOnGround(_:over:projection:linear:opacity:)``, edge texels
/// repeated so tiles meet without seams). Missing tiles leave the map visible. Mirrors MapKit's
/// `MKTileOverlayRenderer`.
public final class TileOverlayRenderer: OverlayRenderer {
    /// The tile overlay drawn.
    public let tileOverlay: TileOverlay
    private var images: [TileID: ImageSurface] = [:]

    /// Creates a renderer for a tile overlay.
    public init(tileOverlay: TileOverlay) {
        self.tileOverlay = tileOverlay
        super.init(overlay: tileOverlay)
    }

    /// The tile zoom drawn for a view, or nil when the view is less detailed than `minimumZ`.
    func tileZoom(for viewport: MapViewport) -> Int? {
        let z = MapViewport.tileZoom(for: viewport.zoomLevel - log2(tileOverlay.tileSize / 256))
        guard z >= tileOverlay.minimumZ else { return nil }
        return min(z, tileOverlay.maximumZ)
    }

    /// The tiles that meet the view at zoom `z`, with the east-west shift of the world copy each is in.
    func visibleTiles(for viewport: MapViewport, z: Int) -> [(tile: TileID, offset: Double)] {
        let side = TileID.mapPointSize(atZoom: z)
        let rect = viewport.visibleMapRect
        let n = 1 << z
        let x0 = Int((rect.minX / side).rounded(.down))
        let x1 = Int((rect.maxX / side).rounded(.up)) - 1
        let y0 = max(0, Int((rect.minY / side).rounded(.down)))
        let y1 = min(n - 1, Int((rect.maxY / side).rounded(.up)) - 1)
        guard y0 <= y1, x0 <= x1 else { return [] }
        var result: [(TileID, Double)] = []
        for y in y0...y1 {
            for x in x0...x1 {
                let wrapped = ((x % n) + n) % n
                let offset = Double(x - wrapped) * side
                if let tile = try? TileID(z: z, x: wrapped, y: y) { result.append((tile, offset)) }
            }
        }
        return result
    }

    /// Loads the tiles the view needs.
    ///
    /// - Throws: ``OverlayError/unreadableTile(path:reason:)`` for a tile file that is not a PNG.
    public override func prepare(for viewport: MapViewport) throws {
        images = [:]
        guard let z = tileZoom(for: viewport) else { return }
        for (tile, _) in visibleTiles(for: viewport, z: z) where images[tile] == nil {
            if let image = try tileOverlay.loadTile(tile) { images[tile] = image }
        }
    }

    public override func render(in context: GraphicsContext, viewport: MapViewport) {
        guard let z = tileZoom(for: viewport) else { return }
        let visible = visibleTiles(for: viewport, z: z)
        guard !visible.isEmpty, visible.contains(where: { images[$0.tile] != nil }) else { return }
        guard viewport.projection.isNorthUpAndFlat else {
            let rasterizer = context.makeRasterizer()
            for entry in visible {
                guard let image = images[entry.tile], let texture = Texture(premultiplied: image) else { continue }
                rasterizer.addOnGround(
                    texture, over: entry.tile.mapRect.offsetBy(dx: entry.offset, dy: 0),
                    projection: viewport.projection, linear: true, opacity: alpha)
            }
            context.draw(rasterizer)
            return
        }
        // Put the tiles side by side in one image at their own resolution, then draw that image once:
        // scaling tiles one by one would blend each tile's edge with transparency and show seams.
        let side = TileID.mapPointSize(atZoom: z)
        let columns = visible.map { Int((($0.offset + Double($0.tile.x) * side) / side).rounded()) }
        let rows = visible.map(\.tile.y)
        let minColumn = columns.min()!
        let minRow = rows.min()!
        let pixels = images.values.map(\.width).max() ?? 256
        guard
            let mosaic = try? ImageSurface(
                width: (columns.max()! - minColumn + 1) * pixels, height: (rows.max()! - minRow + 1) * pixels),
            let mosaicContext = try? GraphicsContext(surface: mosaic)
        else { return }
        for (k, entry) in visible.enumerated() {
            guard let image = images[entry.tile] else { continue }
            mosaicContext.draw(
                image,
                in: Rect(
                    x: Double((columns[k] - minColumn) * pixels), y: Double((rows[k] - minRow) * pixels),
                    width: Double(pixels), height: Double(pixels)))
        }
        let origin = MapPoint(x: Double(minColumn) * side, y: Double(minRow) * side)
        let a = viewport.point(for: origin)
        let b = viewport.point(
            for: MapPoint(
                x: origin.x + Double(mosaic.width / pixels) * side, y: origin.y + Double(mosaic.height / pixels) * side)
        )
        context.withSavedState {
            context.setAlpha(alpha)
            context.draw(mosaic, in: Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y))
        }
    }
}
