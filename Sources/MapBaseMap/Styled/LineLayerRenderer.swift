import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `line` layer: lines, or the outlines of polygons without the edges that only exist because
/// the data is cut at the 180th meridian or at the south pole's limit. `line-gap-width` draws a casing:
/// two lines either side of a gap, hollowed out in an offscreen layer. `line-blur` fades the edges over its width (strokes of stepped widths added
/// up); `line-offset` draws a parallel line; `line-translate` moves the layer.
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
        var offset: Double
        var blur: Double
    }

    static func draw(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame) {
        var groups = PaintGroups<Paint>()
        let constant = EvaluationContext(zoom: frame.zoom)
        let maxWidth =
            layer.number(.lineWidth, constant) + layer.number(.lineGapWidth, constant)
            + abs(layer.number(.lineOffset, constant)) + layer.number(.lineBlur, constant)
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
                miterLimit: layer.number(.lineMiterLimit, context), offset: layer.number(.lineOffset, context),
                blur: layer.number(.lineBlur, context))
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
                    for piece in pipeline.line(line, offset: offset) {
                        path.addLines(
                            paint.offset == 0 ? piece.points : LineOffset.offset(piece.points, by: paint.offset),
                            closed: false)
                    }
                }
            }
        }
        let g = frame.context
        let (tx, ty) = frame.translation(layer, .lineTranslate)
        g.withSavedState {
            g.translateBy(x: tx, y: ty)
            for (paint, path) in groups.nonEmpty { stroke(path, paint, g, scale: frame.viewport.scale) }
        }
        g.setLineDash(phase: 0, lengths: [])
    }

    static func stroke(_ path: Path, _ paint: Paint, _ g: GraphicsContext, scale: Double) {
        g.setLineCap(LineCap(rawValue: paint.cap) ?? .butt)
        g.setLineJoin(LineJoin(rawValue: paint.join) ?? .miter)
        g.setMiterLimit(paint.miterLimit)
        g.setLineDash(phase: 0, lengths: paint.dash.map { $0 * paint.width })
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
}
