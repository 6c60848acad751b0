import Foundation
import MapGeometry
import MapGraphics

/// Draws a ``TileOverlay``: the tiles of the zoom level nearest the view's (within the overlay's
/// `minimumZ...maximumZ`; more detailed views enlarge the most detailed tiles, less detailed views show
/// nothing), each scaled into its place with edges on device pixels so that neighbours meet without
/// seams. Missing tiles leave the map visible. Mirrors MapKit's `MKTileOverlayRenderer`.
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
            let url = tileOverlay.url(forTile: tile)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            do {
                images[tile] = try ImageSurface(contentsOfPNG: url)
            } catch {
                throw OverlayError.unreadableTile(path: url.path, reason: "\(error)")
            }
        }
    }

    public override func render(in context: GraphicsContext, viewport: MapViewport) {
        guard let z = tileZoom(for: viewport) else { return }
        context.withSavedState {
            context.setAlpha(alpha)
            for (tile, offset) in visibleTiles(for: viewport, z: z) {
                guard let image = images[tile] else { continue }
                let r = tile.mapRect.offsetBy(dx: offset, dy: 0)
                let a = viewport.point(for: r.origin)
                let b = viewport.point(for: MapPoint(x: r.maxX, y: r.maxY))
                // Snap the edges to device pixels.
                let s = viewport.scale
                let x0 = (a.x * s).rounded() / s
                let y0 = (a.y * s).rounded() / s
                let x1 = (b.x * s).rounded() / s
                let y1 = (b.y * s).rounded() / s
                context.draw(image, in: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            }
        }
    }
}
