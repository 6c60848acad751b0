import Foundation
import MapData
import MapGeometry
import MapRaster
import MapServer
import MapTiles
import Testing

/// Served raster tiles are the tiles `mapraster tiles` writes: cut from the same metatiles, with the labels laid
/// out in the same regions, byte for byte, also where a label crosses a tile edge.
@Suite("Served tiles equal pyramid tiles")
struct ServedTileTests {
    /// The z16 metatile of 8 x 8 tiles over Monaco's harbour (tile 34118/23896 and its neighbours).
    static let z = 16
    static let columns = 34112..<34120
    static let rows = 23896..<23904

    @Test("every tile of a Monaco z16 metatile, served, equals the pyramid's tile; labels cross inner tile edges")
    func servedTilesArePyramidTiles() throws {
        let side = TileID.mapPointSize(atZoom: Self.z)
        let rect = MapRect(
            x: Double(Self.columns.lowerBound) * side, y: Double(Self.rows.lowerBound) * side, width: 8 * side,
            height: 8 * side)
        let pyramid = try TilePyramid(
            area: rect.insetBy(dx: side / 100, dy: side / 100).boundingBox, minZoom: Self.z, maxZoom: Self.z)
        let renderer = TileRenderer(pyramid: pyramid) { options in
            var options = options
            options.style = try ShippedStyle.streets.style()
            return try MapSnapshotter(options: options)
        }
        let metatile = try #require(Array(pyramid.metatiles(atZoom: Self.z)).first)
        let placement = try #require(try renderer.placement(forZoom: Self.z))
        let written = try renderer.render(metatile, placement: placement)
        #expect(written.count == 64)
        for (id, data) in written {
            let served = TestServer.get("/styles/streets/\(id.z)/\(id.x)/\(id.y).png")
            #expect(served.status == 200)
            #expect(served.body == data, "tile \(id)")
        }
        let metrics = String(decoding: TestServer.get("/metrics").body, as: UTF8.self)
        let held = metrics.split(separator: "\n").first { $0.hasPrefix("mapraster_metatile_cache_bytes ") }
        #expect((held?.split(separator: " ").last.flatMap { Int($0) } ?? 0) > 0, "the metatile's tiles are kept")
        // The metatile has labels, and some cross an inner tile edge (drawn in halves by two tiles).
        var options = MapSnapshotter.Options(size: Size(width: 2048, height: 2048))
        options.visibleMapRect = rect
        let bounds = try placement.labelBounds(meeting: try MapSnapshotter(options: options).viewport)
        let crossing = bounds.filter { box in
            let left = Int((box.minX / 256).rounded(.down))
            let right = Int((box.maxX / 256).rounded(.down))
            let top = Int((box.minY / 256).rounded(.down))
            let bottom = Int((box.maxY / 256).rounded(.down))
            return (left != right || top != bottom) && Self.columns.contains(left) && Self.columns.contains(right)
                && Self.rows.contains(top) && Self.rows.contains(bottom)
        }
        #expect(bounds.count >= 10, "\(bounds.count) labels")
        #expect(crossing.count >= 3, "\(crossing.count) labels cross an inner tile edge")
    }

    @Test("metatile sizes as the server uses them: the configured size, halved past 4096 pixels or the world")
    func metatileSizes() {
        #expect(ServerConfiguration().metatileSize == 8)
        // 8 x 256 points at @2x is 4096 pixels: kept; 512-point tiles at @2x halve it to 4.
        #expect(MetatileRenderer.metatileSize(configured: 8, z: 16, tileSize: 256, scale: 2) == 8)
        #expect(MetatileRenderer.metatileSize(configured: 8, z: 16, tileSize: 512, scale: 2) == 4)
        #expect(MetatileRenderer.metatileSize(configured: 16, z: 16, tileSize: 256, scale: 1) == 16)
        // Never more tiles than the zoom has across: z1 has 2.
        #expect(MetatileRenderer.metatileSize(configured: 8, z: 1, tileSize: 256, scale: 1) == 2)
        #expect(MetatileRenderer.metatileSize(configured: 8, z: 0, tileSize: 256, scale: 1) == 1)
        #expect(MetatileRenderer.metatileSize(configured: 1, z: 16, tileSize: 512, scale: 2) == 1)
    }
}
