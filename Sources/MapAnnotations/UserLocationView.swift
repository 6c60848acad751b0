import Foundation
import MapGeometry
import MapGraphics

/// The user location's look: a translucent accuracy circle, a heading cone and a blue dot with a white
/// rim. The view is square and centered on the location; its size covers the accuracy circle.
///
/// Mirrors the view MapKit draws for `MKUserLocation`.
public final class UserLocationView: AnnotationView {
    /// The dot and circle color (iOS system blue).
    public static let blue = Color(red8: 0, green8: 122, blue8: 255)
    /// The accuracy circle's radius in points (0 for none).
    public let accuracyRadius: Double
    /// The heading in degrees clockwise from north, or nil.
    public let heading: Double?

    /// The dot's diameter in points, rim included.
    public static let dotDiameter = 22.0
    /// The heading cone's radius in points.
    public static let coneRadius = 40.0

    /// Creates the view for an accuracy circle of `accuracyRadius` points and an optional heading.
    public init(accuracyRadius: Double, heading: Double?) {
        self.accuracyRadius = max(0, accuracyRadius.isFinite ? accuracyRadius : 0)
        self.heading = heading
        let side = 2 * max(self.accuracyRadius, heading == nil ? Self.dotDiameter / 2 : Self.coneRadius)
        super.init(size: Size(width: side, height: side), reuseIdentifier: "userLocation")
        collisionMode = .none
        canShowCallout = true
    }

    public override func draw(in context: GraphicsContext, bounds: Rect) {
        let c = Point(x: bounds.midX, y: bounds.midY)
        if accuracyRadius > Self.dotDiameter / 2 {
            let circle = Path(
                ovalIn: Rect(
                    x: c.x - accuracyRadius, y: c.y - accuracyRadius, width: 2 * accuracyRadius,
                    height: 2 * accuracyRadius))
            context.setFillColor(Self.blue.withAlphaComponent(0.15))
            context.fill(circle)
            context.setStrokeColor(Self.blue.withAlphaComponent(0.35))
            context.setLineWidth(1)
            context.stroke(circle)
        }
        if let heading, heading.isFinite {
            // A 60-degree cone, fading outward in three steps, pointing along the heading (0 = up).
            let direction = (heading - 90) * .pi / 180
            for (k, alpha) in [(1.0, 0.12), (0.75, 0.14), (0.5, 0.18)] {
                var cone = Path()
                cone.move(to: c)
                cone.addArc(
                    center: c, radius: Self.coneRadius * k, startAngle: direction - .pi / 6,
                    endAngle: direction + .pi / 6, clockwise: true)
                cone.close()
                context.setFillColor(Self.blue.withAlphaComponent(alpha))
                context.fill(cone)
            }
        }
        let r = Self.dotDiameter / 2
        let rim = Path(ovalIn: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
        context.setFillColor(Color.black.withAlphaComponent(0.18))
        context.fill(Path(ovalIn: Rect(x: c.x - r - 1, y: c.y - r, width: 2 * r + 2, height: 2 * r + 2)))
        context.setFillColor(.white)
        context.fill(rim)
        let inner = r - 3.5
        context.setFillColor(Self.blue)
        context.fill(Path(ovalIn: Rect(x: c.x - inner, y: c.y - inner, width: 2 * inner, height: 2 * inner)))
    }
}
