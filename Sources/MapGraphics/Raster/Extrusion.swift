import MapGeometry

/// The faces of extruded polygons (MapLibre's `fill-extrusion`), in user space with each vertex's
/// perspective: ``Vertex/inverseDepth`` is the camera-to-centre distance over the vertex's distance from
/// the camera (1 on the ground at the centre, larger nearer the camera; linear across a face on the
/// screen, as a GPU's 1/w is), ``Vertex/top`` 1 at a wall's top and 0 at its bottom (roofs: 1).
package struct ExtrusionMesh: Sendable {
    /// One vertex of a face.
    package struct Vertex: Sendable {
        package var position: Point
        package var inverseDepth: Double
        package var top: Double
        /// A vertex at `position` (user space).
        package init(position: Point, inverseDepth: Double, top: Double) {
            self.position = position
            self.inverseDepth = inverseDepth
            self.top = top
        }
    }

    /// An image over the faces (MapLibre's `fill_extrusion_pattern`); nil: the faces' colours alone.
    package struct Pattern: Sendable {
        package var texture: Texture
        /// Where a point of user space falls in the image, in copies of it (row-major, a homography: u =
        /// (m0 x + m1 y + m2) / (m6 x + m7 y + m8), v = (m3 x + m4 y + m5) / (m6 x + m7 y + m8)); the
        /// image repeats every whole copy.
        package var homography: [Double]

        /// A pattern; nil unless `homography` has 9 finite numbers.
        package init?(texture: Texture, homography: [Double]) {
            guard homography.count == 9, homography.allSatisfy(\.isFinite) else { return nil }
            self.texture = texture
            self.homography = homography
        }
    }

    package var vertices: [Vertex] = []
    /// Indices into ``vertices``, three per triangle.
    package var indices: [Int32] = []
    /// The image drawn over the faces, lit by the vertices' colours (nil: the colours alone).
    package var pattern: Pattern?

    /// An empty mesh.
    package init() {}
}

/// The depth and stencil buffers of one extrusion layer over a context's clip (device pixels), as MapLibre
/// draws translucent extrusions: a first pass writes the nearest depth of every pixel
/// (``ExtrusionPass/depth``), a second colours each pixel once, with the face at that depth
/// (``ExtrusionPass/color``), so a building seen through another never shows and no face is blended twice.
package final class DepthBuffer {
    let x0: Int
    let y0: Int
    let width: Int
    let height: Int
    let depth: UnsafeMutablePointer<Float>
    let stencil: UnsafeMutablePointer<UInt8>

    /// A cleared buffer for the pixels `context` can draw (its device clip); nil when that is empty or
    /// larger than `limit` pixels.
    package init?(for context: GraphicsContext, limit: Int) {
        let clip = context.cairo.deviceClipExtents()
        guard clip.width.isFinite, clip.height.isFinite, clip.minX.isFinite, clip.minY.isFinite else { return nil }
        let x0 = floorToInt(clip.minX)
        let y0 = floorToInt(clip.minY)
        let width = ceilToInt(clip.maxX) - x0
        let height = ceilToInt(clip.maxY) - y0
        guard width > 0, height > 0, width <= limit / height else { return nil }
        self.x0 = x0
        self.y0 = y0
        self.width = width
        self.height = height
        depth = .allocate(capacity: width * height)
        depth.initialize(repeating: 0, count: width * height)
        stencil = .allocate(capacity: width * height)
        stencil.initialize(repeating: 0, count: width * height)
    }

    deinit {
        depth.deallocate()
        stencil.deallocate()
    }

    /// Whether this buffer covers exactly the pixels `context` can draw now (so another layer may share it).
    package func matches(_ context: GraphicsContext) -> Bool {
        let clip = context.cairo.deviceClipExtents()
        return floorToInt(clip.minX) == x0 && floorToInt(clip.minY) == y0 && ceilToInt(clip.maxX) - x0 == width
            && ceilToInt(clip.maxY) - y0 == height
    }

    /// Clears the stencil, keeping the depths: the next layer's faces are tested against the depths of the
    /// layers drawn before it (MapLibre's 3D pass shares one depth buffer between extrusion layers).
    package func clearStencil() {
        stencil.update(repeating: 0, count: width * height)
    }
}

/// The two passes over an extrusion layer's faces (see ``DepthBuffer``).
package enum ExtrusionPass: Sendable {
    case depth, color
}

/// MapLibre's `fill_extrusion` shader at the fragment: the face's colour (lit per vertex: `bottom` at the
/// wall's foot, `top` at its top, interpolated with perspective as a GPU interpolates a varying), drawn
/// where the face is the nearest surface (depth test less-or-equal, each pixel once). With a pattern
/// (`fill_extrusion_pattern`) the colour is the light, multiplying the image looked up at the pixel's centre
/// (bilinear, repeated, as ``PatternFill`` samples it).
struct ExtrusionFace: FragmentShader {
    let bottom: SIMD4<Float>
    let top: SIMD4<Float>
    /// The pattern and its homography from device pixels to copies of the image.
    let texture: Texture?
    let h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    let pass: ExtrusionPass
    let depth: UnsafeMutablePointer<Float>
    let stencil: UnsafeMutablePointer<UInt8>
    let x0, y0, width, height: Int

    @inline(__always)
    func shade(_ p: FragmentInput) -> Shaded? {
        let t = p.triangle
        let l0 = Float(p.w0 * t.inverse)
        let l1 = Float(p.w1 * t.inverse)
        let l2 = 1 - l0 - l1
        let inverseDepth = l0 * t.na.0 + l1 * t.nb.0 + l2 * t.nc.0
        let column = Int(p.x - 0.5) - x0
        let row = Int(p.y - 0.5) - y0
        guard column >= 0, row >= 0, column < width, row < height, inverseDepth > 0 else { return nil }
        let i = row * width + column
        switch pass {
        case .depth:
            if inverseDepth >= depth[i] { depth[i] = inverseDepth }
            return nil
        case .color:
            guard inverseDepth == depth[i], stencil[i] == 0 else { return nil }
            stencil[i] = 1
            let up = min(max((l0 * t.na.1 + l1 * t.nb.1 + l2 * t.nc.1) / inverseDepth, 0), 1)
            let light = bottom + (top - bottom) * up
            guard let texture else { return (light, 1) }
            let c = h.6 * p.x + h.7 * p.y + h.8
            let u = (h.0 * p.x + h.1 * p.y + h.2) / c
            let v = (h.3 * p.x + h.4 * p.y + h.5) / c
            let fu = u - u.rounded(.down)
            let fv = v - v.rounded(.down)
            guard fu.isFinite, fv.isFinite else { return nil }
            let sample = texture.sample(
                .linear(Float(fu) * Float(texture.width) - 0.5, count: texture.width, wrap: .repeat),
                .linear(Float(fv) * Float(texture.height) - 0.5, count: texture.height, wrap: .repeat))
            return (sample * light, 1)
        }
    }
}

extension Rasterizer {
    /// Adds the faces `mesh` (user space, under the context's current transform) for one pass of an
    /// extrusion layer: `bottom` and `top` are the lit colours of a wall's foot and top (the same for a
    /// roof), times `opacity`; `buffer` is the layer's depth and stencil. With a ``ExtrusionMesh/pattern``,
    /// `bottom` and `top` are the light multiplying the image (MapLibre's `v_lighting`).
    package func addExtrusion(
        _ mesh: ExtrusionMesh, bottom: Color, top: Color, opacity: Double, pass: ExtrusionPass, buffer: DepthBuffer
    ) {
        guard !mesh.indices.isEmpty, opacity > 0, opacity.isFinite else { return }
        let a = Float(min(opacity, 1))
        func premultiplied(_ c: Color) -> SIMD4<Float> {
            SIMD4(Float(c.red) * a, Float(c.green) * a, Float(c.blue) * a, a)
        }
        let m = context.cairo.matrix
        // The pattern's homography from device pixels: the user-space one after the inverse of the transform.
        var h = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
        if let pattern = mesh.pattern {
            let determinant = m.a * m.d - m.b * m.c
            guard determinant != 0, determinant.isFinite else { return }
            // Device (x, y) -> user: ((d (x - tx) - c (y - ty)), (-b (x - tx) + a (y - ty))) / determinant.
            let i = [
                m.d / determinant, -m.c / determinant, (m.c * m.ty - m.d * m.tx) / determinant,
                -m.b / determinant, m.a / determinant, (m.b * m.tx - m.a * m.ty) / determinant,
            ]
            let p = pattern.homography
            func row(_ r: Int) -> (Double, Double, Double) {
                (
                    p[3 * r] * i[0] + p[3 * r + 1] * i[3], p[3 * r] * i[1] + p[3 * r + 1] * i[4],
                    p[3 * r] * i[2] + p[3 * r + 1] * i[5] + p[3 * r + 2]
                )
            }
            let (r0, r1, r2) = (row(0), row(1), row(2))
            h = (r0.0, r0.1, r0.2, r1.0, r1.1, r1.2, r2.0, r2.1, r2.2)
        }
        let shader = ExtrusionFace(
            bottom: premultiplied(bottom), top: premultiplied(top), texture: mesh.pattern?.texture, h: h, pass: pass,
            depth: buffer.depth, stencil: buffer.stencil, x0: buffer.x0, y0: buffer.y0, width: buffer.width,
            height: buffer.height)
        let vertices = mesh.vertices.lazy.map { v in
            let x = (m.a * v.position.x + m.c * v.position.y) + m.tx
            let y = (m.b * v.position.x + m.d * v.position.y) + m.ty
            // The varyings: 1/w and the wall's height fraction over w, linear on the screen.
            let normal = Point(x: v.inverseDepth, y: v.top * v.inverseDepth)
            return (x, y, LineMesh.Vertex(position: v.position, normal: normal))
        }
        append(
            Command(
                fragment: .extrusion(shader), coverage: .init(outset: 0, inset: 0, ramp: 1), period: 0,
                limit: Self.unlimited),
            vertices: vertices, count: mesh.vertices.count, indices: mesh.indices)
    }
}
