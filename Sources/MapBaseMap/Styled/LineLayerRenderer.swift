import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `line` layer: lines, or the outlines of polygons without the edges that only exist because
/// the data is cut at the 180th meridian or at the south pole's limit, as MapLibre's line shaders draw
/// them (``LineTessellator`` triangles rasterized by `LineCanvas`). `line-gap-width` draws a casing: two
/// lines either side of a gap. `line-gradient` colors a line by `line-progress` (how far along it a point
/// is) and `line-pattern` repeats an image along it, spanning the line's width. `line-blur` fades the
/// edges; `line-offset` draws a parallel line; `line-translate` moves the layer. Layers too wide to
/// rasterize triangle by triangle are stroked by Cairo (gradients and patterns then painted segment by
/// segment).
enum LineLayerRenderer {
    struct Paint: Hashable {
        var color: Color
        var width: Double
        var opacity: Double
        var gap: Double
        /// Dash and gap lengths in points (``dashLengths(_:width:)``).
        var dash: [Double]
        var cap: String
        var join: String
        var miterLimit: Double
        var offset: Double
        var blur: Double
        /// 0, or the feature's number for paints stroked feature by feature.
        var feature = 0
    }

    /// The paint and layout properties read for every feature, resolved once per draw.
    struct Properties {
        let color: ResolvedStyleProperty
        let width: ResolvedStyleProperty
        /// `line-width` at the integer zoom below (``floorContext(_:)``).
        let floorWidth: ResolvedStyleProperty
        let opacity: ResolvedStyleProperty
        let gap: ResolvedStyleProperty
        let dasharray: ResolvedStyleProperty
        let cap: ResolvedStyleProperty
        let join: ResolvedStyleProperty
        let miterLimit: ResolvedStyleProperty
        let offset: ResolvedStyleProperty
        let blur: ResolvedStyleProperty

        /// The properties of `layer` at the zoom of `context` (a feature-free context of the image).
        init(_ layer: StyleLayer, at context: EvaluationContext) {
            color = ResolvedStyleProperty(layer, .lineColor, at: context)
            width = ResolvedStyleProperty(layer, .lineWidth, at: context)
            floorWidth = ResolvedStyleProperty(layer, .lineWidth, at: LineLayerRenderer.floorContext(context))
            opacity = ResolvedStyleProperty(layer, .lineOpacity, at: context)
            gap = ResolvedStyleProperty(layer, .lineGapWidth, at: context)
            dasharray = ResolvedStyleProperty(layer, .lineDasharray, at: context)
            cap = ResolvedStyleProperty(layer, .lineCap, at: context)
            join = ResolvedStyleProperty(layer, .lineJoin, at: context)
            miterLimit = ResolvedStyleProperty(layer, .lineMiterLimit, at: context)
            offset = ResolvedStyleProperty(layer, .lineOffset, at: context)
            blur = ResolvedStyleProperty(layer, .lineBlur, at: context)
        }
    }

    /// A piece of a line painted along its length (gradient or pattern).
    struct PaintedPiece {
        var paint: Paint
        var piece: StrokePiece
        var context: EvaluationContext
        var pattern: String?
    }

    /// Draws the layer; `meshes` false strokes every line with Cairo (the way for lines so wide that
    /// rasterizing MapLibre's triangles one by one would cost many times the image, see ``LineCanvas``).
    static func draw(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame, meshes useMeshes: Bool = true) {
        var groups = PaintGroups<Paint>()
        var painted: [PaintedPiece] = []
        var featureCount = 0
        var meshes: [(LineMesh, LineShading, Rect?)] = []
        var longestLine = 0.0
        // The dash fields made so far, by round caps and dasharray (a layer's features mostly share one).
        var dashFields: [Bool: [[Double]: [Float]?]] = [:]
        var patternCache: [String: LinePattern?] = [:]
        let scale = frame.viewport.scale
        let roundLimit = layer.number(.lineRoundLimit, frame.constantContext)
        /// MapLibre's shading: the coverage falls from 1 to 0 over one device pixel (plus the blur) centred
        /// on the line's edge; a line with a gap is two such lines either side of it.
        func shading(_ paint: Paint) -> LineShading {
            let antialiasing = 0.5 / scale
            let gap = paint.gap / 2
            let half = paint.width / 2
            return LineShading(
                color: paint.color, opacity: paint.opacity,
                outset: gap + half * (gap > 0 ? 2 : 1) + (half == 0 ? 0 : antialiasing),
                inset: gap + (gap > 0 ? antialiasing : 0), ramp: paint.blur + 1 / scale)
        }
        let perPoint = frame.viewport.mapPointsPerPoint
        let origin = frame.viewport.visibleMapRect.origin
        func userRect(_ r: MapRect, offset: Double) -> Rect {
            Rect(
                x: (r.minX - origin.x + offset) / perPoint, y: (r.minY - origin.y) / perPoint,
                width: r.width / perPoint, height: r.height / perPoint)
        }
        let gradient = layer.isSet(.lineGradient)
        let stepGradient: Bool = {
            if case .step = layer.properties[StylePropertyName.lineGradient.rawValue]?.expression { return true }
            return false
        }()
        let patterned = layer.isSet(.linePattern)
        func add(_ mesh: LineMesh, _ shading: LineShading, _ clip: Rect?) {
            if !mesh.indices.isEmpty { meshes.append((mesh, shading, clip)) }
        }
        /// The lines' mesh. A vector tile's line that leaves its tile is given as the producer cut it (into
        /// the tile's buffer, `Feature.bufferedLines`) and drawn clipped to the tile's square, as MapLibre
        /// draws each tile, dashes measured from the tile's line start; a line wholly inside its tile is
        /// drawn unclipped (its neighbour would draw what spills over from its buffer).
        func mesh(
            _ lines: [[MapPoint]], _ paint: Paint, pipeline: GeometryPipeline, offset: Double,
            context: EvaluationContext, tile: MapRect?, rings: Bool = false, simplifying: Double = 0
        ) -> LineMesh {
            var t = LineTessellator(
                cap: paint.cap, join: paint.join, miterLimit: paint.miterLimit, roundLimit: roundLimit,
                outset: shading(paint).outset, offset: paint.offset)
            // Distances in MapLibre's steps of 2/8192 of the (canonical) tile, restarting every two tiles.
            if let tile {
                t.distanceQuantum = tile.width / perPoint * 2 / 8192
                t.wrapsDistance = !gradient
            }
            // 15 pixels at the integer zoom, growing with the fractional zoom as the tile does.
            t.sharpCornerOffset = 15 * pow(2, frame.zoom - frame.zoom.rounded(.down))
            for line in lines {
                let pieces =
                    tile != nil
                    ? wholeSegments(
                        Simplifier.simplify(pipeline.project(line, offset: offset), tolerance: simplifying),
                        closed: rings, within: pipeline.clipRect)
                    : rings
                        ? pipeline.stroke(pipeline.project(line, offset: offset), closedRing: true)
                        : pipeline.line(line, offset: offset)
                for piece in pieces {
                    t.startLength = piece.startLength
                    t.lineLength = piece.lineLength
                    longestLine = max(longestLine, piece.lineLength)
                    t.add(piece.points, closed: piece.closed)
                }
            }
            return t.mesh
        }
        let constant = frame.constantContext
        let maxWidth =
            layer.number(.lineWidth, constant) + layer.number(.lineGapWidth, constant)
            + abs(layer.number(.lineOffset, constant)) + layer.number(.lineBlur, constant)
        // line-translate brings lines from beyond the view's edge into it.
        let (tx, ty) = frame.translation(layer, .lineTranslate)
        let margin = max(4, maxWidth * 2 + 4) + max(abs(tx), abs(ty))
        // Vector tiles come simplified and quantized by their producer: simplifying them again only moves
        // their vertices (ends and corners of roads then differ from MapLibre's by a pixel), so their
        // lines keep every vertex that is not within 1/100 pixel of the line. GeoJSON (full-resolution
        // data such as Natural Earth's) is simplified to half a pixel, as before.
        // A stroke's outline moves no more than its centre line does, so a wide stroke is drawn from a line
        // simplified to 1 % of its width (never less than the above): an outline within 1 % of the width of
        // the exact one, and work that stops growing with the width (Cairo's cost grows with the vertices
        // times the width; a 400-pixel casing of Natural Earth's borders took 44 s before).
        let widthTolerance = maxWidth * frame.viewport.scale * 0.01
        let geojsonPipeline = GeometryPipeline(
            viewport: frame.viewport, margin: margin, tolerance: max(0.5, widthTolerance))
        let tilePipeline = GeometryPipeline(
            viewport: frame.viewport, margin: margin, tolerance: max(0.01, widthTolerance))
        // GeoJSON as MapLibre tiles it (geojson-vt): at the integer zoom (at most 18, the source's default
        // maxzoom), each tile holds the line cut at its square grown by a quarter tile, in a grid of 8192
        // units; the tile draws its pieces clipped to its square, each piece's distance from 0 at its start
        // (dashes) and its progress ramp spanning only the piece (gradients, with lineMetrics).
        // Clamped as a Double first: a non-finite zoom (a degenerate visible rect) must not trap.
        let tileZoom = frame.zoom.isFinite ? Int(max(0, min(18, frame.zoom.rounded(.down)))) : 0
        let geojsonTolerance = max(0.5, widthTolerance) / scale
        func geojsonTileMeshes(
            _ lines: [[MapPoint]], _ paint: Paint, _ shading: LineShading, offset: Double, context: EvaluationContext,
            ramp: ((Double, Double) -> [Color])?
        ) {
            let window = frame.viewport.visibleMapRect.offsetBy(dx: -offset, dy: 0).insetBy(
                dx: -margin * perPoint, dy: -margin * perPoint)
            for line in lines {
                for piece in Self.geojsonTilePieces(line, zoom: tileZoom, window: window) {
                    var s = shading
                    if let ramp { s.gradient = ramp(piece.start, piece.end) }
                    add(
                        mesh(
                            [piece.points], paint, pipeline: tilePipeline, offset: offset, context: context,
                            tile: piece.tile, simplifying: geojsonTolerance),
                        s, userRect(piece.tile, offset: offset))
                }
            }
        }
        // The paint properties looked up once, and evaluated once when they are the same for every feature.
        let properties = Properties(layer, at: constant)
        let floorConstant = floorContext(constant)
        let integralZoom = frame.zoom == frame.zoom.rounded(.down)
        /// The width at the integer zoom below (see ``floorContext(_:)``).
        func floorWidth(_ context: EvaluationContext) -> Double {
            // At an integer zoom the floor context is the context itself.
            if integralZoom { return properties.width.number(context) }
            return properties.floorWidth.number(
                properties.floorWidth.isFeatureConstant ? floorConstant : floorContext(context))
        }
        frame.forEachFeature(of: source, layer: layer, margin: margin) { feature, offset, context in
            guard let color = properties.color.color(context) else { return }
            let width = properties.width.number(context)
            var paint = Paint(
                color: color, width: width, opacity: properties.opacity.number(context),
                gap: properties.gap.number(context),
                dash: dashLengths(
                    properties.dasharray.numbers(context) ?? [],
                    width: floorWidth(context) * pow(2, frame.zoom - frame.zoom.rounded(.down))),
                cap: properties.cap.string(context), join: properties.join.string(context),
                miterLimit: properties.miterLimit.number(context), offset: properties.offset.number(context),
                blur: properties.blur.number(context))
            guard width > 0, paint.opacity > 0 else { return }
            let pipeline = feature.tileBounds == nil ? geojsonPipeline : tilePipeline
            featureCount += 1
            // MapLibre blends each feature on its own: where translucent, blurred or cased lines of one
            // layer overlap, the overlap shows. Done for vector tile features; GeoJSON lines (the shipped
            // styles' translucent borders, drawn once per neighbouring country) keep one path per paint.
            // Opaque plain lines look the same either way and are stroked as one path per paint.
            if feature.tileBounds != nil, paint.color.alpha * paint.opacity < 1 || paint.blur > 0 || paint.gap > 0 {
                paint.feature = featureCount
            }
            var lines: [[MapPoint]] = []
            // The mesh's lines: a vector tile's lines as the producer cut them when they leave the tile,
            // drawn clipped to it (see `mesh`).
            var meshLines: [[MapPoint]] = []
            var clip: Rect?
            // A vector tile's polygon outlines are its rings, closed (MapLibre strokes the rings the tile
            // holds, buffer included, clipped to the tile's square: dashes start at each ring's first vertex).
            var rings = false
            switch feature.shape {
            case .lines(let l):
                lines = l
                meshLines = l
                if let buffered = feature.bufferedLines, let tile = feature.tileBounds {
                    meshLines = buffered
                    clip = userRect(tile, offset: offset)
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
                        clip = userRect(tile, offset: offset)
                    } else {
                        meshLines = polygons.flatMap { $0 }
                    }
                }
            case .points: return
            }
            // Translated, even a line wholly inside its tile leaves the square the stencil keeps in place.
            if clip == nil, tx != 0 || ty != 0, let tile = feature.tileBounds { clip = userRect(tile, offset: offset) }
            if useMeshes, gradient, !patterned, paint.dash.isEmpty {
                if !stepGradient, feature.tileBounds == nil, case .lines = feature.shape {
                    var ramp = context
                    geojsonTileMeshes(
                        meshLines, paint, shading(paint), offset: offset, context: context,
                        ramp: { start, end in
                            (0..<256).map { i in
                                let t = Double(i) / 255
                                ramp.lineProgress = start * (1 - t) + end * t
                                return rampTexel(layer.color(.lineGradient, ramp) ?? .clear)
                            }
                        })
                    return
                }
                add(
                    mesh(
                        meshLines, paint, pipeline: pipeline, offset: offset, context: context,
                        tile: feature.tileBounds, rings: rings), shading(paint), clip)
                return
            }
            if useMeshes, patterned {
                // MapLibre's line_pattern: the image at the integer zoom (a static image shows the end of
                // the cross-fade), one repeat spanning the line's extrusion across and its width at the
                // integer zoom times the image's aspect along, growing with the fractional zoom as the
                // map does. A feature whose pattern the sprite lacks is not drawn.
                let name = layer.string(.linePattern, floorContext(context))
                guard let image = frame.pattern(name)?.image, image.height > 0 else { return }
                let floorWidth = floorWidth(context)
                let period =
                    Double(image.width) / Double(image.height) * floorWidth
                    * pow(2, frame.zoom - frame.zoom.rounded(.down))
                var pattern = patternCache[name] ?? LinePattern(image: image, period: max(period, 1e-9))
                patternCache[name] = pattern
                guard pattern != nil, period > 0, period.isFinite else { return }
                pattern?.period = period
                var s = shading(paint)
                s.pattern = pattern
                add(
                    mesh(
                        meshLines, paint, pipeline: pipeline, offset: offset, context: context,
                        tile: feature.tileBounds, rings: rings), s, clip)
                return
            }
            if gradient || patterned {
                var pattern: String?
                if patterned {
                    // A feature whose pattern the sprite lacks is not drawn.
                    let name = layer.string(.linePattern, context)
                    guard frame.pattern(name) != nil else { return }
                    pattern = name
                }
                for line in lines {
                    for var piece in pipeline.line(line, offset: offset) {
                        if paint.offset != 0 { piece.points = LineOffset.offset(piece.points, by: paint.offset) }
                        painted.append(PaintedPiece(paint: paint, piece: piece, context: context, pattern: pattern))
                    }
                }
                return
            }
            if useMeshes, paint.dash.isEmpty {
                // Extruded into triangles and shaded as MapLibre's line shader does (LineTessellator).
                add(
                    mesh(
                        meshLines, paint, pipeline: pipeline, offset: offset, context: context,
                        tile: feature.tileBounds, rings: rings), shading(paint), clip)
                return
            }
            if useMeshes, let dasharray = properties.dasharray.numbers(context) {
                // MapLibre's dashes: a signed distance field along the line (lineDashField).
                var s = shading(paint)
                let floorWidth = floorWidth(context)
                let sum = dasharray.reduce(0) { $0 + max(0, $1) }
                let round = paint.cap == "round"
                let made =
                    dashFields[round]?[dasharray]
                    ?? {
                        let field = round ? lineRoundDashField(dasharray) : lineDashField(dasharray)
                        dashFields[round, default: [:]][dasharray] = .some(field)
                        return field
                    }()
                if let field = made, sum > 0,
                    floorWidth > 0
                {
                    s.dash = field
                    s.dashRows = round ? 15 : 1
                    s.dashPeriod = paint.dash.reduce(0, +)
                    // MapLibre's sdfgamma: half a device pixel of the field, which spans the pattern's
                    // length (in widths, or half of it at an integer zoom) over its 256 texels.
                    let fromScale = frame.zoom > frame.zoom.rounded(.down) ? 1.0 : 0.5
                    s.dashGamma = 1 / (2 * fromScale * sum * scale) / floorWidth
                    if feature.tileBounds == nil, case .lines = feature.shape {
                        geojsonTileMeshes(meshLines, paint, s, offset: offset, context: context, ramp: nil)
                        return
                    }
                    add(
                        mesh(
                            meshLines, paint, pipeline: pipeline, offset: offset, context: context,
                            tile: feature.tileBounds, rings: rings), s, clip)
                    return
                }
            }
            groups.withPath(for: paint) { path in
                for line in lines {
                    for piece in pipeline.line(line, offset: offset) {
                        path.addLines(
                            paint.offset == 0 ? piece.points : LineOffset.offset(piece.points, by: paint.offset),
                            closed: false)
                    }
                }
            }
        }
        let g = frame.context
        var tooWide = false
        g.withSavedState {
            g.translateBy(x: tx, y: ty)
            if !meshes.isEmpty {
                let canvas = g.makeLineCanvas()
                let table = gradient && !patterned ? gradientTable(layer, frame: frame, longestLine: longestLine) : nil
                for (mesh, var shading, clip) in meshes {
                    if let table, shading.gradient.isEmpty {
                        shading.gradient = table.colors
                        shading.nearestTexel = table.nearest
                        shading.gradientSteps = table.steps
                    }
                    // MapLibre's stencil keeps each tile's square where it is; the lines move.
                    canvas.add(mesh, shading, clip: clip.map { $0.offsetBy(dx: -tx, dy: -ty) })
                }
                // Triangles covering the image 16 times over (a 1000-point casing of every border of a
                // country map) are stroked by Cairo instead, whose cost does not multiply with the width.
                if canvas.pixelWork > 16 * canvas.clipArea + 1_000_000 {
                    tooWide = true
                    return
                }
                g.draw(canvas)
            }
            for (paint, path) in groups.nonEmpty { stroke(path, paint, g, scale: frame.viewport.scale) }
            for item in painted { paintAlong(item, layer: layer, frame: frame) }
        }
        g.setLineDash(phase: 0, lengths: [])
        if tooWide { draw(layer, source: source, in: frame, meshes: false) }
    }

    /// A piece of a GeoJSON line in one of geojson-vt's tiles (see ``geojsonTilePieces(_:zoom:window:)``):
    /// the tile's square, the piece in map points, and where it starts and ends as fractions of the line.
    struct GeoJSONTilePiece {
        var tile: MapRect
        var points: [MapPoint]
        var start: Double
        var end: Double
    }

    /// A GeoJSON line as MapLibre's geojson-vt tiles it at `zoom`, for the tiles whose squares meet
    /// `window` (map points): each tile holds the line cut at its square grown by a quarter of a tile
    /// (MapLibre's buffer of 128 of 512), its vertices rounded (halves up) to the tile's grid of 8192.
    /// At most 4096 tiles are cut (a window that big draws lines thinner than the tiles anyway).
    static func geojsonTilePieces(_ line: [MapPoint], zoom: Int, window: MapRect) -> [GeoJSONTilePiece] {
        guard line.count > 1, zoom >= 0, zoom <= 24 else { return [] }
        let size = TileID.mapPointSize(atZoom: zoom)
        let count = 1 << zoom
        let bounds = boundingRect(of: line)
        let reach = bounds.insetBy(dx: -size / 4, dy: -size / 4)
        func range(_ lo: Double, _ hi: Double) -> ClosedRange<Int>? {
            let a = (lo / size).rounded(.down)
            let b = (hi / size).rounded(.down)
            guard a.isFinite, b.isFinite else { return nil }
            let first = Int(max(0, min(Double(count - 1), a)))
            let last = Int(max(0, min(Double(count - 1), b)))
            return first <= last ? first...last : nil
        }
        guard
            let xs = range(max(window.minX, reach.minX), min(window.maxX, reach.maxX)),
            let ys = range(max(window.minY, reach.minY), min(window.maxY, reach.maxY)),
            xs.count * ys.count <= 4096
        else { return [] }
        var total = 0.0
        for i in 1..<line.count {
            total +=
                ((line[i].x - line[i - 1].x) * (line[i].x - line[i - 1].x)
                + (line[i].y - line[i - 1].y) * (line[i].y - line[i - 1].y)).squareRoot()
        }
        guard total > 0, total.isFinite else { return [] }
        let unit = size / 8192
        var result: [GeoJSONTilePiece] = []
        for ty in ys {
            for tx in xs {
                let ox = Double(tx) * size
                let oy = Double(ty) * size
                let buffered = Rect(x: ox - size / 4, y: oy - size / 4, width: size * 1.5, height: size * 1.5)
                guard bounds.minX <= buffered.maxX, bounds.maxX >= buffered.minX, bounds.minY <= buffered.maxY,
                    bounds.maxY >= buffered.minY
                else { continue }
                let (pieces, _) = LineClipper.clip(
                    line, project: { Point(x: $0.x, y: $0.y) }, to: buffered, tolerance: 0)
                for piece in pieces where piece.points.count > 1 {
                    var length = 0.0
                    for i in 1..<piece.points.count {
                        let a = piece.points[i - 1]
                        let b = piece.points[i]
                        length += ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                    }
                    let points = piece.points.map {
                        MapPoint(
                            x: ox + (($0.x - ox) / unit + 0.5).rounded(.down) * unit,
                            y: oy + (($0.y - oy) / unit + 0.5).rounded(.down) * unit)
                    }
                    result.append(
                        GeoJSONTilePiece(
                            tile: MapRect(x: ox, y: oy, width: size, height: size), points: points,
                            start: piece.startLength / total, end: (piece.startLength + length) / total))
                }
            }
        }
        return result
    }

    /// A tile's line cut to the runs of its segments that meet `rect` or neighbour one that does, each
    /// segment whole: the vertices stay the tile's, so their distances are quantized as MapLibre's
    /// (``LineTessellator/distanceQuantum``), and the joins and sharp-corner vertices at the ends of the
    /// segments that meet `rect` are MapLibre's too (a cap there instead of a join skews how the
    /// distance is interpolated over the whole next segment). A ring (`closed`) needed all round or
    /// through its first vertex stays one closed piece. Tile coordinates are bounded by the tile, so no vertex is far beyond the view.
    static func wholeSegments(_ points: [Point], closed: Bool, within rect: Rect) -> [StrokePiece] {
        guard points.count > 1 else { return [] }
        let line = closed ? points + [points[0]] : points
        let n = line.count - 1
        var lengths = [Double](repeating: 0, count: n)
        var meets = [Bool](repeating: false, count: n)
        for i in 0..<n {
            let a = line[i]
            let b = line[i + 1]
            lengths[i] = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            meets[i] = LineClipper.clipSegment(a, b, rect) != nil
        }
        var needed = meets
        for i in 0..<n where !meets[i] {
            let before = i > 0 ? meets[i - 1] : (closed && meets[n - 1])
            let after = i < n - 1 ? meets[i + 1] : (closed && meets[0])
            needed[i] = before || after
        }
        let travelled = lengths.reduce(0, +)
        // A run through a ring's first vertex is drawn as the whole ring: MapLibre joins the ring there
        // (its first vertex pair has distance 0, its last the ring's length), where two pieces would cap.
        if closed, !needed.contains(false) || (needed[0] && needed[n - 1]) {
            return [StrokePiece(points: points, startLength: 0, closed: true, lineLength: travelled)]
        }
        // Every segment needed: the line as it is (what the loop below would rebuild point by point).
        if !closed, !needed.contains(false) {
            return [StrokePiece(points: points, startLength: 0, closed: false, lineLength: travelled)]
        }
        var pieces: [StrokePiece] = []
        var current: [Point] = []
        var start = 0.0
        var along = 0.0
        for i in 0..<n {
            if needed[i] {
                if current.isEmpty {
                    current.reserveCapacity(n + 1 - i)
                    current.append(line[i])
                    start = along
                }
                current.append(line[i + 1])
            } else if !current.isEmpty {
                pieces.append(StrokePiece(points: current, startLength: start, closed: false, lineLength: travelled))
                current = []
            }
            along += lengths[i]
        }
        if !current.isEmpty {
            pieces.append(StrokePiece(points: current, startLength: start, closed: false, lineLength: travelled))
        }
        return pieces
    }

    /// MapLibre's ramp texel: the colour (premultiplied, as MapLibre holds colours) divided back by its
    /// alpha and floored to 8 bits, alpha floored; the upload premultiplies the bytes again, flooring
    /// (UNPACK_PREMULTIPLY_ALPHA). The colour returned premultiplies (red x alpha) to those bytes.
    static func rampTexel(_ c: Color) -> Color {
        let a8 = (c.alpha * 255).rounded(.down)
        guard a8 > 0, a8.isFinite else { return .clear }
        func f(_ v: Double) -> Double {
            let texel = min(255, max(0, (v * c.alpha * 255 / c.alpha).rounded(.down)))
            return (texel * a8 / 255).rounded(.down) / a8
        }
        return Color(red: f(c.red), green: f(c.green), blue: f(c.blue), alpha: a8 / 255)
    }

    /// `line-gradient` as MapLibre's color ramp texture: 256 texels, or for a `step` expression (drawn
    /// with the nearest texel) as many as the longest line spans at 1024 texels per tile, a power of two
    /// up to 8192. Each texel is the color at progress `i / (count - 1)`, its components floored to 8 bits.
    /// A `step` over `line-progress` on lines longer than a tile is exact (`steps`): MapLibre's ramp spans
    /// only each tile's piece of a line (about 0.4 pixel a texel), where a whole-line table would be
    /// pixels coarse.
    static func gradientTable(_ layer: StyleLayer, frame: LayerFrame, longestLine: Double)
        -> (colors: [Color], nearest: Bool, steps: [Double])
    {
        let floor8 = rampTexel
        var context = frame.constantContext
        var nearest = false
        var count = 256
        if case .step(let input, _, let stops) = layer.properties[StylePropertyName.lineGradient.rawValue]?.expression {
            nearest = true
            // The line's length in tiles of the integer zoom (512 points each at that zoom).
            let tiles = longestLine / (512 * pow(2, frame.zoom - frame.zoom.rounded(.down)))
            if tiles > 1, input == .lineProgress, let first = stops.first, stops.count < 10_000 {
                var steps = [-Double.infinity]
                context.lineProgress = first.input - 1
                var colors = [floor8(layer.color(.lineGradient, context) ?? .clear)]
                for stop in stops where stop.input.isFinite && stop.input > steps[steps.count - 1] {
                    context.lineProgress = stop.input
                    steps.append(stop.input)
                    colors.append(floor8(layer.color(.lineGradient, context) ?? .clear))
                }
                return (colors, true, steps)
            }
            let texels = tiles * 1024
            while Double(count) < texels, count < 8192 { count *= 2 }
        }
        let colors = (0..<count).map { i -> Color in
            context.lineProgress = Double(i) / Double(count - 1)
            return floor8(layer.color(.lineGradient, context) ?? .clear)
        }
        return (colors, nearest, [])
    }

    /// A dash array as MapLibre's 256-texel dash texture: each texel the signed distance (texels, plus
    /// 128, clamped to a byte, over 255) from texel `x` to the nearest edge of the dash or gap it lies
    /// in, positive in dashes. Zero-length parts vanish, neighbours of one kind merge, and a pattern that
    /// begins and ends with dashes (or gaps) joins them across the repeat. Nil for an empty pattern.
    static func lineDashField(_ dasharray: [Double]) -> [Float]? {
        let parts = dasharray.map { max(0, $0.isFinite ? $0 : 0) }
        let length = parts.reduce(0, +)
        guard !parts.isEmpty, length > 0, length.isFinite else { return nil }
        let width = 256
        let stretch = Double(width) / length
        struct Range {
            var left: Double
            var right: Double
            var isDash: Bool
            var zero: Bool
        }
        var ranges: [Range] = []
        let odd = parts.count % 2 == 1
        ranges.append(
            Range(
                left: odd ? -parts[parts.count - 1] * stretch : 0, right: parts[0] * stretch, isDash: true,
                zero: parts[0] == 0))
        var along = parts[0]
        var isDash = true
        for part in parts.dropFirst() {
            isDash.toggle()
            let left = along * stretch
            along += part
            ranges.append(Range(left: left, right: along * stretch, isDash: isDash, zero: part == 0))
        }
        var i = ranges.count - 1
        while i >= 0 {
            if ranges[i].zero {
                ranges.remove(at: i)
            } else if i + 1 < ranges.count, ranges[i + 1].isDash == ranges[i].isDash {
                ranges[i + 1].left = ranges[i].left
                ranges.remove(at: i)
            }
            i -= 1
        }
        guard !ranges.isEmpty else { return nil }
        if ranges[0].isDash == ranges[ranges.count - 1].isDash {
            ranges[0].left = ranges[ranges.count - 1].left - Double(width)
            ranges[ranges.count - 1].right = ranges[0].right + Double(width)
        }
        var field = [Float](repeating: 0, count: width)
        var current = 0
        for x in 0..<width {
            while Double(x) > ranges[current].right, current + 1 < ranges.count { current += 1 }
            let r = ranges[current]
            let distance = min(abs(Double(x) - r.left), abs(Double(x) - r.right))
            let signed = r.isDash ? distance : -distance
            field[x] = Float(min(255, max(0, signed + 128)).rounded(.towardZero)) / 255
        }
        return field
    }

    /// A dash array as MapLibre's round dash texture: 15 rows of 256 texels, row `7 + k` across the line
    /// at `k / 7` of the half width; dashes are capsules, so a dash's value grows with the distance from
    /// its ends and its side (the texture's arithmetic, zero-length dashes kept as dots). Nil for an
    /// empty pattern.
    static func lineRoundDashField(_ dasharray: [Double]) -> [Float]? {
        let parts = dasharray.map { max(0, $0.isFinite ? $0 : 0) }
        let length = parts.reduce(0, +)
        guard !parts.isEmpty, length > 0, length.isFinite else { return nil }
        let width = 256
        let n = 7
        let stretch = Double(width) / length
        var ranges: [(left: Double, right: Double, isDash: Bool)] = []
        let odd = parts.count % 2 == 1
        ranges.append((odd ? -parts[parts.count - 1] * stretch : 0, parts[0] * stretch, true))
        var along = parts[0]
        var isDash = true
        for part in parts.dropFirst() {
            isDash.toggle()
            let left = along * stretch
            along += part
            ranges.append((left, along * stretch, isDash))
        }
        let halfStretch = stretch / 2
        var field = [Float](repeating: 0, count: width * (2 * n + 1))
        for y in -n...n {
            var current = 0
            for x in 0..<width {
                if Double(x) / ranges[current].right > 1, current + 1 < ranges.count { current += 1 }
                let r = ranges[current]
                let nearest = min(abs(Double(x) - r.left), abs(Double(x) - r.right))
                let middle = Double(y) / Double(n) * (halfStretch + 1)
                let signed: Double
                if r.isDash {
                    let edge = halfStretch - abs(middle)
                    signed = (nearest * nearest + edge * edge).squareRoot()
                } else {
                    signed = halfStretch - (nearest * nearest + middle * middle).squareRoot()
                }
                field[(n + y) * width + x] = Float(min(255, max(0, signed + 128)).rounded(.towardZero)) / 255
            }
        }
        return field
    }

    /// The context at the integer zoom below: MapLibre scales dashes by the line width there
    /// (`line-floorwidth`), not by the width drawn at a fractional zoom, and then by the tile's growth
    /// with the fractional zoom (2^fraction), as patterns.
    static func floorContext(_ context: EvaluationContext) -> EvaluationContext {
        var c = context
        c.zoom = c.zoom.rounded(.down)
        return c
    }

    /// `line-dasharray` (in line widths) as lengths in points for a line `width` wide. A dash of zero
    /// length becomes a tiny one (moved out of the gap after it), so that round and square caps draw a
    /// dot there as in MapLibre (Cairo draws nothing for an empty dash).
    static func dashLengths(_ dasharray: [Double], width: Double) -> [Double] {
        var lengths = dasharray.map { $0 * width }
        guard lengths.count > 1 else { return lengths }
        let tiny = 1e-3
        for i in stride(from: 0, to: lengths.count, by: 2) where lengths[i] == 0 {
            let gap = (i + 1) % lengths.count
            if lengths[gap] > tiny {
                lengths[i] = tiny
                lengths[gap] -= tiny
            }
        }
        return lengths
    }

    static func stroke(_ path: Path, _ paint: Paint, _ g: GraphicsContext, scale: Double) {
        g.setLineCap(LineCap(rawValue: paint.cap) ?? .butt)
        g.setLineJoin(LineJoin(rawValue: paint.join) ?? .miter)
        g.setMiterLimit(paint.miterLimit)
        g.setLineDash(phase: 0, lengths: paint.dash)
        let alpha = paint.color.alpha * paint.opacity
        let opaque = paint.color.withAlphaComponent(1)
        if paint.gap > 0 {
            g.withTransparencyLayer(alpha: alpha) {
                g.setStrokeColor(opaque)
                g.setLineWidth(paint.gap + 2 * paint.width)
                g.stroke(path)
                g.setLineWidth(paint.gap)
                g.eraseStroke(path)
            }
        } else if paint.blur > 0 {
            // MapLibre's profile: full color to half the width less (blur + 1 pixel), none past half the
            // width plus half a pixel, linear between. Strokes of stepped widths, each adding 1/steps of
            // the color, sum to that ramp (each stroke's own antialiasing smooths the steps).
            let pixel = 1 / scale
            let outer = paint.width / 2 + pixel / 2
            let ramp = paint.blur + pixel
            let steps = max(2, min(64, Int((ramp * scale * 2).rounded(.up))))
            g.withTransparencyLayer(alpha: alpha) {
                g.setStrokeColor(opaque.withAlphaComponent(1 / Double(steps)))
                g.setBlendMode(.plusLighter)
                for k in 0..<steps {
                    let half = outer - pixel / 2 - ramp * (Double(k) + 0.5) / Double(steps) + pixel / 2
                    guard half > 0 else { continue }
                    g.setLineWidth(2 * half)
                    g.stroke(path)
                }
                g.setBlendMode(.normal)
            }
        } else {
            // One stroke of the whole group: where lines of the group overlap they are not darker (MapLibre
            // blends each segment, so its overlaps are; see styles/README.md, render-test differences).
            g.setStrokeColor(paint.color.withAlphaComponent(alpha))
            g.setLineWidth(paint.width)
            g.stroke(path)
        }
    }

    /// Strokes one piece painted along its length, segment by segment in order (later segments over
    /// earlier ones, as MapLibre draws them): each segment paints a band around it (a gradient between
    /// the colors at its ends' progress, or the pattern continued from the distance so far) shown through
    /// the stroke of the segment continued to the middle of the next one, so that the join between them
    /// is drawn; the next segment then draws over that continuation.
    static func paintAlong(_ item: PaintedPiece, layer: StyleLayer, frame: LayerFrame) {
        let points = item.piece.points
        guard points.count > 1 else { return }
        let g = frame.context
        let paint = item.paint
        let cap = LineCap(rawValue: paint.cap) ?? .butt
        g.setLineJoin(LineJoin(rawValue: paint.join) ?? .miter)
        g.setMiterLimit(paint.miterLimit)
        g.setLineDash(phase: 0, lengths: paint.dash)
        g.setLineWidth(paint.width)
        let total = max(item.piece.lineLength, 1e-9)
        let pattern = item.pattern.flatMap(frame.pattern)
        let reach = paint.width + 2
        var context = item.context
        func color(at distance: Double) -> Color {
            context.lineProgress = min(max(distance / total, 0), 1)
            return layer.color(.lineGradient, context) ?? .clear
        }
        let last = points.count - 2
        g.withTransparencyLayer(alpha: paint.opacity) {
            var along = item.piece.startLength
            for i in 0...last {
                let a = points[i]
                let b = points[i + 1]
                let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                guard length > 0 else { continue }
                var stroke = Path()
                stroke.move(to: a)
                stroke.addLine(to: b)
                if i < last {
                    let c = points[i + 2]
                    stroke.addLine(to: Point(x: (b.x + c.x) / 2, y: (b.y + c.y) / 2))
                }
                g.setLineCap(i == 0 || i == last ? cap : .butt)
                g.setLineDash(phase: along - item.piece.startLength, lengths: paint.dash)
                let start = along
                g.stroke(stroke) {
                    g.translateBy(x: a.x, y: a.y)
                    g.rotate(by: atan2(b.y - a.y, b.x - a.x))
                    let band = Path(
                        rect: Rect(x: -reach, y: -reach, width: length + 3 * reach + length, height: 2 * reach))
                    if let pattern {
                        // The image's height spans the line's width; its width keeps the aspect.
                        let height = paint.width
                        let width = height * Double(pattern.image.width) / Double(pattern.image.height)
                        g.fill(
                            band, tiling: pattern.image,
                            tile: Rect(x: -start, y: -height / 2, width: width, height: height))
                    } else {
                        // Colors sampled along the segment, 256 per line as MapLibre's gradient texture.
                        let samples = max(2, min(256, Int((length / total * 256).rounded(.up)) + 1))
                        let stops = (0..<samples).map { k -> (Double, Color) in
                            let t = Double(k) / Double(samples - 1)
                            return (t, color(at: start + t * length))
                        }
                        g.fill(band, linearGradientFrom: Point(x: 0, y: 0), to: Point(x: length, y: 0), stops: stops)
                    }
                }
                along += length
            }
        }
    }
}
