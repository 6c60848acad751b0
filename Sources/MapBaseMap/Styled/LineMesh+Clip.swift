import MapGeometry
import MapGraphics

extension LineMesh {
    /// The mesh cut to a convex polygon (user space, either winding): every triangle clipped against each
    /// edge (Sutherland-Hodgman), its vertices' attributes interpolated along the cut edges as the
    /// rasterizer interpolates them across the triangle, so a pixel is drawn when its centre lies inside both
    /// (MapLibre's tile stencil, for a tile square that a turned or tilted view shows as a quadrilateral).
    func clipped(to polygon: [Point]) -> LineMesh {
        guard polygon.count > 2 else { return LineMesh() }
        // The polygon's orientation decides which side of each edge is inside.
        var area = 0.0
        for i in polygon.indices {
            let a = polygon[i]
            let b = polygon[(i + 1) % polygon.count]
            area += a.x * b.y - b.x * a.y
        }
        guard area.isFinite, area != 0 else { return LineMesh() }
        let sign = area > 0 ? 1.0 : -1.0
        @inline(__always) func side(_ k: Int, _ p: Point) -> Double {
            let a = polygon[k]
            let b = polygon[k + 1 == polygon.count ? 0 : k + 1]
            return sign * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x))
        }
        var result = LineMesh()
        result.vertices.reserveCapacity(vertices.count)
        result.indices.reserveCapacity(indices.count)
        var i = 0
        while i + 2 < indices.count {
            defer { i += 3 }
            let (u, v, w) = (vertices[Int(indices[i])], vertices[Int(indices[i + 1])], vertices[Int(indices[i + 2])])
            // Most triangles lie wholly inside every edge (kept as they are: what the clipping below gives
            // them) or, inside the edges before it, wholly outside one (clipped to nothing there).
            var inside = true
            var outside = false
            for k in polygon.indices {
                let (su, sv, sw) = (side(k, u.position), side(k, v.position), side(k, w.position))
                if su >= 0, sv >= 0, sw >= 0 { continue }
                inside = false
                outside = !(su >= 0) && !(sv >= 0) && !(sw >= 0)
                break
            }
            if outside { continue }
            if inside {
                guard result.vertices.count < Int(Int32.max / 2) else { continue }
                let base = Int32(result.vertices.count)
                result.vertices.append(u)
                result.vertices.append(v)
                result.vertices.append(w)
                result.indices.append(base)
                result.indices.append(base + 1)
                result.indices.append(base + 2)
                continue
            }
            var poly = [u, v, w]
            for k in polygon.indices where !poly.isEmpty {
                let edge = k
                func sideOf(_ p: Point) -> Double { side(edge, p) }
                var next: [Vertex] = []
                for j in poly.indices {
                    let p = poly[j]
                    let q = poly[(j + 1) % poly.count]
                    let sp = sideOf(p.position)
                    let sq = sideOf(q.position)
                    if sp >= 0 { next.append(p) }
                    if (sp >= 0) != (sq >= 0) { next.append(Self.lerp(p, q, sp / (sp - sq))) }
                }
                poly = next
            }
            guard poly.count > 2, result.vertices.count < Int(Int32.max / 2) else { continue }
            let base = Int32(result.vertices.count)
            result.vertices += poly
            for j in 1..<(poly.count - 1) {
                result.indices.append(base)
                result.indices.append(base + Int32(j))
                result.indices.append(base + Int32(j + 1))
            }
        }
        return result
    }

    /// The vertex a share `t` of the way from `a` to `b` on the image, its attributes as the rasterizer
    /// interpolates them inside a triangle: the normal (the coverage across the line) on the image, the
    /// progress and distance along the line with perspective (``LineMesh/Vertex/perspective``, itself linear
    /// on the image).
    private static func lerp(_ a: Vertex, _ b: Vertex, _ t: Double) -> Vertex {
        let weighted = (1 - t) * a.perspective + t * b.perspective
        let s = a.perspective == b.perspective || weighted <= 0 ? t : t * b.perspective / weighted
        func mix(_ u: Double, _ v: Double, _ t: Double) -> Double { u + (v - u) * t }
        var v = Vertex(
            position: Point(x: mix(a.position.x, b.position.x, t), y: mix(a.position.y, b.position.y, t)),
            normal: Point(x: mix(a.normal.x, b.normal.x, t), y: mix(a.normal.y, b.normal.y, t)),
            progress: mix(a.progress, b.progress, s), distance: mix(a.distance, b.distance, s))
        v.perspective = mix(a.perspective, b.perspective, t)
        return v
    }
}
