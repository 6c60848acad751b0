import MapGeometry

/// A point of interest on the map: where it is and what its callout says.
///
/// Annotations are objects: the map compares them by identity, as MapKit does.
/// Mirrors MapKit's `MKAnnotation`.
public protocol Annotation: AnyObject {
    /// Where the annotation's view is anchored.
    var coordinate: LocationCoordinate2D { get }
    /// The callout's title.
    var title: String? { get }
    /// The callout's second line.
    var subtitle: String? { get }
}

extension Annotation {
    public var title: String? { nil }
    public var subtitle: String? { nil }
}

/// A plain annotation with a settable coordinate, title and subtitle.
///
/// ```swift
/// let hall = PointAnnotation(coordinate: LocationCoordinate2D(latitude: 34.053714, longitude: -118.242653),
///                            title: "City Hall")
/// ```
/// Mirrors MapKit's `MKPointAnnotation`.
public final class PointAnnotation: Annotation {
    public var coordinate: LocationCoordinate2D
    public var title: String?
    public var subtitle: String?

    /// Creates an annotation.
    public init(coordinate: LocationCoordinate2D, title: String? = nil, subtitle: String? = nil) {
        self.coordinate = coordinate
        self.title = title
        self.subtitle = subtitle
    }
}
