import Foundation
import MapGeometry

/// A line extruded into triangles the way a GPU line renderer draws it: every vertex sits on the line's
/// centre and is pushed out along an extrusion vector; each carries a "normal" whose interpolated length
/// across a triangle says how far from the centre a pixel is (0 on the centre line, 1 at the edge).
///
/// ``LineCanvas`` rasterizes such meshes pixel by pixel (pixel centres, each triangle blended on its own),
/// so that where a translucent line runs over itself it is darker and where two lines abut their
/// antialiased edges leave the seam a GPU leaves.
public struct LineMesh: Sendable {
    /// One vertex: where it is drawn (user space) and its normal.
    public struct Vertex: Sendable {
        public var position: Point
        public var normal: Point
        /// How far along its whole line the vertex is, 0...1 (for ``LineShading/gradient``).
        public var progress: Double
        /// How far along its line the vertex is in user-space units (for ``LineShading/dash``).
        public var distance: Double
        /// A vertex at `position` (user space) with `normal`, `progress` and `distance`.
        public init(position: Point, normal: Point, progress: Double = 0, distance: Double = 0) {
            self.position = position
            self.normal = normal
            self.progress = progress
            self.distance = distance
        }
    }

    public var vertices: [Vertex] = []
    /// Indices into ``vertices``, three per triangle.
    public var indices: [Int32] = []

    /// An empty mesh.
    public init() {}
}

/// How a ``LineMesh`` is shaded: a pixel at distance `d` from the centre (the normal's length times
/// `outset`) is covered `clamp(min(d - (inset - ramp), outset - d) / ramp, 0, 1)`, times `opacity`.
public struct LineShading: Sendable {
    public var color: Color
    public var opacity: Double
    /// Where the coverage reaches 0 outward (user-space units).
    public var outset: Double
    /// Where it reaches 0 inward, for a line with a gap (0 for none).
    public var inset: Double
    /// The width of the coverage ramp (user-space units, > 0).
    public var ramp: Double
    /// When not empty, the color comes from this table instead of ``color``: texel `i` is the color at
    /// progress `i / (count - 1)`, looked up at each pixel's interpolated progress, linearly filtered
    /// (premultiplied) or, with `nearestTexel`, the nearest texel (a GPU's texture lookup).
    public var gradient: [Color]
    public var nearestTexel: Bool
    /// When not empty (as many as ``gradient``, ascending), the gradient is a step function instead of a
    /// table: a pixel takes the color of the last entry whose progress is at most its own (the first
    /// entry's progress should be -infinity).
    public var gradientSteps: [Double] = []
    /// When not empty, a dash pattern as a signed distance field: texel `i` (0...1, 0.5 on a dash's
    /// edge, more inside a dash) covers 1/count of one repeat, which is ``dashPeriod`` long along the
    /// line (user units); it is looked up linearly filtered and repeated, and the coverage multiplied by
    /// `smoothstep(0.5 - dashGamma, 0.5 + dashGamma, value)`.
    public var dash: [Float] = []
    public var dashPeriod = 0.0
    public var dashGamma = 0.0
    /// Rows of ``dash`` (1, or 2n + 1 for round dashes: row `n + k` is the field `k / n` of the half
    /// width off the centre, looked up by the pixel's interpolated side normal, MapLibre's round dashes).
    public var dashRows = 1
    /// When set, the color comes from this image repeated along the line (``LinePattern``) instead of
    /// ``color``; ``dash`` and ``gradient`` are then not used.
    public var pattern: LinePattern?

    /// A shading; see the type's description.
    public init(
        color: Color, opacity: Double, outset: Double, inset: Double, ramp: Double, gradient: [Color] = [],
        nearestTexel: Bool = false
    ) {
        self.color = color
        self.opacity = opacity
        self.outset = outset
        self.inset = inset
        self.ramp = ramp
        self.gradient = gradient
        self.nearestTexel = nearestTexel
    }
}

/// An image repeated along a line as MapLibre's `line_pattern` shader repeats it: one repeat is
/// ``period`` long along the line (user units, from the line's start) and spans the line's whole
/// extrusion across (its width plus the antialiasing margin, the image's top on the side MapLibre's
/// "down" vertices are on). Each repeat maps the image plus a one-texel border (wrapped from the opposite
/// edge, MapLibre's pattern padding in its image atlas) and is looked up linearly filtered, clamped at
/// the border.
public struct LinePattern: Sendable {
    /// Premultiplied r, g, b, a per texel, ``width`` x ``height`` texels (the image and its border).
    let texels: [Float]
    let width: Int
    let height: Int
    /// The length of one repeat along the line, in user units (> 0).
    public var period: Double

    /// The pattern of `image` repeated every `period` user units; nil for an empty image or a period
    /// that is not positive and finite.
    public init?(image: ImageSurface, period: Double) {
        let w = image.width
        let h = image.height
        guard w > 0, h > 0, w <= 4096, h <= 4096, period > 0, period.isFinite else { return nil }
        let pw = w + 2
        let ph = h + 2
        var texels = [Float](repeating: 0, count: pw * ph * 4)
        image.cairo.withPixels { base, stride in
            for py in 0..<ph {
                let sy = (py - 1 + h) % h
                let row = base.advanced(by: sy * stride)
                for px in 0..<pw {
                    let sx = (px - 1 + w) % w
                    let word = row.load(fromByteOffset: sx * 4, as: UInt32.self)
                    let i = (py * pw + px) * 4
                    texels[i] = Float((word >> 16) & 0xFF) / 255
                    texels[i + 1] = Float((word >> 8) & 0xFF) / 255
                    texels[i + 2] = Float(word & 0xFF) / 255
                    texels[i + 3] = Float(word >> 24) / 255
                }
            }
        }
        self.texels = texels
        self.width = pw
        self.height = ph
        self.period = period
    }

    /// The linearly filtered, premultiplied color at `x` (0..<1 along one repeat) and `y` (0...1 across).
    @inline(__always)
    func sample(_ x: Float, _ y: Float) -> (Float, Float, Float, Float) {
        let u = x * Float(width) - 0.5
        let v = y * Float(height) - 0.5
        let fu = floorFloat(u)
        let fv = floorFloat(v)
        let tx = u - fu
        let ty = v - fv
        let x0 = min(max(Int(fu), 0), width - 1)
        let x1 = min(max(Int(fu) + 1, 0), width - 1)
        let y0 = min(max(Int(fv), 0), height - 1)
        let y1 = min(max(Int(fv) + 1, 0), height - 1)
        let i00 = (y0 * width + x0) * 4
        let i10 = (y0 * width + x1) * 4
        let i01 = (y1 * width + x0) * 4
        let i11 = (y1 * width + x1) * 4
        func channel(_ k: Int) -> Float {
            let top = texels[i00 + k] * (1 - tx) + texels[i10 + k] * tx
            let bottom = texels[i01 + k] * (1 - tx) + texels[i11 + k] * tx
            return top * (1 - ty) + bottom * ty
        }
        return (channel(0), channel(1), channel(2), channel(3))
    }
}

/// Collects line meshes in device pixels and draws them in one go (``GraphicsContext/draw(_:)``).
///
/// Triangles are rasterized at pixel centres (a shared edge belongs to one triangle only) and blended
/// one after another, premultiplied, rounded to 8 bits after each as a GPU's framebuffer does.
public final class LineCanvas {
    private var positions: [Double] = []  // x, y per vertex, device pixels
    private var normals: [Float] = []  // x, y per vertex
    private var progress: [Float] = []
    private var distances: [Double] = []
    /// Per shading: the dash field (empty for none), its period and its gamma.
    private var dashes: [(field: [Float], period: Double, gamma: Float, rows: Int)] = []
    /// Premultiplied r, g, b, a per texel, per shading (empty for a plain color).
    private var gradients: [[Float]] = []
    private var nearest: [Bool] = []
    private var steps: [[Double]] = []
    private var patterns: [LinePattern?] = []
    /// Per shading: the pixels (device, first and past-the-end columns and rows) it may cover.
    private var limits: [(x0: Int, x1: Int, y0: Int, y1: Int)] = []
    private var triangles: [Int32] = []  // a, b, c, shading index
    private var shadings: [(r: Float, g: Float, b: Float, a: Float, outset: Float, inset: Float, ramp: Float)] = []
    private var minX = Double.infinity
    private var minY = Double.infinity
    private var maxX = -Double.infinity
    private var maxY = -Double.infinity
    private let context: GraphicsContext
    private let clip: Rect
    /// About how many pixels the triangles added so far cover within the clip (each triangle's area,
    /// at most its clipped bounding box): the rasterizing work. A renderer may stroke very wide lines
    /// another way when this grows past a few times the image (a CPU pays per covered pixel per triangle).
    public private(set) var pixelWork = 0.0
    /// The area of the clip in device pixels.
    public var clipArea: Double { max(0, clip.width) * max(0, clip.height) }

    init(context: GraphicsContext) {
        self.context = context
        self.clip = context.cairo.deviceClipExtents()
    }

    /// Whether nothing was added.
    public var isEmpty: Bool { triangles.isEmpty }

    /// Adds `mesh` (user space, under the context's current transform) shaded by `shading`; with `clip`
    /// (user space, no rotation), only pixels whose centres lie inside it are drawn, as MapLibre's
    /// stencil clips a tile's lines to the tile's square.
    public func add(_ mesh: LineMesh, _ shading: LineShading, clip square: Rect? = nil) {
        guard !mesh.indices.isEmpty, shading.outset > 0, shading.ramp > 0, shading.opacity > 0 else { return }
        var limit = (x0: Int.min, x1: Int.max, y0: Int.min, y1: Int.max)
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
        // Distances in the shading are in user units; the ramp and coverage are computed in those units.
        let alpha =
            shading.gradient.isEmpty && shading.pattern == nil
            ? shading.color.alpha * min(1, shading.opacity) : min(1, shading.opacity)
        guard alpha > 0 else { return }
        gradients.append(
            shading.gradient.flatMap { c in
                [Float(c.red * c.alpha), Float(c.green * c.alpha), Float(c.blue * c.alpha), Float(c.alpha)]
            })
        nearest.append(shading.nearestTexel)
        steps.append(shading.gradientSteps.count == shading.gradient.count ? shading.gradientSteps : [])
        patterns.append(shading.pattern)
        limits.append(limit)
        dashes.append(
            shading.dashPeriod > 0 && shading.dashGamma > 0 && shading.dashRows > 0
                && shading.dash.count >= 2 * shading.dashRows && shading.dash.count % shading.dashRows == 0
                ? (shading.dash, shading.dashPeriod, Float(shading.dashGamma), shading.dashRows) : ([], 0, 0, 1))
        let s = Int32(shadings.count)
        shadings.append(
            (
                Float(shading.color.red * alpha), Float(shading.color.green * alpha), Float(shading.color.blue * alpha),
                Float(alpha), Float(shading.outset), Float(shading.inset), Float(shading.ramp)
            ))
        // The arrays are moved out of the object while they grow (appending to a class's stored property
        // checks exclusive access every time) and moved back at the end.
        var positions: [Double] = []
        var normals: [Float] = []
        var progress: [Float] = []
        var distances: [Double] = []
        var triangles: [Int32] = []
        swap(&positions, &self.positions)
        swap(&normals, &self.normals)
        swap(&progress, &self.progress)
        swap(&distances, &self.distances)
        swap(&triangles, &self.triangles)
        defer {
            swap(&positions, &self.positions)
            swap(&normals, &self.normals)
            swap(&progress, &self.progress)
            swap(&distances, &self.distances)
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
        // User space to device pixels as cairo_user_to_device computes it (the same products and sums).
        let m = context.cairo.matrix
        for v in mesh.vertices {
            let x = (m.a * v.position.x + m.c * v.position.y) + m.tx
            let y = (m.b * v.position.x + m.d * v.position.y) + m.ty
            guard x.isFinite, y.isFinite else { return }
            positions.append(x)
            positions.append(y)
            normals.append(Float(v.normal.x))
            normals.append(Float(v.normal.y))
            progress.append(Float(v.progress))
            distances.append(v.distance)
            minX = min(minX, x)
            minY = min(minY, y)
            maxX = max(maxX, x)
            maxY = max(maxY, y)
        }
        let count = Int32(mesh.vertices.count)
        var work = pixelWork
        let clip = self.clip
        positions.withUnsafeBufferPointer { positions in
            mesh.indices.withUnsafeBufferPointer { indices in
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
        let limits = self.limits
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
                    (ax, ay), (bx, by), (cx, cy), limit: limits[index], origin: (x0, y0), size: (width, height))
                guard b.xStart <= b.xEnd, b.yStart <= b.yEnd else { continue }
                box = (min(box.x0, b.xStart), max(box.x1, b.xEnd), min(box.y0, b.yStart), max(box.y1, b.yEnd))
            }
        }
        guard box.x0 <= box.x1, box.y0 <= box.y1,
            let image = try? ImageSurface(width: box.x1 - box.x0 + 1, height: box.y1 - box.y0 + 1)
        else { return nil }
        image.cairo.withPixels { base, stride in
            blendTriangles(
                into: base, stride: stride, pixelsOrigin: (box.x0, box.y0), origin: (x0, y0), size: (width, height))
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
            blendTriangles(into: base, stride: stride, pixelsOrigin: (-x0, -y0), origin: (x0, y0), size: (w, h))
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

    /// Blends every triangle, in order, into pixel memory whose column 0, row 0 is the box's pixel
    /// `pixelsOrigin` (relative to `origin`, the box's device origin); `size` bounds the pixels drawn.
    private func blendTriangles(
        into base: UnsafeMutableRawPointer, stride: Int, pixelsOrigin: (x: Int, y: Int), origin: (Int, Int),
        size: (Int, Int)
    ) {
        let triangles = self.triangles
        let limits = self.limits
        let shadings = self.shadings
        let gradients = self.gradients
        let nearest = self.nearest
        let steps = self.steps
        let dashes = self.dashes
        let patterns = self.patterns
        positions.withUnsafeBufferPointer { positions in
            normals.withUnsafeBufferPointer { normals in
                progress.withUnsafeBufferPointer { progress in
                    distances.withUnsafeBufferPointer { distances in
                        let vertices = Vertices(
                            positions: positions, normals: normals, progress: progress, distances: distances)
                        // A mesh's triangles are consecutive: its shading is looked up once per run.
                        var t = 0
                        while t + 3 < triangles.count {
                            let index = Int(triangles[t + 3])
                            var end = t + 4
                            while end + 3 < triangles.count, triangles[end + 3] == triangles[t + 3] { end += 4 }
                            let shading = shadings[index]
                            let gradient = gradients[index]
                            let nearest = nearest[index]
                            let steps = steps[index]
                            let dash = dashes[index]
                            let pattern = patterns[index]
                            let limit = limits[index]
                            while t < end {
                                Self.rasterizeTriangle(
                                    Int(triangles[t]), Int(triangles[t + 1]), Int(triangles[t + 2]),
                                    vertices: vertices, shading: shading, gradient: gradient, nearest: nearest,
                                    steps: steps, dash: dash, pattern: pattern, limit: limit,
                                    origin: origin, size: size, pixels: base, pixelsOrigin: pixelsOrigin,
                                    stride: stride)
                                t += 4
                            }
                        }
                    }
                }
            }
        }
    }

    /// How far a row's span of columns to test reaches past where its edge functions cross zero (pixels):
    /// the crossing is computed as x - b / a, whose error (a few ulps of the distance from the triangle's
    /// corner, under 1e-9 pixel for any image) is far below this, so no pixel the exact test takes is left
    /// out; and a thin line's row tests its few covered pixels, not one more either side.
    static let spanMargin = 1.0 / 1024

    /// The vertex arrays, read without bounds checks (every index was checked when its triangle was added).
    private struct Vertices {
        let positions: UnsafeBufferPointer<Double>
        let normals: UnsafeBufferPointer<Float>
        let progress: UnsafeBufferPointer<Float>
        let distances: UnsafeBufferPointer<Double>
    }

    /// The first and last columns and rows (relative to `origin`) whose pixel centres a triangle at `a`,
    /// `b`, `c` (relative to `origin`) may cover within `limit` and the `size` box.
    @inline(__always)
    private static func pixelBox(
        _ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double),
        limit: (x0: Int, x1: Int, y0: Int, y1: Int), origin: (Int, Int), size: (Int, Int)
    ) -> (xStart: Int, xEnd: Int, yStart: Int, yEnd: Int) {
        // The clip's limits, relative to the origin (saturating: unclipped limits are Int.min/max).
        let lx0 = limit.x0 == Int.min ? 0 : limit.x0 - origin.0
        let lx1 = limit.x1 == Int.max ? size.0 : limit.x1 - origin.0
        let ly0 = limit.y0 == Int.min ? 0 : limit.y0 - origin.1
        let ly1 = limit.y1 == Int.max ? size.1 : limit.y1 - origin.1
        return (
            max(max(0, lx0), ceilToInt(min(min(a.0, b.0), c.0) - 0.5)),
            min(min(size.0 - 1, lx1 - 1), floorToInt(max(max(a.0, b.0), c.0) - 0.5)),
            max(max(0, ly0), ceilToInt(min(min(a.1, b.1), c.1) - 0.5)),
            min(min(size.1 - 1, ly1 - 1), floorToInt(max(max(a.1, b.1), c.1) - 0.5))
        )
    }

    private static func rasterizeTriangle(
        _ ia: Int, _ ib: Int, _ ic: Int, vertices: Vertices,
        shading: (r: Float, g: Float, b: Float, a: Float, outset: Float, inset: Float, ramp: Float),
        gradient: [Float], nearest: Bool, steps: [Double],
        dash: (field: [Float], period: Double, gamma: Float, rows: Int),
        pattern: LinePattern?, limit: (x0: Int, x1: Int, y0: Int, y1: Int),
        origin: (Int, Int),
        size: (Int, Int), pixels: UnsafeMutableRawPointer, pixelsOrigin: (x: Int, y: Int),
        stride: Int
    ) {
        let positions = vertices.positions
        let normals = vertices.normals
        let progress = vertices.progress
        let distances = vertices.distances
        var ax = positions[2 * ia] - Double(origin.0)
        var ay = positions[2 * ia + 1] - Double(origin.1)
        var bx = positions[2 * ib] - Double(origin.0)
        var by = positions[2 * ib + 1] - Double(origin.1)
        let cx = positions[2 * ic] - Double(origin.0)
        let cy = positions[2 * ic + 1] - Double(origin.1)
        var na = (normals[2 * ia], normals[2 * ia + 1], progress[ia])
        var nb = (normals[2 * ib], normals[2 * ib + 1], progress[ib])
        let nc = (normals[2 * ic], normals[2 * ic + 1], progress[ic])
        let texels = gradient.count / 4
        // The dash texture coordinate (repeats) at each vertex; relative to the triangle's first vertex so
        // that long lines keep their precision.
        let dashTexels = dash.field.count / dash.rows
        var dashBase = 0.0
        var da: Float = 0
        var db: Float = 0
        var dc: Float = 0
        if let period = pattern?.period ?? (dashTexels > 0 ? dash.period : nil) {
            let ua = distances[ia] / period
            dashBase = ua.rounded(.down)
            da = Float(ua - dashBase)
            db = Float(distances[ib] / period - dashBase)
            dc = Float(distances[ic] / period - dashBase)
        }
        var area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        guard area != 0, area.isFinite else { return }
        if area < 0 {
            swap(&ax, &bx)
            swap(&ay, &by)
            swap(&na, &nb)
            swap(&da, &db)
            area = -area
        }
        let (xStart, xEnd, yStart, yEnd) = pixelBox(
            (ax, ay), (bx, by), (cx, cy), limit: limit, origin: origin, size: size)
        guard xStart <= xEnd, yStart <= yEnd else { return }
        // Edge functions (positive inside): w0(px, py) = e0x * (py - by) - e0y * (px - bx) and so on. A
        // pixel centre exactly on an edge belongs to the triangle on one side only (the edge's direction
        // decides), so triangles sharing an edge never both draw it.
        let e0x = cx - bx  // edge b -> c, weight of a
        let e0y = cy - by
        let e1x = ax - cx  // edge c -> a, weight of b
        let e1y = ay - cy
        let e2x = bx - ax  // edge a -> b, weight of c
        let e2y = by - ay
        // A pixel is inside when w > t for each edge: t is 0, or for an edge that includes its own pixels
        // the negative number closest to 0 (w >= 0 exactly: no double lies between the two).
        let t0 = e0y < 0 || (e0y == 0 && e0x > 0) ? -Double.leastNonzeroMagnitude : 0
        let t1 = e1y < 0 || (e1y == 0 && e1x > 0) ? -Double.leastNonzeroMagnitude : 0
        let t2 = e2y < 0 || (e2y == 0 && e2x > 0) ? -Double.leastNonzeroMagnitude : 0
        let inverse = 1 / area
        let outset = shading.outset
        let inset = shading.inset
        let ramp = shading.ramp
        let inverseRamp = 1 / ramp
        let rampStart = inset - ramp
        let inverse0 = 1 / -e0y
        let inverse1 = 1 / -e1y
        let inverse2 = 1 / -e2y
        // The row `y`'s pixel pointer, its terms of the edge functions and the columns that may be inside.
        @inline(__always) func span(_ y: Int) -> (
            row: UnsafeMutableRawPointer, r0: Double, r1: Double, r2: Double, first: Int, last: Int
        )? {
            let py = Double(y) + 0.5
            // The image's column x - pixelsOrigin.x, row y - pixelsOrigin.y (all within it: see rasterize).
            let row = pixels.advanced(by: (y - pixelsOrigin.y) * stride - 4 * pixelsOrigin.x)
            // The row's terms of the edge functions.
            let r0 = e0x * (py - by)
            let r1 = e1x * (py - cy)
            let r2 = e2x * (py - ay)
            // Each edge function is linear in x along a row: the span where all three are positive,
            // widened by ``spanMargin`` either side (the exact test below decides), so that the work is the
            // covered pixels.
            var lo = Double(xStart)
            var hi = Double(xEnd)
            @inline(__always) func narrow(_ a: Double, _ inverse: Double, _ x: Double, _ b: Double) {
                // w(px) = b + a * (px - x), zero at x - b / a (times the inverse: an error of an ulp or so,
                // far inside the margin)
                if a > 0 {
                    lo = max(lo, x - b * inverse - 0.5 - Self.spanMargin)
                } else if a < 0 {
                    hi = min(hi, x - b * inverse - 0.5 + Self.spanMargin)
                } else if b < 0 {
                    hi = lo - 1
                }
            }
            narrow(-e0y, inverse0, bx, r0)
            narrow(-e1y, inverse1, cx, r1)
            narrow(-e2y, inverse2, ax, r2)
            guard lo <= hi, lo.isFinite, hi.isFinite else { return nil }
            // lo and hi lie within xStart...xEnd (never negative): truncation is the floor.
            let first = max(xStart, Int(lo))
            let last = min(xEnd, ceilToInt(hi))
            guard first <= last else { return nil }
            return (row, r0, r1, r2, first, last)
        }
        if dashTexels == 0 && pattern == nil && texels == 0 {
            // The common case, a plain color, written out so that it does the least work per pixel. A pixel
            // fully covered by an opaque color takes the color whatever was below (the blend's `keep` is 0),
            // so its word is computed once.
            let source = (shading.r, shading.g, shading.b, shading.a)
            let opaque = shading.a == 1
            let opaqueWord = Self.blend(0, source, coverage: 1)
            // Four pixels at a time: each lane does the scalar arithmetic, operation for operation (the same
            // IEEE results, so the same pixels as one at a time).
            let lanes = SIMD4<Double>(0.5, 1.5, 2.5, 3.5)
            for y in yStart...yEnd {
                guard let (row, r0, r1, r2, first, last) = span(y) else { continue }
                var x = first
                while x <= last {
                    let px = SIMD4<Double>(repeating: Double(x)) + lanes
                    let w0 = r0 - e0y * (px - bx)
                    let w1 = r1 - e1y * (px - cx)
                    let w2 = r2 - e2y * (px - ax)
                    let inside = (w0 .> t0) .& (w1 .> t1) .& (w2 .> t2)
                    guard any(inside) else {
                        x += 4
                        continue
                    }
                    let l0 = SIMD4<Float>(w0 * inverse)
                    let l1 = SIMD4<Float>(w1 * inverse)
                    let l2 = 1 - l0 - l1
                    let nx = l0 * na.0 + l1 * nb.0 + l2 * nc.0
                    let ny = l0 * na.1 + l1 * nb.1 + l2 * nc.1
                    let dist = (nx * nx + ny * ny).squareRoot() * outset
                    // min(max(min(a, b) * inverseRamp, 0), 1) as the scalar min and max choose (Swift.min(x, y)
                    // is y < x ? y : x; Swift.max(x, y) is y >= x ? y : x), lane by lane without a call.
                    let a = dist - rampStart
                    let b = outset - dist
                    var coverages = a.replacing(with: b, where: b .< a) * inverseRamp
                    coverages.replace(with: 0, where: 0 .>= coverages)
                    coverages.replace(with: 1, where: 1 .< coverages)
                    if x + 3 <= last {
                        // Four columns of the row: blended together, lane by lane as `blend` does (a covered
                        // opaque pixel's blend is `opaqueWord`: nothing of the word below is kept); pixels not
                        // covered are written back unchanged. NaN coverage (degenerate normals) draws nothing.
                        let insideLanes = SIMD4<Int32>(
                            truncatingIfNeeded: SIMD4<Int64>(repeating: 0).replacing(with: 1, where: inside))
                        let covered = (insideLanes .!= 0) .& (coverages .> 0)
                        if any(covered) {
                            let offset = x * 4
                            let words = row.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                            let blended = Self.blend(words, source, coverage: coverages)
                            row.storeBytes(
                                of: words.replacing(with: blended, where: covered), toByteOffset: offset,
                                as: SIMD4<UInt32>.self)
                        }
                        x += 4
                        continue
                    }
                    for lane in 0..<min(4, last - x + 1) where inside[lane] {
                        let coverage = coverages[lane]
                        // A NaN distance (degenerate normals) draws nothing, as in the scalar formula.
                        guard coverage > 0, !dist[lane].isNaN else { continue }
                        let offset = (x + lane) * 4
                        if coverage == 1 && opaque {
                            row.storeBytes(of: opaqueWord, toByteOffset: offset, as: UInt32.self)
                            continue
                        }
                        let word = row.load(fromByteOffset: offset, as: UInt32.self)
                        row.storeBytes(
                            of: Self.blend(word, source, coverage: coverage), toByteOffset: offset, as: UInt32.self)
                    }
                    x += 4
                }
            }
            return
        }
        // Dashes, gradients and patterns: every pixel inside, with its barycentric weights of a and b.
        @inline(__always) func scan(_ pixel: (UnsafeMutableRawPointer, Int, Float, Float) -> Void) {
            for y in yStart...yEnd {
                guard let (row, r0, r1, r2, first, last) = span(y) else { continue }
                for x in first...last {
                    let px = Double(x) + 0.5
                    let w0 = r0 - e0y * (px - bx)
                    let w1 = r1 - e1y * (px - cx)
                    let w2 = r2 - e2y * (px - ax)
                    guard w0 > t0, w1 > t1, w2 > t2 else { continue }
                    pixel(row, x, Float(w0 * inverse), Float(w1 * inverse))
                }
            }
        }
        scan { row, x, l0, l1 in
            let l2 = 1 - l0 - l1
            let nx = l0 * na.0 + l1 * nb.0 + l2 * nc.0
            let ny = l0 * na.1 + l1 * nb.1 + l2 * nc.1
            let dist = (nx * nx + ny * ny).squareRoot() * outset
            var coverage = min(max(min(dist - rampStart, outset - dist) * inverseRamp, 0), 1)
            guard coverage > 0 else { return }
            if dashTexels > 0 {
                // A GPU's repeated, linearly filtered lookup, then the shader's smoothstep.
                let s = (l0 * da + l1 * db + l2 * dc) * Float(dashTexels) - 0.5
                guard s.isFinite, abs(s) < 1e9 else { return }
                let lower = floorFloat(s)
                let f = s - lower
                let n = dashTexels
                let i0 = ((Int(lower) % n) + n) % n
                let i1 = (i0 + 1) % n
                var value = dash.field[i0] * (1 - f) + dash.field[i1] * f
                if dash.rows > 1 {
                    let half = Float(dash.rows - 1) / 2
                    let side = ny
                    let r = min(max(half - side * half, 0), Float(dash.rows - 1))
                    let r0 = Int(r)  // r >= 0
                    let r1 = min(r0 + 1, dash.rows - 1)
                    let fr = r - Float(r0)
                    func at(_ row: Int) -> Float {
                        dash.field[row * n + i0] * (1 - f) + dash.field[row * n + i1] * f
                    }
                    value = at(r0) * (1 - fr) + at(r1) * fr
                }
                let edge0 = 0.5 - dash.gamma
                let edge1 = 0.5 + dash.gamma
                let x = min(max((value - edge0) / (edge1 - edge0), 0), 1)
                coverage *= x * x * (3 - 2 * x)
                guard coverage > 0 else { return }
            }
            var source = (shading.r, shading.g, shading.b, shading.a)
            if let pattern {
                // MapLibre's line_pattern: along, the fraction of the repeat; across, the side normal
                // from -1 to 1 mapped to the image's top to bottom.
                let along = l0 * da + l1 * db + l2 * dc
                let x = along - floorFloat(along)
                let side = ny
                guard x.isFinite, side.isFinite else { return }
                let c = pattern.sample(x, 0.5 * side + 0.5)
                let o = shading.a
                source = (c.0 * o, c.1 * o, c.2 * o, c.3 * o)
            } else if texels > 0 {
                // The texel lookup of a GPU: texel centres at (i + 0.5) / count, clamped at the ends.
                let u = (l0 * na.2 + l1 * nb.2 + l2 * nc.2) * Float(texels) - 0.5
                let i0: Int
                let i1: Int
                var f: Float
                if !steps.isEmpty {
                    // The last step at or below the pixel's progress (binary search).
                    let p = Double(l0 * na.2 + l1 * nb.2 + l2 * nc.2)
                    var lo = 0
                    var hi = steps.count - 1
                    while lo < hi {
                        let mid = (lo + hi + 1) / 2
                        if steps[mid] <= p { lo = mid } else { hi = mid - 1 }
                    }
                    i0 = lo
                    i1 = lo
                    f = 0
                } else if nearest {
                    i0 = min(max(Int(floorFloat(u + 0.5)), 0), texels - 1)
                    i1 = i0
                    f = 0
                } else {
                    let lower = floorFloat(u)
                    f = u - lower
                    i0 = min(max(Int(lower), 0), texels - 1)
                    i1 = min(max(Int(lower) + 1, 0), texels - 1)
                    if !f.isFinite { f = 0 }
                }
                let o = shading.a
                func texel(_ k: Int) -> Float {
                    (gradient[4 * i0 + k] * (1 - f) + gradient[4 * i1 + k] * f) * o
                }
                source = (texel(0), texel(1), texel(2), texel(3))
            }
            let word = row.load(fromByteOffset: x * 4, as: UInt32.self)
            row.storeBytes(of: Self.blend(word, source, coverage: coverage), toByteOffset: x * 4, as: UInt32.self)
        }
    }

    /// ``blend(_:_:coverage:)`` of four pixels at once: the same operations in each lane, so the same words.
    @inline(__always)
    private static func blend(
        _ words: SIMD4<UInt32>, _ source: (Float, Float, Float, Float), coverage: SIMD4<Float>
    ) -> SIMD4<UInt32> {
        let keep = 1 - source.3 * coverage
        @inline(__always) func channel(_ src: Float, _ shift: UInt32) -> SIMD4<UInt32> {
            let d = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: (words &>> shift) & 0xFF))
            var v = src * coverage * 255 + d * keep
            v.replace(with: 0, where: 0 .>= v)
            v.replace(with: 255, where: 255 .< v)
            var n = unsafeBitCast(v + 12_582_912, to: SIMD4<UInt32>.self) & 0x3F_FFFF
            n &+= SIMD4<UInt32>(repeating: 1).replacing(
                with: 0, where: v - SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: n)) .!= 0.5)
            return n &<< shift
        }
        return channel(source.3, 24) | channel(source.0, 16) | channel(source.1, 8) | channel(source.2, 0)
    }

    /// `source` (premultiplied, 0...1) over the pixel `word` with `coverage`, rounded to 8 bits as a GPU's
    /// framebuffer does.
    @inline(__always)
    private static func blend(_ word: UInt32, _ source: (Float, Float, Float, Float), coverage: Float) -> UInt32 {
        let keep = 1 - source.3 * coverage
        @inline(__always) func channel(_ src: Float, _ shift: UInt32) -> UInt32 {
            let d = Float((word >> shift) & 0xFF)
            let v = min(max(src * coverage * 255 + d * keep, 0), 255)
            // Rounded half away from zero without a call to roundf: adding 1.5 * 2^23 leaves the
            // nearest integer (ties to even) in the low mantissa bits; a tie rounded down to even is
            // moved up (v - n is exact). Checked against rounded() on every Float in 0...255.
            var n = (v + 12_582_912).bitPattern & 0x3F_FFFF
            if v - Float(n) == 0.5 { n &+= 1 }
            return n << shift
        }
        return channel(source.3, 24) | channel(source.0, 16) | channel(source.1, 8) | channel(source.2, 0)
    }
}

/// `v.rounded(.up)` as an Int, clamped to +-1e15, without a call to libm (v not NaN).
@inline(__always)
private func ceilToInt(_ v: Double) -> Int {
    let c = min(max(v, -1e15), 1e15)
    let t = Int(c)
    return Double(t) < c ? t + 1 : t
}

/// `v.rounded(.down)` as an Int, clamped to +-1e15, without a call to libm (v not NaN).
@inline(__always)
private func floorToInt(_ v: Double) -> Int {
    let c = min(max(v, -1e15), 1e15)
    let t = Int(c)
    return Double(t) > c ? t - 1 : t
}

/// `v.rounded(.down)`, bit for bit, without a call to libm when |v| < 2^23 (larger values are whole).
@inline(__always)
func floorFloat(_ v: Float) -> Float {
    guard abs(v) < 8_388_608 else { return v.rounded(.down) }
    let t = Float(Int32(v))
    return t > v ? t - 1 : (t == v ? v : t)
}

extension GraphicsContext {
    /// A canvas for line meshes drawn with this context's current transform (see ``LineCanvas``).
    public func makeLineCanvas() -> LineCanvas { LineCanvas(context: self) }

    /// Draws what `canvas` collected over the image (source over, times the context alpha), within the
    /// current clip.
    ///
    /// At full opacity, into an image surface with no transparency layer and a clip of one pixel-aligned
    /// rectangle (a map's or a tile's layers), the triangles are blended straight into the image, as a GPU
    /// blends into its framebuffer; otherwise into an intermediate image composited over it.
    public func draw(_ canvas: LineCanvas) {
        if alpha == 1, let bounds = cairo.directPixelRect(), canvas.rasterize(into: cairo.surface, within: bounds) {
            return
        }
        guard let (image, x, y) = canvas.rasterize() else { return }
        cairo.withSavedCairoState {
            cairo.identityMatrix()
            cairo.setSource(image.cairo, x: Double(x), y: Double(y), smooth: false)
            cairo.paint(alpha: alpha)
        }
    }
}
