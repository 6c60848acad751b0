import Foundation
import MapDiff
import MapGeometry
import MapGraphics
import MapRaster
import MapStorage
import MapTiles
import Testing

/// Tiles kept in memory.
final class MemorySink: TileSink {
    var tiles: [TileID: Data] = [:]
    var order: [TileID] = []
    func existingTiles() throws -> Set<TileID> { Set(tiles.keys) }
    func write(_ batch: [(TileID, Data)]) throws {
        for (tile, data) in batch {
            tiles[tile] = data
            order.append(tile)
        }
    }
    func finish() throws {}
}

@Suite("Tile rendering: seams, determinism, formats")
struct TileRenderingTests {
    /// Renders a pyramid into memory.
    static func render(_ pyramid: TilePyramid, threads: Int = 0, scene: (@Sendable (MapSnapshotter) -> Void)? = nil)
        throws -> MemorySink
    {
        let renderer = TileRenderer(pyramid: pyramid) { options in
            let snapshotter = try MapSnapshotter(options: options)
            scene?(snapshotter)
            return snapshotter
        }
        let sink = MemorySink()
        _ = try TileJob(renderer: renderer, threads: threads).run(into: sink, resume: false)
        return sink
    }

    /// Stitches `columns` x `rows` tiles starting at (x0, y0) (columns wrap around the world).
    static func stitch(_ sink: MemorySink, z: Int, x0: Int, y0: Int, columns: Int, rows: Int, pixels: Int) throws
        -> RGBAImage
    {
        var out = RGBAImage(width: columns * pixels, height: rows * pixels, red: 0, green: 0, blue: 0, alpha: 0)
        for row in 0..<rows {
            for column in 0..<columns {
                let id = try TileID(z: z, x: (x0 + column) % (1 << z), y: y0 + row)
                let data = try #require(sink.tiles[id], "tile \(id) missing")
                let tile = try RGBAImage(pngData: data, source: "\(id)")
                for y in 0..<pixels {
                    let from = y * pixels * 4
                    let to = ((row * pixels + y) * columns * pixels + column * pixels) * 4
                    out.bytes.replaceSubrange(to..<(to + pixels * 4), with: tile.bytes[from..<(from + pixels * 4)])
                }
            }
        }
        return out
    }

    /// A static render of the map rect of a block of tiles, with the labels and annotation views laid out
    /// once for the pyramid's zoom (as every metatile of it is drawn).
    static func staticRender(
        z: Int, x0: Int, y0: Int, columns: Int, rows: Int, pyramid: TilePyramid,
        scene: (@Sendable (MapSnapshotter) -> Void)? = nil
    ) throws -> RGBAImage {
        let renderer = TileRenderer(pyramid: pyramid) { options in
            let snapshotter = try MapSnapshotter(options: options)
            scene?(snapshotter)
            return snapshotter
        }
        let placement = try renderer.placement(forZoom: z, metatiles: pyramid.metatiles())
        let side = TileID.mapPointSize(atZoom: z)
        var options = MapSnapshotter.Options(size: Size(width: Double(columns * 256), height: Double(rows * 256)))
        options.visibleMapRect = MapRect(
            x: Double(x0) * side, y: Double(y0) * side, width: Double(columns) * side, height: Double(rows) * side)
        options.showsAttribution = false
        let snapshotter = try MapSnapshotter(options: options)
        scene?(snapshotter)
        snapshotter.sharedPlacement = placement
        return RGBAImage(try snapshotter.snapshot().image)
    }

    @Sendable static func pins(_ snapshotter: MapSnapshotter) {
        // Pins and a line placed across tile and metatile edges of z3/z4.
        for (lat, lon) in [(45.0, 0.0), (40.9799, 22.5), (66.5, -45.0), (0.0, 90.0), (10.0, 179.9), (-20.0, -179.8)] {
            snapshotter.addAnnotation(PointAnnotation(coordinate: LocationCoordinate2D(latitude: lat, longitude: lon)))
        }
        // A selected annotation on a metatile edge (0 degrees is an edge of the z3 and z4 metatiles of 4x4
        // tiles): its callout crosses the edge and must be placed once, not once per metatile.
        let selected = PointAnnotation(
            coordinate: LocationCoordinate2D(latitude: 30.0, longitude: 0.0), title: "On the edge",
            subtitle: "callout across a metatile seam")
        snapshotter.addAnnotation(selected)
        snapshotter.selectedAnnotations = [selected]
        snapshotter.addOverlay(
            Polyline(coordinates: [
                LocationCoordinate2D(latitude: 30, longitude: -30), LocationCoordinate2D(latitude: 60, longitude: 60),
            ]))
    }

    @Test(
        "a 4x4 block of tiles stitched equals a static render of its map rect, seams included",
        arguments: [
            (3, 2, 1), (4, 6, 3), (4, 8, 4),
        ])
    func stitch(z: Int, x0: Int, y0: Int) throws {
        // Only the block's metatiles: the area is the block's box, shrunk by a hair so no neighbour joins.
        let side = TileID.mapPointSize(atZoom: z)
        let block = MapRect(x: Double(x0) * side, y: Double(y0) * side, width: 4 * side, height: 4 * side)
            .insetBy(dx: side / 100, dy: side / 100).boundingBox
        let pyramid = try TilePyramid(area: block, minZoom: z, maxZoom: z, metatileSize: 4)
        let sink = try Self.render(pyramid) { Self.pins($0) }
        let stitched = try Self.stitch(sink, z: z, x0: x0, y0: y0, columns: 4, rows: 4, pixels: 256)
        let reference = try Self.staticRender(z: z, x0: x0, y0: y0, columns: 4, rows: 4, pyramid: pyramid) {
            Self.pins($0)
        }
        let result = try PixelMatch.compare(reference, stitched)
        #expect(result.differentRatio <= 0.001, "\(result.differentPixels) pixels differ at z\(z) \(x0),\(y0)")
        // Along the seams (the 3 inner columns and rows of pixel pairs) nothing may differ beyond AA.
        #expect(result.differentPixels <= 20, "\(result)")
    }

    @Test("across the antimeridian: a 4x4 block of z4 tiles (x = 14, 15, 0, 1) equals one static render across 180")
    func antimeridianStitch() throws {
        let pyramid = try TilePyramid(
            area: GeoBoundingBox(west: 150, south: -60, east: -150, north: 60), minZoom: 4, maxZoom: 4, metatileSize: 4)
        let sink = try Self.render(pyramid) { Self.pins($0) }
        let stitched = try Self.stitch(sink, z: 4, x0: 14, y0: 5, columns: 4, rows: 4, pixels: 256)
        let reference = try Self.staticRender(z: 4, x0: 14, y0: 5, columns: 4, rows: 4, pyramid: pyramid) {
            Self.pins($0)
        }
        let result = try PixelMatch.compare(reference, stitched)
        #expect(result.differentRatio <= 0.001, "\(result)")
        #expect(result.differentPixels <= 20, "\(result)")
    }

    @Test("a region (center and span) gives its box, across 180 too")
    func regionBox() {
        let box = TilePyramid.boundingBox(
            of: CoordinateRegion(
                center: LocationCoordinate2D(latitude: 0, longitude: 180),
                span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 40)))
        #expect(box == GeoBoundingBox(west: 160, south: -10, east: -160, north: 10))
        let world = TilePyramid.boundingBox(
            of: CoordinateRegion(
                center: LocationCoordinate2D(latitude: 0, longitude: 10),
                span: CoordinateSpan(latitudeDelta: 180, longitudeDelta: 360)))
        #expect(world.west == -180 && world.east == 180 && abs(world.north - WebMercator.maxLatitude) < 1e-12)
    }

    @Test("the same pyramid on 1 thread and on all cores gives byte-identical tiles")
    func threadCounts() throws {
        let pyramid = try TilePyramid(minZoom: 0, maxZoom: 3, metatileSize: 2)
        let one = try Self.render(pyramid, threads: 1)
        let all = try Self.render(pyramid, threads: 0)
        #expect(one.tiles == all.tiles)
        #expect(one.order == all.order)
        #expect(one.tiles.count == 85)
    }

    @Test(
        "png8 tiles: palette PNGs, smaller than png, at most 0.1 % of pixels differing (threshold 0.1)"
    )
    func png8() throws {
        let png = try Self.render(try TilePyramid(minZoom: 2, maxZoom: 2, format: .png))
        let png8 = try Self.render(try TilePyramid(minZoom: 2, maxZoom: 2, format: .png8))
        let pngBytes = png.tiles.values.reduce(0) { $0 + $1.count }
        let png8Bytes = png8.tiles.values.reduce(0) { $0 + $1.count }
        #expect(png8Bytes < pngBytes, "png8 \(png8Bytes) vs png \(pngBytes)")
        for (tile, data) in png8.tiles {
            #expect(data[25] == 3, "\(tile): color type 3 (indexed)")
            let a = try RGBAImage(pngData: png.tiles[tile]!, source: "png")
            let b = try RGBAImage(pngData: data, source: "png8")
            let diff = try PixelMatch.compare(a, b)
            #expect(diff.differentRatio <= 0.001, "\(tile): \(diff)")
        }
    }
}
