import MapGeometry

/// An annotation that cannot be drawn, named by its index in ``MapSnapshotter/annotations`` and its title.
public enum AnnotationError: MapRasterError, Equatable {
    /// The coordinate is not a valid latitude (-90...90) and longitude (-180...180).
    case invalidCoordinate(index: Int, title: String?, latitude: Double, longitude: Double)
    /// The view's size is negative, not finite, or larger than ``maximumViewSide``.
    case invalidViewSize(index: Int, title: String?, width: Double, height: Double)
    /// The view's center offset is not finite.
    case invalidCenterOffset(index: Int, title: String?, x: Double, y: Double)
    /// An image file that is missing or not a PNG.
    case invalidImage(path: String, reason: String)
    /// A pin color name that is not one of the classic colors.
    case unknownPinColor(String)

    /// The largest width or height of an annotation view, in points.
    public static let maximumViewSide = 16384.0

    static func name(_ index: Int, _ title: String?) -> String {
        "annotation \(index)" + (title.map { " ('\($0)')" } ?? " (untitled)")
    }

    public var description: String {
        switch self {
        case let .invalidCoordinate(index, title, lat, lon):
            return
                "\(Self.name(index, title)): coordinate \(lat),\(lon) is invalid; latitude must be in -90...90 and "
                + "longitude in -180...180"
        case let .invalidViewSize(index, title, w, h):
            return
                "\(Self.name(index, title)): view size \(w)x\(h) is invalid; width and height must be in "
                + "0...\(Int(Self.maximumViewSide)) points"
        case let .invalidCenterOffset(index, title, x, y):
            return "\(Self.name(index, title)): view centerOffset (\(x), \(y)) is not finite"
        case let .invalidImage(path, reason):
            return "annotation image '\(path)': \(reason); expected a readable PNG file"
        case let .unknownPinColor(name):
            return
                "unknown pin color '\(name)'; expected one of "
                + PinAnnotationView.PinColor.allCases.map(\.rawValue).joined(separator: ", ")
        }
    }
}
