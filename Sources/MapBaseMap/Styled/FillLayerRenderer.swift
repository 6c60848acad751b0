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

    static func draw(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame) {
        let pipeline = GeometryPipeline(viewport: frame.viewport, margin: 2, tolerance: 0.5)
        var groups = PaintGroups<Paint>()
        var outlines: [Paint: Path] = [:]
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
            groups.withPath(for: paint) { path in
                for polygon in polygons {
                    for ring in polygon {
                        guard let points = pipeline.ring(ring, offset: offset, dropsTinyRings: true) else { continue }
                        path.addLines(points, closed: true)
                    }
                }
            }
            // Outlines of vector tile polygons leave out the edges along the tile's square (the cut).
            if paint.outline != nil, let square = feature.tileBounds {
                // Appended in place (a copy out of the dictionary and back would copy the whole path each time).
                if outlines[paint] == nil { outlines[paint] = Path() }
                for polygon in polygons {
                    for ring in polygon {
                        for run in GeometryPipeline.outlineWithoutCuts(ring, cutAlong: square) {
                            for piece in pipeline.line(run, offset: offset) {
                                outlines[paint, default: Path()].addLines(piece.points, closed: false)
                            }
                        }
                    }
                }
            }
        }
        let g = frame.context
        let (tx, ty) = frame.translation(layer, .fillTranslate)
        let antialias = layer.bool(.fillAntialias, EvaluationContext(zoom: frame.zoom))
        g.withSavedState {
            g.translateBy(x: tx, y: ty)
            g.setShouldAntialias(antialias)
            g.setFillRule(.winding)
            for (paint, path) in groups.nonEmpty {
                if let name = paint.pattern, let pattern = frame.pattern(name) {
                    g.setAlpha(paint.color.alpha)
                    g.fill(path, tiling: pattern.image, tile: pattern.tile)
                    g.setAlpha(1)
                    continue
                }
                g.setFillColor(paint.color)
                g.fill(path)
                if let outline = paint.outline {
                    g.setStrokeColor(outline)
                    g.setLineWidth(1 / frame.viewport.scale)
                    g.setLineDash(phase: 0, lengths: [])
                    g.stroke(outlines[paint] ?? path)
                }
            }
            g.setShouldAntialias(true)
        }
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
