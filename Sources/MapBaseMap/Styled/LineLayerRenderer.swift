import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `line` layer: lines, or the outlines of polygons without the edges that only exist because
/// the data is cut at the 180th meridian or at the south pole's limit. `line-gap-width` draws a casing:
/// two lines either side of a gap, hollowed out in an offscreen layer.
enum LineLayerRenderer {
    struct Paint: Hashable {
        var color: Color
        var width: Double
        var opacity: Double
        var gap: Double
        var dash: [Double]
        var cap: String
        var join: String
        var miterLimit: Double
    }

    static func draw(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame) {
        var groups = PaintGroups<Paint>()
        let constant = frame.constantContext
        let maxWidth = layer.number(.lineWidth, constant) + layer.number(.lineGapWidth, constant)
        let margin = max(4, maxWidth * 2 + 4)
        let pipeline = GeometryPipeline(viewport: frame.viewport, margin: margin, tolerance: 0.5)
        frame.forEachFeature(of: source, layer: layer, margin: margin) { feature, offset, context in
            guard let color = layer.color(.lineColor, context) else { return }
            let width = layer.number(.lineWidth, context)
            let paint = Paint(
                color: color, width: width, opacity: layer.number(.lineOpacity, context),
                gap: layer.number(.lineGapWidth, context),
                dash: layer.numbers(.lineDasharray, context) ?? [],
                cap: layer.string(.lineCap, context), join: layer.string(.lineJoin, context),
                miterLimit: layer.number(.lineMiterLimit, context))
            guard width > 0, paint.opacity > 0 else { return }
            var lines: [[MapPoint]] = []
            switch feature.shape {
            case .lines(let l): lines = l
            case .polygons(let polygons):
                lines = polygons.flatMap {
                    $0.flatMap { GeometryPipeline.outlineWithoutCuts($0, cutAlong: feature.tileBounds) }
                }
            case .points: return
            }
            groups.withPath(for: paint) { path in
                for line in lines {
                    for piece in pipeline.line(line, offset: offset) { path.addLines(piece.points, closed: false) }
                }
            }
        }
        let g = frame.context
        for (paint, path) in groups.nonEmpty {
            g.setLineCap(LineCap(rawValue: paint.cap) ?? .butt)
            g.setLineJoin(LineJoin(rawValue: paint.join) ?? .miter)
            g.setMiterLimit(paint.miterLimit)
            g.setLineDash(phase: 0, lengths: paint.dash.map { $0 * paint.width })
            if paint.gap > 0 {
                g.withTransparencyLayer(alpha: paint.opacity) {
                    g.setStrokeColor(paint.color)
                    g.setLineWidth(paint.gap + 2 * paint.width)
                    g.stroke(path)
                    g.setLineWidth(paint.gap)
                    g.eraseStroke(path)
                }
            } else {
                g.setStrokeColor(paint.color.withAlphaComponent(paint.color.alpha * paint.opacity))
                g.setLineWidth(paint.width)
                g.stroke(path)
            }
        }
        g.setLineDash(phase: 0, lengths: [])
    }
}
