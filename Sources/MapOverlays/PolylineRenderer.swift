import MapGeometry

/// Strokes a ``Polyline`` (also a ``GeodesicPolyline``). Mirrors MapKit's `MKPolylineRenderer`.
public final class PolylineRenderer: OverlayPathRenderer {
    /// The polyline drawn. Mirrors `polyline`.
    public let polyline: Polyline

    /// Creates a renderer with a 3-point blue stroke.
    public init(polyline: Polyline) {
        self.polyline = polyline
        super.init(overlay: polyline)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
        lineWidth = 3
    }

    override func geometry(for viewport: MapViewport) -> ShapeGeometry {
        ShapeGeometry(parts: [.line(polyline.points)])
    }
}
