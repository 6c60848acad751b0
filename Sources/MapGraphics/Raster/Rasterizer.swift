import MapGeometry

/// MapRaster's software GPU: collects triangles in device pixels, each with a ``Fragment`` (line meshes
/// with their shading, image quads, circles), and draws them in one go (``GraphicsContext/draw(_:)``).
///
/// Triangles are rasterized at pixel centres (a shared edge belongs to one triangle only; one coverage
/// loop, ``Rasterizer+Coverage.swift``) and blended one after another, premultiplied, rounded to 8 bits
/// after each as a GPU's framebuffer does (``PixelBuffer``). Every drawing algorithm that shades pixels
/// itself goes through here: lines (plain, gradient, pattern, SDF dash), icons (plain, SDF, halo) and
/// circles.
package final class Rasterizer {
    private var positions: [Double] = []  // x, y per vertex, device pixels
    private var normals: [Float] = []  // x, y per vertex
    private var progress: [Float] = []
    private var distances: [Double] = []
    /// Per vertex: ``LineMesh/Vertex/perspective``.
    private var perspectives: [Float] = []
    /// Per command: its fragment, the line coverage (lines only), the period of the distance attribute
    /// (dashes and patterns; 0 for none) and the pixels (device, first and past-the-end columns and rows)
    /// it may cover.
    private var commands: [Command] = []
    private var triangles: [Int32] = []  // a, b, c, command index
    private var minX = Double.infinity
    private var minY = Double.infinity
    private var maxX = -Double.infinity
    private var maxY = -Double.infinity
    let context: GraphicsContext
    private let clip: Rect
    /// About how many pixels the triangles added so far cover within the clip (each triangle's area,
    /// at most its clipped bounding box): the rasterizing work.
    package private(set) var pixelWork = 0.0
    /// The clip, device pixels.
    var clipBounds: Rect { clip }
    /// The area of the clip in device pixels.
    package var clipArea: Double { max(0, clip.width) * max(0, clip.height) }

    struct Command {
        var fragment: Fragment
        var coverage: LineCoverage
        var period: Double
        var limit: (x0: Int, x1: Int, y0: Int, y1: Int)
    }

    /// The limit of a command drawn wherever the clip allows.
    static let unlimited = (x0: Int.min, x1: Int.max, y0: Int.min, y1: Int.max)

    init(context: GraphicsContext) {
        self.context = context
        self.clip = context.cairo.deviceClipExtents()
    }

    /// Whether nothing was added.
    package var isEmpty: Bool { triangles.isEmpty }

    /// Adds `mesh` (user space, under the context's current transform) shaded by `shading`; with `clip`
    /// (user space, no rotation), only pixels whose centres lie inside it are drawn, as MapLibre's
    /// stencil clips a tile's lines to the tile's square.
    package func add(_ mesh: LineMesh, _ shading: LineShading, clip square: Rect? = nil) {
        guard !mesh.indices.isEmpty, shading.outset > 0, shading.ramp > 0, shading.opacity > 0 else { return }
        var limit = Self.unlimited
        if let square {
            let a = context.cairo.userToDevice(Point(x: square.minX, y: square.minY))
            let b = context.cairo.userToDevice(Point(x: square.maxX, y: square.maxY))
            // A pixel is inside when its centre is: first column ceil(min - 0.5), past the last ceil(max - 0.5).
            func edge(_ v: Double) -> Int? {
                let e = (v - 0.5).rounded(.up)
                return e.isFinite && abs(e) < 1e9 ? Int(e) : nil
            }
            guard let x0 = edge(min(a.x, b.x)), let x1 = edge(max(a.x, b.x)), let y0 = edge(min(a.y, b.y)),
                let y1 = edge(max(a.y, b.y)), x0 < x1, y0 < y1
            else { return }
            limit = (x0, x1, y0, y1)
        }
        // A plain or dashed line's alpha includes its colour's; a gradient's or pattern's colours carry theirs.
        let alpha: Double
        switch shading.paint {
        case .color, .dash: alpha = shading.color.alpha * min(1, shading.opacity)
        case .gradient, .pattern: alpha = min(1, shading.opacity)
        }
        guard alpha > 0 else { return }
        let color = SIMD4(
            Float(shading.color.red * alpha), Float(shading.color.green * alpha), Float(shading.color.blue * alpha),
            Float(alpha))
        let fragment: Fragment
        var period = 0.0
        switch shading.paint {
        case .color:
            fragment = .plain(PlainLine(color: color))
        case .gradient(let ramp):
            guard !ramp.colors.isEmpty else {
                fragment = .plain(PlainLine(color: color))
                break
            }
            let texels = ramp.colors.map { c in
                SIMD4(Float(c.red * c.alpha), Float(c.green * c.alpha), Float(c.blue * c.alpha), Float(c.alpha))
            }
            fragment = .gradient(
                GradientLine(
                    ramp: Texture(width: texels.count, height: 1, texels: texels), nearest: ramp.nearest,
                    steps: ramp.steps.count == ramp.colors.count ? ramp.steps : [], opacity: Float(alpha)))
        case .dash(let dash):
            fragment = .dash(DashLine(field: dash.texture, gamma: Float(dash.gamma), color: color))
            period = dash.period
        case .pattern(let pattern):
            fragment = .pattern(PatternLine(texture: pattern.texture, opacity: Float(alpha)))
            period = pattern.period
        }
        let coverage = LineCoverage(
            outset: Float(shading.outset), inset: Float(shading.inset), ramp: Float(shading.ramp))
        let m = context.cairo.matrix
        // User space to device pixels as cairo_user_to_device computes it (the same products and sums).
        let vertices = mesh.vertices.lazy.map { v in
            let x = (m.a * v.position.x + m.c * v.position.y) + m.tx
            let y = (m.b * v.position.x + m.d * v.position.y) + m.ty
            return (x, y, v)
        }
        append(
            Command(fragment: fragment, coverage: coverage, period: period, limit: limit), vertices: vertices,
            count: mesh.vertices.count, indices: mesh.indices)
    }

    /// Adds the rectangle `source` of `texture` (in texels; it may reach past the texture, which is
    /// transparent there) mapped into the context by `transform` (texels to points, then the current
    /// transform), as a GPU draws a textured quad: a device pixel is drawn when its centre is inside the
    /// quad (left and top edges inclusive), its colour sampled at the centre (bilinear when `linear`, else
    /// nearest) and shaded by `shading`.
    package func addQuad(_ texture: Texture, source: Rect, transform: Transform, linear: Bool, shading: QuadShading) {
        let m = transform.concatenating(context.currentTransform)
        let det = m.a * m.d - m.b * m.c
        guard det.isFinite, abs(det) > 1e-12, source.width > 0, source.height > 0 else { return }
        let ia = m.d / det
        let ib = -m.b / det
        let ic = -m.c / det
        let id = m.a / det
        let inverse = Transform(a: ia, b: ib, c: ic, d: id, tx: -(ia * m.tx + ic * m.ty), ty: -(ib * m.tx + id * m.ty))
        // The triangles reach half a texel past the quad (at least a pixel whatever the scale): every pixel
        // whose centre the fragment's own test takes is covered, and the fragment decides.
        let grow = max(0.5, (abs(ia) + abs(ic) + abs(ib) + abs(id)))
        let quad = ImageQuad(texture: texture, inverse: inverse, source: source, linear: linear, shading: shading)
        addRectangle(
            (
                Point(x: source.minX - grow, y: source.minY - grow).applying(m),
                Point(x: source.maxX + grow, y: source.minY - grow).applying(m),
                Point(x: source.maxX + grow, y: source.maxY + grow).applying(m),
                Point(x: source.minX - grow, y: source.maxY + grow).applying(m)
            ),
            Command(
                fragment: .image(quad), coverage: .init(outset: 0, inset: 0, ramp: 1), period: 0, limit: Self.unlimited)
        )
    }

    /// Adds the rectangle `source` of `texture` mapped into the context by `homography` (texels to points, then
    /// the current transform), as a GPU draws a quad with perspective-correct texture coordinates (a glyph or
    /// icon lying on the ground of a tilted view): as the affine
    /// ``addQuad(_:source:transform:linear:shading:)``, each pixel centre taken back to texels through the
    /// inverse homography. Nothing is drawn when a corner is behind the homography's horizon (`w <= 0`). With
    /// `clampToEdge`, samples past the texture's edge repeat it (raster tiles meet without a seam).
    package func addQuad(
        _ texture: Texture, source: Rect, homography: Homography, linear: Bool, shading: QuadShading,
        clampToEdge: Bool = false
    ) {
        let h = homography.concatenating(context.currentTransform)
        guard source.width > 0, source.height > 0, let inverse = h.inverted() else { return }
        let corners = [
            Point(x: source.minX, y: source.minY), Point(x: source.maxX, y: source.minY),
            Point(x: source.maxX, y: source.maxY), Point(x: source.minX, y: source.maxY),
        ].map { h.apply($0) }
        guard corners.allSatisfy({ $0.w > 0 && $0.point.x.isFinite && $0.point.y.isFinite }) else { return }
        // The device bounding box grown by a pixel: every pixel whose centre is inside is covered, and the
        // fragment decides (the quad is convex: its corners are in front of the camera).
        let xs = corners.map(\.point.x)
        let ys = corners.map(\.point.y)
        let (minX, maxX) = ((xs.min() ?? 0) - 1, (xs.max() ?? 0) + 1)
        let (minY, maxY) = ((ys.min() ?? 0) - 1, (ys.max() ?? 0) + 1)
        // The inverse is the adjugate over the determinant: its denominator at the image of a texel is 1 / w,
        // positive in front of the camera.
        let n = inverse.m
        var quad = ImageQuad(
            texture: texture, inverse: Transform(a: n[0], b: n[3], c: n[1], d: n[4], tx: n[2], ty: n[5]),
            source: source, linear: linear, shading: shading)
        quad.perspective = (n[6], n[7], n[8])
        if clampToEdge { quad.wrap = .clamp }
        addRectangle(
            (Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY), Point(x: minX, y: maxY)),
            Command(
                fragment: .image(quad), coverage: .init(outset: 0, inset: 0, ramp: 1), period: 0, limit: Self.unlimited)
        )
    }

    /// Adds a circle, `disc` in device pixels (the current transform is not applied).
    package func addDisc(_ disc: Disc) {
        guard let shader = DiscShader(disc) else { return }
        let r = shader.outer
        if let g = disc.ground {
            guard g.corners.count == 4 else { return }
            addRectangle(
                (g.corners[0], g.corners[1], g.corners[2], g.corners[3]),
                Command(
                    fragment: .disc(shader), coverage: .init(outset: 0, inset: 0, ramp: 1), period: 0,
                    limit: Self.unlimited))
            return
        }
        addRectangle(
            (
                Point(x: disc.x - r, y: disc.y - r), Point(x: disc.x + r, y: disc.y - r),
                Point(x: disc.x + r, y: disc.y + r), Point(x: disc.x - r, y: disc.y + r)
            ),
            Command(
                fragment: .disc(shader), coverage: .init(outset: 0, inset: 0, ramp: 1), period: 0, limit: Self.unlimited
            ))
    }

    /// Two triangles over `corners` (device pixels, in order round the quadrilateral) for `command`: a glyph's,
    /// icon's or circle's quad, added thousands of times an image, so its corners and indices are not arrays.
    private func addRectangle(_ corners: (Point, Point, Point, Point), _ command: consuming Command) {
        append(command, vertices: Corners(corners), count: 4, indices: Self.rectangleIndices)
    }

    /// The triangles of a quadrilateral's corners in order: 0, 1, 2 and 0, 2, 3.
    private static let rectangleIndices: [Int32] = [0, 1, 2, 0, 2, 3]

    /// A quadrilateral's four corners as vertices with no attributes.
    private struct Corners: Sequence, IteratorProtocol {
        let corners: (Point, Point, Point, Point)
        var index = 0

        init(_ corners: (Point, Point, Point, Point)) { self.corners = corners }

        mutating func next() -> (Double, Double, LineMesh.Vertex)? {
            let p: Point
            switch index {
            case 0: p = corners.0
            case 1: p = corners.1
            case 2: p = corners.2
            case 3: p = corners.3
            default: return nil
            }
            index += 1
            return (p.x, p.y, Self.zero)
        }

        static let zero = LineMesh.Vertex(position: Point(x: 0, y: 0), normal: Point(x: 0, y: 0))
    }

    /// Adds `command` with its vertices (device pixels and attributes) and triangles (indices into them;
    /// out-of-range triangles are dropped). Nothing is added when a vertex is not finite.
    func append<V: Sequence>(_ command: consuming Command, vertices: V, count: Int, indices: [Int32])
    where V.Element == (Double, Double, LineMesh.Vertex) {
        guard count > 0, count < Int(Int32.max) else { return }
        // The arrays are moved out of the object while they grow (appending to a class's stored property
        // checks exclusive access every time) and moved back at the end.
        var positions: [Double] = []
        var normals: [Float] = []
        var progress: [Float] = []
        var distances: [Double] = []
        var perspectives: [Float] = []
        var triangles: [Int32] = []
        swap(&positions, &self.positions)
        swap(&normals, &self.normals)
        swap(&progress, &self.progress)
        swap(&distances, &self.distances)
        swap(&perspectives, &self.perspectives)
        swap(&triangles, &self.triangles)
        defer {
            swap(&positions, &self.positions)
            swap(&normals, &self.normals)
            swap(&progress, &self.progress)
            swap(&distances, &self.distances)
            swap(&perspectives, &self.perspectives)
            swap(&triangles, &self.triangles)
        }
        var minX = self.minX
        var minY = self.minY
        var maxX = self.maxX
        var maxY = self.maxY
        defer {
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }
        let base = Int32(positions.count / 2)
        let s = Int32(commands.count)
        commands.append(command)
        for (x, y, v) in vertices {
            guard x.isFinite, y.isFinite else { return }
            positions.append(x)
            positions.append(y)
            normals.append(Float(v.normal.x))
            normals.append(Float(v.normal.y))
            progress.append(Float(v.progress))
            distances.append(v.distance)
            perspectives.append(Float(v.perspective))
            minX = min(minX, x)
            minY = min(minY, y)
            maxX = max(maxX, x)
            maxY = max(maxY, y)
        }
        let count = Int32(count)
        var work = pixelWork
        let clip = self.clip
        positions.withUnsafeBufferPointer { positions in
            indices.withUnsafeBufferPointer { indices in
                var i = 0
                while i + 2 < indices.count {
                    let a = indices[i]
                    let b = indices[i + 1]
                    let c = indices[i + 2]
                    i += 3
                    guard a >= 0, b >= 0, c >= 0, a < count, b < count, c < count else { continue }
                    triangles.append(base + a)
                    triangles.append(base + b)
                    triangles.append(base + c)
                    triangles.append(s)
                    let ia = 2 * Int(base + a)
                    let ib = 2 * Int(base + b)
                    let ic = 2 * Int(base + c)
                    let (ax, ay) = (positions[ia], positions[ia + 1])
                    let (bx, by) = (positions[ib], positions[ib + 1])
                    let (cx, cy) = (positions[ic], positions[ic + 1])
                    let area = abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / 2
                    let boxWidth = min(max(max(ax, bx), cx), clip.maxX) - max(min(min(ax, bx), cx), clip.minX)
                    let boxHeight = min(max(max(ay, by), cy), clip.maxY) - max(min(min(ay, by), cy), clip.minY)
                    if area.isFinite, boxWidth > 0, boxHeight > 0 { work += min(area, boxWidth * boxHeight) }
                }
            }
        }
        pixelWork = work
    }

    /// Rasterizes everything into a new image covering the pixels the triangles may draw within `clip`
    /// (device pixels); nil when nothing is visible. Returns the image and its device-pixel origin.
    func rasterize() -> (ImageSurface, x: Int, y: Int)? {
        guard let (x0, y0, width, height) = extent() else { return nil }
        let triangles = self.triangles
        let commands = self.commands
        var box = (x0: Int.max, x1: Int.min, y0: Int.max, y1: Int.min)  // first and last column and row
        positions.withUnsafeBufferPointer { positions in
            var t = 0
            while t + 3 < triangles.count {
                let ia = 2 * Int(triangles[t])
                let ib = 2 * Int(triangles[t + 1])
                let ic = 2 * Int(triangles[t + 2])
                let index = Int(triangles[t + 3])
                t += 4
                let ax = positions[ia] - Double(x0)
                let ay = positions[ia + 1] - Double(y0)
                let bx = positions[ib] - Double(x0)
                let by = positions[ib + 1] - Double(y0)
                let cx = positions[ic] - Double(x0)
                let cy = positions[ic + 1] - Double(y0)
                let area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                guard area != 0, area.isFinite else { continue }
                let b = Self.pixelBox(
                    (ax, ay), (bx, by), (cx, cy), limit: commands[index].limit, origin: (x0, y0),
                    size: (width, height))
                guard b.xStart <= b.xEnd, b.yStart <= b.yEnd else { continue }
                box = (min(box.x0, b.xStart), max(box.x1, b.xEnd), min(box.y0, b.yStart), max(box.y1, b.yEnd))
            }
        }
        guard box.x0 <= box.x1, box.y0 <= box.y1,
            let image = try? ImageSurface(width: box.x1 - box.x0 + 1, height: box.y1 - box.y0 + 1)
        else { return nil }
        image.cairo.withPixels { base, stride in
            blendTriangles(
                into: PixelBuffer(base: base, stride: stride, origin: (box.x0, box.y0)), origin: (x0, y0),
                size: (width, height))
        }
        image.cairo.markDirty()
        return (image, x0 + box.x0, y0 + box.y0)
    }

    /// Blends the triangles straight into `surface`'s pixels, none outside `bounds` (device pixels, within
    /// the surface): the same pixels, one 8-bit rounding per triangle as a GPU's framebuffer has, with no
    /// intermediate image. False (nothing drawn) when the canvas's clip does not lie within `bounds`.
    func rasterize(into surface: CairoSurface, within bounds: (x: Int, y: Int, width: Int, height: Int)) -> Bool {
        guard !triangles.isEmpty else { return true }
        guard let (x0, y0, width, height) = extent() else { return true }
        guard x0 >= bounds.x, y0 >= bounds.y else { return false }
        let w = min(width, bounds.x + bounds.width - x0)
        let h = min(height, bounds.y + bounds.height - y0)
        guard w > 0, h > 0 else { return true }
        surface.withPixels { base, stride in
            blendTriangles(
                into: PixelBuffer(base: base, stride: stride, origin: (-x0, -y0)), origin: (x0, y0), size: (w, h))
        }
        surface.markDirty(x: x0, y: y0, width: w, height: h)
        return true
    }

    /// The box of device pixels the triangles may draw (their bounds within the clip): origin and size.
    private func extent() -> (x0: Int, y0: Int, width: Int, height: Int)? {
        guard !triangles.isEmpty else { return nil }
        // The triangles are placed relative to the meshes' box (origin x0, y0: the same coordinates, so the
        // same arithmetic, whatever part of it the image covers); the image is only the part of that box
        // the triangles' pixels can fall in (a sparse layer's lines need not clear and composite the view).
        let x0 = Int(max(minX, clip.minX).rounded(.down))
        let y0 = Int(max(minY, clip.minY).rounded(.down))
        let x1 = Int(min(maxX, clip.maxX).rounded(.up))
        let y1 = Int(min(maxY, clip.maxY).rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// Blends every triangle, in order, into `pixels` (whose origin is relative to `origin`, the box's
    /// device origin); `size` bounds the pixels drawn.
    private func blendTriangles(into pixels: PixelBuffer, origin: (Int, Int), size: (Int, Int)) {
        let triangles = self.triangles
        let commands = self.commands
        positions.withUnsafeBufferPointer { positions in
            normals.withUnsafeBufferPointer { normals in
                progress.withUnsafeBufferPointer { progress in
                    distances.withUnsafeBufferPointer { distances in
                        perspectives.withUnsafeBufferPointer { perspectives in
                            let vertices = Vertices(
                                positions: positions, normals: normals, progress: progress, distances: distances,
                                perspectives: perspectives)
                            // A mesh's triangles are consecutive: its command (and the shader the coverage loop is
                            // specialized for) is looked up once per run.
                            triangles.withUnsafeBufferPointer { triangles in
                                var t = 0
                                while t + 3 < triangles.count {
                                    var end = t + 4
                                    while end + 3 < triangles.count, triangles[end + 3] == triangles[t + 3] { end += 4 }
                                    let command = commands[Int(triangles[t + 3])]
                                    func run<S: FragmentShader>(_ shader: S) {
                                        Self.rasterize(
                                            triangles, t..<end, shader: shader, command: command, vertices: vertices,
                                            origin: origin, size: size, pixels: pixels)
                                    }
                                    switch command.fragment {
                                    case .plain(let shader): run(shader)
                                    case .gradient(let shader): run(shader)
                                    case .pattern(let shader): run(shader)
                                    case .dash(let shader): run(shader)
                                    case .image(let shader):
                                        // One quad (two triangles, as addQuad makes it): its box, no edge tests.
                                        if end - t == 8 {
                                            Self.rasterizeQuad(
                                                triangles, t..<end, shader: shader, command: command,
                                                vertices: vertices, origin: origin, size: size, pixels: pixels)
                                        } else {
                                            run(shader)
                                        }
                                    case .disc(let shader): run(shader)
                                    case .extrusion(let shader): run(shader)
                                    case .patternFill(let shader): run(shader)
                                    case .fillOutline(let shader): run(shader)
                                    case .quadImage(let shader): run(shader)
                                    }
                                    t = end
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The vertex arrays, read without bounds checks (every index was checked when its triangle was added).
    struct Vertices {
        let positions: UnsafeBufferPointer<Double>
        let normals: UnsafeBufferPointer<Float>
        let progress: UnsafeBufferPointer<Float>
        let distances: UnsafeBufferPointer<Double>
        let perspectives: UnsafeBufferPointer<Float>
    }
}

extension GraphicsContext {
    /// A rasterizer for triangles drawn with this context's current transform (see ``Rasterizer``).
    package func makeRasterizer() -> Rasterizer { Rasterizer(context: self) }

    /// Draws what `rasterizer` collected over the image (source over, times the context alpha), within the
    /// current clip.
    ///
    /// At full opacity, into an image surface with no transparency layer and a clip of one pixel-aligned
    /// rectangle (a map's or a tile's layers), the triangles are blended straight into the image, as a GPU
    /// blends into its framebuffer; otherwise into an intermediate image composited over it.
    package func draw(_ rasterizer: Rasterizer) {
        if alpha == 1, let bounds = cairo.directPixelRect(), rasterizer.rasterize(into: cairo.surface, within: bounds) {
            return
        }
        guard let (image, x, y) = rasterizer.rasterize() else { return }
        cairo.withSavedCairoState {
            cairo.identityMatrix()
            cairo.setSource(image.cairo, x: Double(x), y: Double(y), smooth: false)
            cairo.paint(alpha: alpha)
        }
    }
}
