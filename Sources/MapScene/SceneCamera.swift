import Foundation
import MapData
import MapGeometry
import MapRender

/// A scene file's `"camera"`: `{"heading": DEG, "pitch": DEG, "altitude": M}`, each optional.
///
/// `heading` (degrees clockwise from north, normalised into 0..<360) and `pitch` (degrees from straight down,
/// ``MapCamera/pitchRange``) turn and tilt whatever area the scene shows; `altitude` (metres above the ground,
/// MapKit's `MKMapCamera.altitude`) replaces `span`, `meters` or `zoom`: the camera then looks at `center`
/// from `altitude / cos(pitch)` metres. What the scene leaves out, the command line or the style's root
/// `bearing` and `pitch` give, else 0.
public struct SceneCamera: Sendable, Equatable {
    /// Degrees clockwise from north, if given.
    public var heading: Double?
    /// Degrees from straight down, if given.
    public var pitch: Double?
    /// Metres above the ground, if given.
    public var altitude: Double?

    /// Creates a camera description.
    public init(heading: Double? = nil, pitch: Double? = nil, altitude: Double? = nil) {
        self.heading = heading
        self.pitch = pitch
        self.altitude = altitude
    }

    static let keys: Set<String> = ["heading", "pitch", "altitude"]

    /// Reads the `"camera"` member.
    static func decode(_ json: JSONValue, _ d: SceneDecoder) throws -> SceneCamera {
        guard let members = json.members else {
            throw d.invalid("camera", "expected {\"heading\": DEG, \"pitch\": DEG, \"altitude\": M}")
        }
        for (key, _) in members where !keys.contains(key) {
            throw d.invalid("camera.\(key)", "unknown member; expected heading, pitch or altitude")
        }
        var camera = SceneCamera()
        if json["heading"] != nil {
            let heading = try d.number(json["heading"], "camera.heading")
            guard heading.isFinite else {
                throw d.invalid(
                    "camera.heading", GeometryError.invalidCamera(heading: heading, pitch: 0, distance: 1).description)
            }
            camera.heading = heading
        }
        if json["pitch"] != nil {
            let pitch = try d.number(json["pitch"], "camera.pitch")
            guard MapCamera.pitchRange.contains(pitch) else {
                throw d.invalid(
                    "camera.pitch", GeometryError.invalidCamera(heading: 0, pitch: pitch, distance: 1).description)
            }
            camera.pitch = pitch
        }
        if json["altitude"] != nil {
            let altitude = try d.number(json["altitude"], "camera.altitude")
            guard altitude.isFinite, altitude > 0 else {
                throw d.invalid("camera.altitude", GeometryError.invalidDistance(meters: altitude).description)
            }
            camera.altitude = altitude
        }
        return camera
    }

    /// The heading and pitch this camera gives, missing values taken from `fallback` (a style's root
    /// `bearing` and `pitch`), else 0.
    public func filled(from fallback: (heading: Double?, pitch: Double?)) -> SceneCamera {
        SceneCamera(
            heading: heading ?? fallback.heading ?? 0, pitch: pitch ?? fallback.pitch ?? 0, altitude: altitude)
    }

    /// The snapshot camera: `center` (for an `altitude`; else ignored by the snapshotter, which fits the
    /// area) with this heading and pitch.
    func mapCamera(center: LocationCoordinate2D) -> MapCamera {
        let pitch = self.pitch ?? 0
        let distance = (altitude ?? 1) / cos(pitch * .pi / 180)
        return MapCamera(unchecked: center, distance: distance, heading: heading ?? 0, pitch: pitch)
    }
}
