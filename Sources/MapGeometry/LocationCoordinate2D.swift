import Foundation

/// A latitude and longitude in degrees on the WGS 84 datum.
///
/// Like Core Location's type, the plain initializer does not validate; check ``isValid`` or use
/// ``init(validatingLatitude:longitude:)`` for input from users.
/// Mirrors Core Location's `CLLocationCoordinate2D`.
public struct LocationCoordinate2D: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public var longitude: Double

    /// Creates a coordinate without validating it.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate from user input.
    ///
    /// - Throws: ``GeometryError/invalidCoordinate(latitude:longitude:)`` when a value is not finite or
    ///   out of range.
    public init(validatingLatitude latitude: Double, longitude: Double) throws {
        self.init(latitude: latitude, longitude: longitude)
        guard isValid else { throw GeometryError.invalidCoordinate(latitude: latitude, longitude: longitude) }
    }

    /// Whether both values are finite and in range. Mirrors `CLLocationCoordinate2DIsValid`.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    public var description: String { "\(latitude),\(longitude)" }
}

/// The width and height of a map region in degrees.
///
/// Mirrors MapKit's `MKCoordinateSpan`.
public struct CoordinateSpan: Hashable, Sendable, CustomStringConvertible {
    /// North-to-south extent in degrees, 0...180.
    public var latitudeDelta: Double
    /// East-to-west extent in degrees, 0...360.
    public var longitudeDelta: Double

    /// Creates a span. Negative or NaN deltas are a programmer error and trap.
    public init(latitudeDelta: Double, longitudeDelta: Double) {
        precondition(
            latitudeDelta >= 0 && longitudeDelta >= 0,
            "CoordinateSpan deltas must not be negative or NaN (\(latitudeDelta), \(longitudeDelta))")
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }

    /// Creates a span from user input: both deltas finite, latitudeDelta in (0, 180], longitudeDelta in (0, 360].
    ///
    /// - Throws: ``GeometryError/invalidSpan(latitudeDelta:longitudeDelta:)``.
    public init(validatingLatitudeDelta latitudeDelta: Double, longitudeDelta: Double) throws {
        guard latitudeDelta.isFinite, longitudeDelta.isFinite, latitudeDelta > 0, longitudeDelta > 0,
            latitudeDelta <= 180, longitudeDelta <= 360
        else { throw GeometryError.invalidSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta) }
        self.init(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
    }

    public var description: String { "\(latitudeDelta)x\(longitudeDelta)" }

    /// The smallest delta a drawn region may have, in degrees (about 0.1 m, deeper than zoom 22): the
    /// command line and scene files refuse smaller spans (down to 5e-324) instead of rounding them to
    /// nothing and drawing the world.
    public static let minimumDrawableDelta = 0.000001
}

/// A rectangular geographic region: a center coordinate and a span.
///
/// Mirrors MapKit's `MKCoordinateRegion`.
public struct CoordinateRegion: Hashable, Sendable, CustomStringConvertible {
    /// The center of the region.
    public var center: LocationCoordinate2D
    /// The extent of the region.
    public var span: CoordinateSpan

    /// Creates a region. Mirrors `MKCoordinateRegionMake`.
    public init(center: LocationCoordinate2D, span: CoordinateSpan) {
        self.center = center
        self.span = span
    }

    /// Creates a region of the given north-south and east-west extents in meters around a center.
    ///
    /// Distances are measured on the Web Mercator sphere (radius 6,378,137 m): north-south along the
    /// meridian, east-west along the parallel of the center. Deltas are capped at 180 and 360 degrees.
    ///
    /// ```swift
    /// let region = CoordinateRegion(center: cityHall, latitudinalMeters: 804.672, longitudinalMeters: 804.672)
    /// ```
    /// Mirrors `MKCoordinateRegionMakeWithDistance`.
    public init(center: LocationCoordinate2D, latitudinalMeters: Double, longitudinalMeters: Double) {
        let latitudeDelta = WebMercator.degrees(latitudinalMeters / WebMercator.earthRadius)
        let cosLat = cos(WebMercator.radians(center.latitude))
        let longitudeDelta =
            cosLat > 0
            ? WebMercator.degrees(longitudinalMeters / (WebMercator.earthRadius * cosLat)) : 360
        self.init(
            center: center,
            span: CoordinateSpan(latitudeDelta: min(180, latitudeDelta), longitudeDelta: min(360, longitudeDelta)))
    }

    /// Creates the region that a map rect covers: centered on the coordinate of the rect's midpoint.
    ///
    /// Mirrors `MKCoordinateRegionForMapRect`.
    public init(_ mapRect: MapRect) {
        let center = MapPoint(x: mapRect.midX, y: mapRect.midY).coordinate
        let north = MapPoint(x: mapRect.midX, y: mapRect.minY).coordinate.latitude
        let south = MapPoint(x: mapRect.midX, y: mapRect.maxY).coordinate.latitude
        self.init(
            center: center,
            span: CoordinateSpan(
                latitudeDelta: max(0, north - south), longitudeDelta: mapRect.width / MapSize.world.width * 360))
    }

    /// Validates center and span as user input.
    ///
    /// - Throws: ``GeometryError`` naming the bad value.
    public func validated() throws -> CoordinateRegion {
        _ = try LocationCoordinate2D(validatingLatitude: center.latitude, longitude: center.longitude)
        _ = try CoordinateSpan(validatingLatitudeDelta: span.latitudeDelta, longitudeDelta: span.longitudeDelta)
        return self
    }

    public var description: String { "center \(center) span \(span)" }
}
