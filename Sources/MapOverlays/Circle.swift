import Foundation
import MapGeometry

/// A circle of a radius in meters around a center, drawn as the true geodesic circle: every point of
/// its outline is `radius` meters from the center on the sphere, so in Mercator a large circle is
/// stretched towards the nearer pole. A circle that reaches over a pole contains it and is drawn up to
/// the map's edge; one larger than a quarter of the earth's circumference contains everything but a cap
/// around the antipode. Mirrors MapKit's `MKCircle`.
public final class Circle: Overlay {
    /// The largest radius: half the earth's circumference on the Web Mercator sphere (pi * 6,378,137 m).
    public static let maximumRadius = Double.pi * WebMercator.earthRadius

    /// The center.
    public let center: LocationCoordinate2D
    /// The radius in meters.
    public let radius: Double
    public let boundingMapRect: MapRect
    /// A name shown in error messages. Mirrors `MKShape.title`.
    public var title: String?

    /// Creates a circle. Mirrors `circleWithCenterCoordinate:radius:`.
    public init(center: LocationCoordinate2D, radius: Double) {
        self.center = center
        self.radius = radius
        self.boundingMapRect = Self.bounds(center: center, radius: radius)
    }

    /// Creates the circle that contains a map rect. Mirrors `circleWithMapRect:`.
    public convenience init(mapRect: MapRect) {
        let center = MapPoint(x: mapRect.midX, y: mapRect.midY).coordinate
        let corner = MapPoint(x: mapRect.minX, y: mapRect.minY).coordinate
        self.init(center: center, radius: WebMercator.distance(from: center, to: corner))
    }

    public var coordinate: LocationCoordinate2D { center }

    /// Whether the circle contains the north pole.
    public var containsNorthPole: Bool { radius > (90 - center.latitude) / 180 * Self.maximumRadius }
    /// Whether the circle contains the south pole.
    public var containsSouthPole: Bool { radius > (90 + center.latitude) / 180 * Self.maximumRadius }

    /// - Throws: ``OverlayError/invalidShape(overlay:problem:)`` for a radius that is not in
    ///   (0, ``maximumRadius``] or a center that is not a valid coordinate.
    public func validate() throws {
        let name = overlayName("Circle", title: title, first: center)
        guard Self.isUsable(center) else {
            throw OverlayError.invalidShape(
                overlay: name,
                problem:
                    "center \(center) is not a coordinate; latitude must be finite and in -90...90, longitude finite")
        }
        guard radius.isFinite, radius > 0, radius <= Self.maximumRadius else {
            throw OverlayError.invalidShape(
                overlay: name,
                problem: "radius \(radius) m is not valid; it must be greater than 0 and at most half the earth's "
                    + "circumference (\(Self.maximumRadius) m)")
        }
    }

    /// The outline as `vertices` map points, clockwise from north (bearing 0), with longitudes unwrapped
    /// from one vertex to the next (see ``Antimeridian``): a circle that contains one pole gives a ring
    /// whose last vertex is almost a world's width east or west of its first.
    public func outline(vertices: Int) -> [MapPoint] {
        let n = max(3, vertices)
        return outline(bearings: (0..<n).map { Double($0) * 360 / Double(n) })
    }

    /// The outline points at the given bearings (ascending, within 0..<360), unwrapped like
    /// ``outline(vertices:)``.
    func outline(bearings: [Double]) -> [MapPoint] {
        let atPole = abs(center.latitude) > 90 - 1e-9
        let coordinates = bearings.map { bearing -> LocationCoordinate2D in
            if atPole {
                // From a pole every direction is south (or north); spread the bearings over the longitudes.
                let lat =
                    center.latitude > 0
                    ? 90 - radius / Self.maximumRadius * 180 : -90 + radius / Self.maximumRadius * 180
                return LocationCoordinate2D(latitude: lat, longitude: center.longitude + bearing)
            }
            return WebMercator.destination(from: center, bearing: bearing, meters: radius)
        }
        var points = Antimeridian.unwrappedMapPoints(coordinates)
        // Keep the ring next to the center's longitude.
        if let first = points.first, !atPole {
            let k = WorldCopies.nearest(first.x, to: WebMercator.x(longitude: center.longitude)) - first.x
            if k != 0 { points = points.map { MapPoint(x: $0.x + k, y: $0.y) } }
        }
        return points
    }

    /// Whether a center can be drawn: a finite latitude in -90...90 and a finite longitude (any, like the
    /// vertices of other shapes).
    static func isUsable(_ c: LocationCoordinate2D) -> Bool {
        c.latitude.isFinite && c.longitude.isFinite && abs(c.latitude) <= 90
    }

    /// The bounding rect from spherical geometry: latitudes center -+ the angular radius, longitudes
    /// center -+ asin(sin r / cos latitude), or the whole width when a pole is inside.
    static func bounds(center: LocationCoordinate2D, radius: Double) -> MapRect {
        guard isUsable(center), radius.isFinite, radius > 0 else { return .null }
        let r = min(radius, maximumRadius) / WebMercator.earthRadius
        let phi = WebMercator.radians(center.latitude)
        let north = WebMercator.degrees(phi + r)
        let south = WebMercator.degrees(phi - r)
        let top = north >= 90 ? 0 : WebMercator.y(latitude: north)
        let bottom = south <= -90 ? WebMercator.worldSize : WebMercator.y(latitude: south)
        let halfWidth: Double
        if north >= 90 || south <= -90 {
            halfWidth = 180
        } else {
            halfWidth = WebMercator.degrees(asin(min(1, sin(r) / cos(phi))))
        }
        let x0 = WebMercator.x(longitude: center.longitude - halfWidth)
        let x1 = WebMercator.x(longitude: center.longitude + halfWidth)
        return MapRect(x: x0, y: top, width: x1 - x0, height: bottom - top)
    }
}
