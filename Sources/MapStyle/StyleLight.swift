import Foundation
import MapData
import MapGeometry

/// The style's `light` (MapLibre style specification): where the light that shades `fill-extrusion`
/// layers comes from, its colour and intensity.
public struct StyleLight: Sendable, Equatable {
    /// Whether the light turns with the map (`map`) or stays fixed to the screen (`viewport`, the default).
    public enum Anchor: String, Sendable {
        case map, viewport
    }

    public var anchor = Anchor.viewport
    /// The light's radial distance, azimuth (degrees clockwise from north, at the anchor) and polar angle
    /// (degrees from straight above): MapLibre's `position`, default `[1.15, 210, 30]`.
    public var position: (radial: Double, azimuthal: Double, polar: Double) = (1.15, 210, 30)
    public var color = Color.white
    /// 0...1; default 0.5.
    public var intensity = 0.5

    /// The default light.
    public init() {}

    /// `position` as MapLibre's shaders take it: a direction in tile space (x east, y south, z up) of
    /// length ``position``'s radial distance, the azimuth measured from north.
    public var direction: (x: Double, y: Double, z: Double) {
        let azimuth = (position.azimuthal + 90) * .pi / 180
        let polar = position.polar * .pi / 180
        return (
            position.radial * cos(azimuth) * sin(polar), position.radial * sin(azimuth) * sin(polar),
            position.radial * cos(polar)
        )
    }

    public static func == (a: StyleLight, b: StyleLight) -> Bool {
        a.anchor == b.anchor && a.position == b.position && a.color == b.color && a.intensity == b.intensity
    }
}

extension StyleDecoder {
    /// The root `light`: literal values (an expression or a value out of range is warned about, or refused
    /// when strict, and the default kept).
    func light(_ json: JSONValue?) throws -> StyleLight {
        var light = StyleLight()
        guard let json else { return light }
        guard let members = json.members else {
            throw invalid("light", "must be an object, got \(json.kindName)")
        }
        func notUsed(_ key: String, _ why: String) throws {
            try unsupported("light.\(key)", why + "; the default is used", key: "light \(key)")
        }
        for (key, value) in members {
            switch key {
            case "anchor":
                guard let s = value.string, let anchor = StyleLight.Anchor(rawValue: s) else {
                    try notUsed(key, "must be \"map\" or \"viewport\"")
                    continue
                }
                light.anchor = anchor
            case "position":
                guard let a = value.array, a.count == 3, let r = a[0].number, let az = a[1].number,
                    let polar = a[2].number, (0...1000).contains(r), az.isFinite, abs(az) <= 360_000,
                    (0...180).contains(polar)
                else {
                    try notUsed(key, "must be [radial 0...1000, azimuthal, polar 0...180] (literal numbers)")
                    continue
                }
                light.position = (r, az, polar)
            case "color":
                guard let s = value.string, let color = try? Color(parsing: s) else {
                    try notUsed(key, "must be a colour string")
                    continue
                }
                light.color = color
            case "intensity":
                guard let n = value.number, (0...1).contains(n) else {
                    try notUsed(key, "must be a literal number in 0...1")
                    continue
                }
                light.intensity = n
            default:
                try unsupported(
                    "light.\(key)", "unknown light member; supported: anchor, position, color, intensity",
                    key: "light \(key)")
            }
        }
        return light
    }
}
