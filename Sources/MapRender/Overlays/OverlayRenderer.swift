import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// Draws one overlay into a snapshot. Mirrors MapKit's `MKOverlayRenderer`.
open class OverlayRenderer {
    /// The overlay drawn.
    public let overlay: Overlay
    /// Opacity of the whole drawing, 0...1. Mirrors `alpha`.
    public var alpha: Double = 1

    /// Creates a renderer for an overlay.
    public init(overlay: Overlay) {
        self.overlay = overlay
    }

    /// Draws the overlay, once for every copy of the world that shows it. Subclasses override
    /// ``draw(in:viewport:worldOffset:)``.
    public func render(in context: GraphicsContext, viewport: MapViewport) {
        let margin = marginInPoints * viewport.mapPointsPerPoint
        let visible = viewport.visibleMapRect.insetBy(dx: -margin, dy: -margin)
        let world = WebMercator.worldSize
        let bounds = overlay.boundingMapRect
        guard !bounds.isNull else { return }
        let first = Int(((visible.minX - bounds.maxX) / world).rounded(.down))
        let last = Int(((visible.maxX - bounds.minX) / world).rounded(.up))
        for k in first...max(first, last) {
            let offset = Double(k) * world
            guard overlay.intersects(visible.offsetBy(dx: -offset, dy: 0)) else { continue }
            context.withSavedState {
                context.setAlpha(alpha)
                draw(in: context, viewport: viewport, worldOffset: offset)
            }
        }
    }

    /// How far outside its bounding rect the drawing reaches, in points (half the stroke, for example).
    open var marginInPoints: Double { 0 }

    /// Draws the overlay shifted east by `worldOffset` map points (a multiple of the world's width).
    open func draw(in context: GraphicsContext, viewport: MapViewport, worldOffset: Double) {}
}

/// Fills and strokes a path made from the overlay. Mirrors MapKit's `MKOverlayPathRenderer`.
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

    open override var marginInPoints: Double { strokeColor == nil ? 1 : lineWidth / 2 * max(1, miterLimit) + 1 }

    /// The overlay's path in image points for the given world copy. Subclasses override it.
    open func path(viewport: MapViewport, worldOffset: Double) -> Path { Path() }

    /// Whether the path is closed (fillable).
    open var fillRule: FillRule { .evenOdd }

    open override func draw(in context: GraphicsContext, viewport: MapViewport, worldOffset: Double) {
        let path = path(viewport: viewport, worldOffset: worldOffset)
        guard !path.isEmpty else { return }
        if let fillColor {
            context.setFillRule(fillRule)
            context.setFillColor(fillColor)
            context.fill(path)
        }
        if let strokeColor, lineWidth > 0 {
            context.setStrokeColor(strokeColor)
            context.setLineWidth(lineWidth)
            context.setLineCap(lineCap)
            context.setLineJoin(lineJoin)
            context.setMiterLimit(miterLimit)
            context.setLineDash(phase: lineDashPhase, lengths: lineDashPattern)
            context.stroke(path)
        }
    }

    /// Adds map points as one subpath in image points, shifted by `worldOffset`.
    func addSubpath(_ points: [MapPoint], to path: inout Path, viewport: MapViewport, worldOffset: Double, closed: Bool)
    {
        guard let first = points.first else { return }
        let perPoint = viewport.mapPointsPerPoint
        let origin = viewport.visibleMapRect.origin
        func convert(_ p: MapPoint) -> Point {
            Point(x: (p.x + worldOffset - origin.x) / perPoint, y: (p.y - origin.y) / perPoint)
        }
        path.move(to: convert(first))
        for p in points.dropFirst() { path.addLine(to: convert(p)) }
        if closed { path.close() }
    }
}

/// Strokes a ``Polyline``. Mirrors MapKit's `MKPolylineRenderer`.
public final class PolylineRenderer: OverlayPathRenderer {
    /// The polyline drawn.
    public let polyline: Polyline

    /// Creates a renderer with a 3-point blue stroke.
    public init(polyline: Polyline) {
        self.polyline = polyline
        super.init(overlay: polyline)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
        lineWidth = 3
    }

    public override func path(viewport: MapViewport, worldOffset: Double) -> Path {
        var path = Path()
        addSubpath(polyline.points, to: &path, viewport: viewport, worldOffset: worldOffset, closed: false)
        return path
    }
}

/// Fills and strokes a ``Polygon`` with its holes. Mirrors MapKit's `MKPolygonRenderer`.
public final class PolygonRenderer: OverlayPathRenderer {
    /// The polygon drawn.
    public let polygon: Polygon

    /// Creates a renderer with a translucent blue fill and a 1-point blue outline.
    public init(polygon: Polygon) {
        self.polygon = polygon
        super.init(overlay: polygon)
        fillColor = Color(red8: 0, green8: 122, blue8: 255, alpha: 0.25)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
    }

    public override func path(viewport: MapViewport, worldOffset: Double) -> Path {
        var path = Path()
        addSubpath(polygon.points, to: &path, viewport: viewport, worldOffset: worldOffset, closed: true)
        for hole in polygon.interiorPolygons {
            addSubpath(hole.points, to: &path, viewport: viewport, worldOffset: worldOffset, closed: true)
        }
        return path
    }
}

/// Fills and strokes a ``Circle``. Mirrors MapKit's `MKCircleRenderer`.
public final class CircleRenderer: OverlayPathRenderer {
    /// The circle drawn.
    public let circle: Circle

    /// Creates a renderer with a translucent blue fill and a 1-point blue outline.
    public init(circle: Circle) {
        self.circle = circle
        super.init(overlay: circle)
        fillColor = Color(red8: 0, green8: 122, blue8: 255, alpha: 0.25)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
    }

    public override func path(viewport: MapViewport, worldOffset: Double) -> Path {
        // About one vertex per 2 points of outline, 64...4096.
        let radiusInPoints = circle.boundingMapRect.width / 2 / viewport.mapPointsPerPoint
        let vertices = max(64, min(4096, Int(2 * Double.pi * radiusInPoints / 2)))
        var path = Path()
        addSubpath(
            circle.outline(vertices: vertices), to: &path, viewport: viewport, worldOffset: worldOffset, closed: true)
        return path
    }
}

/// The renderer MapRaster uses for an overlay when the renderer provider gives none.
func defaultRenderer(for overlay: Overlay) -> OverlayRenderer? {
    switch overlay {
    case let polyline as Polyline: return PolylineRenderer(polyline: polyline)
    case let polygon as Polygon: return PolygonRenderer(polygon: polygon)
    case let circle as Circle: return CircleRenderer(circle: circle)
    default: return nil
    }
}
