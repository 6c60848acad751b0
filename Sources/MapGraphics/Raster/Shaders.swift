import MapGeometry

/// A shaded pixel: its colour (premultiplied) and coverage.
typealias Shaded = (SIMD4<Float>, Float)

/// One case of the rasterizer's fragment stage (``Fragment``): the colour and coverage of a covered pixel.
/// The coverage loop is specialized for each shader, so a shader's payload is bound once per mesh, not per
/// pixel.
protocol FragmentShader {
    /// The pixel's colour and coverage, or nil where it draws nothing.
    func shade(_ p: FragmentInput) -> Shaded?
    /// The colour of a plain line (the four-pixels-at-a-time loop); nil for every other shader.
    var plainColor: SIMD4<Float>? { get }
}

extension FragmentShader {
    var plainColor: SIMD4<Float>? { nil }
}

/// What the coverage loop knows of a covered pixel: its centre (device pixels), its barycentric weights of
/// the triangle's first two vertices, and the triangle's vertex attributes.
struct FragmentInput {
    var x: Double
    var y: Double
    var w0: Double
    var w1: Double
    let triangle: TriangleAttributes
}

/// A triangle's vertex attributes for line shaders (normals and progress, distance in repeats), with the
/// line coverage's constants.
struct TriangleAttributes {
    let na, nb, nc: (Float, Float, Float)
    let da, db, dc: Float
    /// One over twice the triangle's area: edge functions to barycentric weights.
    let inverse: Double
    let outset, inverseRamp, rampStart: Float
    /// The vertices' ``LineMesh/Vertex/perspective`` when they differ (a tilted view), else nil.
    var perspective: (Float, Float, Float)? = nil

    /// A line fragment's coverage across the line, barycentric weights, side normal and distance along it
    /// (in repeats), or nil where it covers nothing.
    @inline(__always)
    func line(_ w0: Double, _ w1: Double) -> (
        coverage: Float, l0: Float, l1: Float, l2: Float, ny: Float, along: Float
    )? {
        let l0 = Float(w0 * inverse)
        let l1 = Float(w1 * inverse)
        let l2 = 1 - l0 - l1
        let nx = l0 * na.0 + l1 * nb.0 + l2 * nc.0
        let ny = l0 * na.1 + l1 * nb.1 + l2 * nc.1
        let dist = (nx * nx + ny * ny).squareRoot() * outset
        let coverage = min(max(min(dist - rampStart, outset - dist) * inverseRamp, 0), 1)
        guard coverage > 0 else { return nil }
        // Along the line (progress, distance), a tilted view's weights are a GPU's perspective-correct ones;
        // the coverage across it stays the image's (the extrusion is a few pixels, its depth the same).
        if let (pa, pb, pc) = perspective {
            let (q0, q1, q2) = (l0 * pa, l1 * pb, l2 * pc)
            let sum = q0 + q1 + q2
            guard sum > 0 else { return nil }
            let (m0, m1) = (q0 / sum, q1 / sum)
            let m2 = 1 - m0 - m1
            return (coverage, m0, m1, m2, ny, m0 * da + m1 * db + m2 * dc)
        }
        return (coverage, l0, l1, l2, ny, l0 * da + l1 * db + l2 * dc)
    }
}

/// MapLibre's `line` shader: a plain colour (premultiplied) over the line coverage.
struct PlainLine: FragmentShader {
    let color: SIMD4<Float>

    var plainColor: SIMD4<Float>? { color }

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? {
        guard let l = p.triangle.line(p.w0, p.w1) else { return nil }
        return (color, l.coverage)
    }
}

/// MapLibre's `line_sdf` shader: a plain colour through a dash pattern's distance field, looked up repeated
/// and linearly filtered, then the shader's smoothstep.
struct DashLine: FragmentShader {
    let field: Texture
    let gamma: Float
    let color: SIMD4<Float>

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? {
        guard let l = p.triangle.line(p.w0, p.w1) else { return nil }
        let s = l.along * Float(field.width) - 0.5
        guard s.isFinite, abs(s) < 1e9 else { return nil }
        let rows = field.height
        let half = Float(rows - 1) / 2
        let across =
            rows > 1
            ? TexelAxis.linear(min(max(half - l.ny * half, 0), Float(rows - 1)), count: rows, wrap: .clamp)
            : .at(0)
        let value = field.sample(.linear(s, count: field.width, wrap: .repeat), across).w
        let coverage = l.coverage * smoothstep(0.5 - gamma, 0.5 + gamma, value)
        return coverage > 0 ? (color, coverage) : nil
    }
}

/// MapLibre's `line_pattern` shader: along, the fraction of the repeat; across, the side normal from -1 to
/// 1 mapped to the image's top to bottom; linearly filtered, clamped at the padded border.
struct PatternLine: FragmentShader {
    let texture: Texture
    let opacity: Float

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? {
        guard let l = p.triangle.line(p.w0, p.w1) else { return nil }
        let u = l.along - floorFloat(l.along)
        guard u.isFinite, l.ny.isFinite else { return nil }
        let c = texture.sample(
            .linear(u * Float(texture.width) - 0.5, count: texture.width, wrap: .clamp),
            .linear((0.5 * l.ny + 0.5) * Float(texture.height) - 0.5, count: texture.height, wrap: .clamp))
        return (c * opacity, l.coverage)
    }
}

/// MapLibre's `line_gradient` shader: the colour ramp looked up at the pixel's progress as a GPU's texture
/// unit does (texel centres at (i + 0.5) / count, clamped at the ends; nearest or linear), or exactly by
/// `steps`, times `opacity`.
struct GradientLine: FragmentShader {
    let ramp: Texture
    let nearest: Bool
    let steps: [Double]
    let opacity: Float

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? {
        guard let l = p.triangle.line(p.w0, p.w1) else { return nil }
        let t = p.triangle
        let progress = l.l0 * t.na.2 + l.l1 * t.nb.2 + l.l2 * t.nc.2
        let axis: TexelAxis
        if !steps.isEmpty {
            // The last step at or below the pixel's progress (binary search).
            let p = Double(progress)
            var lo = 0
            var hi = steps.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if steps[mid] <= p { lo = mid } else { hi = mid - 1 }
            }
            axis = .at(lo)
        } else if nearest {
            axis = .nearest(progress * Float(ramp.width) - 0.5, count: ramp.width, wrap: .clamp)
        } else {
            axis = .linear(progress * Float(ramp.width) - 0.5, count: ramp.width, wrap: .clamp)
        }
        return (ramp.sample(axis, .at(0)) * opacity, l.coverage)
    }
}

/// An image quad's fragment: where each device pixel's centre falls in the texture, and how it is shaded.
struct ImageQuad: FragmentShader {
    let texture: Texture
    /// Device pixels to texels.
    let inverse: Transform
    /// For a quad drawn with perspective (``Rasterizer/addQuad(_:source:homography:linear:shading:)``), the
    /// denominator of device pixels to texels: texel = `inverse` (x, y) / (g x + h y + i); nil: affine.
    var perspective: (g: Double, h: Double, i: Double)? = nil
    /// The texels drawn (a pixel whose centre maps outside is not drawn; left and top edges inclusive).
    let source: Rect
    let linear: Bool
    let shading: QuadShading
    /// How samples past the texture's edge read: transparent (a glyph's or icon's border), or the edge texel
    /// repeated (a raster tile's, so that tiles meet without a seam).
    var wrap: TexelAxis.Wrap = .border

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? { shade(p.x, p.y).map { ($0, 1) } }

    /// The colour (premultiplied) at device pixel centre `dx`, `dy`, or nil outside the quad.
    @inline(__always)
    func shade(_ dx: Double, _ dy: Double) -> SIMD4<Float>? {
        var u = inverse.a * dx + inverse.c * dy + inverse.tx
        var v = inverse.b * dx + inverse.d * dy + inverse.ty
        if let q = perspective {
            let w = q.g * dx + q.h * dy + q.i
            guard w > 0 else { return nil }
            u /= w
            v /= w
        }
        let epsilon = 1e-7
        guard u >= source.minX - epsilon, u < source.maxX - epsilon, v >= source.minY - epsilon,
            v < source.maxY - epsilon
        else { return nil }
        let x =
            linear
            ? TexelAxis.linear(u - 0.5, count: texture.width, wrap: wrap)
            : TexelAxis.nearest(u, count: texture.width, wrap: wrap)
        let y =
            linear
            ? TexelAxis.linear(v - 0.5, count: texture.height, wrap: wrap)
            : TexelAxis.nearest(v, count: texture.height, wrap: wrap)
        // A distance field's shadings read its alpha alone.
        if let d = texture.sampleAlpha(x, y), let coverage = Self.coverage(shading, field: d) {
            return signedDistance(shading, coverage: coverage)
        }
        let s =
            linear
            ? texture.sample(
                .linear(u - 0.5, count: texture.width, wrap: wrap),
                .linear(v - 0.5, count: texture.height, wrap: wrap))
            : texture.sample(
                .nearest(u, count: texture.width, wrap: wrap), .nearest(v, count: texture.height, wrap: wrap))
        var out: SIMD4<Float>
        switch shading {
        case .plain(let opacity):
            out = s * Float(opacity)
        case .signedDistance, .signedDistanceHalo:
            return Self.coverage(shading, field: s.w).flatMap { signedDistance(shading, coverage: $0) }
        }
        out.replace(with: 0, where: .zero .>= out)
        out.replace(with: 1, where: 1 .< out)
        return out.w > 0 ? out : nil
    }

    /// A distance-field shading's coverage at field value `d`, in single precision as MapLibre's SDF fragment
    /// shader computes it (the edges worked out in double precision and rounded once); nil for `.plain`.
    @inline(__always)
    static func coverage(_ shading: QuadShading, field d: Float) -> Float? {
        switch shading {
        case .plain: return nil
        case .signedDistance(_, let opacity, let buffer, let gamma):
            return smoothstep(Float(buffer - gamma), Float(buffer + gamma), d) * Float(opacity)
        case .signedDistanceHalo(_, let opacity, let buffer, let gamma, let inner, let innerGamma):
            let fill = smoothstep(Float(inner - innerGamma), Float(inner + innerGamma), d)
            return min(smoothstep(Float(buffer - gamma), Float(buffer + gamma), d), 1 - fill) * Float(opacity)
        }
    }

    /// A distance-field shading's colour premultiplied by `coverage`, clamped as ``shade(_:_:)`` clamps; nil where
    /// transparent.
    @inline(__always)
    private func signedDistance(_ shading: QuadShading, coverage: Float) -> SIMD4<Float>? {
        let color: Color
        switch shading {
        case .plain: return nil
        case .signedDistance(let c, _, _, _), .signedDistanceHalo(let c, _, _, _, _, _): color = c
        }
        let a = Float(color.alpha) * coverage
        var out = SIMD4(Float(color.red) * a, Float(color.green) * a, Float(color.blue) * a, a)
        out.replace(with: 0, where: .zero .>= out)
        out.replace(with: 1, where: 1 .< out)
        return out.w > 0 ? out : nil
    }
}

/// MapLibre's circle fragment shader for one ``Disc``.
struct DiscShader: FragmentShader {
    let x, y, outer, inner, blur: Double
    let fill, stroke: (Double, Double, Double, Double)
    let hasStroke: Bool
    /// For a disc on the ground (``Disc/ground``): image to ground, the centre, one over the radius.
    let ground: (m: [Double], cx: Double, cy: Double, k: Double)?

    init?(_ d: Disc) {
        outer = d.radius + d.strokeWidth
        guard outer > 0, outer.isFinite, d.x.isFinite, d.y.isFinite else { return nil }
        if let g = d.ground {
            guard g.inverse.count == 9, g.radius > 0, g.radius.isFinite else { return nil }
            ground = (g.inverse, g.center.x, g.center.y, 1 / g.radius)
        } else {
            ground = nil
        }
        x = d.x
        y = d.y
        blur = -max(1 / outer, d.blur)
        inner = d.radius / outer
        func premultiplied(_ c: Color) -> (Double, Double, Double, Double) {
            (c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
        }
        fill = premultiplied(d.color)
        stroke = premultiplied(d.strokeColor)
        hasStroke = d.strokeWidth >= 0.01
    }

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? { shade(p.x, p.y).map { ($0, 1) } }

    /// The colour (premultiplied) at device pixel centre `px`, `py`, or nil where the disc is transparent.
    @inline(__always)
    func shade(_ px: Double, _ py: Double) -> SIMD4<Float>? {
        var dx = (px - x) / outer
        var dy = (py - y) / outer
        if let g = ground {
            let m = g.m
            let w = m[6] * px + m[7] * py + m[8]
            guard w > 0 else { return nil }
            dx = ((m[0] * px + m[1] * py + m[2]) / w - g.cx) * g.k
            dy = ((m[3] * px + m[4] * py + m[5]) / w - g.cy) * g.k
        }
        let length = (dx * dx + dy * dy).squareRoot()
        let opacity = smoothstep(0, blur, length - 1)
        guard opacity > 0 else { return nil }
        let t = hasStroke ? smoothstep(blur, 0, length - inner) : 0
        return SIMD4(
            Float(opacity * (fill.0 + (stroke.0 - fill.0) * t)), Float(opacity * (fill.1 + (stroke.1 - fill.1) * t)),
            Float(opacity * (fill.2 + (stroke.2 - fill.2) * t)), Float(opacity * (fill.3 + (stroke.3 - fill.3) * t)))
    }
}
