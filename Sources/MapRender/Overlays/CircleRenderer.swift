import Foundation
import MapGeometry
import MapStyle

/// Fills and strokes a ``Circle``: the geodesic outline, closed over the pole it contains, or filled
/// outside when it contains both poles. Mirrors MapKit's `MKCircleRenderer`.
public final class CircleRenderer: OverlayPathRenderer {
    /// The circle drawn. Mirrors `circle`.
    public let circle: Circle

    /// Creates a renderer with a translucent blue fill and a 1-point blue outline.
    public init(circle: Circle) {
        self.circle = circle
        super.init(overlay: circle)
        fillColor = Color(red8: 0, green8: 122, blue8: 255, alpha: 0.25)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
    }

    /// The circle's geometry for a view: about one vertex per 2 points of outline, 64...8192.
    override func geometry(for viewport: MapViewport) -> ShapeGeometry {
        guard circle.radius.isFinite, circle.radius > 0, circle.center.isValid else { return ShapeGeometry() }
        let latitude = max(-80, min(80, circle.center.latitude))
        let radiusInPoints =
            min(circle.radius, Circle.maximumRadius) * MapPoint.pointsPerMeter(atLatitude: latitude)
            / viewport.mapPointsPerPoint
        let vertices = max(64, min(8192, Int(Double.pi * radiusInPoints)))
        var shape = ShapeGeometry(parts: [.ring(circle.outline(vertices: vertices))])
        let north = circle.containsNorthPole
        let south = circle.containsSouthPole
        if north && south {
            shape.fillsOutside = true
        } else if north || south {
            shape.enclosedPole = north ? .north : .south
        }
        return shape
    }
}
