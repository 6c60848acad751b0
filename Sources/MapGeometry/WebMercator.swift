import Foundation

/// Constants and formulas of spherical Web Mercator (EPSG:3857) in MapKit's map-point units.
///
/// The world is ``MapSize/world`` (2^28 x 2^28 map points) with the origin at the north-west corner,
/// x growing east and y growing south. At zoom 20 one 256-pixel tile is 256 map points.
public enum WebMercator {
    /// The sphere radius of Web Mercator in meters (the WGS 84 semi-major axis).
    public static let earthRadius: Double = 6_378_137
    /// The width and height of the world in map points: 2^28. Mirrors `MKMapSizeWorld`.
    public static let worldSize: Double = 268_435_456
    /// The latitude where Web Mercator's square world ends, atan(sinh(pi)) in degrees.
    public static let maxLatitude: Double = 85.051128779806592

    /// Degrees to radians.
    @inlinable public static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    /// Radians to degrees.
    @inlinable public static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// The map-point x of a longitude; not wrapped, so 190 degrees gives a point east of the world.
    @inlinable public static func x(longitude: Double) -> Double {
        (longitude + 180) / 360 * worldSize
    }

    /// The map-point y of a latitude, clamped to +-``maxLatitude``; NaN stays NaN.
    @inlinable public static func y(latitude: Double) -> Double {
        if latitude.isNaN { return .nan }
        let clamped = max(-maxLatitude, min(maxLatitude, latitude))
        let sinLat = sin(radians(clamped))
        return (0.5 - log((1 + sinLat) / (1 - sinLat)) / (4 * .pi)) * worldSize
    }

    /// The longitude of a map-point x, wrapped into -180...180.
    @inlinable public static func longitude(x: Double) -> Double {
        var lon = x / worldSize * 360 - 180
        if lon > 180 || lon < -180 {
            lon = (lon + 180).truncatingRemainder(dividingBy: 360)
            if lon < 0 { lon += 360 }
            lon -= 180
        }
        return lon
    }

    /// The latitude of a map-point y; y outside the world is clamped to the poles' limit.
    @inlinable public static func latitude(y: Double) -> Double {
        let clamped = max(0, min(worldSize, y))
        return degrees(atan(sinh(.pi * (1 - 2 * clamped / worldSize))))
    }

    /// The great-circle distance in meters between two coordinates on the Web Mercator sphere (haversine).
    public static func distance(from a: LocationCoordinate2D, to b: LocationCoordinate2D) -> Double {
        let phi1 = radians(a.latitude)
        let phi2 = radians(b.latitude)
        let dPhi = phi2 - phi1
        let dLambda = radians(b.longitude - a.longitude)
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// The point reached by going `meters` from `start` along the great circle with initial `bearing`
    /// (degrees clockwise from north), on the Web Mercator sphere.
    public static func destination(from start: LocationCoordinate2D, bearing: Double, meters: Double)
        -> LocationCoordinate2D
    {
        let delta = meters / earthRadius
        let theta = radians(bearing)
        let phi1 = radians(start.latitude)
        let lambda1 = radians(start.longitude)
        let sinPhi2 = sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta)
        let phi2 = asin(max(-1, min(1, sinPhi2)))
        let y = sin(theta) * sin(delta) * cos(phi1)
        let x = cos(delta) - sin(phi1) * sinPhi2
        let lambda2 = lambda1 + atan2(y, x)
        return LocationCoordinate2D(latitude: degrees(phi2), longitude: degrees(lambda2))
    }
}
