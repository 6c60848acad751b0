import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `circle` layer: a disc at each point with an optional stroke outside it.
enum CircleLayerRenderer {
    struct Paint: Hashable {
        var color: Color
        var radius: Double
        var strokeColor: Color
        var strokeWidth: Double
    }

    static func draw(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame) {
        var order: [Paint] = []
        var discs: [Paint: Path] = [:]
        var rings: [Paint: Path] = [:]
        let pipeline = GeometryPipeline(viewport: frame.viewport, margin: 0, tolerance: 0.5)
        let margin = StyleLimits.circleMargin
        frame.forEachFeature(of: source, layer: layer, margin: margin) { feature, offset, context in
            guard case .points(let points) = feature.shape, let color = layer.color(.circleColor, context) else {
                return
            }
            let opacity = layer.number(.circleOpacity, context)
            let strokeOpacity = layer.number(.circleStrokeOpacity, context)
            let stroke = layer.color(.circleStrokeColor, context) ?? .black
            let paint = Paint(
                color: color.withAlphaComponent(color.alpha * opacity), radius: layer.number(.circleRadius, context),
                strokeColor: stroke.withAlphaComponent(stroke.alpha * strokeOpacity),
                strokeWidth: layer.number(.circleStrokeWidth, context))
            guard paint.radius > 0 || paint.strokeWidth > 0 else { return }
            if discs[paint] == nil {
                order.append(paint)
                discs[paint] = Path()
                rings[paint] = Path()
            }
            for p in points {
                let c = pipeline.project(p, offset: offset)
                let r = paint.radius
                guard c.x > -r - margin, c.y > -r - margin, c.x < frame.viewport.size.width + r + margin,
                    c.y < frame.viewport.size.height + r + margin
                else { continue }
                discs[paint]!.append(Path(ovalIn: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)))
                let rs = r + paint.strokeWidth / 2
                rings[paint]!.append(Path(ovalIn: Rect(x: c.x - rs, y: c.y - rs, width: 2 * rs, height: 2 * rs)))
            }
        }
        let g = frame.context
        g.setFillRule(.winding)
        for paint in order {
            g.setFillColor(paint.color)
            g.fill(discs[paint]!)
            if paint.strokeWidth > 0 {
                g.setStrokeColor(paint.strokeColor)
                g.setLineWidth(paint.strokeWidth)
                g.setLineDash(phase: 0, lengths: [])
                g.stroke(rings[paint]!)
            }
        }
    }
}
