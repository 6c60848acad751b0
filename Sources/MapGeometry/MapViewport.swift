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
    private var rect: MapRect

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
        self.rect = mapRectThatFits(.world)
    }

    /// Creates a viewport showing `region`, fitted to the image's aspect ratio.
    public init(size: Size, scale: Double = 1, region: CoordinateRegion) throws {
        try self.init(size: size, scale: scale)
        self.region = region
    }

    /// Creates a viewport centered on `center` at a fractional zoom level (points, not device pixels:
    /// zoom z shows the world 256 * 2^z points wide).
    public init(size: Size, scale: Double = 1, center: LocationCoordinate2D, zoomLevel: Double) throws {
        try self.init(size: size, scale: scale)
        guard Self.isValidZoomLevel(zoomLevel) else { throw GeometryError.invalidZoom(zoomLevel) }
        let mapPointsPerPoint = pow(2, 20 - zoomLevel)
        rect = Self.centered(
            on: MapPoint(center), width: size.width * mapPointsPerPoint, height: size.height * mapPointsPerPoint)
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
    }

    // MARK: - What is visible

    /// The map rect the image shows. Setting it stores ``mapRectThatFits(_:edgePadding:)`` of the new rect.
    /// Mirrors `MKMapView.visibleMapRect`.
    public var visibleMapRect: MapRect {
        get { rect }
        set { setVisibleMapRect(newValue) }
    }

    /// Shows `mapRect` with `edgePadding` points of room around it, fitted to the image's aspect ratio.
    /// Mirrors `setVisibleMapRect:edgePadding:animated:`.
    public mutating func setVisibleMapRect(_ mapRect: MapRect, edgePadding: EdgeInsets = .zero) {
        guard !mapRect.isNull else { return }
        if mapRect.width <= 0 && mapRect.height <= 0 {
            rect = Self.centered(on: mapRect.origin, width: rect.width, height: rect.height)
            return
        }
        rect = mapRectThatFits(mapRect, edgePadding: edgePadding)
    }

    /// The region the image shows. Setting it stores ``regionThatFits(_:)`` of the new region, centered on
    /// the new center. Mirrors `MKMapView.region`.
    public var region: CoordinateRegion {
        get { CoordinateRegion(rect) }
        set { rect = fittedRect(for: newValue) }
    }

    /// The coordinate at the image's center. Setting it keeps the zoom level. Mirrors
    /// `MKMapView.centerCoordinate`.
    public var centerCoordinate: LocationCoordinate2D {
        get { MapPoint(x: rect.midX, y: rect.midY).coordinate }
        set { rect = Self.centered(on: MapPoint(newValue), width: rect.width, height: rect.height) }
    }

    /// Map points per image point.
    public var mapPointsPerPoint: Double { rect.width / size.width }

    /// The fractional zoom level: `20 + log2(image width in points / visibleMapRect width)`; at zoom 20 one
    /// 256-point tile is 256 map points, at zoom 0 the world is 256 points wide.
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

    // MARK: - Fitting

    /// The rect centered on the same point as `mapRect` that contains it and has the image's aspect ratio,
    /// leaving `edgePadding` points free at the edges. Mirrors `mapRectThatFits:edgePadding:`.
    public func mapRectThatFits(_ mapRect: MapRect, edgePadding: EdgeInsets = .zero) -> MapRect {
        guard !mapRect.isNull else { return mapRect }
        var availableWidth = size.width - edgePadding.left - edgePadding.right
        var availableHeight = size.height - edgePadding.top - edgePadding.bottom
        var padding = edgePadding
        if availableWidth <= 0 || availableHeight <= 0 {
            availableWidth = size.width
            availableHeight = size.height
            padding = .zero
        }
        let perPoint = max(mapRect.width / availableWidth, mapRect.height / availableHeight)
        return MapRect(
            x: mapRect.midX - (padding.left + availableWidth / 2) * perPoint,
            y: mapRect.midY - (padding.top + availableHeight / 2) * perPoint,
            width: size.width * perPoint, height: size.height * perPoint)
    }

    /// The region centered on `region.center` that contains `region` and has the image's aspect ratio.
    /// Mirrors `regionThatFits:`.
    public func regionThatFits(_ region: CoordinateRegion) -> CoordinateRegion {
        CoordinateRegion(fittedRect(for: region))
    }

    private func fittedRect(for region: CoordinateRegion) -> MapRect {
        let center = MapPoint(region.center)
        let corners = MapRect(region)
        let halfWidth = region.span.longitudeDelta / 360 * WebMercator.worldSize / 2
        let halfHeight = max(center.y - corners.minY, corners.maxY - center.y)
        let perPoint = max(2 * halfWidth / size.width, 2 * halfHeight / size.height)
        guard perPoint > 0, perPoint.isFinite else {
            return Self.centered(on: center, width: rect.width, height: rect.height)
        }
        return Self.centered(on: center, width: size.width * perPoint, height: size.height * perPoint)
    }

    private static func centered(on point: MapPoint, width: Double, height: Double) -> MapRect {
        MapRect(x: point.x - width / 2, y: point.y - height / 2, width: width, height: height)
    }

    // MARK: - Converting

    /// The image point of a map point, without wrapping around the world.
    public func point(for mapPoint: MapPoint) -> Point {
        let perPoint = mapPointsPerPoint
        return Point(x: (mapPoint.x - rect.minX) / perPoint, y: (mapPoint.y - rect.minY) / perPoint)
    }

    /// The map point at an image point.
    public func mapPoint(for point: Point) -> MapPoint {
        let perPoint = mapPointsPerPoint
        return MapPoint(x: rect.minX + point.x * perPoint, y: rect.minY + point.y * perPoint)
    }

    /// The image point of a coordinate, using the copy of the world nearest the image's center (so a
    /// view across the 180th meridian places 179 and -179 degrees side by side).
    /// Mirrors `convertCoordinate:toPointToView:`.
    public func point(for coordinate: LocationCoordinate2D) -> Point {
        point(for: nearestCopy(of: MapPoint(coordinate)))
    }

    /// The coordinate at an image point, longitude wrapped into -180...180.
    /// Mirrors `convertPoint:toCoordinateFromView:`.
    public func coordinate(for point: Point) -> LocationCoordinate2D {
        mapPoint(for: point).coordinate
    }

    /// The image rect that a region's corners span. Mirrors `convertRegion:toRectToView:`.
    public func rect(for region: CoordinateRegion) -> Rect {
        let mapRect = MapRect(region)
        let shift = nearestCopy(of: MapPoint(x: mapRect.midX, y: mapRect.midY)).x - mapRect.midX
        let a = point(for: MapPoint(x: mapRect.minX + shift, y: mapRect.minY))
        let b = point(for: MapPoint(x: mapRect.maxX + shift, y: mapRect.maxY))
        return Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    /// The region an image rect covers. Mirrors `convertRect:toRegionFromView:`.
    public func region(for imageRect: Rect) -> CoordinateRegion {
        let a = mapPoint(for: imageRect.origin)
        let b = mapPoint(for: Point(x: imageRect.maxX, y: imageRect.maxY))
        return CoordinateRegion(MapRect(corner: a, corner: b))
    }

    /// The copy of `mapPoint` (shifted by whole world widths) nearest the visible rect's center.
    public func nearestCopy(of mapPoint: MapPoint) -> MapPoint {
        let world = WebMercator.worldSize
        let k = ((rect.midX - mapPoint.x) / world).rounded()
        return MapPoint(x: mapPoint.x + k * world, y: mapPoint.y)
    }
}
