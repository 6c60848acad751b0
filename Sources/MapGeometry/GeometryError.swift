/// An invalid geographic or geometric input.
///
/// Each case carries the offending values; `description` quotes them and says what is valid.
public enum GeometryError: MapRasterError, Equatable {
    /// A latitude outside -90...90, a longitude outside -180...180, or a value that is not finite.
    case invalidCoordinate(latitude: Double, longitude: Double)
    /// A span whose deltas are not finite, not positive, or larger than the globe.
    case invalidSpan(latitudeDelta: Double, longitudeDelta: Double)
    /// A tile whose x or y lies outside 0..<2^z, or whose zoom lies outside 0...30.
    case invalidTile(z: Int, x: Int, y: Int)
    /// An image size of zero, not finite, not whole device pixels, or larger than the maximum after scale.
    case invalidSize(width: Double, height: Double, scale: Double, maximum: Int)
    /// A scale that is not 1, 2 or 3.
    case invalidScale(Double)
    /// A bounding box whose south is not below its north, or whose values are out of range.
    case invalidBoundingBox(west: Double, south: Double, east: Double, north: Double)
    /// A distance that is not finite or not positive.
    case invalidDistance(meters: Double)
    /// A zoom level outside the supported range.
    case invalidZoom(Double)
    /// A camera whose heading is not finite, whose pitch lies outside ``MapCamera/pitchRange`` or whose
    /// distance is not finite and positive.
    case invalidCamera(heading: Double, pitch: Double, distance: Double)

    public var description: String {
        switch self {
        case let .invalidCoordinate(latitude, longitude):
            return "coordinate \(fmt(latitude)),\(fmt(longitude)) is invalid: latitude must be within -90...90 "
                + "and longitude within -180...180, both finite"
        case let .invalidSpan(dLat, dLon):
            return "span \(fmt(dLat)),\(fmt(dLon)) is invalid: latitudeDelta must be in (0, 180] "
                + "and longitudeDelta in (0, 360] degrees"
        case let .invalidTile(z, x, y):
            return "tile \(z)/\(x)/\(y) is invalid: zoom must be in 0...30 and x and y in 0..<2^zoom"
        case let .invalidSize(width, height, scale, maximum):
            let pixels =
                scale == 1 ? "" : " at scale \(fmt(scale)) (\(fmt(width * scale))x\(fmt(height * scale)) device pixels)"
            return
                "size \(fmt(width))x\(fmt(height))\(pixels) is invalid: each side must be a whole number of at least 1 "
                + "and at most \(maximum) device pixels after scale"
        case let .invalidScale(scale):
            return "scale \(fmt(scale)) is invalid: use \(MapViewport.validScalesText)"
        case let .invalidBoundingBox(west, south, east, north):
            return "bounding box \(fmt(west)),\(fmt(south)),\(fmt(east)),\(fmt(north)) is invalid: expected "
                + "WEST,SOUTH,EAST,NORTH with longitudes in -180...180, latitudes in -90...90 and south < north"
        case let .invalidDistance(meters):
            return "distance \(fmt(meters)) m is invalid: it must be a finite number greater than 0"
        case let .invalidZoom(zoom):
            return "zoom \(fmt(zoom)) is invalid: it must be within \(MapViewport.zoomRangeText)"
        case let .invalidCamera(heading, pitch, distance):
            if !heading.isFinite {
                return "heading \(fmt(heading)) is invalid: it must be a finite number of degrees clockwise from "
                    + "north (normalised into 0..<360)"
            }
            if !(pitch.isFinite && MapCamera.pitchRange.contains(pitch)) {
                return "pitch \(fmt(pitch)) is invalid: it must be within \(MapCamera.pitchRangeText) degrees "
                    + "from straight down"
            }
            return "camera distance \(fmt(distance)) m is invalid: it must be a finite number greater than 0"
        }
    }
}

/// Formats a number the way a user typed it: no trailing ".0" for whole numbers.
func fmt(_ value: Double) -> String {
    if value.isFinite && value == value.rounded() && abs(value) < 1e15 {
        return String(Int64(value))
    }
    return "\(value)"
}
