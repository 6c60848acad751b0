import Foundation
import MapGeometry
import MapGraphics

/// The default view of a ``ClusterAnnotation``: a filled circle with a white rim showing the member count,
/// larger for larger clusters.
///
/// Mirrors the cluster look of MapKit's `MKMarkerAnnotationView`.
public final class ClusterAnnotationView: AnnotationView {
    /// The circle's color. Mirrors `markerTintColor`.
    public var tintColor: Color
    /// The number shown.
    public let count: Int

    /// Creates the view for a cluster of `count` members.
    public init(count: Int, tintColor: Color = Color(red8: 0, green8: 122, blue8: 255)) {
        self.count = count
        self.tintColor = tintColor
        let digits = String(count).count
        let diameter = 26.0 + 6 * Double(max(0, digits - 1))
        super.init(size: Size(width: diameter, height: diameter), reuseIdentifier: "cluster")
        collisionMode = .circle
    }

    /// The tint color and the count: cluster views showing the same number look the same.
    public override var automaticReuseContentKey: AnyHashable? { AnyHashable("\(tintColor.hexString) \(count)") }

    public override func draw(in context: GraphicsContext, bounds: Rect) {
        let circle = Path(ovalIn: bounds.insetBy(dx: 1, dy: 1))
        context.setFillColor(tintColor)
        context.fill(circle)
        context.setStrokeColor(.white)
        context.setLineWidth(2)
        context.stroke(circle)
        guard let font = try? Font.load(path: Self.boldFontPath) else { return }
        let text = String(count)
        let size = 12.0
        let metrics = font.measure(text, size: size)
        context.drawText(
            text,
            at: Point(
                x: bounds.midX - metrics.width / 2, y: bounds.midY + (metrics.ascent - metrics.descent) / 2 - 0.5),
            font: font, size: size, color: .white)
    }

    static let boldFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
}
