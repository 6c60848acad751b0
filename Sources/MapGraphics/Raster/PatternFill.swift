import MapGeometry

/// A `fill-pattern` image repeated over the map: ``tile`` is where one copy sits (user space, no rotation),
/// the image drawn in it texel for texel.
package struct FillPattern: Sendable {
    package var texture: Texture
    package var tile: Rect
    package var opacity: Double
    /// Where a point of user space falls in the image, in copies of it, when the copies lie on a tilted or
    /// turned ground (row-major homography, as ``ExtrusionMesh/Pattern/homography``); it replaces ``tile``.
    package var homography: [Double]?
    /// One cell (user space) of the grid of MapLibre's tiles the pattern is drawn with: the lookup counts
    /// from its cell's corner at half precision, as MapLibre's shader does (see ``PatternPhase``); nil
    /// samples at the exact pixel centre.
    package var grid: Rect?

    /// A pattern; see the type's description.
    package init(texture: Texture, tile: Rect, opacity: Double, homography: [Double]? = nil, grid: Rect? = nil) {
        self.texture = texture
        self.tile = tile
        self.opacity = opacity
        self.homography = homography.flatMap { $0.count == 9 && $0.allSatisfy(\.isFinite) ? $0 : nil }
        self.grid = grid
    }
}

/// MapLibre's `fill_pattern` and `fill_outline_pattern` shaders: the pattern looked up at the pixel's centre
/// (where MapLibre's half-precision coordinate puts it, ``PatternPhase``; bilinear, the copy's edges mixing
/// with the padding of MapLibre's image atlas, ``Texture/samplePattern(_:_:)``), times the opacity. Fill triangles cover whole pixels (no antialiasing: MapLibre draws
/// them so and antialiases with the outline); an outline segment fades over one pixel either side of its
/// line as `1 - smoothstep(0, 1, distance)`.
struct PatternFill: FragmentShader {
    let texture: Texture
    /// A copy's top-left corner and one over its size, device pixels.
    let x0, y0, inverseWidth, inverseHeight: Double
    /// One cell of MapLibre's tile grid, device pixels (zero size: none, see ``PatternPhase``).
    let gridX, gridY, gridWidth, gridHeight: Double
    let opacity: Float
    let outline: Bool
    /// The homography from device pixels to copies of the image, for a pattern on a tilted or turned ground.
    let h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)?
    /// Without a homography, each axis's fraction depends on that axis alone: the fractions of the device
    /// columns from `column0` and of the rows from `row0` (pixel centres), worked out once per mesh
    /// (``PatternPhase/fraction(_:origin:inverseSize:grid:cell:)``, the same values); empty: worked out per
    /// pixel.
    var columns: [Float] = []
    var rows: [Float] = []
    var column0 = 0
    var row0 = 0

    /// The shader with ``columns`` and ``rows`` filled for device columns `x` and rows `y` (at most 65536
    /// each; otherwise left empty).
    func tabulated(columns x: Range<Int>, rows y: Range<Int>) -> PatternFill {
        guard h == nil, x.count <= 1 << 16, y.count <= 1 << 16, !x.isEmpty, !y.isEmpty else { return self }
        var shader = self
        shader.column0 = x.lowerBound
        shader.row0 = y.lowerBound
        shader.columns = x.map {
            PatternPhase.fraction(
                Double($0) + 0.5, origin: x0, inverseSize: inverseWidth, grid: gridX, cell: gridWidth)
        }
        shader.rows = y.map {
            PatternPhase.fraction(
                Double($0) + 0.5, origin: y0, inverseSize: inverseHeight, grid: gridY, cell: gridHeight)
        }
        return shader
    }

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? {
        var coverage: Float = 1
        if outline {
            guard let l = p.triangle.line(p.w0, p.w1) else { return nil }
            coverage = 1 - smoothstep(0, 1, 1 - l.coverage)
            guard coverage > 0 else { return nil }
        }
        let fu: Float
        let fv: Float
        if let h {
            let c = h.6 * p.x + h.7 * p.y + h.8
            guard c > 0 else { return nil }
            let u = (h.0 * p.x + h.1 * p.y + h.2) / c
            let v = (h.3 * p.x + h.4 * p.y + h.5) / c
            fu = Float(u - u.rounded(.down))
            fv = Float(v - v.rounded(.down))
        } else if !columns.isEmpty, case let c = Int(p.x.rounded(.down)) - column0, c >= 0, c < columns.count,
            case let r = Int(p.y.rounded(.down)) - row0, r >= 0, r < rows.count
        {
            (fu, fv) = (columns[c], rows[r])
        } else {
            let phase = PatternPhase(
                x0: x0, y0: y0, inverseWidth: inverseWidth, inverseHeight: inverseHeight, gridX: gridX, gridY: gridY,
                gridWidth: gridWidth, gridHeight: gridHeight)
            (fu, fv) = phase.fractions(p.x, p.y)
        }
        guard fu.isFinite, fv.isFinite else { return nil }
        return (texture.samplePattern(fu, fv) * opacity, coverage)
    }
}

/// MapLibre's `fill_outline` shader: a plain colour (premultiplied) along an outline segment mesh, fading over
/// one device pixel either side of its line as `1 - smoothstep(0, 1, distance)` (the two-pixel `GL_LINES` that
/// MapLibre draws a fill's `fill-outline-color` with).
struct FillOutline: FragmentShader {
    let color: SIMD4<Float>

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? {
        guard let l = p.triangle.line(p.w0, p.w1) else { return nil }
        let coverage = 1 - smoothstep(0, 1, 1 - l.coverage)
        return coverage > 0 ? (color, coverage) : nil
    }
}

extension LineMesh {
    /// The segment mesh of a fill's outline: each segment of `lines` (user space) as a quad reaching
    /// `halfWidth` (one device pixel, in user units) either side, its normals 1 at the quad's long edges, for
    /// ``Rasterizer/addFillOutline(_:color:)`` and ``Rasterizer/addPatternFill(_:_:outline:)``. Segments of no
    /// length are skipped; the mesh stops growing before its indices would overflow.
    package static func fillOutline(_ lines: [[Point]], halfWidth: Double) -> LineMesh {
        var outline = LineMesh()
        guard halfWidth > 0, halfWidth.isFinite else { return outline }
        for line in lines where line.count > 1 {
            for k in 1..<line.count {
                let a = line[k - 1]
                let b = line[k]
                let dx = b.x - a.x
                let dy = b.y - a.y
                let length = (dx * dx + dy * dy).squareRoot()
                guard length > 0, length.isFinite, outline.vertices.count < Int(Int32.max / 2) else { continue }
                let nx = -dy / length * halfWidth
                let ny = dx / length * halfWidth
                let base = Int32(outline.vertices.count)
                outline.vertices += [
                    Vertex(position: Point(x: a.x + nx, y: a.y + ny), normal: Point(x: 0, y: 1)),
                    Vertex(position: Point(x: a.x - nx, y: a.y - ny), normal: Point(x: 0, y: -1)),
                    Vertex(position: Point(x: b.x + nx, y: b.y + ny), normal: Point(x: 0, y: 1)),
                    Vertex(position: Point(x: b.x - nx, y: b.y - ny), normal: Point(x: 0, y: -1)),
                ]
                outline.indices += [base, base + 1, base + 2, base + 1, base + 3, base + 2]
            }
        }
        return outline
    }
}

extension Rasterizer {
    /// Adds an outline segment mesh (``LineMesh/fillOutline(_:halfWidth:)``, user space, under the current
    /// transform, which must not rotate) in `color` (MapLibre's `fill_outline`, see ``FillOutline``).
    package func addFillOutline(_ mesh: LineMesh, color: Color) {
        let m = context.cairo.matrix
        let alpha = min(max(color.alpha, 0), 1)
        guard !mesh.indices.isEmpty, alpha > 0, m.b == 0, m.c == 0 else { return }
        let shader = FillOutline(
            color: SIMD4(Float(color.red * alpha), Float(color.green * alpha), Float(color.blue * alpha), Float(alpha)))
        let vertices = mesh.vertices.lazy.map { v in
            ((m.a * v.position.x + m.c * v.position.y) + m.tx, (m.b * v.position.x + m.d * v.position.y) + m.ty, v)
        }
        append(
            Command(
                fragment: .fillOutline(shader), coverage: .init(outset: 1, inset: 0, ramp: 1), period: 0,
                limit: Self.unlimited),
            vertices: vertices, count: mesh.vertices.count, indices: mesh.indices)
    }

    /// Adds `mesh` (user space, under the current transform, which must not rotate) filled with `pattern`:
    /// the whole pixels whose centres its triangles cover, or with `outline`, a segment mesh whose normals
    /// reach 1 one device pixel from its line (see ``PatternFill``).
    package func addPatternFill(_ mesh: LineMesh, _ pattern: FillPattern, outline: Bool) {
        let m = context.cairo.matrix
        guard !mesh.indices.isEmpty, pattern.opacity > 0, m.b == 0, m.c == 0, pattern.tile.width > 0,
            pattern.tile.height > 0
        else { return }
        let width = pattern.tile.width * m.a
        let height = pattern.tile.height * m.d
        // The copy nearest the user-space origin (far copies lose precision), in device pixels.
        let tx = pattern.tile.minX - (pattern.tile.minX / pattern.tile.width).rounded(.down) * pattern.tile.width
        let ty = pattern.tile.minY - (pattern.tile.minY / pattern.tile.height).rounded(.down) * pattern.tile.height
        let x0 = m.a * tx + m.tx
        let y0 = m.d * ty + m.ty
        guard width.isFinite, height.isFinite, abs(width) > 1e-9, abs(height) > 1e-9, x0.isFinite, y0.isFinite else {
            return
        }
        var h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)?
        if let p = pattern.homography {
            // The user-space homography after the inverse of the transform (which does not rotate).
            let (sx, sy) = (1 / m.a, 1 / m.d)
            h = (
                p[0] * sx, p[1] * sy, p[2] - (p[0] * m.tx * sx + p[1] * m.ty * sy),
                p[3] * sx, p[4] * sy, p[5] - (p[3] * m.tx * sx + p[4] * m.ty * sy),
                p[6] * sx, p[7] * sy, p[8] - (p[6] * m.tx * sx + p[7] * m.ty * sy)
            )
        }
        // MapLibre's tile grid in device pixels (a cell of no size, or not finite, leaves the lookup exact).
        var grid = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
        if let cell = pattern.grid {
            let g = (
                x: m.a * cell.minX + m.tx, y: m.d * cell.minY + m.ty, width: cell.width * m.a, height: cell.height * m.d
            )
            if g.x.isFinite, g.y.isFinite, g.width.isFinite, g.height.isFinite, g.width > 0, g.height > 0 { grid = g }
        }
        var shader = PatternFill(
            texture: pattern.texture, x0: x0, y0: y0, inverseWidth: 1 / width, inverseHeight: 1 / height,
            gridX: grid.x, gridY: grid.y, gridWidth: grid.width, gridHeight: grid.height,
            opacity: Float(min(pattern.opacity, 1)), outline: outline, h: h)
        let vertices = mesh.vertices.lazy.map { v in
            ((m.a * v.position.x + m.c * v.position.y) + m.tx, (m.b * v.position.x + m.d * v.position.y) + m.ty, v)
        }
        // The columns and rows the mesh may draw within the clip, their fractions worked out once.
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for (x, y, _) in vertices {
            box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
        }
        let clip = clipBounds
        let xs = (max(box.minX, clip.minX) - 1).rounded(.down)
        let xe = (min(box.maxX, clip.maxX) + 1).rounded(.up)
        let ys = (max(box.minY, clip.minY) - 1).rounded(.down)
        let ye = (min(box.maxY, clip.maxY) + 1).rounded(.up)
        if xs.isFinite, xe.isFinite, ys.isFinite, ye.isFinite, xs < xe, ys < ye, abs(xs) < 1e9, abs(xe) < 1e9,
            abs(ys) < 1e9, abs(ye) < 1e9
        {
            shader = shader.tabulated(columns: Int(xs)..<Int(xe), rows: Int(ys)..<Int(ye))
        }
        append(
            Command(
                fragment: .patternFill(shader),
                coverage: .init(outset: outline ? 1 : 0, inset: 0, ramp: 1), period: 0, limit: Self.unlimited),
            vertices: vertices, count: mesh.vertices.count, indices: mesh.indices)
    }
}
