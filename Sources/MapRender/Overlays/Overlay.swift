import Foundation
import MapGeometry

/// A shape drawn over the map by an ``OverlayRenderer``.
///
/// Mirrors MapKit's `MKOverlay`.
public protocol Overlay: AnyObject {
    /// The overlay's approximate center.
    var coordinate: LocationCoordinate2D { get }
    /// A map rect that contains the whole overlay.
    var boundingMapRect: MapRect { get }
    /// Whether the overlay may show in `mapRect`. The default tests ``boundingMapRect``.
    func intersects(_ mapRect: MapRect) -> Bool
}

extension Overlay {
    public func intersects(_ mapRect: MapRect) -> Bool { boundingMapRect.intersects(mapRect) }
}

/// The bounding map rect of a list of map points.
func boundingRect(of points: [MapPoint]) -> MapRect {
    guard var minX = points.first?.x, var minY = points.first?.y else { return .null }
    var maxX = minX
    var maxY = minY
    for p in points {
        minX = min(minX, p.x); maxX = max(maxX, p.x)
        minY = min(minY, p.y); maxY = max(maxY, p.y)
    }
    return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
}

/// A connected series of line segments. Mirrors MapKit's `MKPolyline`.
public final class Polyline: Overlay {
    /// The vertices in order.
    public let coordinates: [LocationCoordinate2D]
    /// The vertices projected to map points. Mirrors `points`.
    public let points: [MapPoint]
    public let boundingMapRect: MapRect

    /// Creates a polyline. Mirrors `polylineWithCoordinates:count:`.
    public init(coordinates: [LocationCoordinate2D]) {
        self.coordinates = coordinates
        self.points = coordinates.map(MapPoint.init)
        self.boundingMapRect = boundingRect(of: points)
    }

    public var coordinate: LocationCoordinate2D {
        MapPoint(x: boundingMapRect.midX, y: boundingMapRect.midY).coordinate
    }
}

/// A closed shape, optionally with holes. Mirrors MapKit's `MKPolygon`.
public final class Polygon: Overlay {
    /// The exterior ring's vertices; the ring closes itself.
    public let coordinates: [LocationCoordinate2D]
    /// The exterior ring projected to map points.
    public let points: [MapPoint]
    /// Holes. Mirrors `interiorPolygons`.
    public let interiorPolygons: [Polygon]
    public let boundingMapRect: MapRect

    /// Creates a polygon. Mirrors `polygonWithCoordinates:count:interiorPolygons:`.
    public init(coordinates: [LocationCoordinate2D], interiorPolygons: [Polygon] = []) {
        self.coordinates = coordinates
        self.points = coordinates.map(MapPoint.init)
        self.interiorPolygons = interiorPolygons
        self.boundingMapRect = boundingRect(of: points)
    }

    public var coordinate: LocationCoordinate2D {
        MapPoint(x: boundingMapRect.midX, y: boundingMapRect.midY).coordinate
    }
}

/// A circle of a radius in meters around a center, drawn as the true geodesic circle: every point of
/// its outline is `radius` meters from the center on the sphere, so in Mercator a large circle is
/// stretched towards the nearer pole. Mirrors MapKit's `MKCircle`.
public final class Circle: Overlay {
    /// The center.
    public let center: LocationCoordinate2D
    /// The radius in meters.
    public let radius: Double
    public let boundingMapRect: MapRect

    /// Creates a circle. Mirrors `circleWithCenterCoordinate:radius:`.
    public init(center: LocationCoordinate2D, radius: Double) {
        self.center = center
        self.radius = radius
        self.boundingMapRect = boundingRect(of: Self.ring(center: center, radius: radius, vertices: 360))
    }

    public var coordinate: LocationCoordinate2D { center }

    /// The outline as `vertices` map points, clockwise from north, longitudes kept continuous around the
    /// center's (so the ring may extend east or west of the world).
    public func outline(vertices: Int) -> [MapPoint] {
        Self.ring(center: center, radius: radius, vertices: vertices)
    }

    static func ring(center: LocationCoordinate2D, radius: Double, vertices: Int) -> [MapPoint] {
        (0..<max(3, vertices)).map { i in
            let bearing = Double(i) * 360 / Double(max(3, vertices))
            let p = WebMercator.destination(from: center, bearing: bearing, meters: radius)
            var dLon = (p.longitude - center.longitude).truncatingRemainder(dividingBy: 360)
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            return MapPoint(
                x: WebMercator.x(longitude: center.longitude + dLon), y: WebMercator.y(latitude: p.latitude))
        }
    }
}
