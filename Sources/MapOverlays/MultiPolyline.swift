import MapGeometry

/// Several polylines drawn as one overlay with one renderer. Mirrors MapKit's `MKMultiPolyline`.
public final class MultiPolyline: Overlay {
    /// The parts. Mirrors `polylines`.
    public let polylines: [Polyline]
    public let boundingMapRect: MapRect
    /// A name shown in error messages. Mirrors `MKShape.title`.
    public var title: String?

    /// Creates a multi-polyline. Mirrors `initWithPolylines:`.
    public init(_ polylines: [Polyline]) {
        self.polylines = polylines
        self.boundingMapRect = polylines.reduce(MapRect.null) { $0.union($1.boundingMapRect) }
    }

    public var coordinate: LocationCoordinate2D { centerCoordinate(of: boundingMapRect) }

    /// - Throws: ``OverlayError/invalidShape(overlay:problem:)`` when it has no parts or a part is invalid.
    public func validate() throws {
        let name = overlayName("MultiPolyline", title: title, first: polylines.first?.coordinates.first)
        guard !polylines.isEmpty else { throw OverlayError.invalidShape(overlay: name, problem: "it has no polylines") }
        for (i, part) in polylines.enumerated() {
            try checkVertices(part.coordinates, minimum: 2, what: "polyline \(i)", name: name)
        }
    }
}
