import Foundation
import MapRaster
import MapTestSupport

/// The seed's `MAnnotation`: a location and an angle in degrees.
public final class AngledAnnotation: Annotation {
    public let coordinate: LocationCoordinate2D
    public let angle: Double
    /// An annotation at `coordinate` pointing at `angle` degrees.
    public init(coordinate: LocationCoordinate2D, angle: Double) {
        self.coordinate = coordinate
        self.angle = angle
    }
}

/// The seed's `MAnnotationView`: 40x40, not opaque, `drawRect:` draws a triangle rotated by the angle,
/// red fill and black stroke, line for line as in the tutorial.
public final class TriangleAnnotationView: AnnotationView {
    let angle: Double
    /// The view for an annotation.
    public init(annotation: AngledAnnotation) {
        angle = annotation.angle
        super.init(size: Size(width: 40, height: 40), isOpaque: false, reuseIdentifier: "Custom Annotation View")
    }

    public override func draw(in context: GraphicsContext, bounds: Rect) {
        let size = min(bounds.width, bounds.height) / 2
        let center = Point(x: bounds.width / 2, y: bounds.height / 2)
        var path = Path()
        path.move(to: Point(x: center.x + 0, y: center.y - size))
        path.addLine(to: Point(x: center.x - size / 2, y: center.y + size / 2 * 3.0.squareRoot()))
        path.addLine(to: Point(x: center.x + size / 2, y: center.y + size / 2 * 3.0.squareRoot()))
        path.close()
        var transform = Transform.identity
        path.apply(transform)
        transform = transform.translatedBy(x: center.x, y: center.y)
        transform = transform.rotated(by: angle / 180 * .pi)
        transform = transform.translatedBy(x: -center.x, y: -center.y)
        path.apply(transform)
        context.setFillColor(.red)
        context.setStrokeColor(.black)
        context.fill(path)
        context.stroke(path)
    }
}
