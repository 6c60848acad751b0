import MapGeometry
import MapGraphics
import MapStyle
import Testing

@testable import MapBaseMap

/// `fill-extrusion-pattern`'s pieces, against values worked out by hand from MapLibre's bucket
/// (edge distances), geojson-vt's clip (ring pieces) and the pattern shader's lighting.
@Suite("fill-extrusion-pattern: edge distances, GeoJSON pieces, light")
struct ExtrusionPatternTests {
    typealias R = FillExtrusionLayerRenderer

    /// A closed 3-4-5 triangle walked from its first vertex: lengths truncated to whole units (one unit = 2
    /// points here), each wall starting where the walk reached its vertex; the closing vertex repeats the first.
    @Test func edgeDistancesWalkTheRing() {
        // Points: (0,0) -> (6,0) -> (6,8) -> (0,0); units of 2 points: 3, 4, 5.
        let ring = [Point(x: 0, y: 0), Point(x: 6, y: 0), Point(x: 6, y: 8), Point(x: 0, y: 0)]
        let edges = R.edgeDistances(ring, perPoint: 1, unit: 2)
        #expect(edges.map(\.start) == [0, 0, 3, 7])
        #expect(edges.map(\.length) == [0, 3, 4, 5])
        // The same ring without its closing vertex: the closing wall (index 0) comes last in the walk.
        let open = R.edgeDistances(Array(ring.dropLast()), perPoint: 1, unit: 2)
        #expect(open.map(\.start) == [7, 0, 3])
        #expect(open.map(\.length) == [5, 3, 4])
        // 1.9 units truncate to 1.
        let short = R.edgeDistances([Point(x: 0, y: 0), Point(x: 3.8, y: 0)], perPoint: 1, unit: 2)
        #expect(short[1].length == 1)
    }

    /// The walk restarts at 0 when it would pass 32767 units (MapLibre's 16-bit edge distance).
    @Test func edgeDistancesRestartPast32767() {
        let ring = [Point(x: 0, y: 0), Point(x: 20000, y: 0), Point(x: 40000, y: 0)]
        let edges = R.edgeDistances(ring, perPoint: 1, unit: 1)
        #expect(edges[1].start == 0)
        #expect(edges[2].start == 0)
        #expect(edges[2].length == 20000)
    }

    /// geojson-vt's clip of a diamond crossing a tile's lower edge: the part inside starts at the ring's
    /// first vertex (on the edge), repeats it where the ring leaves, and is closed.
    @Test func clipKeepsGeojsonVtOrder() {
        // y grows downwards; keep y in 0...10. A (0,10) on the edge, B (5,15) outside, C (10,10), D (5,5).
        let a = MapPoint(x: 0, y: 10)
        let b = MapPoint(x: 5, y: 15)
        let c = MapPoint(x: 10, y: 10)
        let d = MapPoint(x: 5, y: 5)
        let piece = R.clip([a, b, c, d, a], 0, 10, axis: 1)
        #expect(piece == [a, a, c, d, a])
        let other = R.clip([a, b, c, d, a], 10, 20, axis: 1)
        #expect(other == [a, b, c, c, a])
    }

    /// A ring inside one tile stays whole; one across a tile corner is cut into its tiles' pieces, each
    /// with its square.
    @Test func geojsonPiecesFollowTheTiles() {
        let size = WebMercator.worldSize / 4  // zoom 2
        let inside = [
            MapPoint(x: 10, y: 10), MapPoint(x: 20, y: 10), MapPoint(x: 20, y: 20), MapPoint(x: 10, y: 10),
        ]
        let whole = R.geojsonPieces(inside, z: 2)
        #expect(whole.count == 1)
        #expect(whole[0].ring == inside)
        #expect(whole[0].tile == MapRect(x: 0, y: 0, width: size, height: size))
        let across = [
            MapPoint(x: size - 10, y: size - 10), MapPoint(x: size + 10, y: size - 10),
            MapPoint(x: size + 10, y: size + 10), MapPoint(x: size - 10, y: size + 10),
            MapPoint(x: size - 10, y: size - 10),
        ]
        let pieces = R.geojsonPieces(across, z: 2)
        #expect(pieces.count == 4)
        for piece in pieces {
            // Each piece is the 10 x 10 corner of its tile: twice its area is 200.
            #expect(abs(R.area(piece.ring)) == 200)
            let t = piece.tile
            #expect(
                piece.ring.allSatisfy { $0.x >= t.minX && $0.x <= t.maxX && $0.y >= t.minY && $0.y <= t.maxY })
        }
    }

    /// The pattern shader's light (intensity 0.5, white light from straight above): a roof gets the top of
    /// the range, `max(0.5 + 0.5, 1)` = 1; a wall (normal across) gets its bottom, `1 - 0.5`, times the
    /// vertical gradient's ramp at the foot (`max(0 x ..., 0.7 + 0.28 x 0.5)` = 0.84).
    @Test func patternLight() {
        var style = StyleLight()
        style.anchor = .map
        style.position = (1, 0, 0)
        let light = R.Lighting(light: style, heading: 0)
        let roof = R.PatternSpace.light(light, normal: (0, 0, 1), top: 1, base: 0, height: 0, gradient: 1)
        #expect(abs(roof.red - 1) < 1e-12)
        let foot = R.PatternSpace.light(light, normal: (1, 0, 0), top: 0, base: 0, height: 10, gradient: 1)
        #expect(abs(foot.red - 0.5 * 0.84) < 1e-12)
    }

    /// The homography inverse: a matrix times its inverse is the identity.
    @Test func invert3() throws {
        let m = [2.0, 1, 0, 0, 3, 1, 1, 0, 4]
        let inverse = try #require(R.FacePattern.invert3(m))
        for r in 0..<3 {
            for c in 0..<3 {
                let v = (0..<3).reduce(0.0) { $0 + m[3 * r + $1] * inverse[3 * $1 + c] }
                #expect(abs(v - (r == c ? 1 : 0)) < 1e-12)
            }
        }
        #expect(R.FacePattern.invert3([1, 2, 3, 2, 4, 6, 0, 0, 1]) == nil)
    }
}
