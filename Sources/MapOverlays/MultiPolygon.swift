import MapGeometry

/// Several polygons (each with its holes) drawn as one overlay with one renderer.
/// Mirrors MapKit's `MKMultiPolygon`.
public final class MultiPolygon: Overlay {
    /// The parts. Mirrors `polygons`.
    public let polygons: [Polygon]
    public let boundingMapRect: MapRect
    /// A name shown in error messages. Mirrors `MKShape.title`.
    public var title: String?

    /// Creates a multi-polygon. Mirrors `initWithPolygons:`.
    public init(_ polygons: [Polygon]) {
        self.polygons = polygons
        self.boundingMapRect = polygons.reduce(MapRect.null) { $0.union($1.boundingMapRect) }
    }

    public var coordinate: LocationCoordinate2D { centerCoordinate(of: boundingMapRect) }

    /// - Throws: ``OverlayError/invalidShape(overlay:problem:)`` when it has no parts or a part is invalid.
    public func validate() throws {
        let name = overlayName("MultiPolygon", title: title, first: polygons.first?.coordinates.first)
        guard !polygons.isEmpty else { throw OverlayError.invalidShape(overlay: name, problem: "it has no polygons") }
        for (i, part) in polygons.enumerated() {
            try checkVertices(part.coordinates, minimum: 3, what: "polygon \(i)", name: name)
            for (j, hole) in part.interiorPolygons.enumerated() {
                try checkVertices(hole.coordinates, minimum: 3, what: "polygon \(i) interior polygon \(j)", name: name)
            }
        }
    }
}
