import MapGeometry

/// Fills and strokes a ``Polygon`` with its holes. Mirrors MapKit's `MKPolygonRenderer`.
public final class PolygonRenderer: OverlayPathRenderer {
    /// The polygon drawn. Mirrors `polygon`.
    public let polygon: Polygon

    /// Creates a renderer with a translucent blue fill and a 1-point blue outline.
    public init(polygon: Polygon) {
        self.polygon = polygon
        super.init(overlay: polygon)
        fillColor = Color(red8: 0, green8: 122, blue8: 255, alpha: 0.25)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
    }

    override func geometry(for viewport: MapViewport) -> ShapeGeometry { ShapeGeometry(parts: polygonParts(polygon)) }
}

/// The rings of a polygon: the exterior and its holes.
func polygonParts(_ polygon: Polygon) -> [ShapeGeometry.Part] {
    [.ring(polygon.points)] + polygon.interiorPolygons.map { .ring($0.points) }
}
