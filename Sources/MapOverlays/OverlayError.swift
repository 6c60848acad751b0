import MapGeometry

/// A problem with an overlay or with an operation on the overlays array.
public enum OverlayError: MapRasterError, Equatable {
    /// The overlay's data cannot be drawn: too few vertices, NaN coordinates, a bad radius.
    case invalidShape(overlay: String, problem: String)
    /// `insertOverlay(_:above:)` or `insertOverlay(_:below:)` was given a sibling that is not on the map.
    case siblingNotOnMap(sibling: String)
    /// An index of the overlays array that does not exist.
    case indexOutOfRange(index: Int, count: Int)
    /// A tile overlay's folder cannot be read.
    case unreadableTileFolder(path: String, reason: String)
    /// A tile of a tile overlay exists but is not a readable PNG.
    case unreadableTile(path: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidShape(overlay, problem): return "overlay \(overlay): \(problem)"
        case let .siblingNotOnMap(sibling):
            return "the sibling overlay \(sibling) is not on the map; insert above or below an overlay of `overlays`"
        case let .indexOutOfRange(index, count):
            return "overlay index \(index) is out of range; valid indices are 0..<\(count)"
        case let .unreadableTileFolder(path, reason):
            return "tile overlay folder '\(path)' cannot be read: \(reason); expected a folder of z/x/y.png tiles"
        case let .unreadableTile(path, reason): return "tile '\(path)' cannot be read: \(reason)"
        }
    }
}
