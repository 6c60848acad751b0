import MapGeometry
import MapGraphics
import MapRaster

/// Raster tiles drawn under a camera against an independent sampling: each pixel of a grid (every 10th, from
/// the 6th) is taken back to the map point the viewport's own inverse puts under it, and compared with the
/// bilinear sample of the zoom-2 tile (256 texels a side, 4 x 4 over the world) at that point, away from tile
/// edges (where a neighbour's texels blend in).
public enum GroundSamples {
    /// A 320x240 view of (10 N, 20 E) at zoom 2 (tile zoom 2) under a camera of `heading` and `pitch`, without
    /// attribution.
    public static func options(heading: Double, pitch: Double) throws -> MapSnapshotter.Options {
        let center = LocationCoordinate2D(latitude: 10, longitude: 20)
        let size = Size(width: 320, height: 240)
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: 2).visibleMapRect
        options.camera = try MapCamera(
            lookingAtCenter: center,
            fromDistance: MapCamera.distance(forZoomLevel: 2, latitude: 10, height: 240), pitch: pitch,
            heading: heading)
        options.showsAttribution = false
        return options
    }

    /// The pixels compared and the colour channels of them more than 2 levels from the tile's sample.
    /// `tile(x, y)` reads tile 2/x/y.
    public static func compare(_ snapshot: Snapshot, tile: (Int, Int) throws -> RGBAImage) throws -> (
        checked: Int, far: Int
    ) {
        let tileSide = MapRect.world.width / 4
        var tiles: [Int: RGBAImage] = [:]
        var checked = 0
        var far = 0
        let image = snapshot.image
        for py in stride(from: 5, to: image.height, by: 10) {
            for px in stride(from: 5, to: image.width, by: 10) {
                let p = snapshot.viewport.mapPoint(for: Point(x: Double(px) + 0.5, y: Double(py) + 0.5))
                guard p.x > 0, p.x < MapRect.world.width, p.y > 0, p.y < MapRect.world.height else { continue }
                let (tx, ty) = (Int(p.x / tileSide), Int(p.y / tileSide))
                if tiles[ty * 4 + tx] == nil { tiles[ty * 4 + tx] = try tile(tx, ty) }
                guard let texels = tiles[ty * 4 + tx], texels.width == 256, texels.height == 256 else { continue }
                let u = (p.x - Double(tx) * tileSide) / tileSide * 256 - 0.5
                let v = (p.y - Double(ty) * tileSide) / tileSide * 256 - 0.5
                guard u > 1, u < 254, v > 1, v < 254 else { continue }
                let (x0, y0) = (Int(u.rounded(.down)), Int(v.rounded(.down)))
                let (fx, fy) = (u - Double(x0), v - Double(y0))
                let drawn = image.rgbaBytes(x: px, y: py, width: 1, height: 1)
                for c in 0..<3 {
                    func t(_ x: Int, _ y: Int) -> Double { Double(texels.bytes[(y * 256 + x) * 4 + c]) }
                    let top = t(x0, y0) * (1 - fx) + t(x0 + 1, y0) * fx
                    let bottom = t(x0, y0 + 1) * (1 - fx) + t(x0 + 1, y0 + 1) * fx
                    if abs(Double(drawn[c]) - (top * (1 - fy) + bottom * fy)) > 2 { far += 1 }
                }
                checked += 1
            }
        }
        return (checked, far)
    }
}
