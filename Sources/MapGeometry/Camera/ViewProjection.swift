import Foundation

/// MapLibre's camera as arithmetic: where a map point (at a height) appears in the image, and which
/// ground point an image point shows, for a view turned by a heading and tilted by a pitch.
///
/// It is MapLibre's projection matrix (`TransformState::getProjMatrix`: translate to the center, rotate
/// about z by -bearing, about x by the pitch, move the camera back by `d`, perspective) written out for
/// image points. With the center's offset in points `(dx, dy)` (y south) and a height `z` (points, up):
///
///     (rx, ry) = (dx cos h + dy sin h, -dx sin h + dy cos h)        turned by the heading h
///     y'       = ry cos p - z sin p,   w = d - (ry sin p + z cos p)  tilted by the pitch p
///     image    = (W/2 + d rx / w, H/2 + d y' / w)
///
/// where `d` = 1.5 x the image height (``MapCamera/distanceInViewHeights``) is the camera-to-center
/// distance and `w` the depth along the view axis. A point is in front of the camera when `w > 0`; the
/// horizon is the image line `y = H/2 - d cot p` (above the image for every pitch in
/// ``MapCamera/pitchRange``). The ground (z = 0) maps to the image by a homography, so straight lines stay
/// straight and polygons can be projected vertex by vertex once they are clipped to the part of the
/// ground in front of the camera (``groundStrip(margin:)``).
package struct ViewProjection: Hashable, Sendable {
    /// The visible map rect's center, map points.
    package let center: MapPoint
    /// Map points per image point at the center (the zoom level's scale).
    package let perPoint: Double
    /// The image size, points.
    package let size: Size
    /// cos and sin of the heading.
    package let cosH: Double, sinH: Double
    /// cos and sin of the pitch.
    package let cosP: Double, sinP: Double
    /// Camera to center, points.
    package let distance: Double
    /// Whether the heading and the pitch are both 0: the view is the plain north-up rect.
    package let isNorthUpAndFlat: Bool
    /// Whether the pitch is 0 (the view may still be turned): projection is then a rotation and a scale.
    package let isFlat: Bool

    package init(center: MapPoint, perPoint: Double, size: Size, heading: Double, pitch: Double) {
        self.center = center
        self.perPoint = perPoint
        self.size = size
        let h = heading * .pi / 180
        let p = pitch * .pi / 180
        // Exact values at the quarter turns, so a turn by 90 degrees moves points by whole points.
        (cosH, sinH) = Self.cosSin(degrees: heading, radians: h)
        (cosP, sinP) = pitch == 0 ? (1, 0) : (cos(p), sin(p))
        distance = MapCamera.distanceInViewHeights * size.height
        isNorthUpAndFlat = heading == 0 && pitch == 0
        isFlat = pitch == 0
    }

    private static func cosSin(degrees: Double, radians: Double) -> (Double, Double) {
        switch degrees {
        case 0: return (1, 0)
        case 90: return (0, 1)
        case 180: return (-1, 0)
        case 270: return (0, -1)
        default: return (cos(radians), sin(radians))
        }
    }

    /// The offset of a map point from the center in points, turned by the heading: the view's ground plane
    /// before the pitch (x right, y down the image).
    @inline(__always) package func turned(_ m: MapPoint) -> Point {
        let dx = (m.x - center.x) / perPoint
        let dy = (m.y - center.y) / perPoint
        return Point(x: dx * cosH + dy * sinH, y: -dx * sinH + dy * cosH)
    }

    /// The map point at a turned offset (the inverse of ``turned(_:)``).
    @inline(__always) package func unturned(_ r: Point) -> MapPoint {
        let dx = r.x * cosH - r.y * sinH
        let dy = r.x * sinH + r.y * cosH
        return MapPoint(x: center.x + dx * perPoint, y: center.y + dy * perPoint)
    }

    /// The depth along the view axis of a turned ground offset raised `z` points; > 0 in front of the camera.
    @inline(__always) package func depth(_ r: Point, z: Double = 0) -> Double {
        distance - (r.y * sinP + z * cosP)
    }

    /// The image point of a turned offset raised `z` points, with its depth `w` (not meaningful for w <= 0).
    @inline(__always) package func project(turned r: Point, z: Double = 0) -> (point: Point, w: Double) {
        let y = r.y * cosP - z * sinP
        let w = distance - (r.y * sinP + z * cosP)
        let k = distance / w
        return (Point(x: size.width / 2 + r.x * k, y: size.height / 2 + y * k), w)
    }

    /// The image point of a map point on the ground.
    @inline(__always) package func project(_ m: MapPoint) -> Point {
        project(turned: turned(m)).point
    }

    /// The turned ground offset an image point shows; nil at or above the horizon.
    package func groundTurned(at p: Point) -> Point? {
        let u = p.x - size.width / 2
        let v = p.y - size.height / 2
        let denominator = distance * cosP + v * sinP
        guard denominator > distance * 1e-9 else { return nil }
        let ry = v * distance / denominator
        let rx = u * (distance - ry * sinP) / distance
        return Point(x: rx, y: ry)
    }

    /// The ground map point an image point shows; nil at or above the horizon.
    package func groundMapPoint(at p: Point) -> MapPoint? {
        groundTurned(at: p).map(unturned)
    }

    /// The image line y at which the horizon lies (minus infinity when the view looks straight down).
    package var horizonY: Double {
        sinP == 0 ? -.infinity : size.height / 2 - distance * cosP / sinP
    }

    /// The turned ground y (``turned(_:)``) range of the ground seen by the image grown by `margin`
    /// points: from the far edge (the top, kept 3/4 of the way to the horizon) to the near edge. Geometry clipped to it
    /// has a depth of at least the near edge's, so its projection is finite. Infinite for a flat view.
    package func groundStrip(margin: Double) -> ClosedRange<Double> {
        guard sinP > 0 else { return -Double.infinity...Double.infinity }
        // At most 3/4 of the way to the horizon (4 camera distances deep): the top of the image at any
        // pitch of ``MapCamera/pitchRange`` is nearer, so only a margin is ever cut short.
        let top = max(-size.height / 2 - margin, 0.75 * (horizonY - size.height / 2))
        let bottom = size.height / 2 + margin
        func ry(_ v: Double) -> Double { v * distance / (distance * cosP + v * sinP) }
        return ry(top)...ry(bottom)
    }

    /// MapLibre's far plane: the depth of the ground at the image's top edge times 1.01
    /// (`furthestDistance * 1.01`); MapLibre's near plane for 3D layers is `0.1 x distance`.
    package var farDepth: Double {
        let tanAbove = 0.5 / MapCamera.distanceInViewHeights
        return distance / (1 - tanAbove * sinP / cosP) * 1.01
    }
}
