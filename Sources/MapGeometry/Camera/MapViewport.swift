import Foundation

/// What an image of a given size shows of the map: the visible map rect, the region, the zoom level, and
/// conversions between coordinates, map points and image points.
///
/// It behaves like an `MKMapView` of the image's size: setting ``region`` stores the region that fits the
/// image's aspect ratio (``regionThatFits(_:)``), setting ``centerCoordinate`` keeps the zoom level, and
/// setting ``visibleMapRect`` fits the rect to the aspect ratio.
///
/// ```swift
/// var viewport = try MapViewport(size: Size(width: 800, height: 600), scale: 2)
/// viewport.region = CoordinateRegion(center: helsinki, latitudinalMeters: 2_000, longitudinalMeters: 2_000)
/// let p = viewport.point(for: helsinki)   // (400, 300)
/// ```
/// Mirrors the geometry of MapKit's `MKMapView`.
public struct MapViewport: Hashable, Sendable {
    /// The image size in points.
    public let size: Size
    /// Device pixels per point: any in ``scaleRange`` (1, 2 and 3 are Apple's screens).
    public let scale: Double
    /// The image size in device pixels.
    public let pixelSize: PixelSize
    /// The map rect the image would show facing north and looking straight down: its center is the
    /// view's center and its width over the image's width the scale at the center.
    private var rect: MapRect { didSet { updateProjection() } }
    /// The compass heading the view faces, degrees clockwise from north in 0..<360 (``camera``).
    public private(set) var heading: Double = 0 { didSet { updateProjection() } }
    /// The view's pitch from straight down, degrees in ``MapCamera/pitchRange`` (``camera``).
    public private(set) var pitch: Double = 0 { didSet { updateProjection() } }
    /// The camera's arithmetic for the current rect, heading and pitch.
    package private(set) var projection: ViewProjection

    private mutating func updateProjection() {
        projection = ViewProjection(
            center: MapPoint(x: rect.midX, y: rect.midY), perPoint: rect.width / size.width, size: size,
            heading: heading, pitch: pitch)
    }

    /// The deepest zoom level: 22, as MapKit and XYZ tile services (a 256-point world 2^22 times over).
    /// Every zoom limit of the library, the command line, scene files and the server is this one.
    public static let maximumZoomLevel = 22.0

    /// The scales of Apple's screens, 1, 2 and 3: each is valid (``isValidScale(_:)``), as is any other in
    /// ``scaleRange``.
    public static let validScales: [Double] = [1, 2, 3]

    /// The device scales (device pixels per point) a viewport accepts: any from 0.5 to 4, as MapLibre's pixel
    /// ratio may be fractional. The image's device pixels (size times scale) must still be whole numbers within
    /// ``PixelSize``'s limit.
    public static let scaleRange: ClosedRange<Double> = 0.5...4

    /// Whether a viewport accepts `scale`: finite and within ``scaleRange``.
    public static func isValidScale(_ scale: Double) -> Bool {
        scale.isFinite && scaleRange.contains(scale)
    }

    /// Whether a viewport can show `zoomLevel`: finite and within 0...``maximumZoomLevel``.
    public static func isValidZoomLevel(_ zoomLevel: Double) -> Bool {
        zoomLevel.isFinite && zoomLevel >= 0 && zoomLevel <= maximumZoomLevel
    }

    /// ``scaleRange`` for messages and help: "a number in 0.5...4".
    package static var validScalesText: String { "a number in 0.5...4 (1, 2 and 3 as Apple's screens)" }

    /// The zoom range for messages and help: "0...22".
    package static var zoomRangeText: String { "0...\(Int(maximumZoomLevel))" }

    /// Creates a viewport showing the whole world, fitted to the image's aspect ratio.
    ///
    /// - Throws: ``GeometryError/invalidScale(_:)`` or ``GeometryError/invalidSize(width:height:scale:maximum:)``.
    public init(size: Size, scale: Double = 1) throws {
        guard Self.isValidScale(scale) else { throw GeometryError.invalidScale(scale) }
        self.pixelSize = try PixelSize(points: size, scale: scale)
        self.size = size
        self.scale = scale
        self.rect = .world
        self.projection = ViewProjection(
            center: MapPoint(x: MapRect.world.midX, y: MapRect.world.midY), perPoint: 1, size: size, heading: 0,
            pitch: 0)
        self.rect = mapRectThatFits(.world)
        updateProjection()
    }

    /// Creates a viewport showing `region`, fitted to the image's aspect ratio.
    public init(size: Size, scale: Double = 1, region: CoordinateRegion) throws {
        try self.init(size: size, scale: scale)
        self.region = region
        updateProjection()
    }

    /// Creates a viewport centered on `center` at a fractional zoom level (points, not device pixels:
    /// zoom z shows the world 256 * 2^z points wide).
    public init(size: Size, scale: Double = 1, center: LocationCoordinate2D, zoomLevel: Double) throws {
        try self.init(size: size, scale: scale)
        guard Self.isValidZoomLevel(zoomLevel) else { throw GeometryError.invalidZoom(zoomLevel) }
        let mapPointsPerPoint = pow(2, 20 - zoomLevel)
        rect = Self.centered(
            on: MapPoint(center), width: size.width * mapPointsPerPoint, height: size.height * mapPointsPerPoint)
        updateProjection()
    }

    /// A viewport that shows `mapRect` at `mapPointsPerPoint`, of any size: for laying out labels and
    /// annotation views over a whole zoom level of a tile pyramid at once. Its ``pixelSize`` is nominal
    /// (no image of that size is ever made), so it may exceed the image limit.
    public static func layout(covering mapRect: MapRect, mapPointsPerPoint: Double, scale: Double) -> MapViewport {
        let size = Size(width: mapRect.width / mapPointsPerPoint, height: mapRect.height / mapPointsPerPoint)
        return MapViewport(
            size: size, scale: scale,
            pixelSize: PixelSize(
                unchecked: Int((size.width * scale).rounded(.up)), Int((size.height * scale).rounded(.up))),
            rect: mapRect)
    }

    private init(size: Size, scale: Double, pixelSize: PixelSize, rect: MapRect) {
        self.size = size
        self.scale = scale
        self.pixelSize = pixelSize
        self.rect = rect
        self.projection = ViewProjection(
            center: MapPoint(x: rect.midX, y: rect.midY), perPoint: rect.width / size.width, size: size, heading: 0,
            pitch: 0)
    }

    // MARK: - What is visible

    /// The map rect the image shows: under a heading or pitch, the smallest map rect containing every ground
    /// point the image shows. Setting it stores ``mapRectThatFits(_:edgePadding:)`` of the new rect (which
    /// keeps the camera's heading and pitch). Mirrors `MKMapView.visibleMapRect`.
    public var visibleMapRect: MapRect {
        get { projection.isNorthUpAndFlat ? rect : mapRect(covering: Rect(origin: .zero, size: size)) }
        set { setVisibleMapRect(newValue) }
    }

    /// The smallest map rect containing the ground the image rect `imageRect` shows (the part below the
    /// horizon; for a turned or tilted view the four corners' quadrilateral).
    public func mapRect(covering imageRect: Rect) -> MapRect {
        if projection.isNorthUpAndFlat {
            return MapRect(
                corner: mapPoint(for: imageRect.origin),
                corner: mapPoint(for: Point(x: imageRect.maxX, y: imageRect.maxY)))
        }
        let strip = projection.groundStrip(margin: 0)
        let top = max(imageRect.minY, projection.isFlat ? imageRect.minY : farthestImageY(strip))
        let bottom = max(top, imageRect.maxY)
        let corners = [
            Point(x: imageRect.minX, y: top), Point(x: imageRect.maxX, y: top),
            Point(x: imageRect.minX, y: bottom), Point(x: imageRect.maxX, y: bottom),
        ].compactMap(projection.groundMapPoint(at:))
        guard let first = corners.first else { return .null }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for c in corners.dropFirst() {
            minX = min(minX, c.x)
            minY = min(minY, c.y)
            maxX = max(maxX, c.x)
            maxY = max(maxY, c.y)
        }
        return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The image y of the far edge of `strip` (the highest image line kept below the horizon).
    private func farthestImageY(_ strip: ClosedRange<Double>) -> Double {
        projection.project(turned: Point(x: 0, y: strip.lowerBound)).point.y
    }

    /// Shows `mapRect` with `edgePadding` points of room around it, fitted to the image's aspect ratio.
    /// Mirrors `setVisibleMapRect:edgePadding:animated:`.
    public mutating func setVisibleMapRect(_ mapRect: MapRect, edgePadding: EdgeInsets = .zero) {
        guard !mapRect.isNull else { return }
        if mapRect.width <= 0 && mapRect.height <= 0 {
            rect = Self.centered(on: mapRect.origin, width: rect.width, height: rect.height)
            return
        }
        rect = fittedCenterRect(mapRect, edgePadding: edgePadding)
    }

    /// The region the image shows (under a heading or pitch, the region of ``visibleMapRect``). Setting it
    /// stores ``regionThatFits(_:)`` of the new region, centered on the new center. Mirrors `MKMapView.region`.
    public var region: CoordinateRegion {
        get { CoordinateRegion(visibleMapRect) }
        set { rect = fittedRect(for: newValue) }
    }

    /// The coordinate at the image's center. Setting it keeps the zoom level. Mirrors
    /// `MKMapView.centerCoordinate`.
    public var centerCoordinate: LocationCoordinate2D {
        get { MapPoint(x: rect.midX, y: rect.midY).coordinate }
        set { rect = Self.centered(on: MapPoint(newValue), width: rect.width, height: rect.height) }
    }

    /// Map points per image point (at the image's center when the view is tilted).
    public var mapPointsPerPoint: Double { rect.width / size.width }

    /// The fractional zoom level: `20 + log2(image width in points / visibleMapRect width)` looking straight
    /// down and facing north (the scale at the center otherwise); at zoom 20 one 256-point tile is 256 map
    /// points, at zoom 0 the world is 256 points wide.
    public var zoomLevel: Double { 20 + log2(size.width / rect.width) }

    /// The integer tile zoom for this view: ``zoomLevel`` rounded to the nearest integer, within 0...22.
    ///
    /// Tiles of this zoom are drawn at between 0.71x and 1.41x of their size, so they never look blurry by
    /// more than half a zoom level.
    public var tileZoom: Int { Self.tileZoom(for: zoomLevel) }

    /// The integer tile zoom for a fractional zoom level: rounded to the nearest integer, within 0...22
    /// (NaN gives 0).
    public static func tileZoom(for zoomLevel: Double) -> Int {
        if zoomLevel.isNaN { return 0 }
        let top = Int(Self.maximumZoomLevel)
        if zoomLevel == .infinity { return top }
        return max(0, min(top, Int((zoomLevel + 1e-9).rounded(.toNearestOrAwayFromZero))))
    }

    // MARK: - The camera

    /// The camera the view is seen from: its center, heading, pitch and the distance MapLibre's camera
    /// has at this zoom level (``MapCamera``). Mirrors `MKMapView.camera`.
    public var camera: MapCamera {
        let center = centerCoordinate
        return MapCamera(
            unchecked: center,
            distance: MapCamera.distance(forZoomLevel: zoomLevel, latitude: center.latitude, height: size.height),
            heading: heading, pitch: pitch)
    }

    /// Shows the map from `camera`: its center, heading and pitch, at the zoom level its distance gives.
    ///
    /// - Throws: ``GeometryError/invalidCamera(heading:pitch:distance:)`` or
    ///   ``GeometryError/invalidCoordinate(latitude:longitude:)`` for invalid values,
    ///   ``GeometryError/invalidZoom(_:)`` when the distance needs a zoom level outside 0...22.
    /// Mirrors `setCamera:animated:`.
    public mutating func setCamera(_ camera: MapCamera) throws {
        let camera = try camera.validated()
        let zoom = MapCamera.zoomLevel(
            forDistance: camera.centerCoordinateDistance, latitude: camera.centerCoordinate.latitude,
            height: size.height)
        guard Self.isValidZoomLevel(zoom) else { throw GeometryError.invalidZoom(zoom) }
        let perPoint = pow(2, 20 - zoom)
        rect = Self.centered(
            on: MapPoint(camera.centerCoordinate), width: size.width * perPoint, height: size.height * perPoint)
        heading = camera.heading
        pitch = camera.pitch
    }

    /// Turns and tilts the view about its center, keeping the center and the zoom level.
    ///
    /// - Parameters:
    ///   - heading: degrees clockwise from north, any finite value (normalised into 0..<360).
    ///   - pitch: degrees from straight down, within ``MapCamera/pitchRange``.
    /// - Throws: ``GeometryError/invalidCamera(heading:pitch:distance:)``.
    public mutating func setHeading(_ heading: Double, pitch: Double) throws {
        let normalized = try MapCamera.normalizedHeading(heading, pitch: pitch)
        try MapCamera.checkPitch(pitch, heading: normalized)
        self.heading = normalized
        self.pitch = pitch
    }

    // MARK: - Fitting

    /// The rect centered on the same point as `mapRect` that contains it and has the image's aspect ratio,
    /// leaving `edgePadding` points free at the edges. Mirrors `mapRectThatFits:edgePadding:`.
    ///
    /// Under a heading, the rect is fitted as the turned image sees it (its turned bounding box fills the
    /// image) and the result is ``visibleMapRect`` of that view.
    public func mapRectThatFits(_ mapRect: MapRect, edgePadding: EdgeInsets = .zero) -> MapRect {
        guard !mapRect.isNull else { return mapRect }
        if projection.isNorthUpAndFlat { return fittedCenterRect(mapRect, edgePadding: edgePadding) }
        var copy = self
        copy.rect = fittedCenterRect(mapRect, edgePadding: edgePadding)
        return copy.visibleMapRect
    }

    /// The north-up rect (``rect``) of the view that shows `mapRect` within the padded image: under a
    /// heading, the rect's turned bounding box fills the free space (the pitch is not taken into account).
    private func fittedCenterRect(_ mapRect: MapRect, edgePadding: EdgeInsets) -> MapRect {
        var availableWidth = size.width - edgePadding.left - edgePadding.right
        var availableHeight = size.height - edgePadding.top - edgePadding.bottom
        var padding = edgePadding
        if availableWidth <= 0 || availableHeight <= 0 {
            availableWidth = size.width
            availableHeight = size.height
            padding = .zero
        }
        let c = abs(projection.cosH)
        let s = abs(projection.sinH)
        let turnedWidth = mapRect.width * c + mapRect.height * s
        let turnedHeight = mapRect.width * s + mapRect.height * c
        let perPoint = max(turnedWidth / availableWidth, turnedHeight / availableHeight)
        // The padding moves the center by this much in image points, which is a turned map offset.
        let shiftX = (size.width / 2 - padding.left - availableWidth / 2) * perPoint
        let shiftY = (size.height / 2 - padding.top - availableHeight / 2) * perPoint
        let dx = shiftX * projection.cosH - shiftY * projection.sinH
        let dy = shiftX * projection.sinH + shiftY * projection.cosH
        if projection.isNorthUpAndFlat {
            return MapRect(
                x: mapRect.midX - (padding.left + availableWidth / 2) * perPoint,
                y: mapRect.midY - (padding.top + availableHeight / 2) * perPoint,
                width: size.width * perPoint, height: size.height * perPoint)
        }
        return Self.centered(
            on: MapPoint(x: mapRect.midX + dx, y: mapRect.midY + dy), width: size.width * perPoint,
            height: size.height * perPoint)
    }

    /// The region centered on `region.center` that contains `region` and has the image's aspect ratio
    /// (under a heading, as the turned image sees it). Mirrors `regionThatFits:`.
    public func regionThatFits(_ region: CoordinateRegion) -> CoordinateRegion {
        var copy = self
        copy.rect = fittedRect(for: region)
        return copy.region
    }

    private func fittedRect(for region: CoordinateRegion) -> MapRect {
        let center = MapPoint(region.center)
        let corners = MapRect(region)
        let halfWidth = region.span.longitudeDelta / 360 * WebMercator.worldSize / 2
        let halfHeight = max(center.y - corners.minY, corners.maxY - center.y)
        let c = abs(projection.cosH)
        let s = abs(projection.sinH)
        let turnedHalfWidth = halfWidth * c + halfHeight * s
        let turnedHalfHeight = halfWidth * s + halfHeight * c
        let perPoint = max(2 * turnedHalfWidth / size.width, 2 * turnedHalfHeight / size.height)
        guard perPoint > 0, perPoint.isFinite else {
            return Self.centered(on: center, width: rect.width, height: rect.height)
        }
        return Self.centered(on: center, width: size.width * perPoint, height: size.height * perPoint)
    }

    private static func centered(on point: MapPoint, width: Double, height: Double) -> MapRect {
        MapRect(x: point.x - width / 2, y: point.y - height / 2, width: width, height: height)
    }

    // MARK: - Converting

    /// The image point of a map point on the ground, without wrapping around the world. Under a pitch, a
    /// point behind the camera has no image point: the result is then not finite.
    public func point(for mapPoint: MapPoint) -> Point {
        if projection.isNorthUpAndFlat {
            let perPoint = mapPointsPerPoint
            return Point(x: (mapPoint.x - rect.minX) / perPoint, y: (mapPoint.y - rect.minY) / perPoint)
        }
        let (point, w) = projection.project(turned: projection.turned(mapPoint))
        return w > 0 ? point : Point(x: .nan, y: .nan)
    }

    /// The ground map point at an image point; nil at or above the horizon (which only image points above
    /// the image can be, at the pitches ``MapCamera/pitchRange`` allows).
    public func groundMapPoint(for point: Point) -> MapPoint? {
        if projection.isNorthUpAndFlat { return mapPoint(for: point) }
        return projection.groundMapPoint(at: point)
    }

    /// The map point at an image point. At or above the horizon (outside the image only), the farthest
    /// ground point the view keeps in that direction: use ``groundMapPoint(for:)`` to tell.
    public func mapPoint(for point: Point) -> MapPoint {
        if projection.isNorthUpAndFlat {
            let perPoint = mapPointsPerPoint
            return MapPoint(x: rect.minX + point.x * perPoint, y: rect.minY + point.y * perPoint)
        }
        if let ground = projection.groundMapPoint(at: point) { return ground }
        let y = farthestImageY(projection.groundStrip(margin: 0))
        return projection.groundMapPoint(at: Point(x: point.x, y: y)) ?? MapPoint(x: rect.midX, y: rect.midY)
    }

    /// The image point of a coordinate, using the copy of the world nearest the image's center (so a
    /// view across the 180th meridian places 179 and -179 degrees side by side).
    /// Mirrors `convertCoordinate:toPointToView:`.
    public func point(for coordinate: LocationCoordinate2D) -> Point {
        point(for: nearestCopy(of: MapPoint(coordinate)))
    }

    /// The coordinate at an image point, longitude wrapped into -180...180 (see ``mapPoint(for:)`` above
    /// the horizon). Mirrors `convertPoint:toCoordinateFromView:`.
    public func coordinate(for point: Point) -> LocationCoordinate2D {
        mapPoint(for: point).coordinate
    }

    /// The image rect that a region's corners span (under a heading or pitch, the bounding box of its four
    /// corners' image points). Mirrors `convertRegion:toRectToView:`.
    public func rect(for region: CoordinateRegion) -> Rect {
        let mapRect = MapRect(region)
        let shift = nearestCopy(of: MapPoint(x: mapRect.midX, y: mapRect.midY)).x - mapRect.midX
        let a = point(for: MapPoint(x: mapRect.minX + shift, y: mapRect.minY))
        let b = point(for: MapPoint(x: mapRect.maxX + shift, y: mapRect.maxY))
        if projection.isNorthUpAndFlat {
            return Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
        }
        let c = point(for: MapPoint(x: mapRect.maxX + shift, y: mapRect.minY))
        let d = point(for: MapPoint(x: mapRect.minX + shift, y: mapRect.maxY))
        let xs = [a.x, b.x, c.x, d.x]
        let ys = [a.y, b.y, c.y, d.y]
        let minX = xs.min() ?? 0
        let minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }

    /// The region an image rect covers (under a heading or pitch, the region of the smallest map rect
    /// containing the ground it shows). Mirrors `convertRect:toRegionFromView:`.
    public func region(for imageRect: Rect) -> CoordinateRegion {
        CoordinateRegion(mapRect(covering: imageRect))
    }

    /// The copy of `mapPoint` (shifted by whole world widths) nearest the visible rect's center.
    public func nearestCopy(of mapPoint: MapPoint) -> MapPoint {
        let world = WebMercator.worldSize
        let k = ((rect.midX - mapPoint.x) / world).rounded()
        return MapPoint(x: mapPoint.x + k * world, y: mapPoint.y)
    }
}
