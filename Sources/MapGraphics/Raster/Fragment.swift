import MapGeometry

/// A line extruded into triangles the way a GPU line renderer draws it: every vertex sits on the line's
/// centre and is pushed out along an extrusion vector; each carries a "normal" whose interpolated length
/// across a triangle says how far from the centre a pixel is (0 on the centre line, 1 at the edge).
///
/// ``Rasterizer`` rasterizes such meshes pixel by pixel (pixel centres, each triangle blended on its own),
/// so that where a translucent line runs over itself it is darker and where two lines abut their
/// antialiased edges leave the seam a GPU leaves.
package struct LineMesh: Sendable {
    /// One vertex: where it is drawn (user space) and its normal.
    package struct Vertex: Sendable {
        package var position: Point
        package var normal: Point
        /// How far along its whole line the vertex is, 0...1 (for ``LinePaint/gradient(_:)``).
        package var progress: Double
        /// How far along its line the vertex is in user-space units (dashes and patterns).
        package var distance: Double
        /// One over the vertex's depth, relative to other vertices' (1 in an untilted view): a tilted view's
        /// mesh is interpolated along the line as a GPU interpolates varyings, with perspective (the progress
        /// and distance of a pixel are the vertices' weighted by their barycentric weights times this).
        package var perspective: Double = 1
        /// A vertex at `position` (user space) with `normal`, `progress` and `distance`.
        package init(position: Point, normal: Point, progress: Double = 0, distance: Double = 0) {
            self.position = position
            self.normal = normal
            self.progress = progress
            self.distance = distance
        }
    }

    package var vertices: [Vertex] = []
    /// Indices into ``vertices``, three per triangle.
    package var indices: [Int32] = []

    /// An empty mesh.
    package init() {}
}

/// How a ``LineMesh`` is shaded: a pixel at distance `d` from the centre (the normal's length times
/// `outset`) is covered `clamp(min(d - (inset - ramp), outset - d) / ramp, 0, 1)`, times `opacity`, and
/// painted as ``paint`` says.
package struct LineShading: Sendable {
    package var color: Color
    package var opacity: Double
    /// Where the coverage reaches 0 outward (user-space units).
    package var outset: Double
    /// Where it reaches 0 inward, for a line with a gap (0 for none).
    package var inset: Double
    /// The width of the coverage ramp (user-space units, > 0).
    package var ramp: Double
    /// What colours the covered pixels.
    package var paint: LinePaint

    /// A shading; see the type's description.
    package init(color: Color, opacity: Double, outset: Double, inset: Double, ramp: Double, paint: LinePaint = .color)
    {
        self.color = color
        self.opacity = opacity
        self.outset = outset
        self.inset = inset
        self.ramp = ramp
        self.paint = paint
    }
}

/// What colours a line's covered pixels (the line cases of the rasterizer's fragment stage).
package enum LinePaint: Sendable {
    /// ``LineShading/color`` (MapLibre's `line` shader).
    case color
    /// A colour ramp along the line's progress (`line_gradient`).
    case gradient(ColorRamp)
    /// ``LineShading/color`` through a dash pattern's distance field (`line_sdf`).
    case dash(DashField)
    /// An image repeated along the line (`line_pattern`).
    case pattern(LinePattern)
}

/// A colour table looked up by a line's progress: texel `i` is the colour at progress `i / (count - 1)`,
/// linearly filtered (premultiplied) or, with `nearest`, the nearest texel (a GPU's texture lookup); with
/// `steps` (as many as the colours, ascending) a step function instead: a pixel takes the colour of the
/// last entry whose progress is at most its own (the first entry's progress should be -infinity).
package struct ColorRamp: Sendable {
    package var colors: [Color]
    package var nearest: Bool
    package var steps: [Double]

    /// A ramp of `colors` (see the type's description).
    package init(colors: [Color], nearest: Bool = false, steps: [Double] = []) {
        self.colors = colors
        self.nearest = nearest
        self.steps = steps
    }
}

/// A dash pattern as a signed distance field: texel `i` (0...1, 0.5 on a dash's edge, more inside a dash)
/// covers 1/count of one repeat, which is ``period`` long along the line (user units); it is looked up
/// linearly filtered and repeated, and the coverage multiplied by `smoothstep(0.5 - gamma, 0.5 + gamma,
/// value)`. With several rows (2n + 1, MapLibre's round dashes) row `n + k` is the field `k / n` of the
/// half width off the centre, looked up by the pixel's interpolated side normal.
package struct DashField: Sendable {
    let texture: Texture
    package var period: Double
    package var gamma: Double

    /// The field `values` (`rows` rows of equal length, at least 2 texels each); nil when the sizes do not
    /// fit or `period` or `gamma` is not positive and finite.
    package init?(_ values: [Float], rows: Int, period: Double, gamma: Double) {
        guard rows > 0, values.count >= 2 * rows, values.count % rows == 0, period > 0, period.isFinite, gamma > 0,
            gamma.isFinite
        else { return nil }
        texture = Texture(width: values.count / rows, height: rows, texels: values.map { SIMD4(repeating: $0) })
        self.period = period
        self.gamma = gamma
    }

    /// The same field with another `period` and `gamma` (the field's texture shared); nil when either is not
    /// positive and finite.
    package func with(period: Double, gamma: Double) -> DashField? {
        guard period > 0, period.isFinite, gamma > 0, gamma.isFinite else { return nil }
        var field = self
        field.period = period
        field.gamma = gamma
        return field
    }
}

/// An image repeated along a line as MapLibre's `line_pattern` shader repeats it: one repeat is
/// ``period`` long along the line (user units, from the line's start) and spans the line's whole
/// extrusion across (its width plus the antialiasing margin, the image's top on the side MapLibre's
/// "down" vertices are on). Each repeat maps the image plus a one-texel border (wrapped from the opposite
/// edge, MapLibre's pattern padding in its image atlas) and is looked up linearly filtered, clamped at
/// the border.
package struct LinePattern: Sendable {
    let texture: Texture
    /// The length of one repeat along the line, in user units (> 0).
    package var period: Double

    /// The pattern of `image` repeated every `period` user units; nil for an empty image or a period
    /// that is not positive and finite.
    package init?(image: ImageSurface, period: Double) {
        guard period > 0, period.isFinite, let texture = Texture(wrappingBorderOf: image) else { return nil }
        self.texture = texture
        self.period = period
    }
}

/// How an image quad's samples become colours (``Rasterizer/addQuad(_:source:transform:linear:shading:)``).
package enum QuadShading: Sendable {
    /// The image's colours times `opacity`.
    case plain(opacity: Double)
    /// The image's alpha read as a signed distance field (MapLibre's SDF icons): coverage is
    /// `smoothstep(buffer - gamma, buffer + gamma, alpha)`, painted with `color` times `opacity`.
    case signedDistance(color: Color, opacity: Double, buffer: Double, gamma: Double)
    /// A halo: like ``signedDistance(color:opacity:buffer:gamma:)`` but only outside the fill's edge
    /// (`inner` with the fill's gamma): coverage is the halo's times one minus the fill's.
    case signedDistanceHalo(
        color: Color, opacity: Double, buffer: Double, gamma: Double, inner: Double, innerGamma: Double)
}

/// A circle on the ground of a tilted view, drawn as a GPU draws a projected quad with perspective-correct
/// varyings: each device pixel is taken back to the ground through `inverse` (a homography, row-major:
/// ground = (m0 x + m1 y + m2, m3 x + m4 y + m5) / (m6 x + m7 y + m8)) and measured from `center` in units of
/// `radius` (the disc's outer radius on the ground); `corners` is the ground square around it as the image
/// shows it (device pixels).
package struct GroundDisc: Sendable {
    package var inverse: [Double]
    package var center: Point
    package var radius: Double
    package var corners: [Point]

    package init(inverse: [Double], center: Point, radius: Double, corners: [Point]) {
        self.inverse = inverse
        self.center = center
        self.radius = radius
        self.corners = corners
    }
}

/// One circle of a `circle` layer in device pixels, as MapLibre's circle shader draws it: the edge fades
/// over one device pixel inside the outer radius (`radius + strokeWidth`), `blur` (a fraction of the
/// radius) widens the fade, the stroke colour takes over outside `radius`.
package struct Disc: Sendable {
    package var x: Double
    package var y: Double
    package var radius: Double
    package var strokeWidth: Double
    package var blur: Double
    package var color: Color
    package var strokeColor: Color
    /// A circle lying on a tilted map (`circle-pitch-alignment: map`); nil: a round disc.
    package var ground: GroundDisc?

    /// A disc at device pixel `x`, `y` (see the type's description).
    package init(
        x: Double, y: Double, radius: Double, strokeWidth: Double, blur: Double, color: Color, strokeColor: Color
    ) {
        self.x = x
        self.y = y
        self.radius = radius
        self.strokeWidth = strokeWidth
        self.blur = blur
        self.color = color
        self.strokeColor = strokeColor
    }
}

/// The rasterizer's fragment stage: what each covered pixel of a triangle is painted with, one shader per
/// case (``FragmentShader``, `Shaders.swift`). Lines carry their coverage across the line
/// (``LineCoverage``); images and discs compute theirs from the pixel's position.
enum Fragment {
    /// A plain colour over the line coverage (MapLibre's `line` shader).
    case plain(PlainLine)
    /// A ``ColorRamp`` along the line's progress (`line_gradient`).
    indirect case gradient(GradientLine)
    /// A ``LinePattern``'s texture along the line's distance (`line_pattern`).
    case pattern(PatternLine)
    /// A plain colour through a ``DashField`` (`line_sdf`).
    case dash(DashLine)
    /// An image quad: plain, SDF or SDF halo (`symbol_icon`, `symbol_sdf`: SDF icons and glyphs).
    indirect case image(ImageQuad)
    /// A circle (`circle`).
    indirect case disc(DiscShader)
    /// A face of an extruded polygon, depth-tested (`fill_extrusion`; ``ExtrusionFace``, `Extrusion.swift`).
    indirect case extrusion(ExtrusionFace)
    /// A `fill-pattern` image over whole pixels, or along an outline (``PatternFill``, `PatternFill.swift`).
    indirect case patternFill(PatternFill)
    /// A fill's outline in a plain colour (``FillOutline``, `PatternFill.swift`).
    case fillOutline(FillOutline)
    /// An image over a convex quadrilateral, its outer edges antialiased (an `image` source; ``QuadImageShader``, `QuadImage.swift`).
    indirect case quadImage(QuadImageShader)
}

/// A line's coverage across it (``LineShading``'s outset, inset and ramp, in user units).
struct LineCoverage {
    var outset: Float
    var inset: Float
    var ramp: Float
}
