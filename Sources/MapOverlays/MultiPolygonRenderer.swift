import MapGeometry

/// Fills and strokes every part of a ``MultiPolygon`` with one style. Mirrors MapKit's
/// `MKMultiPolygonRenderer`.
public final class MultiPolygonRenderer: OverlayPathRenderer {
    /// The multi-polygon drawn. Mirrors `multiPolygon`.
    public let multiPolygon: MultiPolygon

    /// Creates a renderer with a translucent blue fill and a 1-point blue outline.
    public init(multiPolygon: MultiPolygon) {
        self.multiPolygon = multiPolygon
        super.init(overlay: multiPolygon)
        fillColor = Color(red8: 0, green8: 122, blue8: 255, alpha: 0.25)
        strokeColor = Color(red8: 0, green8: 122, blue8: 255)
    }

    override func geometry(for viewport: MapViewport) -> ShapeGeometry {
        ShapeGeometry(parts: multiPolygon.polygons.flatMap(polygonParts))
    }
}
