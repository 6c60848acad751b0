import Foundation
import MapGeometry
import MapGraphics

/// Fills and strokes the overlay's shape, through the ``GeometryPipeline`` (world copies, antimeridian,
/// clipping with a margin for the stroke, pixel-space simplification). Mirrors MapKit's
/// `MKOverlayPathRenderer`.
///
/// With ``OverlayRenderer/alpha`` below 1 the fill and stroke are drawn into a transparency layer that is
/// composited once, as MapKit does, so a translucent renderer's outline does not show the fill through.
open class OverlayPathRenderer: OverlayRenderer {
    /// The fill; nil fills nothing. Mirrors `fillColor`.
    public var fillColor: Color?
    /// The outline; nil strokes nothing. Mirrors `strokeColor`.
    public var strokeColor: Color?
    /// Outline width in points. Mirrors `lineWidth`.
    public var lineWidth: Double = 1
    /// Mirrors `lineCap`; round by default, as in MapKit.
    public var lineCap: LineCap = .round
    /// Mirrors `lineJoin`; round by default, as in MapKit.
    public var lineJoin: LineJoin = .round
    /// Mirrors `miterLimit`.
    public var miterLimit: Double = 10
    /// Alternating dash and gap lengths in points; empty for a solid line. Mirrors `lineDashPattern`.
    public var lineDashPattern: [Double] = []
    /// Where in the dash pattern the line starts, in points. Mirrors `lineDashPhase`.
    public var lineDashPhase: Double = 0

    open override var marginInPoints: Double {
        strokeColor == nil ? 1 : lineWidth / 2 * max(1, lineJoin == .miter ? miterLimit : 1.5) + 1
    }

    /// The rule for filling: even-odd, so holes and overlapping parts of multipolygons are cut out.
    open var fillRule: FillRule { .evenOdd }

    /// The shape in map points; subclasses in this module provide it.
    func geometry(for viewport: MapViewport) -> ShapeGeometry { ShapeGeometry() }

    open override func render(in context: GraphicsContext, viewport: MapViewport) {
        let pipeline = GeometryPipeline(viewport: viewport, margin: max(2, marginInPoints + 2), tolerance: 0.125)
        let fills = fillColor != nil
        let strokes = strokeColor != nil && lineWidth > 0
        guard fills || strokes else { return }
        let prepared = pipeline.prepare(geometry(for: viewport), fills: fills, strokes: strokes)
        context.withSavedState {
            if alpha < 1 {
                // As MapKit: the overlay's drawing is composited once with alpha.
                context.withTransparencyLayer(alpha: alpha) { draw(prepared, in: context) }
            } else {
                draw(prepared, in: context)
            }
        }
    }

    func draw(_ prepared: GeometryPipeline.Prepared, in context: GraphicsContext) {
        if let fillColor, prepared.hasFill {
            context.setFillRule(fillRule)
            context.setFillColor(fillColor)
            context.fill(prepared.fill)
        }
        if let strokeColor, lineWidth > 0, !prepared.strokes.isEmpty {
            applyStrokeStyle(to: context)
            context.setStrokeColor(strokeColor)
            strokePieces(prepared.strokes, in: context)
        }
    }

    func applyStrokeStyle(to context: GraphicsContext) {
        context.setLineWidth(lineWidth)
        context.setLineCap(lineCap)
        context.setLineJoin(lineJoin)
        context.setMiterLimit(miterLimit)
    }

    /// Strokes pieces: in one path when solid, one by one with the dash phase of each piece's start when
    /// dashed (so the pattern runs on where a clipped line comes back into view).
    func strokePieces(_ pieces: [StrokePiece], in context: GraphicsContext) {
        if lineDashPattern.isEmpty {
            context.setLineDash(phase: 0, lengths: [])
            var path = Path()
            for piece in pieces { path.addLines(piece.points, closed: piece.closed) }
            context.stroke(path)
        } else {
            for piece in pieces {
                var path = Path()
                path.addLines(piece.points, closed: piece.closed)
                // The phase modulo the pattern keeps the number small for Cairo.
                let period = lineDashPattern.reduce(0, +)
                let phase = lineDashPhase + piece.startLength
                context.setLineDash(
                    phase: period > 0 && period.isFinite ? phase.truncatingRemainder(dividingBy: period) : phase,
                    lengths: lineDashPattern)
                context.stroke(path)
            }
        }
    }
}
