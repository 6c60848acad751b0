import MapGeometry
import MapGraphics
import Testing

@testable import MapBaseMap

/// ``LineMesh/clipped(to:)`` against every triangle clipped edge by edge (Sutherland-Hodgman written out
/// plainly, no shortcut for triangles wholly inside or outside): the same vertices, attributes and indices.
@Suite struct LineMeshClipTests {
    static func reference(_ mesh: LineMesh, _ polygon: [Point]) -> LineMesh {
        var area = 0.0
        for i in polygon.indices {
            let a = polygon[i]
            let b = polygon[(i + 1) % polygon.count]
            area += a.x * b.y - b.x * a.y
        }
        let sign = area > 0 ? 1.0 : -1.0
        func lerp(_ a: LineMesh.Vertex, _ b: LineMesh.Vertex, _ t: Double) -> LineMesh.Vertex {
            func mix(_ u: Double, _ v: Double) -> Double { u + (v - u) * t }
            return LineMesh.Vertex(
                position: Point(x: mix(a.position.x, b.position.x), y: mix(a.position.y, b.position.y)),
                normal: Point(x: mix(a.normal.x, b.normal.x), y: mix(a.normal.y, b.normal.y)),
                progress: mix(a.progress, b.progress), distance: mix(a.distance, b.distance))
        }
        var result = LineMesh()
        for t in stride(from: 0, to: mesh.indices.count - 2, by: 3) {
            var poly = (0..<3).map { mesh.vertices[Int(mesh.indices[t + $0])] }
            for k in polygon.indices where !poly.isEmpty {
                let a = polygon[k]
                let b = polygon[(k + 1) % polygon.count]
                func side(_ p: Point) -> Double { sign * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) }
                var next: [LineMesh.Vertex] = []
                for j in poly.indices {
                    let p = poly[j]
                    let q = poly[(j + 1) % poly.count]
                    if side(p.position) >= 0 { next.append(p) }
                    if (side(p.position) >= 0) != (side(q.position) >= 0) {
                        next.append(lerp(p, q, side(p.position) / (side(p.position) - side(q.position))))
                    }
                }
                poly = next
            }
            guard poly.count > 2 else { continue }
            let base = Int32(result.vertices.count)
            result.vertices += poly
            for j in 1..<(poly.count - 1) { result.indices += [base, base + Int32(j), base + Int32(j + 1)] }
        }
        return result
    }

    @Test("random meshes cut to a turned quadrilateral, either winding, as every triangle clipped edge by edge")
    func matchesPlainClipping() {
        var state: UInt64 = 12_345
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let square = [Point(x: 10, y: 0), Point(x: 60, y: 15), Point(x: 45, y: 70), Point(x: -5, y: 50)]
        var kept = 0
        for polygon in [square, square.reversed()] {
            var mesh = LineMesh()
            for _ in 0..<600 {
                mesh.vertices.append(
                    LineMesh.Vertex(
                        position: Point(x: random() * 100 - 20, y: random() * 100 - 20),
                        normal: Point(x: random(), y: random()), progress: random(), distance: random() * 50))
            }
            // Small triangles (most wholly inside or outside) and large ones (cut).
            for t in 0..<400 {
                let a = Int32(t % 600)
                let b = Int32(t < 300 ? (t + 1) % 600 : (t * 7 + 3) % 600)
                let c = Int32(t < 300 ? (t + 2) % 600 : (t * 13 + 5) % 600)
                mesh.indices += [a, b, c]
            }
            let fast = mesh.clipped(to: polygon)
            let plain = Self.reference(mesh, polygon)
            #expect(fast.indices == plain.indices)
            #expect(fast.vertices.count == plain.vertices.count)
            for (x, y) in zip(fast.vertices, plain.vertices) {
                #expect(
                    x.position == y.position && x.normal == y.normal && x.progress == y.progress
                        && x.distance == y.distance)
            }
            kept += fast.indices.count
        }
        #expect(kept > 0)
    }

    /// A tilted view's mesh cut on the image: a new vertex's distance and progress are where the rasterizer's
    /// perspective-correct weights put them, its `perspective` (1 / depth) linear on the image, its normal
    /// linear on the image (the coverage across the line is interpolated on the image).
    @Test("a cut through a tilted mesh: distance and progress with perspective, the normal and 1 / depth on the image")
    func perspectiveCut() {
        var mesh = LineMesh()
        // One triangle from a near vertex (perspective 1, distance 0) to two far ones (1/3, distance 90).
        for (x, y, perspective, distance) in [
            (0.0, 0.0, 1.0, 0.0), (20.0, 0.0, 1.0 / 3, 90.0), (20.0, 10.0, 1.0 / 3, 90.0),
        ] {
            var v = LineMesh.Vertex(
                position: Point(x: x, y: y), normal: Point(x: 0, y: y == 0 ? -1 : 1), progress: distance / 90,
                distance: distance)
            v.perspective = perspective
            mesh.vertices.append(v)
        }
        mesh.indices = [0, 1, 2]
        // Cut at x = 10: halfway on the image along the edge from the near vertex to (20, 0).
        let cut = mesh.clipped(to: [Point(x: -1, y: -1), Point(x: 10, y: -1), Point(x: 10, y: 11), Point(x: -1, y: 11)])
        let v = cut.vertices.first { $0.position.x == 10 && $0.position.y == 0 }
        // t = 1/2 on the image: the weight of the far end is (t / 3) / ((1 - t) + t / 3) = 1/4.
        #expect(
            v.map { abs($0.distance - 22.5) < 1e-9 && abs($0.progress - 0.25) < 1e-9 } == true,
            "\(String(describing: v))")
        #expect(v.map { abs($0.perspective - 2.0 / 3) < 1e-12 && $0.normal == Point(x: 0, y: -1) } == true)
    }
}
