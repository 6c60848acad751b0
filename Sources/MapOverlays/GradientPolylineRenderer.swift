import Foundation
import MapGeometry
import MapGraphics

/// Strokes a ``Polyline`` with colors that change along its length. Mirrors MapKit's
/// `MKGradientPolylineRenderer`.
///
/// The line is drawn in short pieces (at most 2 points long), each in the color interpolated at its
/// middle; pieces join with round caps, so translucent colors overlap slightly at the joints. The dash
/// pattern is not used.
public final class GradientPolylineRenderer: OverlayPathRenderer {
    /// The polyline drawn. Mirrors `polyline`.
    public let polyline: Polyline
    /// The colors. Mirrors `strokeColors`.
    public private(set) var strokeColors: [Color] = []
    /// Where each color sits along the line, 0 at the start and 1 at the end, ascending. Mirrors
    /// `locations`.
    public private(set) var locations: [Double] = []

    /// Creates a renderer with a 3-point stroke, blue until colors are set.
    public init(polyline: Polyline) {
        self.polyline = polyline
        super.init(overlay: polyline)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
        lineWidth = 3
    }

    /// Sets the colors and where along the line each one is; with no locations the colors are spread
    /// evenly. Locations are clamped to 0...1 and sorted with their colors. Mirrors `setColors:atLocations:`.
    public func setColors(_ colors: [Color], locations: [Double] = []) {
        var pairs: [(Double, Color)]
        if locations.count == colors.count {
            pairs = zip(locations, colors).map { (max(0, min(1, $0.isFinite ? $0 : 0)), $1) }
        } else {
            let n = max(1, colors.count - 1)
            pairs = colors.enumerated().map { (Double($0.offset) / Double(n), $0.element) }
        }
        pairs.sort { $0.0 < $1.0 }
        strokeColors = pairs.map(\.1)
        self.locations = pairs.map(\.0)
    }

    /// The color at a fraction (0...1) of the line's length.
    public func color(atFraction t: Double) -> Color {
        guard let first = strokeColors.first, let firstLocation = locations.first else {
            return strokeColor ?? .black
        }
        if t <= firstLocation { return first }
        for i in 1..<strokeColors.count where t <= locations[i] {
            let span = locations[i] - locations[i - 1]
            let u = span > 0 ? (t - locations[i - 1]) / span : 1
            let a = strokeColors[i - 1]
            let b = strokeColors[i]
            return Color(
                red: a.red + (b.red - a.red) * u, green: a.green + (b.green - a.green) * u,
                blue: a.blue + (b.blue - a.blue) * u, alpha: a.alpha + (b.alpha - a.alpha) * u)
        }
        return strokeColors[strokeColors.count - 1]
    }

    override func geometry(for viewport: MapViewport) -> ShapeGeometry {
        ShapeGeometry(parts: [.line(polyline.points)])
    }

    override func draw(_ prepared: GeometryPipeline.Prepared, in context: GraphicsContext) {
        guard lineWidth > 0, strokeColor != nil || !strokeColors.isEmpty else { return }
        applyStrokeStyle(to: context)
        context.setLineDash(phase: 0, lengths: [])
        context.setLineCap(.round)
        for piece in prepared.strokes {
            let total = max(piece.lineLength, 1e-9)
            var travelled = piece.startLength
            for (a, b) in zip(piece.points, piece.points.dropFirst()) {
                let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                let steps = max(1, Int((length / 2).rounded(.up)))
                for k in 0..<steps {
                    let u0 = Double(k) / Double(steps)
                    let u1 = Double(k + 1) / Double(steps)
                    var path = Path()
                    path.move(to: Point(x: a.x + (b.x - a.x) * u0, y: a.y + (b.y - a.y) * u0))
                    path.addLine(to: Point(x: a.x + (b.x - a.x) * u1, y: a.y + (b.y - a.y) * u1))
                    context.setStrokeColor(color(atFraction: (travelled + length * (u0 + u1) / 2) / total))
                    context.stroke(path)
                }
                travelled += length
            }
        }
    }
}
