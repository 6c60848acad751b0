import Foundation

/// Where the map is seen from: the coordinate at the image's center, the camera's distance from it, the
/// compass heading the view faces and the pitch of the view from straight down.
///
/// The distance and the zoom level are two names for one thing, related as MapLibre's transform relates
/// them: MapLibre's camera looks at the center from `1.5 x` the view's height (its vertical field of view is
/// `2 atan(1/3)` = 0.6435011087932844 radians), so
///
///     centerCoordinateDistance = 1.5 x height (points) x metres per point at the center
///     metres per point         = 2 pi 6378137 m x cos(latitude) / (256 x 2^zoomLevel)
///
/// (``MapViewport/zoomLevel`` counts 256-point tiles, one more than MapLibre's 512-point zoom). The
/// distance depends on the image's height; ``MapViewport/camera`` and ``MapViewport/setCamera(_:)``
/// convert.
///
/// ```swift
/// let camera = try MapCamera(lookingAtCenter: monaco, fromDistance: 1_200, pitch: 45, heading: 30)
/// try viewport.setCamera(camera)
/// ```
/// Mirrors MapKit's `MKMapCamera`.
public struct MapCamera: Hashable, Sendable, CustomStringConvertible {
    /// The coordinate at the center of the image. Mirrors `centerCoordinate`.
    public var centerCoordinate: LocationCoordinate2D
    /// The camera's distance from ``centerCoordinate``, metres. Mirrors `centerCoordinateDistance`.
    public var centerCoordinateDistance: Double
    /// The compass direction the view faces, degrees clockwise from north, 0..<360 once validated: the map
    /// turns the other way on the image. Mirrors `heading`.
    public var heading: Double
    /// The angle of the view from straight down, degrees in ``pitchRange``. Mirrors `pitch`.
    public var pitch: Double

    /// The pitches a camera may have: 0 (straight down) to 60 degrees, MapLibre's `maxPitch` in the
    /// version its render tests were made with. Steeper views would bring the horizon into the image.
    public static let pitchRange: ClosedRange<Double> = 0...60

    /// ``pitchRange`` for messages and help: "0...60".
    package static var pitchRangeText: String { "0...60" }

    /// MapLibre's vertical field of view, radians: `2 atan(1/3)`, so the camera is 1.5 view heights from
    /// the center.
    public static let fieldOfView = 0.6435011087932844

    /// The camera's distance from the center in view heights: `0.5 / tan(fieldOfView / 2)` = 1.5.
    public static let distanceInViewHeights = 1.5

    /// The camera's height above the ground, metres: ``centerCoordinateDistance`` x cos(``pitch``).
    /// Setting it keeps the pitch. Mirrors `altitude`.
    public var altitude: Double {
        get { centerCoordinateDistance * cos(pitch * .pi / 180) }
        set { centerCoordinateDistance = newValue / cos(pitch * .pi / 180) }
    }

    /// A camera looking at `center` from `distance` metres, tilted `pitch` degrees from straight down and
    /// facing `heading` degrees clockwise from north.
    ///
    /// - Throws: ``GeometryError/invalidCamera(heading:pitch:distance:)`` for a heading that is not finite,
    ///   a pitch outside ``pitchRange`` or a distance that is not finite and positive;
    ///   ``GeometryError/invalidCoordinate(latitude:longitude:)`` for an invalid center.
    /// Mirrors `cameraLookingAtCenterCoordinate:fromDistance:pitch:heading:`.
    public init(
        lookingAtCenter center: LocationCoordinate2D, fromDistance distance: Double, pitch: Double, heading: Double
    ) throws {
        self.init(unchecked: center, distance: distance, heading: heading, pitch: pitch)
        self = try validated()
    }

    /// A camera whose values are not checked; ``validated()`` checks them.
    public init(unchecked center: LocationCoordinate2D, distance: Double, heading: Double, pitch: Double) {
        self.centerCoordinate = center
        self.centerCoordinateDistance = distance
        self.heading = heading
        self.pitch = pitch
    }

    /// This camera with its heading normalised into 0..<360, after checking every value.
    ///
    /// - Throws: ``GeometryError/invalidCamera(heading:pitch:distance:)`` or
    ///   ``GeometryError/invalidCoordinate(latitude:longitude:)``.
    public func validated() throws -> MapCamera {
        let heading = try Self.normalizedHeading(heading, pitch: pitch, distance: centerCoordinateDistance)
        try Self.checkPitch(pitch, heading: heading, distance: centerCoordinateDistance)
        guard centerCoordinateDistance.isFinite, centerCoordinateDistance > 0 else {
            throw GeometryError.invalidCamera(heading: heading, pitch: pitch, distance: centerCoordinateDistance)
        }
        guard centerCoordinate.isValid else {
            throw GeometryError.invalidCoordinate(
                latitude: centerCoordinate.latitude, longitude: centerCoordinate.longitude)
        }
        var copy = self
        copy.heading = heading
        return copy
    }

    /// `heading` normalised into 0..<360 (-90 is 270, 360 is 0).
    ///
    /// - Throws: ``GeometryError/invalidCamera(heading:pitch:distance:)`` when it is not finite.
    static func normalizedHeading(_ heading: Double, pitch: Double = 0, distance: Double = 1) throws -> Double {
        guard heading.isFinite else {
            throw GeometryError.invalidCamera(heading: heading, pitch: pitch, distance: distance)
        }
        let r = heading.truncatingRemainder(dividingBy: 360)
        let n = r < 0 ? r + 360 : r
        return n >= 360 || n == 0 ? 0 : n
    }

    /// - Throws: ``GeometryError/invalidCamera(heading:pitch:distance:)`` for a pitch outside ``pitchRange``.
    static func checkPitch(_ pitch: Double, heading: Double = 0, distance: Double = 1) throws {
        guard pitch.isFinite, pitchRange.contains(pitch) else {
            throw GeometryError.invalidCamera(heading: heading, pitch: pitch, distance: distance)
        }
    }

    /// The camera-to-center distance in metres of a view `height` points tall at `zoomLevel` over
    /// `latitude` (see the type's discussion).
    public static func distance(forZoomLevel zoomLevel: Double, latitude: Double, height: Double) -> Double {
        distanceInViewHeights * height * metresPerPoint(zoomLevel: zoomLevel, latitude: latitude)
    }

    /// The zoom level at which a view `height` points tall sees its center from `distance` metres over
    /// `latitude`: the inverse of ``distance(forZoomLevel:latitude:height:)``.
    public static func zoomLevel(forDistance distance: Double, latitude: Double, height: Double) -> Double {
        let perPoint = distance / (distanceInViewHeights * height)
        return log2(earthCircumference * cos(latitude * .pi / 180) / (256 * perPoint))
    }

    /// Ground metres per point at `latitude` and `zoomLevel` (MapLibre's `getMetersPerPixelAtLatitude`
    /// with 256-point tiles).
    public static func metresPerPoint(zoomLevel: Double, latitude: Double) -> Double {
        earthCircumference * cos(latitude * .pi / 180) / (256 * pow(2, zoomLevel))
    }

    /// The equator's length in metres on the Web Mercator sphere.
    static let earthCircumference = 2 * Double.pi * WebMercator.earthRadius

    public var description: String {
        "center \(centerCoordinate), distance \(centerCoordinateDistance) m, heading \(heading), pitch \(pitch)"
    }
}
