import Foundation

/// A point on the two-dimensional Web Mercator map, in map points.
///
/// Mirrors MapKit's `MKMapPoint`.
public struct MapPoint: Hashable, Sendable, CustomStringConvertible {
    /// Map points east of the antimeridian (the world's west edge).
    public var x: Double
    /// Map points south of the world's north edge (latitude 85.0511).
    public var y: Double

    /// Creates a map point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Projects a coordinate; latitude is clamped to +-85.0511 degrees. Mirrors `MKMapPointForCoordinate`.
    public init(_ coordinate: LocationCoordinate2D) {
        self.init(x: WebMercator.x(longitude: coordinate.longitude), y: WebMercator.y(latitude: coordinate.latitude))
    }

    /// The coordinate of this point, longitude wrapped into -180...180. Mirrors `MKCoordinateForMapPoint`.
    public var coordinate: LocationCoordinate2D {
        LocationCoordinate2D(latitude: WebMercator.latitude(y: y), longitude: WebMercator.longitude(x: x))
    }

    /// Map points per meter at a latitude: the Mercator scale factor, growing as 1/cos(latitude), valid
    /// at any latitude short of the poles. Mirrors `MKMapPointsPerMeterAtLatitude`.
    public static func pointsPerMeter(atLatitude latitude: Double) -> Double {
        WebMercator.worldSize / (2 * .pi * WebMercator.earthRadius * cos(WebMercator.radians(latitude)))
    }

    /// Meters per map point at a latitude. Mirrors `MKMetersPerMapPointAtLatitude`.
    public static func metersPerMapPoint(atLatitude latitude: Double) -> Double {
        1 / pointsPerMeter(atLatitude: latitude)
    }

    /// The great-circle distance in meters between two map points. Mirrors `MKMetersBetweenMapPoints`.
    public func meters(to other: MapPoint) -> Double {
        WebMercator.distance(from: coordinate, to: other.coordinate)
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and height in map points.
///
/// Mirrors MapKit's `MKMapSize`.
public struct MapSize: Hashable, Sendable, CustomStringConvertible {
    /// East-west extent in map points.
    public var width: Double
    /// North-south extent in map points.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The whole world, 2^28 x 2^28 map points. Mirrors `MKMapSizeWorld`.
    public static let world = MapSize(width: WebMercator.worldSize, height: WebMercator.worldSize)

    public var description: String { "\(width)x\(height)" }
}
