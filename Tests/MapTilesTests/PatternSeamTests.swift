import Foundation
import MapDiff
import MapGeometry
import MapGraphics
import MapRaster
import MapTestSupport
import MapTiles
import Testing

@Suite("Patterns across tile seams")
struct PatternSeamTests {
    @Test(
        "a wetland pattern over the corner of four zoom-15 tiles: the tiles (one per metatile) stitched equal one image of the same area, at scale 1 and 2"
    )
    func patternSeam() throws {
        // The case's style.json: a polygon filled with the streets sprite's wetland pattern (over a green fill),
        // outlined, over the corner where four zoom-15 tiles meet; the golden is the 2x2 tiles at its scale.
        let golden = try GoldenCase.load("tiles/pattern-seam")
        let style = try #require(golden.options().style)
        let z = Int(try golden.number("zoom"))
        let tiles = try golden.numbers("tiles").map { Int($0) }
        let metatileSize = Int(try golden.number("metatileSize"))
        for scale in try golden.numbers("scales").map({ Int($0) }) {
            // The block of tiles whose shared corner is in the polygon.
            let corner = MapPoint(try golden.value("corner", as: LocationCoordinate2D.self))
            let side = TileID.mapPointSize(atZoom: z)
            let x0 = Int((corner.x / side).rounded()) - tiles[0] / 2
            let y0 = Int((corner.y / side).rounded()) - tiles[1] / 2
            let block = MapRect(
                x: Double(x0) * side, y: Double(y0) * side, width: Double(tiles[0]) * side,
                height: Double(tiles[1]) * side)
            let pyramid = try TilePyramid(
                area: block.insetBy(dx: side / 100, dy: side / 100).boundingBox, minZoom: z, maxZoom: z, scale: scale,
                metatileSize: metatileSize)
            let renderer = TileRenderer(pyramid: pyramid) { options in
                var options = options
                options.style = style
                options.showsAttribution = false
                return try MapSnapshotter(options: options)
            }
            let sink = MemorySink()
            _ = try TileJob(renderer: renderer, threads: 1).run(into: sink, resume: false)
            let pixels = 256 * scale
            let stitched = try TileRenderingTests.stitch(
                sink, z: z, x0: x0, y0: y0, columns: tiles[0], rows: tiles[1], pixels: pixels)
            var options = MapSnapshotter.Options(size: golden.pointSize, scale: Double(scale))
            options.visibleMapRect = block
            options.style = style
            options.showsAttribution = golden.attribution ?? true
            let whole = RGBAImage(try MapSnapshotter(options: options).snapshot().image)
            // The pattern is aligned to the map, not to each tile: every pixel equals the single image's.
            let result = try PixelMatch.compare(whole, stitched)
            #expect(result.differentPixels == 0, "scale \(scale): \(result)")
            if Double(scale) == golden.pixelScale {
                #expect(
                    golden.check(
                        try ImageSurface(rgba: stitched.bytes, width: stitched.width, height: stitched.height)) == nil)
            }
        }
    }
}
