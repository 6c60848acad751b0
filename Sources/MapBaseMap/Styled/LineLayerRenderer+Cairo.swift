import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// Lines stroked by Cairo: dashed gradients and patterns, and every line of a layer too wide to rasterize
/// triangle by triangle (see ``LineBucket/meshBudget``).
extension LineLayerRenderer {
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

    static func stroke(_ path: Path, _ paint: LineBucket.Paint, _ g: GraphicsContext, scale: Double) {
        g.setLineCap(paint.cap)
        g.setLineJoin(paint.join)
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
        let cap = paint.cap
        g.setLineJoin(paint.join)
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
