import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `fill` layer: polygons filled (nonzero winding; GeoJSON holes wind the other way), with an
/// optional one-pixel outline. Opaque features with the same paint are drawn as one path; translucent
/// features are drawn one by one, so that where they overlap they show through each other as in
/// MapLibre (the pieces of one polygon cut at vector tile edges count as one feature, so the cut shows no
/// seam). Outlines of polygons cut at vector tile edges leave those edges out.
enum FillLayerRenderer {
    struct Paint: Hashable {
        var color: Color
        var outline: Color?
        /// 0 for opaque paints (one group); the feature's number for translucent ones.
        var feature: Int
        /// The `fill-pattern` image name, drawn instead of the color.
        var pattern: String?
    }

    /// A fill layer's features made ready to draw (MapLibre's fill bucket): paths per paint, outlines and
    /// pattern fills, in the view's points. It holds no context, so it may be made on another thread
    /// (``BucketPipeline``) while an earlier layer is drawn.
    struct Bucket {
        var groups = PaintGroups<Paint>()
        /// Outline polylines per paint with an outline colour.
        var outlines: [Paint: [[Point]]] = [:]
        var patternFills: [(paint: Paint, polygons: [[[Point]]], outlines: [[Point]])] = []
        /// The vector tile square (and world copy) of each pattern fill's first tiled feature.
        var patternTiles: [Int: (square: MapRect, offset: Double)] = [:]
        var antialias = true

        /// About how many bytes the paths and outlines hold (``BucketPipeline``).
        var bytes: Int {
            let points =
                groups.paths.reduce(0) { $0 + $1.elements.count }
                + outlines.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
                + patternFills.reduce(0) { $0 + $1.polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }
            return points * MemoryLayout<Path.Element>.stride
        }
    }

    /// The bucket of `layer`'s features from `source` in `frame`'s view. Reads the frame's selection and,
    /// for `fill-pattern`, its pattern images; never its context.
    static func bucket(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame) -> Bucket {
        let pipeline = GeometryPipeline(viewport: frame.viewport, margin: 2, tolerance: 0.5)
        var groups = PaintGroups<Paint>()
        // Outline polylines per paint with an outline colour, drawn through the rasterizer (`fill_outline`).
        var outlines: [Paint: [[Point]]] = [:]
        var count = 0
        // The pieces of one polygon cut at vector tile edges (same id and properties) fill as one shape, so
        // that a translucent fill shows no seam along the cut (each piece antialiased on its own would).
        var pieces: [String: Int] = [:]
        // The paint properties looked up once, and evaluated once when they are the same for every feature.
        let constant = frame.constantContext
        let fillColor = ResolvedStyleProperty(layer, .fillColor, at: constant)
        let fillOpacity = ResolvedStyleProperty(layer, .fillOpacity, at: constant)
        let fillOutlineColor = ResolvedStyleProperty(layer, .fillOutlineColor, at: constant)
        let fillPattern = ResolvedStyleProperty(layer, .fillPattern, at: constant)
        let antialias = layer.bool(.fillAntialias, EvaluationContext(zoom: frame.zoom))
        // Pattern fills go to the rasterizer as triangles (MapLibre's `fill_pattern`), in first-seen order of
        // their paints, with an outline drawn from the pattern when antialiased and no outline colour is set
        // (`fill_outline_pattern`; MapLibre draws no outline under a pattern otherwise).
        var patternFills: [(paint: Paint, polygons: [[[Point]]], outlines: [[Point]])] = []
        var patternIndex: [Paint: Int] = [:]
        // The vector tile square (and world copy) of each pattern fill's first tiled feature: MapLibre's
        // pattern lookup counts from the corner of the tile it draws (``LayerFrame/fillPattern(_:opacity:tile:offset:)``).
        var patternTiles: [Int: (square: MapRect, offset: Double)] = [:]
        let patternOutlines = antialias && !fillOutlineColor.isSet
        frame.forEachFeature(of: source, layer: layer, margin: 2) { feature, offset, context in
            guard case .polygons(let polygons) = feature.shape,
                let color = fillColor.color(context)
            else { return }
            let opacity = fillOpacity.number(context)
            let outline = fillOutlineColor.color(context)
            count += 1
            let fill = color.withAlphaComponent(color.alpha * opacity)
            var number = count
            if fill.alpha < 1 || opacity < 1, feature.tileBounds != nil {
                var key = "\(offset)|\(pieceKey(feature.id))|"
                for (index, name) in feature.properties.keys.sorted().enumerated() {
                    if index > 0 { key += "|" }
                    key += name
                    key += "="
                    key += pieceKey(feature.properties[name]!)
                }
                if let first = pieces[key] { number = first } else { pieces[key] = count }
            }
            var pattern: String?
            if fillPattern.isSet {
                // A feature whose pattern the sprite lacks is not drawn.
                let name = fillPattern.string(context)
                guard frame.pattern(name) != nil else { return }
                pattern = name
            }
            let paint = Paint(
                color: pattern == nil ? fill : Color(red: 0, green: 0, blue: 0, alpha: opacity),
                outline: pattern == nil ? outline.map { $0.withAlphaComponent($0.alpha * opacity) } : nil,
                feature: fill.alpha < 1 || (pattern != nil && opacity < 1) ? number : 0, pattern: pattern)
            if pattern != nil {
                let k = patternIndex[paint] ?? patternFills.count
                if k == patternFills.count {
                    patternIndex[paint] = k
                    patternFills.append((paint, [], []))
                }
                if patternTiles[k] == nil, let square = feature.tileBounds { patternTiles[k] = (square, offset) }
                for polygon in polygons {
                    var rings: [[Point]] = []
                    for (r, ring) in polygon.enumerated() {
                        guard let points = pipeline.ring(ring, offset: offset, dropsTinyRings: true) else {
                            if r == 0 { break }
                            continue
                        }
                        rings.append(points)
                    }
                    guard !rings.isEmpty else { continue }
                    patternFills[k].polygons.append(rings)
                    guard patternOutlines else { continue }
                    if let square = feature.tileBounds {
                        for ring in polygon {
                            for run in GeometryPipeline.outlineWithoutCuts(ring, cutAlong: square) {
                                for piece in pipeline.line(run, offset: offset) {
                                    patternFills[k].outlines.append(piece.points)
                                }
                            }
                        }
                    } else {
                        for ring in rings { patternFills[k].outlines.append(ring + [ring[0]]) }
                    }
                }
                return
            }
            let outlined = paint.outline != nil
            // Appended in place (a copy out of the dictionary and back would copy every line each time).
            if outlined, outlines[paint] == nil { outlines[paint] = [] }
            groups.withPath(for: paint) { path in
                for polygon in polygons {
                    for ring in polygon {
                        guard let points = pipeline.ring(ring, offset: offset, dropsTinyRings: true) else { continue }
                        path.addLines(points, closed: true)
                        if outlined, feature.tileBounds == nil {
                            outlines[paint, default: []].append(points + [points[0]])
                        }
                    }
                }
            }
            // Outlines of vector tile polygons leave out the edges along the tile's square (the cut).
            if outlined, let square = feature.tileBounds {
                for polygon in polygons {
                    for ring in polygon {
                        for run in GeometryPipeline.outlineWithoutCuts(ring, cutAlong: square) {
                            for piece in pipeline.line(run, offset: offset) {
                                outlines[paint, default: []].append(piece.points)
                            }
                        }
                    }
                }
            }
        }
        return Bucket(
            groups: groups, outlines: outlines, patternFills: patternFills, patternTiles: patternTiles,
            antialias: antialias)
    }

    /// Draws a bucket made by ``bucket(_:source:in:)`` for `layer` into `frame`'s context.
    static func draw(_ bucket: Bucket, layer: StyleLayer, in frame: LayerFrame) {
        let g = frame.context
        let (tx, ty) = frame.translation(layer, .fillTranslate)
        let antialias = bucket.antialias
        g.withSavedState {
            g.translateBy(x: tx, y: ty)
            if !bucket.patternFills.isEmpty {
                drawPatterns(bucket.patternFills, tiles: bucket.patternTiles, in: frame)
                return
            }
            g.setShouldAntialias(antialias)
            g.setFillRule(.winding)
            for (paint, path) in bucket.groups.nonEmpty {
                g.setFillColor(paint.color)
                g.fill(path)
                // MapLibre's `fill_outline`: one device pixel either side of the outline, after the fill, and
                // only with `fill-antialias` (MapLibre draws no outline without it).
                if antialias, let outline = paint.outline, let lines = bucket.outlines[paint] {
                    let rasterizer = g.makeRasterizer()
                    rasterizer.addFillOutline(
                        .fillOutline(lines, halfWidth: 1 / frame.viewport.scale), color: outline)
                    if !rasterizer.isEmpty { g.draw(rasterizer) }
                }
            }
            g.setShouldAntialias(true)
        }
    }

    /// Pattern fills through the rasterizer: each polygon triangulated (whole pixels, no antialiasing), then
    /// its outline as one-pixel segments either side (`fill_outline_pattern`), both sampling the pattern
    /// where it lies on the map, counted from the corner of the fill's vector tile (`tiles`, by index of `fills`).
    static func drawPatterns(
        _ fills: [(paint: Paint, polygons: [[[Point]]], outlines: [[Point]])],
        tiles: [Int: (square: MapRect, offset: Double)], in frame: LayerFrame
    ) {
        let g = frame.context
        let rasterizer = g.makeRasterizer()
        let halfWidth = 1 / frame.viewport.scale
        for (k, fill) in fills.enumerated() {
            guard let name = fill.paint.pattern,
                let pattern = frame.fillPattern(
                    name, opacity: fill.paint.color.alpha, tile: tiles[k]?.square, offset: tiles[k]?.offset ?? 0)
            else { continue }
            var mesh = LineMesh()
            for rings in fill.polygons {
                let indices = PolygonTriangulation.triangulate(rings)
                guard !indices.isEmpty, mesh.vertices.count < Int(Int32.max / 2) else { continue }
                let base = Int32(mesh.vertices.count)
                for ring in rings {
                    for p in ring { mesh.vertices.append(LineMesh.Vertex(position: p, normal: Point(x: 0, y: 0))) }
                }
                mesh.indices += indices.map { $0 + base }
            }
            rasterizer.addPatternFill(mesh, pattern, outline: false)
            let outline = LineMesh.fillOutline(fill.outlines, halfWidth: halfWidth)
            rasterizer.addPatternFill(outline, pattern, outline: true)
        }
        g.draw(rasterizer)
    }

    /// A value as string interpolation writes it (`number(1.0)`, `string("a")`), without the reflection
    /// interpolation goes through for an enum: the same strings, so the same pieces share a key.
    static func pieceKey(_ value: StyleValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return "bool(\(String(reflecting: b)))"
        case .number(let n): return "number(\(String(reflecting: n)))"
        case .string(let s): return "string(\(String(reflecting: s)))"
        default: return "\(value)"
        }
    }
}
