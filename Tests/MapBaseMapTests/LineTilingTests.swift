import Foundation
import MapData
import MapGeometry
import MapGraphics
import Testing

@testable import MapBaseMap

/// Lines as MapLibre's tiles hold them. Truth is MapLibre's own arithmetic done by hand: a vertex's
/// distance is stored as `floor(d * 1/2)` in units of 1/8192 of its tile and read back times 2
/// (`LINE_DISTANCE_SCALE`); geojson-vt cuts a GeoJSON line at each tile's square grown by 128/512 of a
/// tile; a vector tile's line or ring is drawn as the tile holds it, buffer included. The whole cases
/// are checked against MapLibre's images in MapLibreConformanceTests (line-dasharray/long-segment,
/// line-dasharray/slant, line-gradient/color-interpolation-transparent).
@Suite("Line tiling: MapLibre's tile pieces, tile rings and quantized distances")
struct LineTilingTests {
    static func line(_ points: [(Int32, Int32)]) -> VectorTileFeature {
        VectorTileFeature(
            id: 7, properties: [:], geometry: .lines([points.map { VectorTilePoint(x: $0.0, y: $0.1) }]))
    }

    static func polygon(_ points: [(Int32, Int32)]) -> VectorTileFeature {
        VectorTileFeature(
            id: nil, properties: [:],
            geometry: .polygons([VectorTilePolygon(exterior: points.map { VectorTilePoint(x: $0.0, y: $0.1) })]))
    }

    @Test("a line wholly in the tile's buffer is kept for line layers only (an empty shape, its tile lines)")
    func bufferOnlyLine() throws {
        let tile = try TileID(z: 2, x: 1, y: 1)
        let size = TileID.mapPointSize(atZoom: 2)
        // 4096 is the tile's edge; this line lies 100 units beyond it, in the buffer.
        let feature = try #require(
            VectorSource.feature(Self.line([(10, 4196), (4000, 4196)]), tile: tile, extent: 4096))
        guard case .lines(let pieces) = feature.shape else {
            Issue.record("not a line")
            return
        }
        #expect(pieces.isEmpty)
        #expect(feature.id == .number(7))
        let buffered = try #require(feature.bufferedLines)
        #expect(buffered.count == 1)
        #expect(abs(buffered[0][0].y - (size + 4196 * size / 4096)) < 1e-6)
        // Its bounds are the buffered line's, so a view near the tile's edge selects it.
        #expect(abs(feature.bounds.minY - buffered[0][0].y) < 1e-6)
        #expect(feature.tileBounds == MapRect(x: size, y: size, width: size, height: size))
    }

    @Test("a polygon's tile rings are kept when the tile's square cut them, not when it did not")
    func polygonRings() throws {
        let tile = try TileID(z: 1, x: 0, y: 0)
        // Clockwise on screen (y down), as the MVT spec orders exterior rings.
        let inside = try #require(
            VectorSource.feature(Self.polygon([(10, 10), (100, 10), (100, 100), (10, 100)]), tile: tile, extent: 4096))
        #expect(inside.bufferedLines == nil)
        let crossing = try #require(
            VectorSource.feature(
                Self.polygon([(4000, 10), (4200, 10), (4200, 100), (4000, 100)]), tile: tile, extent: 4096))
        let rings = try #require(crossing.bufferedLines)
        let unit = TileID.mapPointSize(atZoom: 1) / 4096
        #expect(rings.count == 1 && rings[0].count == 4)
        // The ring as the tile holds it: its first vertex and the one in the buffer.
        #expect(abs(rings[0][0].x - 4000 * unit) < 1e-6 && abs(rings[0][1].x - 4200 * unit) < 1e-6)
    }

    @Test("vertex distances are MapLibre's: floor(d / 2) x 2 in 1/8192 of the tile, restarting past 8192 steps")
    func quantizedDistances() {
        // A tile 1024 points wide: one unit is 1/8 point, one step (two units) 1/4 point.
        let tileWidth = 1024.0
        var t = LineTessellator(cap: .butt, join: .miter, miterLimit: 2, roundLimit: 1.05, outset: 2, offset: 0)
        t.distanceQuantum = tileWidth * 2 / 8192
        let xs = [0, 10.3, 20.9, 31.45]
        t.add(xs.map { Point(x: $0, y: 5) }, closed: false)
        var distances: [Double] = []
        for v in t.mesh.vertices where distances.last != v.distance { distances.append(v.distance) }
        let expected = xs.map { x -> Double in
            let units = x * 8192 / tileWidth
            return (units * 0.5).rounded(.down) * 2 * tileWidth / 8192
        }
        #expect(distances == expected)
        // Past 2^15 / 2 steps (MAX_LINE_DISTANCE / 2 units: two tiles) the distance starts again from 0.
        var long = LineTessellator(cap: .butt, join: .miter, miterLimit: 2, roundLimit: 1.05, outset: 2, offset: 0)
        long.distanceQuantum = t.distanceQuantum
        long.wrapsDistance = true
        long.add([Point(x: 0, y: 0), Point(x: 2100, y: 0), Point(x: 2200, y: 0)], closed: false)
        let last = long.mesh.vertices.map(\.distance)
        // 2100 points is 16800 units > 16384: the pair at x = 2100 is repeated at 0, x = 2200 is 100 on.
        #expect(last.contains(0) && abs((last.last ?? 0) - 100) < 1e-9)
    }

    @Test("geojson-vt's pieces: a long line cut at each tile's square grown by a quarter tile")
    func geojsonPieces() {
        let z = 3
        let size = TileID.mapPointSize(atZoom: z)
        // Along the middle of row 2, from tile 1's middle to tile 5's middle.
        let y = 2.5 * size
        let line = [MapPoint(x: 1.5 * size, y: y), MapPoint(x: 5.5 * size, y: y)]
        let window = MapRect(x: 2 * size, y: 2 * size, width: 2 * size - 1, height: size - 1)  // tiles 2 and 3
        let pieces = LineLayerRenderer.geojsonTilePieces(line, zoom: z, window: window)
        #expect(pieces.count == 2)
        for (piece, tx) in zip(pieces, [2.0, 3.0]) {
            #expect(piece.tile == MapRect(x: tx * size, y: 2 * size, width: size, height: size))
            #expect(abs(piece.points[0].x - (tx - 0.25) * size) < 1e-6)
            #expect(abs(piece.points[piece.points.count - 1].x - (tx + 1.25) * size) < 1e-6)
            // Fractions of the whole line (4 tiles long).
            #expect(abs(piece.start - (tx - 0.25 - 1.5) / 4) < 1e-12)
            #expect(abs(piece.end - (tx + 1.25 - 1.5) / 4) < 1e-12)
        }
        // Vertices fall on the tile's grid of 8192 (halves rounded up).
        let odd = [MapPoint(x: 2.3 * size + size / 8192 * 0.5, y: y), MapPoint(x: 2.6 * size, y: y)]
        let snapped = LineLayerRenderer.geojsonTilePieces(odd, zoom: z, window: window)
        #expect(snapped.count == 1)
        let units = (snapped[0].points[0].x - 2 * size) / (size / 8192)
        #expect(abs(units - units.rounded()) < 1e-6)
    }

    @Test("a tile line is cut into runs of whole segments meeting the view, with one more either side")
    func wholeSegments() {
        let rect = Rect(x: 0, y: 0, width: 100, height: 100)
        // Segments: far left, entering, inside, leaving, far right, further right.
        let line = [-300.0, -200, -50, 50, 150, 300, 400].map { Point(x: $0, y: 50) }
        let pieces = LineLayerRenderer.wholeSegments(line, closed: false, within: rect)
        #expect(pieces.count == 1)
        // The neighbours of the segments that meet the view are kept whole: from -200 to 300.
        #expect(pieces[0].points.map(\.x) == [-200, -50, 50, 150, 300])
        #expect(pieces[0].startLength == 100)
        #expect(pieces[0].lineLength == 700)
        // A ring whose run passes through its first vertex stays whole and closed.
        let ring = [Point(x: 50, y: 50), Point(x: 500, y: 50), Point(x: 500, y: 500), Point(x: -10, y: 500)]
        let closed = LineLayerRenderer.wholeSegments(ring, closed: true, within: rect)
        #expect(closed.count == 1 && closed[0].closed && closed[0].points.count == 4)
    }
}
