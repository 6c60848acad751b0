import Foundation
import MapGeometry

/// A connected series of line segments, each drawn straight on the Mercator map and joined to the next
/// the short way round the world (so a segment from 170 E to 170 W crosses the 180th meridian).
/// Mirrors MapKit's `MKPolyline`.
public class Polyline: Overlay {
    /// The vertices in order.
    public let coordinates: [LocationCoordinate2D]
    /// The vertices projected to map points, unwrapped across the 180th meridian. Mirrors `points`.
    public let points: [MapPoint]
    public let boundingMapRect: MapRect
    /// A name shown in error messages. Mirrors `MKShape.title`.
    public var title: String?
    /// Mirrors `MKShape.subtitle`.
    public var subtitle: String?

    /// Creates a polyline. Mirrors `polylineWithCoordinates:count:`.
    public init(coordinates: [LocationCoordinate2D]) {
        self.coordinates = coordinates
        self.points = Antimeridian.unwrappedMapPoints(coordinates)
        self.boundingMapRect = boundingRect(of: points)
    }

    /// The number of vertices. Mirrors `pointCount`.
    public var pointCount: Int { points.count }

    public var coordinate: LocationCoordinate2D { centerCoordinate(of: boundingMapRect) }

    var kindName: String { "Polyline" }

    /// - Throws: ``OverlayError/invalidShape(overlay:problem:)`` for fewer than 2 distinct vertices or a
    ///   vertex that is not a finite coordinate.
    public func validate() throws {
        try checkVertices(
            coordinates, minimum: 2, what: "the line",
            name: overlayName(kindName, title: title, first: coordinates.first))
    }
}
