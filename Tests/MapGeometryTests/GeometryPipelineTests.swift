import Foundation
import MapGeometry
import Testing

@Suite("Geometry pipeline stages: clipping, simplification, pole rings")
struct GeometryPipelineTests {
    @Test("a clipped line keeps the distance travelled to each re-entry, for dashes")
    func lineClipLengths() {
        // In and out of a 100x100 rect three times along y = 50.
        let points = [
            Point(x: -50, y: 50), Point(x: 50, y: 50), Point(x: 50, y: 150), Point(x: 80, y: 150),
            Point(x: 80, y: 50), Point(x: 200, y: 50),
        ]
        let (pieces, length) = LineClipper.clip(points, to: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(length == 100 + 100 + 30 + 100 + 120)
        #expect(pieces.count == 2)
        #expect(pieces[0].startLength == 50)
        #expect(pieces[0].points == [Point(x: 0, y: 50), Point(x: 50, y: 50), Point(x: 50, y: 100)])
        #expect(pieces[1].startLength == 100 + 100 + 30 + 50)
        #expect(pieces[1].points == [Point(x: 80, y: 100), Point(x: 80, y: 50), Point(x: 100, y: 50)])
        // The one-pass variant over map points gives the same pieces.
        let mapPoints = points.map { MapPoint(x: $0.x, y: $0.y) }
        let (onePass, onePassLength) = LineClipper.clip(
            mapPoints, project: { Point(x: $0.x, y: $0.y) }, to: Rect(x: 0, y: 0, width: 100, height: 100),
            tolerance: 0.01)
        #expect(onePassLength == length)
        #expect(onePass.map(\.points) == pieces.map(\.points))
        #expect(onePass.map(\.startLength) == pieces.map(\.startLength))
    }

    @Test("Sutherland-Hodgman keeps exactly the area inside the rect")
    func polygonClipArea() {
        func area(_ ring: [Point]) -> Double {
            var sum = 0.0
            for i in 0..<ring.count {
                let a = ring[i]
                let b = ring[(i + 1) % ring.count]
                sum += a.x * b.y - b.x * a.y
            }
            return abs(sum) / 2
        }
        // |x - 50| + |y - 50| <= 70 over the square 0...100: the square minus four corner triangles with
        // legs of 30.
        let diamond = [Point(x: 50, y: -20), Point(x: 120, y: 50), Point(x: 50, y: 120), Point(x: -20, y: 50)]
        let clipped = PolygonClipper.clip(diamond, to: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(abs(area(clipped) - (10_000 - 4 * 450)) < 1e-9)
    }

    @Test("simplification keeps every dropped vertex within the tolerance of the result")
    func simplifyBound() {
        var state: UInt64 = 42
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        var p = Point(x: 0, y: 0)
        var points: [Point] = []
        for _ in 0..<2_000 {
            p = Point(x: p.x + next() * 0.3 + 0.05, y: p.y + next() * 0.3)
            points.append(p)
        }
        let tolerance = 0.125
        let simplified = Simplifier.simplify(points, tolerance: tolerance)
        #expect(simplified.count < points.count / 2)
        #expect(simplified.first == points.first && simplified.last == points.last)
        // Each original vertex is near the simplified line (radial + Douglas-Peucker: within 2 tolerances).
        for q in points {
            var best = Double.infinity
            for (a, b) in zip(simplified, simplified.dropFirst()) {
                best = min(best, Simplifier.segmentDistance2(q, a, b))
            }
            #expect(best.squareRoot() <= 2 * tolerance + 1e-9)
        }
    }

    @Test("a ring round the north pole is closed along the map's top edge; its stroke is not")
    func poleClosure() throws {
        var viewport = try MapViewport(size: Size(width: 256, height: 256))
        viewport.visibleMapRect = .world
        let ring = stride(from: -180.0, to: 180, by: 10).map {
            MapPoint(LocationCoordinate2D(latitude: 70, longitude: $0))
        }
        let pipeline = GeometryPipeline(viewport: viewport, margin: 3, tolerance: 0.125)
        let prepared = pipeline.prepare(ShapeGeometry(parts: [.ring(ring)]), fills: true, strokes: true)
        #expect(prepared.hasFill)
        let ys = prepared.fill.elements.compactMap { element -> Double? in
            switch element {
            case .move(let p), .line(let p): return p.y
            default: return nil
            }
        }
        #expect(ys.min() == 0)  // the map's top edge
        #expect(prepared.strokes.allSatisfy { $0.points.allSatisfy { $0.y > 10 } })
    }

    @Test("outline parts beyond 85.05 degrees are not stroked")
    func edgeRuns() {
        let w = WebMercator.worldSize
        let runs = GeometryPipeline.runsOnTheMap([
            MapPoint(x: 0, y: 10), MapPoint(x: 1, y: 0), MapPoint(x: 2, y: 0), MapPoint(x: 3, y: 10),
            MapPoint(x: 4, y: w), MapPoint(x: 5, y: w),
        ])
        #expect(runs.count == 2)
        #expect(runs[0].count == 2 && runs[1].count == 3)
    }

    /// Runs between cut segments, worked by hand: a cut between two runs, cuts at both ends, two cuts in a
    /// row (the lone point between them is no run), and a ring's closing edge as the outline code passes it.
    @Test("runs(of:cutting:) splits a polyline at the cut segments and drops one-point runs")
    func runsBetweenCuts() {
        let cutAt = { (pairs: Set<[Int]>) in { (a: Int, b: Int) in pairs.contains([a, b]) } }
        #expect(runs(of: [1, 2, 3, 4], cutting: cutAt([[2, 3]])) == [[1, 2], [3, 4]])
        #expect(runs(of: [1, 2, 3, 4], cutting: cutAt([[1, 2], [3, 4]])) == [[2, 3]])
        #expect(runs(of: [1, 2, 3, 4, 5], cutting: cutAt([[2, 3], [3, 4]])) == [[1, 2], [4, 5]])
        #expect(runs(of: [1, 2, 3, 4], cutting: cutAt([])) == [[1, 2, 3, 4]])
        #expect(runs(of: [1], cutting: cutAt([])) == [])
        #expect(runs(of: [Int](), cutting: cutAt([])) == [])
        // A square ring (0, 1, 2, 3) whose edge 1-2 is a cut: one open outline 2, 3, 0, 1 is drawn in two runs
        // (the ring is walked from its first point, its closing edge 3-0 included).
        #expect(runs(of: [0, 1, 2, 3, 0], cutting: cutAt([[1, 2]])) == [[0, 1], [2, 3, 0]])
    }
}
