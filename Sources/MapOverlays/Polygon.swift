import Foundation
import MapGeometry

/// A closed shape, optionally with holes. Its edges are joined the short way round the world, so a ring
/// around Fiji may cross the 180th meridian; a ring that goes once round the world encloses the pole on
/// its side of the equator. Mirrors MapKit's `MKPolygon`.
public final class Polygon: Overlay {
    /// The exterior ring's vertices; the ring closes itself.
    public let coordinates: [LocationCoordinate2D]
    /// The exterior ring projected to map points, unwrapped across the 180th meridian.
    public let points: [MapPoint]
    /// Holes. Mirrors `interiorPolygons`.
    public let interiorPolygons: [Polygon]
    public let boundingMapRect: MapRect
    /// A name shown in error messages. Mirrors `MKShape.title`.
    public var title: String?
    /// Mirrors `MKShape.subtitle`.
    public var subtitle: String?

    /// Creates a polygon. Mirrors `polygonWithCoordinates:count:interiorPolygons:`.
    public init(coordinates: [LocationCoordinate2D], interiorPolygons: [Polygon] = []) {
        self.coordinates = coordinates
        let points = Antimeridian.unwrappedMapPoints(coordinates)
        self.points = points
        self.interiorPolygons = interiorPolygons
        var bounds = boundingRect(of: points)
        let travel = Antimeridian.netEastwardTravel(ofRing: points)
        if abs(travel) > WebMercator.worldSize / 2, !bounds.isNull {
            // The ring goes round a pole: the shape reaches that pole.
            let north = bounds.midY < WebMercator.worldSize / 2
            bounds = bounds.union(
                MapRect(x: bounds.minX, y: north ? 0 : WebMercator.worldSize, width: bounds.width, height: 0))
        }
        self.boundingMapRect = bounds
    }

    /// The number of exterior vertices. Mirrors `pointCount`.
    public var pointCount: Int { points.count }

    public var coordinate: LocationCoordinate2D { centerCoordinate(of: boundingMapRect) }

    /// - Throws: ``OverlayError/invalidShape(overlay:problem:)`` for a ring with fewer than 3 distinct
    ///   vertices or a vertex that is not a finite coordinate.
    public func validate() throws {
        let name = overlayName("Polygon", title: title, first: coordinates.first)
        try checkVertices(coordinates, minimum: 3, what: "the exterior ring", name: name)
        for (i, hole) in interiorPolygons.enumerated() {
            try checkVertices(hole.coordinates, minimum: 3, what: "interior polygon \(i)", name: name)
        }
    }
}
