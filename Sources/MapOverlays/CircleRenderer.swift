import Foundation
import MapGeometry

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

    /// The circle's geometry for a view: 1,024 vertices, and where a side between two of them meets the
    /// view, more vertices on the true circle about every 2 points, so the outline stays exact at any
    /// zoom (a 3,000 km circle seen at street level is not a polygon with 2 km sides).
    override func geometry(for viewport: MapViewport) -> ShapeGeometry {
        guard circle.radius.isFinite, circle.radius > 0, Circle.isUsable(circle.center) else { return ShapeGeometry() }
        let count = 1024
        let coarseBearings = (0..<count).map { Double($0) * 360 / Double(count) }
        let coarse = circle.outline(bearings: coarseBearings)
        let perPoint = viewport.mapPointsPerPoint
        let margin = (marginInPoints + 4) * perPoint
        let visible = viewport.visibleMapRect.insetBy(dx: -margin, dy: -margin)
        var bearings: [Double] = []
        bearings.reserveCapacity(count)
        var budget = 200_000
        for i in 0..<count {
            bearings.append(coarseBearings[i])
            let a = coarse[i]
            var b = coarse[(i + 1) % count]
            b.x = WorldCopies.nearest(b.x, to: a.x)
            let chord = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let lengthInPoints = chord / perPoint
            guard lengthInPoints > 4, budget > 0 else { continue }
            // The side's box, grown by what the arc may bulge out of it.
            let grow = chord * 0.05
            let side = MapRect(corner: a, corner: b).insetBy(dx: -grow, dy: -grow)
            guard !WorldCopies.offsets(of: side, meeting: visible).isEmpty else { continue }
            let pieces = min(budget, Int(lengthInPoints / 2))
            budget -= pieces
            let next = i + 1 < count ? coarseBearings[i + 1] : 360
            for j in 1..<max(1, pieces) {
                bearings.append(coarseBearings[i] + (next - coarseBearings[i]) * Double(j) / Double(pieces))
            }
        }
        var shape = ShapeGeometry(parts: [.ring(circle.outline(bearings: bearings))])
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
