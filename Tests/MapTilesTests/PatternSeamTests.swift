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
    /// A polygon filled with the streets sprite's wetland pattern (over a green fill), outlined, over the
    /// corner where four zoom-15 tiles meet.
    static func style() throws -> Style {
        let json = #"""
            {"version": 8, "sprite": "sprites/streets",
             "sources": {"p": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[
               [1.5105, 42.5045], [1.5265, 42.5015], [1.5240, 42.4925], [1.5120, 42.4930], [1.5105, 42.5045]]]}}},
             "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#f2efe9"}},
              {"id": "marsh", "type": "fill", "source": "p", "paint": {"fill-color": "#d5e6dc"}},
              {"id": "marsh-pattern", "type": "fill", "source": "p", "paint": {"fill-pattern": "wetland"}},
              {"id": "marsh-edge", "type": "line", "source": "p", "paint": {"line-color": "#6f9fc4", "line-width": 1}}]}
            """#
        let folder = try #require(ShippedStyle.streets.url).deletingLastPathComponent()
        return try Style.decode(Data(json.utf8), source: "test", baseURL: folder)
    }

    @Test(
        "a wetland pattern over the corner of four zoom-15 tiles: the tiles (one per metatile) stitched equal one image of the same area, at scale 1 and 2"
    )
    func patternSeam() throws {
        let style = try Self.style()
        for scale in [1, 2] {
            // The 2x2 block of z15 tiles whose shared corner is in the polygon.
            let z = 15
            let corner = MapPoint(LocationCoordinate2D(latitude: 42.4985, longitude: 1.5185))
            let side = TileID.mapPointSize(atZoom: z)
            let x0 = Int((corner.x / side).rounded()) - 1
            let y0 = Int((corner.y / side).rounded()) - 1
            let block = MapRect(x: Double(x0) * side, y: Double(y0) * side, width: 2 * side, height: 2 * side)
            let pyramid = try TilePyramid(
                area: block.insetBy(dx: side / 100, dy: side / 100).boundingBox, minZoom: z, maxZoom: z, scale: scale,
                metatileSize: 1)
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
                sink, z: z, x0: x0, y0: y0, columns: 2, rows: 2, pixels: pixels)
            var options = MapSnapshotter.Options(size: Size(width: 512, height: 512), scale: Double(scale))
            options.visibleMapRect = block
            options.style = style
            options.showsAttribution = false
            let whole = RGBAImage(try MapSnapshotter(options: options).snapshot().image)
            // The pattern is aligned to the map, not to each tile: every pixel equals the single image's.
            let result = try PixelMatch.compare(whole, stitched)
            #expect(result.differentPixels == 0, "scale \(scale): \(result)")
            if scale == 2 {
                #expect(
                    GoldenImage.check(
                        try ImageSurface(rgba: stitched.bytes, width: stitched.width, height: stitched.height),
                        golden: "tiles/pattern-seam") == nil)
            }
        }
    }
}
