import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// A `line` layer's features made ready to draw, as MapLibre's line bucket makes them: each feature's
/// paint resolved (typed caps and joins), its lines projected and cut as MapLibre's tiles hold them, and
/// how each will be shaded (``LineBucket/Job``); then the meshes (``tessellate(_:)``). The cost of
/// rasterizing the meshes (``cost``, device pixels covered) is known before any is tessellated, so the
/// renderer chooses between the rasterizer and Cairo without throwing meshes away.
///
/// The bucket holds no pixels and no context: everything in it is the layer's geometry in the view's
/// points, so it can be kept and drawn again into another image of the same view.
struct LineBucket {
    /// A feature's evaluated line paint.
    struct Paint: Hashable {
        var color: Color
        var width: Double
        var opacity: Double
        var gap: Double
        /// Dash and gap lengths in points (``LineLayerRenderer/dashLengths(_:width:)``).
        var dash: [Double]
        var cap: LineCap
        var join: LineJoin
        var miterLimit: Double
        var offset: Double
        var blur: Double
        /// 0, or the feature's number for paints stroked feature by feature.
        var feature = 0
    }

    /// Lines to tessellate with one shading: a feature's lines, or one geojson-vt tile's piece of them.
    struct Job {
        var pieces: [StrokePiece]
        var paint: Paint
        var shading: LineShading
        /// Pixels outside this square (user space) are not drawn (MapLibre's tile stencil).
        var clip: Rect?
        /// Under a turned or tilted view, the tile's square as the image shows it (a convex polygon, user
        /// space): the mesh is cut to it instead of ``clip``.
        var clipPolygon: [Point]? = nil
        /// The tile whose grid the distances are quantized to (vector tiles and geojson-vt pieces).
        var tile: MapRect?
        /// Whether the layer's gradient table colours it (``LineLayerRenderer/gradientTable``).
        var usesGradientTable: Bool
    }

    /// A feature drawn by Cairo: its lines (map points), paint and evaluation context; painted along its
    /// length (gradients, patterns) or stroked as one path per paint.
    struct Stroked {
        var lines: [[MapPoint]]
        var paint: Paint
        var context: EvaluationContext
        var offset: Double
        var geojson: Bool
        /// The sprite image repeated along the line (`line-pattern`, evaluated at the feature's zoom).
        var pattern: String?
        /// Whether it is painted along its length (a gradient or pattern) rather than stroked plainly.
        var painted: Bool
    }

    /// The meshes to rasterize, in order.
    private(set) var jobs: [Job] = []
    /// Features Cairo draws: those it draws whatever the cost (dashed gradients, dashes without a field),
    /// or every feature in a bucket made without meshes.
    private(set) var stroked: [Stroked] = []
    /// Whether the bucket makes meshes (``jobs``); without, Cairo draws every feature (``stroked``).
    let meshes: Bool
    /// About how many device pixels the jobs' triangles cover (each segment's length times the strip's
    /// width): the rasterizing work, counted before tessellating.
    private(set) var cost = 0.0
    /// The longest line's length (points), for the gradient table's resolution.
    private(set) var longestLine = 0.0
    /// `line-translate` in points.
    let translation: (x: Double, y: Double)
    /// A tilted view's camera: the meshes' lines are then on its ground plane (turned points) and
    /// ``tessellate(_:)`` projects their vertices.
    let tilt: ViewProjection?
    let geojsonPipeline: GeometryPipeline
    let tilePipeline: GeometryPipeline
    private let roundLimit: Double
    private let scale: Double
    private let perPoint: Double
    private let sharpCornerOffset: Double
    private let gradient: Bool

    /// The rasterizing work beyond which the layer is stroked by Cairo instead: triangles covering the
    /// image 16 times over (a 1000-point casing of every border of a country map), whose cost on a CPU
    /// multiplies with the width while Cairo's does not.
    static func meshBudget(imagePixels: Double) -> Double { 16 * imagePixels + 1_000_000 }

    /// The bucket of `layer`'s features from `source` in `frame`'s view; with `meshes` false, every feature
    /// is drawn by Cairo (a layer whose meshes would cost more than ``meshBudget(imagePixels:)``).
    /// `geojsonMaxZoom`: the deepest zoom a GeoJSON source is tiled at (``StyleSource/geojsonMaxZoom``).
    init(
        _ layer: StyleLayer, source: FeatureSource, geojsonMaxZoom: Int = 18, in frame: LayerFrame,
        meshes: Bool = true
    ) {
        self.meshes = meshes
        tilt = frame.viewport.projection.isFlat ? nil : frame.viewport.projection
        let constant = frame.constantContext
        scale = frame.viewport.scale
        perPoint = frame.viewport.mapPointsPerPoint
        roundLimit = layer.number(.lineRoundLimit, constant)
        // 15 pixels at the integer zoom, growing with the fractional zoom as the tile does.
        sharpCornerOffset = 15 * pow(2, frame.zoom - frame.zoom.rounded(.down))
        gradient = layer.isSet(.lineGradient)
        let maxWidth =
            layer.number(.lineWidth, constant) + layer.number(.lineGapWidth, constant)
            + abs(layer.number(.lineOffset, constant)) + layer.number(.lineBlur, constant)
        // line-translate brings lines from beyond the view's edge into it.
        translation = frame.translation(layer, .lineTranslate)
        let margin = max(4, maxWidth * 2 + 4) + max(abs(translation.x), abs(translation.y))
        // Vector tiles come simplified and quantized by their producer: simplifying them again only moves
        // their vertices (ends and corners of roads then differ from MapLibre's by a pixel), so their
        // lines keep every vertex that is not within 1/100 pixel of the line. GeoJSON (full-resolution
        // data such as Natural Earth's) is simplified to half a pixel.
        // A stroke's outline moves no more than its centre line does, so a wide stroke is drawn from a line
        // simplified to 1 % of its width (never less than the above): an outline within 1 % of the width of
        // the exact one, and work that stops growing with the width (Cairo's cost grows with the vertices
        // times the width; a 400-pixel casing of Natural Earth's borders took 44 s otherwise).
        let widthTolerance = maxWidth * scale * 0.01
        geojsonPipeline = GeometryPipeline(
            viewport: frame.viewport, margin: margin, tolerance: max(0.5, widthTolerance))
        tilePipeline = GeometryPipeline(viewport: frame.viewport, margin: margin, tolerance: max(0.01, widthTolerance))
        var builder = Builder(
            layer: layer, frame: frame, margin: margin, widthTolerance: widthTolerance, geojsonMaxZoom: geojsonMaxZoom)
        frame.forEachFeature(of: source, layer: layer, margin: margin) { feature, offset, context in
            builder.add(feature, offset: offset, context: context, into: &self)
        }
    }

    /// MapLibre's shading of `paint`: the coverage falls from 1 to 0 over one device pixel (plus the blur)
    /// centred on the line's edge; a line with a gap is two such lines either side of it.
    func shading(_ paint: Paint) -> LineShading {
        let antialiasing = 0.5 / scale
        let gap = paint.gap / 2
        let half = paint.width / 2
        return LineShading(
            color: paint.color, opacity: paint.opacity,
            outset: gap + half * (gap > 0 ? 2 : 1) + (half == 0 ? 0 : antialiasing),
            inset: gap + (gap > 0 ? antialiasing : 0), ramp: paint.blur + 1 / scale)
    }

    /// `job`'s lines extruded into MapLibre's triangles (``LineTessellator``).
    func tessellate(_ job: Job) -> LineMesh {
        var t = LineTessellator(
            cap: job.paint.cap, join: job.paint.join, miterLimit: job.paint.miterLimit, roundLimit: roundLimit,
            outset: job.shading.outset, offset: job.paint.offset)
        // Distances in MapLibre's steps of 2/8192 of the (canonical) tile, restarting every two tiles.
        if let tile = job.tile {
            t.distanceQuantum = tile.width / perPoint * 2 / 8192
            t.wrapsDistance = !gradient
        }
        t.sharpCornerOffset = sharpCornerOffset
        for piece in job.pieces {
            t.startLength = piece.startLength
            t.lineLength = piece.lineLength
            t.add(piece.points, closed: piece.closed)
        }
        guard let camera = tilt else { return t.mesh }
        // Tilted: the strip was built on the ground (turned points); each vertex goes through the camera,
        // keeping its depth for interpolating the distance along the line with perspective.
        var mesh = t.mesh
        for i in mesh.vertices.indices {
            let (point, w) = camera.project(turned: mesh.vertices[i].position)
            mesh.vertices[i].position = point
            mesh.vertices[i].perspective = camera.distance / w
        }
        return mesh
    }

    fileprivate mutating func append(_ job: Job) {
        guard !job.pieces.isEmpty else { return }
        // The strip's area: each segment's length times the extrusion either side, in device pixels.
        let across = 2 * job.shading.outset * scale * scale
        for piece in job.pieces {
            longestLine = max(longestLine, piece.lineLength)
            var length = 0.0
            let points = piece.points
            if points.count > 1 {
                for i in 1..<points.count {
                    let dx = points[i].x - points[i - 1].x
                    let dy = points[i].y - points[i - 1].y
                    length += (dx * dx + dy * dy).squareRoot()
                }
            }
            if length.isFinite { cost += length * across }
        }
        jobs.append(job)
    }

    fileprivate mutating func append(_ feature: Stroked?) {
        if let feature { stroked.append(feature) }
    }

    /// The per-feature work of ``init(_:source:in:)``: resolves each feature's paint and decides how it
    /// is drawn.
    private struct Builder {
        let layer: StyleLayer
        let frame: LayerFrame
        let properties: LineLayerRenderer.Properties
        let margin: Double
        let geojsonTolerance: Double
        let tileZoom: Int
        let stepGradient: Bool
        let patterned: Bool
        let gradient: Bool
        let floorConstant: EvaluationContext
        let integralZoom: Bool
        var featureCount = 0
        /// The dash fields made so far, by round caps and dasharray (a layer's features mostly share one),
        /// with a placeholder period and gamma (``dashPaint(_:_:)`` sets the feature's).
        var dashFields: [Bool: [[Double]: DashField?]] = [:]
        var patterns: [String: LinePattern?] = [:]

        init(layer: StyleLayer, frame: LayerFrame, margin: Double, widthTolerance: Double, geojsonMaxZoom: Int) {
            self.layer = layer
            self.frame = frame
            self.margin = margin
            let constant = frame.constantContext
            // The paint properties looked up once, and evaluated once when the same for every feature.
            properties = LineLayerRenderer.Properties(layer, at: constant)
            floorConstant = LineLayerRenderer.floorContext(constant)
            integralZoom = frame.zoom == frame.zoom.rounded(.down)
            // GeoJSON as MapLibre tiles it (geojson-vt): at the integer zoom (at most the source's maxzoom,
            // deeper views overscaling its tiles), each tile holds the line cut at its square grown by a
            // quarter tile, in a grid of 8192 units; the tile draws its pieces clipped to its square, each
            // piece's distance from 0 at its start (dashes, patterns) and its progress ramp spanning only the
            // piece (gradients, with lineMetrics).
            // Clamped as a Double first: a non-finite zoom (a degenerate visible rect) must not trap.
            tileZoom =
                frame.zoom.isFinite
                ? Int(max(0, min(Double(max(0, min(24, geojsonMaxZoom))), frame.zoom.rounded(.down)))) : 0
            geojsonTolerance = max(0.5, widthTolerance) / frame.viewport.scale
            gradient = layer.isSet(.lineGradient)
            patterned = layer.isSet(.linePattern)
            stepGradient = {
                if case .step = layer.properties[StylePropertyName.lineGradient.rawValue]?.expression { return true }
                return false
            }()
        }

        /// The width at the integer zoom below (see ``LineLayerRenderer/floorContext(_:)``).
        func floorWidth(_ context: EvaluationContext) -> Double {
            // At an integer zoom the floor context is the context itself.
            if integralZoom { return properties.width.number(context) }
            return properties.floorWidth.number(
                properties.floorWidth.isFeatureConstant ? floorConstant : LineLayerRenderer.floorContext(context))
        }

        /// MapLibre's stencil keeps each tile's lines to its square; a turned or tilted view draws them
        /// unclipped (the square is no longer a rect of the image).
        var cameraFree: Bool { frame.viewport.projection.isNorthUpAndFlat }

        /// A tile's square as a turned or tilted view shows it (cut to the ground in front of the camera).
        func imagePolygon(_ r: MapRect, offset: Double, pipeline: GeometryPipeline) -> [Point]? {
            guard let camera = pipeline.camera else { return nil }
            let corners = [
                MapPoint(x: r.minX + offset, y: r.minY), MapPoint(x: r.maxX + offset, y: r.minY),
                MapPoint(x: r.maxX + offset, y: r.maxY), MapPoint(x: r.minX + offset, y: r.maxY),
            ].map(camera.turned)
            let ground = camera.isFlat ? corners : GroundClipper.clipRing(corners, to: pipeline.band)
            let image = ground.map { camera.project(turned: $0).point }
            return image.count > 2 ? image : nil
        }

        static func userRect(_ r: MapRect, offset: Double, viewport: MapViewport) -> Rect {
            let perPoint = viewport.mapPointsPerPoint
            let origin = viewport.visibleMapRect.origin
            return Rect(
                x: (r.minX - origin.x + offset) / perPoint, y: (r.minY - origin.y) / perPoint,
                width: r.width / perPoint, height: r.height / perPoint)
        }

        /// The feature's paint, or nil when it draws nothing.
        @inline(__always)
        func paint(_ context: EvaluationContext) -> Paint? {
            guard let color = properties.color.color(context) else { return nil }
            let width = properties.width.number(context)
            let paint = Paint(
                color: color, width: width, opacity: properties.opacity.number(context),
                gap: properties.gap.number(context),
                dash: LineLayerRenderer.dashLengths(
                    properties.dasharray.numbers(context) ?? [],
                    width: floorWidth(context) * pow(2, frame.zoom - frame.zoom.rounded(.down))),
                // The spec's defaults where an expression gives a value the spec does not list (the style
                // decoder refuses such constants).
                cap: LineCap(rawValue: properties.cap.string(context)) ?? .butt,
                join: LineJoin(rawValue: properties.join.string(context)) ?? .miter,
                miterLimit: properties.miterLimit.number(context), offset: properties.offset.number(context),
                blur: properties.blur.number(context))
            guard width > 0, paint.opacity > 0 else { return nil }
            return paint
        }

        mutating func add(
            _ feature: FeatureSource.Feature, offset: Double, context: EvaluationContext, into bucket: inout LineBucket
        ) {
            guard var paint = paint(context) else { return }
            let geojson = feature.tileBounds == nil
            let pipeline = geojson ? bucket.geojsonPipeline : bucket.tilePipeline
            featureCount += 1
            // MapLibre blends each feature on its own: where translucent, blurred or cased lines of one
            // layer overlap, the overlap shows. Done for vector tile features; GeoJSON lines (the shipped
            // styles' translucent borders, drawn once per neighbouring country) keep one path per paint.
            // Opaque plain lines look the same either way and are stroked as one path per paint.
            if !geojson, paint.color.alpha * paint.opacity < 1 || paint.blur > 0 || paint.gap > 0 {
                paint.feature = featureCount
            }
            // A closure over the viewport alone: one over `self` (a method reference) would copy the builder
            // for every feature.
            let viewport = frame.viewport
            guard
                let lines = FeatureLines(
                    feature, offset: offset, translated: bucket.translation,
                    rect: { Self.userRect($0, offset: $1, viewport: viewport) })
            else { return }
            // How Cairo draws the feature: painted along (gradients, patterns) or stroked; a feature whose
            // pattern the sprite lacks is not drawn.
            func cairo() -> Stroked? {
                var stroked = Stroked(
                    lines: lines.lines, paint: paint, context: context, offset: offset, geojson: geojson, pattern: nil,
                    painted: gradient || patterned)
                if patterned {
                    let name = layer.string(.linePattern, context)
                    guard frame.pattern(name) != nil else { return nil }
                    stroked.pattern = name
                }
                return stroked
            }
            guard bucket.meshes else {
                bucket.append(cairo())
                return
            }
            func job(_ shading: LineShading, usesTable: Bool = false) -> Job {
                let pieces = Self.pieces(
                    lines.meshLines, pipeline: pipeline, offset: offset, tile: feature.tileBounds, rings: lines.rings)
                return Job(
                    pieces: pieces, paint: paint, shading: shading, clip: cameraFree ? lines.clip : nil,
                    clipPolygon: cameraFree
                        ? nil
                        : feature.tileBounds.flatMap {
                            imagePolygon($0, offset: offset, pipeline: bucket.tilePipeline)
                        },
                    tile: feature.tileBounds,
                    usesGradientTable: usesTable)
            }
            var shading = bucket.shading(paint)
            if gradient, !patterned, paint.dash.isEmpty {
                if !stepGradient, geojson, feature.isLines {
                    var ramp = context
                    let layer = layer
                    geojsonTileJobs(
                        lines.meshLines, paint, shading, offset: offset, into: &bucket,
                        ramp: { start, end in
                            (0..<256).map { i in
                                let t = Double(i) / 255
                                ramp.lineProgress = start * (1 - t) + end * t
                                return LineLayerRenderer.rampTexel(layer.color(.lineGradient, ramp) ?? .clear)
                            }
                        })
                } else {
                    bucket.append(job(shading, usesTable: true))
                }
                return
            }
            if patterned {
                // MapLibre's line_pattern: the image at the integer zoom (a static image shows the end of the
                // cross-fade), one repeat spanning the line's extrusion across and its width at the integer
                // zoom times the image's aspect along, growing with the fractional zoom as the map does. A
                // feature whose pattern the sprite lacks is not drawn.
                let name = layer.string(.linePattern, LineLayerRenderer.floorContext(context))
                if let image = frame.pattern(name)?.image, image.height > 0 {
                    let period =
                        Double(image.width) / Double(image.height) * floorWidth(context)
                        * pow(2, frame.zoom - frame.zoom.rounded(.down))
                    let cached = patterns[name] ?? LinePattern(image: image, period: max(period, 1e-9))
                    patterns[name] = cached
                    if var pattern = cached, period > 0, period.isFinite {
                        pattern.period = period
                        shading.paint = .pattern(pattern)
                        // A GeoJSON line's pattern starts again in each of geojson-vt's tiles, as its dashes.
                        if geojson, feature.isLines {
                            geojsonTileJobs(lines.meshLines, paint, shading, offset: offset, into: &bucket, ramp: nil)
                        } else {
                            bucket.append(job(shading))
                        }
                    }
                }
                return
            }
            if gradient {
                // A dashed gradient: Cairo only.
                bucket.append(cairo())
                return
            }
            if paint.dash.isEmpty {
                // Extruded into triangles and shaded as MapLibre's line shader does (LineTessellator).
                bucket.append(job(shading))
                return
            }
            guard let dash = dashPaint(paint, context) else {
                // No distance field for the dash array: Cairo dashes it.
                bucket.append(cairo())
                return
            }
            // MapLibre's dashes: a signed distance field along the line (lineDashField).
            shading.paint = dash
            if geojson, feature.isLines {
                geojsonTileJobs(lines.meshLines, paint, shading, offset: offset, into: &bucket, ramp: nil)
            } else {
                bucket.append(job(shading))
            }
        }

        /// How `paint`'s dashes are rasterized: its dash pattern's distance field, plain (a field whose
        /// period or gamma is unusable), or nil when the dash array has no field (Cairo then dashes it).
        mutating func dashPaint(_ paint: Paint, _ context: EvaluationContext) -> LinePaint? {
            guard let dasharray = properties.dasharray.numbers(context) else { return nil }
            let floorWidth = floorWidth(context)
            let sum = dasharray.reduce(0) { $0 + max(0, $1) }
            let round = paint.cap == .round
            let made =
                dashFields[round]?[dasharray]
                ?? {
                    let values =
                        round
                        ? LineLayerRenderer.lineRoundDashField(dasharray) : LineLayerRenderer.lineDashField(dasharray)
                    let field = values.flatMap { DashField($0, rows: round ? 15 : 1, period: 1, gamma: 1) }
                    dashFields[round, default: [:]][dasharray] = .some(field)
                    return field
                }()
            guard let field = made, sum > 0, floorWidth > 0 else { return nil }
            // MapLibre's sdfgamma: half a device pixel of the field, which spans the pattern's length (in
            // widths, or half of it at an integer zoom) over its 256 texels. An invalid field draws plainly.
            let fromScale = frame.zoom > frame.zoom.rounded(.down) ? 1.0 : 0.5
            let dash = field.with(
                period: paint.dash.reduce(0, +), gamma: 1 / (2 * fromScale * sum * frame.viewport.scale) / floorWidth)
            return dash.map { .dash($0) } ?? .color
        }

        /// A GeoJSON line's jobs, one per geojson-vt tile piece (each clipped to its tile, its dashes from
        /// its start; with `ramp`, its gradient spanning the piece's share of the line).
        func geojsonTileJobs(
            _ lines: [[MapPoint]], _ paint: Paint, _ shading: LineShading, offset: Double,
            into bucket: inout LineBucket, ramp: ((Double, Double) -> [Color])?
        ) {
            let perPoint = frame.viewport.mapPointsPerPoint
            let window = frame.viewport.visibleMapRect.offsetBy(dx: -offset, dy: 0).insetBy(
                dx: -margin * perPoint, dy: -margin * perPoint)
            for line in lines {
                for piece in LineLayerRenderer.geojsonTilePieces(line, zoom: tileZoom, window: window) {
                    var s = shading
                    if let ramp { s.paint = .gradient(ColorRamp(colors: ramp(piece.start, piece.end))) }
                    let pieces = Self.pieces(
                        [piece.points], pipeline: bucket.tilePipeline, offset: offset, tile: piece.tile, rings: false,
                        simplifying: geojsonTolerance)
                    bucket.append(
                        Job(
                            pieces: pieces, paint: paint, shading: s,
                            clip: cameraFree
                                ? Self.userRect(piece.tile, offset: offset, viewport: frame.viewport) : nil,
                            clipPolygon: cameraFree
                                ? nil : imagePolygon(piece.tile, offset: offset, pipeline: bucket.tilePipeline),
                            tile: piece.tile, usesGradientTable: false))
                }
            }
        }

        /// The pieces of `lines` the mesh draws. A vector tile's line that leaves its tile is given as the
        /// producer cut it (into the tile's buffer) and drawn clipped to the tile's square, as MapLibre draws
        /// each tile, dashes measured from the tile's line start; a line wholly inside its tile is drawn
        /// unclipped (its neighbour would draw what spills over from its buffer).
        static func pieces(
            _ lines: [[MapPoint]], pipeline: GeometryPipeline, offset: Double, tile: MapRect?, rings: Bool,
            simplifying: Double = 0
        ) -> [StrokePiece] {
            var pieces: [StrokePiece] = []
            for line in lines {
                if let camera = pipeline.camera, !camera.isFlat {
                    // Tilted: on the ground, extruded there and projected after tessellation.
                    pieces += pipeline.groundLine(
                        rings ? line + line.prefix(1) : line, offset: offset, tolerance: tile == nil ? nil : simplifying
                    )
                } else if tile != nil {
                    pieces += LineLayerRenderer.wholeSegments(
                        Simplifier.simplify(pipeline.project(line, offset: offset), tolerance: simplifying),
                        closed: rings, within: pipeline.clipRect)
                } else if rings {
                    pieces += pipeline.stroke(pipeline.project(line, offset: offset), closedRing: true)
                } else {
                    pieces += pipeline.line(line, offset: offset)
                }
            }
            return pieces
        }
    }
}

/// A feature's lines as a line layer draws them: `lines` for Cairo (polygon outlines without the edges
/// that only exist because the data is cut at the 180th meridian, the south pole's limit or a tile's
/// edge) and `meshLines` for the rasterizer (a vector tile's lines as the producer cut them into the
/// tile's buffer, polygons' whole rings), with the tile square that clips them.
private struct FeatureLines {
    var lines: [[MapPoint]]
    var meshLines: [[MapPoint]]
    var clip: Rect?
    /// Whether `meshLines` are a vector tile's closed rings (MapLibre strokes the rings the tile holds,
    /// buffer included, clipped to the tile's square: dashes start at each ring's first vertex).
    var rings = false

    init?(
        _ feature: FeatureSource.Feature, offset: Double, translated: (x: Double, y: Double),
        rect: (MapRect, Double) -> Rect
    ) {
        switch feature.shape {
        case .lines(let l):
            lines = l
            meshLines = l
            if let buffered = feature.bufferedLines, let tile = feature.tileBounds {
                meshLines = buffered
                clip = rect(tile, offset)
            }
        case .polygons(let polygons):
            lines = polygons.flatMap {
                $0.flatMap { GeometryPipeline.outlineWithoutCuts($0, cutAlong: feature.tileBounds) }
            }
            meshLines = lines
            if let tile = feature.tileBounds {
                rings = true
                if let buffered = feature.bufferedLines {
                    meshLines = buffered
                    clip = rect(tile, offset)
                } else {
                    meshLines = polygons.flatMap { $0 }
                }
            }
        case .points:
            return nil
        }
        // Translated, even a line wholly inside its tile leaves the square the stencil keeps in place.
        if clip == nil, translated.x != 0 || translated.y != 0, let tile = feature.tileBounds {
            clip = rect(tile, offset)
        }
    }
}

extension FeatureSource.Feature {
    /// Whether the feature is lines (not polygons or points).
    fileprivate var isLines: Bool {
        if case .lines = shape { return true }
        return false
    }
}
