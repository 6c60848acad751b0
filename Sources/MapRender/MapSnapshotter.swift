import Foundation
import MapAnnotations
import MapBaseMap
import MapData
import MapGeometry
import MapGraphics
import MapOverlays
import MapStyle

/// Renders a map with overlays and annotations into an image, the way `MKMapView` would show it.
///
/// ```swift
/// var options = MapSnapshotter.Options(size: Size(width: 400, height: 300), scale: 2)
/// options.region = CoordinateRegion(center: cityHall, latitudinalMeters: 804.672, longitudinalMeters: 804.672)
/// let snapshotter = try MapSnapshotter(options: options)
/// snapshotter.addAnnotation(PointAnnotation(coordinate: cityHall, title: "City Hall"))
/// let snapshot = try snapshotter.snapshot()
/// try snapshot.image.writePNG(to: URL(fileURLWithPath: "la.png"))
/// ```
/// Mirrors MapKit's `MKMapSnapshotter` with `MKMapView`'s content model.
public final class MapSnapshotter {
    /// What to render. Mirrors `MKMapSnapshotOptions`.
    public struct Options: Sendable {
        /// The image size in points.
        public var size: Size
        /// Device pixels per point: 1, 2 or 3.
        public var scale: Double
        /// The region to show, fitted to the image's aspect ratio. Takes precedence over
        /// ``visibleMapRect``; when both are nil the whole world is shown.
        public var region: CoordinateRegion?
        /// The map rect to show, fitted to the image's aspect ratio.
        public var visibleMapRect: MapRect?
        /// Where the map is seen from: its heading and pitch always apply; its center and distance place the
        /// map when ``region`` and ``visibleMapRect`` are both nil. A ``region`` is fitted as the turned view
        /// sees it; a ``visibleMapRect`` gives the center and scale it has facing north (so that a center
        /// and zoom level stay exact), and the view is then turned about its center. Nil: north up, straight down (a style's root `bearing`
        /// and `pitch` are the command line's and scene files' default, not the library's). Mirrors `camera`.
        public var camera: MapCamera?
        /// The base map's kind.
        public var mapType: MapType = .standard
        /// A style that replaces the map type's shipped style (``ShippedStyle``).
        public var style: Style?
        /// The fonts `text-font` stacks resolve to; nil for ``FontCatalog/default`` (Debian's font packages).
        public var fonts: FontCatalog?
        /// Glyph PBFs labels are drawn from (MapLibre's SDF text); nil for the style's own `glyphs` when it
        /// is local, else the installed fonts.
        public var glyphs: (any GlyphRangeProvider)?
        /// Which points of interest are drawn (the POI layers of OpenMapTiles styles and the shipped
        /// styles, see ``MapBaseMap/PointOfInterestFilter``); nil draws those the style draws. Applies to
        /// ``style`` too. Mirrors `pointOfInterestFilter`.
        public var pointOfInterestFilter: PointOfInterestFilter?
        /// Whether buildings are drawn (flat or extruded; the OpenMapTiles `building` layers and the
        /// shipped styles'). Applies to ``style`` too. Mirrors `showsBuildings`.
        public var showsBuildings = true
        /// Whether labels of different style sources keep out of each other (MapLibre's map option
        /// `crossSourceCollisions`, default true); false places each source's labels as if the others were
        /// not there (``MapBaseMap/StyledBaseMap/crossSourceCollisions``).
        public var crossSourceCollisions = true
        /// The appearance: ``MapBaseMap/UserInterfaceStyle/dark`` draws the dark variant of the map type's
        /// shipped style (``MapBaseMap/ShippedStyle/variant(for:)``) and a dark attribution box; a ``style``
        /// is drawn as it is (give `streets-dark` for the dark streets style). Mirrors
        /// `traitCollection.userInterfaceStyle`.
        public var userInterfaceStyle = UserInterfaceStyle.light
        /// Whether to print the data's attribution in the bottom-right corner.
        public var showsAttribution = true
        /// When rendering must stop: ``snapshot()`` throws ``GraphicsError/deadlineExceeded(operation:)``
        /// after the first layer that finishes later (a server's per-request deadline). Nil: no deadline.
        public var deadline: DispatchTime?

        /// Creates options for an image of `size` points at `scale`.
        public init(size: Size, scale: Double = 1) {
            self.size = size
            self.scale = scale
        }
    }

    /// The most detailed zoom level a snapshot may have (about 2 cm per point at the equator).
    public static let maximumZoomLevel = MapViewport.maximumZoomLevel

    /// The options this snapshotter renders with.
    public let options: Options
    /// What the image shows; ``showAnnotations(_:edgePadding:)`` and ``userTrackingMode`` change it.
    public internal(set) var viewport: MapViewport

    /// The annotations, in the order added. Mirrors `annotations`.
    public internal(set) var annotations: [Annotation] = []
    /// The overlays; index 0 is drawn at the back. Mirrors `overlays`.
    public internal(set) var overlays: [Overlay] = []
    /// Labels and annotation views laid out once for a larger area (a zoom level of a tile pyramid);
    /// when set, the snapshot draws those instead of laying out its own, so images cut from that area
    /// agree at their edges. Make one with ``makeSharedPlacement(covering:)``.
    package var sharedPlacement: SharedPlacement?

    /// Selection, user location, spatial index and view cache of the annotations.
    let annotationStore = AnnotationStore()
    /// The level of each overlay, by identity (see `MapSnapshotter+Overlays.swift`).
    var overlayLevels: [ObjectIdentifier: OverlayLevel] = [:]

    /// Chooses the view of each annotation; returning nil (or having no provider) gives the default pin.
    /// Mirrors the delegate's `mapView:viewForAnnotation:`.
    public var viewProvider: ((Annotation) -> AnnotationView?)?
    /// Chooses the renderer of each overlay; returning nil (or having no provider) gives the standard
    /// renderer of the overlay's shape. Mirrors the delegate's `mapView:rendererForOverlay:`.
    public var rendererProvider: ((Overlay) -> OverlayRenderer?)?
    /// The base map drawn under everything; nil draws none (transparent background).
    ///
    /// Until it is set, it is the options' ``Options/style`` (else the shipped style of
    /// ``Options/mapType``), built when first needed: a snapshotter whose base map is replaced or removed
    /// never builds one. Reading it builds it; it reads nil when the style's files or fonts are missing,
    /// which ``snapshot()`` and ``loadBaseMap()`` report.
    public var baseMap: BaseMap? {
        get { try? loadBaseMap() }
        set { baseMapState = .chosen(newValue) }
    }
    /// Whether the base map was set or built yet.
    private enum BaseMapState {
        /// Not yet: the options say which to build.
        case fromOptions
        /// Set, or built from the options; nil for none.
        case chosen(BaseMap?)
    }
    private var baseMapState = BaseMapState.fromOptions

    /// The base map (see ``baseMap``), built now from the options when it was not set: for reporting a
    /// style's missing files before other work; ``snapshot()`` calls it itself.
    ///
    /// - Returns: the base map, nil when there is none.
    /// - Throws: ``RenderError`` when the style's files or fonts are missing.
    @discardableResult
    public func loadBaseMap() throws -> BaseMap? {
        if case .chosen(let baseMap) = baseMapState { return baseMap }
        let built = try ShippedStyle.baseMap(
            mapType: options.mapType, style: options.style, fonts: options.fonts, glyphs: options.glyphs,
            appearance: options.userInterfaceStyle, pointOfInterestFilter: options.pointOfInterestFilter,
            showsBuildings: options.showsBuildings, crossSourceCollisions: options.crossSourceCollisions)
        baseMapState = .chosen(built)
        return built
    }

    /// Creates a snapshotter. Its base map is built when first needed (see ``baseMap``).
    ///
    /// - Throws: ``GeometryError`` for an invalid size, scale or region, ``RenderError`` for other invalid
    ///   options.
    public init(options: Options) throws {
        self.options = options
        var viewport = try MapViewport(size: options.size, scale: options.scale)
        let camera = try options.camera?.validated()
        if let region = options.region {
            // Fitted as the turned view sees it.
            if let camera { try viewport.setHeading(camera.heading, pitch: camera.pitch) }
            viewport.region = try region.validated()
        } else if let rect = options.visibleMapRect {
            guard !rect.isEmpty, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else {
                throw RenderError.invalidOptions("visibleMapRect \(rect) is empty or not finite")
            }
            // Its center and scale as it shows north up (a center and zoom stay exact), then turned.
            viewport.visibleMapRect = rect
            if let camera { try viewport.setHeading(camera.heading, pitch: camera.pitch) }
        } else if let camera {
            try viewport.setCamera(camera)
        }
        guard viewport.zoomLevel <= Self.maximumZoomLevel + 1e-9 else {
            throw RenderError.invalidOptions(
                "the area shown needs zoom level \(String(format: "%.2f", viewport.zoomLevel)); the most detailed is "
                    + "\(Int(Self.maximumZoomLevel)): show a larger area")
        }
        self.viewport = viewport
    }

    // MARK: - Rendering

    /// Renders the image.
    ///
    /// Order, back to front: the base map, overlays at ``OverlayLevel/aboveRoads`` (index 0 first), the
    /// base map's labels (and its layers above them), overlays at ``OverlayLevel/aboveLabels``, annotation views (northern first, so
    /// southern ones are in front, as in MapKit), the attribution.
    ///
    /// The first snapshot in a process has glibc keep freed image-sized buffers for the next render
    /// (``GraphicsMemory/keepLargeBuffersForReuse()``) instead of faulting in fresh pages each time.
    ///
    /// - Throws: ``RenderError`` or ``GraphicsError``.
    public func snapshot() throws -> Snapshot {
        GraphicsMemory.keepLargeBuffersForReuse()
        let surface = try ImageSurface(width: viewport.pixelSize.width, height: viewport.pixelSize.height)
        let context = try GraphicsContext(surface: surface, scale: viewport.scale)
        context.deadline = options.deadline?.uptimeNanoseconds
        let baseMap = overlaysReplaceMapContent ? nil : try loadBaseMap()
        let credits = options.showsAttribution ? baseMap?.attribution(for: viewport) ?? [] : []
        let attribution = credits.isEmpty ? [] : try attributionLines(credits)
        var labelBoxes: [Rect] = []
        if let baseMap {
            try context.withSavedState { try baseMap.draw(in: context, viewport: viewport) }
        }
        try drawOverlays(level: .aboveRoads, in: context)
        if let baseMap {
            try context.withSavedState {
                if let labels = sharedPlacement?.labels {
                    try labels.draw(in: context, viewport: viewport)
                } else {
                    // Labels avoid the attribution box (annotations do not).
                    labelBoxes = try baseMap.drawLabelsReturningBoxes(
                        in: context, viewport: viewport, avoiding: attribution.map(\.box))
                }
            }
            try context.withSavedState { try baseMap.drawAboveLabels(in: context, viewport: viewport) }
        }
        try drawOverlays(level: .aboveLabels, in: context)
        let placed = try drawAnnotations(in: context)
        if !attribution.isEmpty {
            try drawAttribution(attribution, in: context)
        }
        return Snapshot(
            image: surface, viewport: viewport, annotations: placed, attributionBoxes: attribution.map(\.box),
            labelBoxes: labelBoxes)
    }

    /// The credits' lines, right-aligned at the bottom, wrapped onto more lines (between credits) when
    /// one line would be wider than the image, each with its box (image points).
    private func attributionLines(_ credits: [String]) throws -> [(text: String, box: Rect, descent: Double)] {
        let font = try Font.load(path: Font.defaultPath)
        let size = Self.attributionSize
        let padding = 3.0
        let maxWidth = viewport.size.width - 2 * padding
        var lines: [String] = []
        for credit in credits {
            if let last = lines.last, font.measure(last + " · " + credit, size: size).width <= maxWidth {
                lines[lines.count - 1] = last + " · " + credit
            } else {
                lines.append(credit)
            }
        }
        var result: [(text: String, box: Rect, descent: Double)] = []
        var bottom = viewport.size.height
        for text in lines.reversed() {
            let metrics = font.measure(text, size: size)
            let box = Rect(
                x: viewport.size.width - metrics.width - 2 * padding,
                y: bottom - metrics.ascent - metrics.descent - 2 * padding,
                width: metrics.width + 2 * padding, height: metrics.ascent + metrics.descent + 2 * padding)
            result.append((text, box, metrics.descent))
            bottom = box.minY
        }
        return result
    }

    /// The attribution's text size in points.
    static let attributionSize = 9.0

    /// Draws the credits' lines on a translucent box each: dark grey on white, light grey on black in the
    /// dark appearance.
    private func drawAttribution(_ lines: [(text: String, box: Rect, descent: Double)], in context: GraphicsContext)
        throws
    {
        let font = try Font.load(path: Font.defaultPath)
        let padding = 3.0
        let dark = options.userInterfaceStyle == .dark
        let grey = dark ? Color(red8: 204, green8: 204, blue8: 204) : Color(red8: 51, green8: 51, blue8: 51)
        for (text, box, descent) in lines {
            context.setFillColor((dark ? Color.black : Color.white).withAlphaComponent(dark ? 0.6 : 0.7))
            context.fill(box)
            context.drawText(
                text, at: Point(x: box.minX + padding, y: box.maxY - padding - descent), font: font,
                size: Self.attributionSize, color: grey)
        }
        try context.checkStatus("drawing the attribution")
    }
}
