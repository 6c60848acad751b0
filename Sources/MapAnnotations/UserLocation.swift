import MapGeometry

/// The user's location as an annotation: where, how accurately, and which way the device points.
///
/// The snapshotter has one; it is in ``MapSnapshotter/annotations`` while
/// ``MapSnapshotter/showsUserLocation`` is true and a coordinate is set.
/// Mirrors MapKit's `MKUserLocation`.
public final class UserLocation: Annotation {
    /// Where the user is; nil when unknown. Mirrors `location.coordinate`.
    public var location: LocationCoordinate2D?
    /// The radius of uncertainty in meters (0 draws no accuracy circle). Mirrors
    /// `location.horizontalAccuracy`.
    public var horizontalAccuracy: Double
    /// The direction the device points, degrees clockwise from true north; nil draws no heading cone.
    /// Mirrors `heading.trueHeading`.
    public var heading: Double?
    /// "My Location". Mirrors `title`.
    public var title: String?
    /// Mirrors `subtitle`.
    public var subtitle: String?

    /// The location, or (0, 0) when unknown.
    public var coordinate: LocationCoordinate2D { location ?? LocationCoordinate2D(latitude: 0, longitude: 0) }

    /// Creates a user location.
    public init(
        location: LocationCoordinate2D? = nil, horizontalAccuracy: Double = 0, heading: Double? = nil,
        title: String? = "My Location"
    ) {
        self.location = location
        self.horizontalAccuracy = horizontalAccuracy
        self.heading = heading
        self.title = title
    }

    /// The map rect covered by the accuracy circle (a point when the accuracy is 0); null without a location.
    public var accuracyMapRect: MapRect {
        guard let location else { return .null }
        let center = MapPoint(location)
        let r = max(0, horizontalAccuracy) * MapPoint.pointsPerMeter(atLatitude: location.latitude)
        return MapRect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r)
    }
}
