import MapGeometry

/// An image over a convex quadrilateral, as MapLibre draws an `image` source: two triangles (corners 0, 1, 3
/// and 1, 2, 3, texture coordinates affine across each), the quadrilateral's outer edges antialiased (each
/// edge's coverage `clamp(d + 0.5, 0, 1)` at the pixel centre's distance `d` inside it, multiplied), the
/// image bilinear or nearest, clamped to its edge, times the opacity.
struct QuadImageShader: FragmentShader {
    typealias Line = (x: Double, y: Double, c: Double)
    typealias Affine = (ux: Double, uy: Double, u0: Double, vx: Double, vy: Double, v0: Double)
    let texture: Texture
    let linear: Bool
    let opacity: Float
    /// The outer edges, each `x * px + y * py + c` = the distance inside (device pixels).
    let edges: (Line, Line, Line, Line)
    /// The diagonal from corner 1 to corner 3, positive on corner 0's side.
    let diagonal: Line
    /// Device pixels to texture coordinates (0...1) of the triangles 0-1-3 and 1-2-3.
    let first: Affine
    let second: Affine

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? {
        @inline(__always) func inside(_ l: Line) -> Double { min(max(l.x * p.x + l.y * p.y + l.c + 0.5, 0), 1) }
        let coverage = inside(edges.0) * inside(edges.1) * inside(edges.2) * inside(edges.3)
        guard coverage > 0 else { return nil }
        let m = diagonal.x * p.x + diagonal.y * p.y + diagonal.c >= 0 ? first : second
        let u = Float((m.ux * p.x + m.uy * p.y + m.u0) * Double(texture.width))
        let v = Float((m.vx * p.x + m.vy * p.y + m.v0) * Double(texture.height))
        guard u.isFinite, v.isFinite else { return nil }
        let c =
            linear
            ? texture.sample(
                .linear(u - 0.5, count: texture.width, wrap: .clamp),
                .linear(v - 0.5, count: texture.height, wrap: .clamp))
            : texture.sample(
                .nearest(u - 0.5, count: texture.width, wrap: .clamp),
                .nearest(v - 0.5, count: texture.height, wrap: .clamp))
        return (c * opacity, Float(coverage))
    }

    /// The shader and the four corners of the quadrilateral grown by a pixel (device pixels) for `corners`
    /// (device pixels: top left, top right, bottom right, bottom left of the image); nil unless the
    /// quadrilateral is convex and not degenerate.
    static func make(_ corners: [Point], texture: Texture, linear: Bool, opacity: Float) -> (Self, [Point])? {
        guard corners.count == 4, corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        let turns = (0..<4).map { cross(corners[$0], corners[($0 + 1) % 4], corners[($0 + 2) % 4]) }
        let sign: Double = turns[0] > 0 ? 1 : -1
        guard turns.allSatisfy({ $0 * sign > 1e-9 }) else { return nil }
        // Edge k from corner k to k + 1, its inward normal (sign: the winding).
        func line(_ a: Point, _ b: Point, towards inside: Double) -> Line? {
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 1e-9 else { return nil }
            let nx = -dy / length * inside
            let ny = dx / length * inside
            return (nx, ny, -(nx * a.x + ny * a.y))
        }
        var lines: [Line] = []
        for k in 0..<4 {
            guard let l = line(corners[k], corners[(k + 1) % 4], towards: sign) else { return nil }
            lines.append(l)
        }
        guard var diagonal = line(corners[1], corners[3], towards: 1) else { return nil }
        if diagonal.x * corners[0].x + diagonal.y * corners[0].y + diagonal.c < 0 {
            diagonal = (-diagonal.x, -diagonal.y, -diagonal.c)
        }
        // Screen to texture: the inverse of the affine map of a triangle's texture corners.
        func affine(_ p: [Point], _ uv: [Point]) -> Affine? {
            let ax = p[1].x - p[0].x
            let ay = p[1].y - p[0].y
            let bx = p[2].x - p[0].x
            let by = p[2].y - p[0].y
            let det = ax * by - ay * bx
            guard abs(det) > 1e-12 else { return nil }
            let du1 = uv[1].x - uv[0].x
            let du2 = uv[2].x - uv[0].x
            let dv1 = uv[1].y - uv[0].y
            let dv2 = uv[2].y - uv[0].y
            // u = u0 + [du1 du2] * inverse([[ax bx] [ay by]]) * (p - p0)
            let ux = (du1 * by - du2 * ay) / det
            let uy = (du2 * ax - du1 * bx) / det
            let vx = (dv1 * by - dv2 * ay) / det
            let vy = (dv2 * ax - dv1 * bx) / det
            return (ux, uy, uv[0].x - ux * p[0].x - uy * p[0].y, vx, vy, uv[0].y - vx * p[0].x - vy * p[0].y)
        }
        let uv = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]
        guard let first = affine([corners[0], corners[1], corners[3]], [uv[0], uv[1], uv[3]]),
            let second = affine([corners[1], corners[2], corners[3]], [uv[1], uv[2], uv[3]])
        else { return nil }
        // Grown corners: each pair of neighbouring edges moved a pixel outward, intersected.
        var grown: [Point] = []
        for k in 0..<4 {
            let a = lines[(k + 3) % 4]
            let b = lines[k]
            let ca = a.c + 1
            let cb = b.c + 1
            let det = a.x * b.y - a.y * b.x
            guard abs(det) > 1e-9 else { return nil }
            let point = Point(x: (-ca * b.y + cb * a.y) / det, y: (-a.x * cb + b.x * ca) / det)
            // A very sharp corner would reach far: no further than 4 pixels from it.
            let dx = point.x - corners[k].x
            let dy = point.y - corners[k].y
            let d = (dx * dx + dy * dy).squareRoot()
            grown.append(d > 4 ? Point(x: corners[k].x + dx / d * 4, y: corners[k].y + dy / d * 4) : point)
        }
        let shader = QuadImageShader(
            texture: texture, linear: linear, opacity: opacity, edges: (lines[0], lines[1], lines[2], lines[3]),
            diagonal: diagonal, first: first, second: second)
        return (shader, grown)
    }
}

extension Rasterizer {
    /// Adds `texture` over the quadrilateral `corners` (user space, under the current transform: top left, top
    /// right, bottom right, bottom left of the image), as ``QuadImageShader`` draws it; nothing when it is not
    /// convex.
    package func addImage(_ texture: Texture, corners: [Point], linear: Bool, opacity: Double) {
        guard opacity > 0 else { return }
        let m = context.cairo.matrix
        let device = corners.map { Point(x: (m.a * $0.x + m.c * $0.y) + m.tx, y: (m.b * $0.x + m.d * $0.y) + m.ty) }
        guard
            let (shader, grown) = QuadImageShader.make(
                device, texture: texture, linear: linear, opacity: Float(min(opacity, 1)))
        else { return }
        let zero = LineMesh.Vertex(position: Point(x: 0, y: 0), normal: Point(x: 0, y: 0))
        append(
            Command(
                fragment: .quadImage(shader), coverage: .init(outset: 0, inset: 0, ramp: 1), period: 0,
                limit: Self.unlimited),
            vertices: grown.lazy.map { ($0.x, $0.y, zero) }, count: 4, indices: [0, 1, 3, 1, 2, 3])
    }
}
