import MapAnnotations
import MapBaseMap
import MapGeometry
import MapOverlays
import MapRender

/// The user location of a scene file: `"userLocation": {"coordinate": [lat, lon], "accuracy": meters,
/// "heading": degrees, "tracking": "none" | "follow" | "followWithHeading"}`.
public struct SceneUserLocation: Sendable, Equatable {
    /// Where the user is.
    public var coordinate: LocationCoordinate2D
    /// The accuracy radius in meters.
    public var horizontalAccuracy: Double
    /// The heading in degrees clockwise from north, if known.
    public var heading: Double?
    /// Whether the map follows the user.
    public var trackingMode: UserTrackingMode
}
