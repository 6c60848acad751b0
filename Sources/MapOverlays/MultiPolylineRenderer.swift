import MapGeometry

/// Strokes every part of a ``MultiPolyline`` with one style. Mirrors MapKit's `MKMultiPolylineRenderer`.
public final class MultiPolylineRenderer: OverlayPathRenderer {
    /// The multi-polyline drawn. Mirrors `multiPolyline`.
    public let multiPolyline: MultiPolyline

    /// Creates a renderer with a 3-point blue stroke.
    public init(multiPolyline: MultiPolyline) {
        self.multiPolyline = multiPolyline
        super.init(overlay: multiPolyline)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
        lineWidth = 3
    }

    override func geometry(for viewport: MapViewport) -> ShapeGeometry {
        ShapeGeometry(parts: multiPolyline.polylines.map { .line($0.points) })
    }
}
