import Foundation
import MapGeometry
import Testing

/// Ear clipping checked against a second method: the triangles' areas must add up to the polygon's area
/// by the shoelace formula, and every triangle must wind one way and lie inside the polygon.
@Suite("PolygonTriangulation")
struct PolygonTriangulationTests {
    static func shoelace(_ ring: [Point]) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i]
            let b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }

    static func area(_ indices: [Int32], _ points: [Point]) -> Double {
        var total = 0.0
        for t in stride(from: 0, to: indices.count, by: 3) {
            let a = points[Int(indices[t])]
            let b = points[Int(indices[t + 1])]
            let c = points[Int(indices[t + 2])]
            total += abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / 2
        }
        return total
    }

    /// A star: `n` points alternating between two radii (concave at every other vertex).
    static func star(_ n: Int, inner: Double, outer: Double, cx: Double = 0, cy: Double = 0) -> [Point] {
        (0..<n).map { i in
            let angle = Double(i) / Double(n) * 2 * .pi
            let r = i % 2 == 0 ? outer : inner
            return Point(x: cx + r * cos(angle), y: cy + r * sin(angle))
        }
    }

    @Test("a square is two triangles covering it")
    func square() {
        let ring = [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 3), Point(x: 0, y: 3)]
        let indices = PolygonTriangulation.triangulate([ring])
        #expect(indices.count == 6)
        #expect(Self.area(indices, ring) == 12)
    }

    @Test("a closing point equal to the first, either winding")
    func closedAndReversed() {
        let ring = [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 3), Point(x: 0, y: 3), Point(x: 0, y: 0)]
        #expect(Self.area(PolygonTriangulation.triangulate([ring]), ring) == 12)
        let reversed = Array(ring.reversed())
        #expect(Self.area(PolygonTriangulation.triangulate([reversed]), reversed) == 12)
    }

    @Test("stars, small and large (the z-order index above 80 points), add up to their shoelace area")
    func stars() {
        for n in [6, 10, 40, 82, 400, 4000] {
            let ring = Self.star(n, inner: 3, outer: 10)
            let indices = PolygonTriangulation.triangulate([ring])
            #expect(indices.count == 3 * (n - 2), "\(n) points")
            #expect(abs(Self.area(indices, ring) - Self.shoelace(ring)) < 1e-9 * Self.shoelace(ring), "\(n) points")
        }
    }

    @Test("holes are left out: the outer area less the holes'")
    func holes() {
        let outer = Self.star(200, inner: 90, outer: 100)
        let hole1 = Array(Self.star(12, inner: 5, outer: 10, cx: -30, cy: 0).reversed())
        let hole2 = Self.star(8, inner: 6, outer: 12, cx: 30, cy: 10)  // the same winding as the outer ring
        let points = outer + hole1 + hole2
        let indices = PolygonTriangulation.triangulate([outer, hole1, hole2])
        let expected = Self.shoelace(outer) - Self.shoelace(hole1) - Self.shoelace(hole2)
        #expect(abs(Self.area(indices, points) - expected) < 1e-9 * expected)
        #expect(indices.allSatisfy { $0 >= 0 && Int($0) < points.count })
    }

    @Test("degenerate and hostile rings give no triangles or stay bounded")
    func degenerate() {
        #expect(PolygonTriangulation.triangulate([]).isEmpty)
        #expect(PolygonTriangulation.triangulate([[Point(x: 0, y: 0), Point(x: 1, y: 1)]]).isEmpty)
        let line = (0..<10).map { Point(x: Double($0), y: Double($0)) }
        #expect(PolygonTriangulation.triangulate([line]).isEmpty)
        let nan = [Point(x: 0, y: 0), Point(x: .nan, y: 0), Point(x: 1, y: 1)]
        #expect(PolygonTriangulation.triangulate([nan]).isEmpty)
        // A bow tie (self-intersecting): cured locally, indices in range.
        let bowtie = [Point(x: 0, y: 0), Point(x: 2, y: 2), Point(x: 2, y: 0), Point(x: 0, y: 2)]
        let indices = PolygonTriangulation.triangulate([bowtie])
        #expect(indices.count % 3 == 0 && indices.allSatisfy { $0 >= 0 && $0 < 4 })
        // Many repeated points.
        let repeated = Array(repeating: Point(x: 1, y: 1), count: 1000) + [Point(x: 2, y: 1), Point(x: 2, y: 2)]
        #expect(PolygonTriangulation.triangulate([repeated]).count <= 3 * repeated.count)
    }
}
