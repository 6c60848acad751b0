import Foundation
import MapAnnotations
import MapBaseMap
import MapGeometry
import MapGraphics
import MapOverlays

extension MapSnapshotter {
    // MARK: - Adding and removing

    /// Adds an annotation. Mirrors `addAnnotation:`.
    public func addAnnotation(_ annotation: Annotation) {
        annotations.append(annotation)
        annotationStore.index = nil
    }

    /// Adds annotations. Mirrors `addAnnotations:`.
    public func addAnnotations(_ list: [Annotation]) {
        annotations.append(contentsOf: list)
        annotationStore.index = nil
    }

    /// Removes an annotation (by identity). Mirrors `removeAnnotation:`.
    public func removeAnnotation(_ annotation: Annotation) { removeAnnotations([annotation]) }

    /// Removes annotations (by identity); removed ones are deselected, and removing the user location
    /// turns ``showsUserLocation`` off. Mirrors `removeAnnotations:`.
    public func removeAnnotations(_ list: [Annotation]) {
        let ids = Set(list.map(ObjectIdentifier.init))
        annotations.removeAll { ids.contains(ObjectIdentifier($0)) }
        annotationStore.selected.removeAll { ids.contains(ObjectIdentifier($0)) }
        if ids.contains(ObjectIdentifier(annotationStore.userLocation)) { annotationStore.showsUserLocation = false }
        annotationStore.index = nil
    }

    /// Removes every annotation except those `keep` accepts, such as the seed's "remove all except the
    /// user location":
    ///
    /// ```swift
    /// snapshotter.removeAllAnnotations(keeping: { $0 is UserLocation })
    /// ```
    /// Mirrors `removeAnnotations:` with a filtered `annotations` array.
    public func removeAllAnnotations(keeping keep: (Annotation) -> Bool = { _ in false }) {
        removeAnnotations(annotations.filter { !keep($0) })
    }

    /// The annotations whose coordinates lie in `mapRect` (the minimum edges inside, the maximum edges
    /// outside), in the order added, answered by a spatial index. A rect reaching across the 180th
    /// meridian finds annotations on both sides. The index is rebuilt after annotations are added or
    /// removed; an annotation whose coordinate changes while on the map must be removed and added again
    /// (MapKit learns of such changes by key-value observing). The user location, which moves, is
    /// checked on every query. Mirrors `annotationsInMapRect:`.
    public func annotations(in mapRect: MapRect) -> [Annotation] {
        let list = annotations
        let index: AnnotationIndex
        let positions: [Int]
        if let built = annotationStore.index {
            index = built
            positions = annotationStore.indexPositions
        } else {
            positions = list.indices.filter { !(list[$0] is UserLocation) }
            index = AnnotationIndex(points: positions.map { MapPoint(list[$0].coordinate) })
            annotationStore.index = index
            annotationStore.indexPositions = positions
            annotationStore.userLocationPosition = list.firstIndex { $0 is UserLocation }
        }
        var found = index.indices(in: mapRect).map { positions[$0] }
        if let user = annotationStore.userLocationPosition, let location = userLocation.location {
            let p = MapPoint(location)
            let copies = WorldCopies.offsets(
                of: MapRect(origin: p, size: MapSize(width: 0, height: 0)), meeting: mapRect)
            if copies.contains(where: { mapRect.contains(MapPoint(x: p.x + $0, y: p.y)) }) {
                found.append(user)
                found.sort()
            }
        }
        return found.map { list[$0] }
    }

    // MARK: - Selection

    /// The selected annotations; at most one. Assigning an array selects only its first element, as
    /// the reference says. Selected views are drawn in front, never hidden by collisions, and show a
    /// callout when they have a title. Mirrors `selectedAnnotations`.
    public var selectedAnnotations: [Annotation] {
        get { annotationStore.selected }
        set { annotationStore.selected = newValue.first.map { [$0] } ?? [] }
    }

    /// Selects an annotation (replacing the selection). Mirrors `selectAnnotation:animated:`.
    public func selectAnnotation(_ annotation: Annotation) { annotationStore.selected = [annotation] }

    /// Deselects an annotation; others stay selected. Mirrors `deselectAnnotation:animated:`.
    public func deselectAnnotation(_ annotation: Annotation) {
        annotationStore.selected.removeAll { $0 === annotation }
    }

    // MARK: - User location

    /// Whether the user's location is shown. Setting it to true adds ``userLocation`` to
    /// ``annotations``; false removes it. Mirrors `showsUserLocation`.
    public var showsUserLocation: Bool {
        get { annotationStore.showsUserLocation }
        set {
            guard newValue != annotationStore.showsUserLocation else { return }
            if newValue {
                annotationStore.showsUserLocation = true
                addAnnotation(annotationStore.userLocation)
            } else {
                removeAnnotation(annotationStore.userLocation)
            }
        }
    }

    /// The user's location; set its ``UserLocation/location``, accuracy and heading. Mirrors `userLocation`.
    public var userLocation: UserLocation { annotationStore.userLocation }

    /// Whether the user's location shows in the image: the location is known and its accuracy rect lies
    /// at least partly in the visible map rect. Mirrors `userLocationVisible`.
    public var isUserLocationVisible: Bool {
        guard showsUserLocation, let location = userLocation.location, location.isValid else { return false }
        let rect = userLocation.accuracyMapRect
        let center = viewport.nearestCopy(of: MapPoint(location))
        let shifted = rect.offsetBy(dx: center.x - MapPoint(location).x, dy: 0)
        let visible = viewport.visibleMapRect
        if shifted.width <= 0 { return visible.contains(center) }
        return visible.intersects(shifted)
    }

    /// The zoom level below which following the user zooms in.
    public static let userTrackingMinimumZoomLevel = 10.0

    /// Whether the map follows the user. Setting ``UserTrackingMode/follow`` or
    /// ``UserTrackingMode/followWithHeading`` (with a known location) centers the map on the user and,
    /// when zoomed out below ``userTrackingMinimumZoomLevel``, zooms in to show 1 km or four times the
    /// accuracy radius, whichever is larger. Set the location first: a snapshot is a still, so moving the
    /// user afterwards does not move the map until the mode is set again.
    /// Mirrors `userTrackingMode` / `setUserTrackingMode:animated:`.
    public var userTrackingMode: UserTrackingMode {
        get { annotationStore.userTrackingMode }
        set {
            annotationStore.userTrackingMode = newValue
            guard newValue != .none, let location = userLocation.location, location.isValid else { return }
            if viewport.zoomLevel < Self.userTrackingMinimumZoomLevel {
                let meters = max(1000, 8 * max(0, userLocation.horizontalAccuracy))
                viewport.region = CoordinateRegion(
                    center: location, latitudinalMeters: meters, longitudinalMeters: meters)
            } else {
                viewport.centerCoordinate = location
            }
        }
    }

    // MARK: - Fitting

    /// Shows `list` as large as fits: the visible map rect becomes the smallest one (at a fractional zoom)
    /// that holds every annotation's whole view, the callout of a selected one, and `edgePadding` points at
    /// the edges. A single annotation is shown at ``maximumZoomLevel`` at most. Padding that leaves no
    /// room is ignored, as in ``MapViewport/mapRectThatFits(_:edgePadding:)``.
    ///
    /// - Throws: ``RenderError/invalidOptions(_:)`` for negative or non-finite padding,
    ///   ``AnnotationError`` for an invalid coordinate or view; the viewport is then unchanged.
    /// Mirrors `showAnnotations:animated:`.
    public func showAnnotations(_ list: [Annotation], edgePadding: EdgeInsets = .zero) throws {
        try show(annotations: list, edgePadding: edgePadding)
    }

    /// Shows annotations, overlays and points together as large as fits, the way a static map with no
    /// area is positioned: the smallest visible map rect (at a fractional zoom) that holds every
    /// annotation's whole view and a selected one's callout, every overlay's ``Overlay/boundingMapRect``
    /// widened by half its renderer's line width, and every coordinate, with `edgePadding` points at the
    /// edges. Padding that leaves no room is ignored, as in ``MapViewport/mapRectThatFits(_:edgePadding:)``.
    ///
    /// ```swift
    /// try snapshotter.show(
    ///     annotations: snapshotter.annotations, overlays: snapshotter.overlays,
    ///     edgePadding: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16))
    /// ```
    ///
    /// - Parameters:
    ///   - annotations: annotations whose views must be shown whole.
    ///   - overlays: overlays that must be shown whole (their renderer comes from ``rendererProvider``).
    ///   - coordinates: points that must be inside the image.
    ///   - edgePadding: free points at each edge.
    ///   - maximumZoomLevel: the most detailed zoom the fit may choose (a single marker is shown at it).
    /// - Throws: ``RenderError/invalidOptions(_:)`` for negative or non-finite padding or an invalid
    ///   coordinate, ``AnnotationError`` for an invalid annotation, ``OverlayError`` for an invalid overlay;
    ///   the viewport is then unchanged. Nothing to show leaves it unchanged too.
    /// Mirrors `showAnnotations:animated:` together with `setVisibleMapRect:edgePadding:animated:` of the
    /// overlays' bounding map rects.
    public func show(
        annotations list: [Annotation], overlays: [Overlay] = [], coordinates: [LocationCoordinate2D] = [],
        edgePadding: EdgeInsets = .zero, maximumZoomLevel: Double = MapSnapshotter.maximumZoomLevel
    ) throws {
        let items = list.filter { !($0 is UserLocation) || userLocation.location != nil }
        // Each item: its ground rect in map points (a point for annotations), its extent around that rect in
        // points (left, top, right, bottom), and a radius on the ground in map points.
        var rects: [MapRect] = []
        var extents: [(l: Double, t: Double, r: Double, b: Double)] = []
        // The user location's accuracy circle has a size on the ground, not on the screen: in map points.
        var groundRadii: [Double] = []
        for annotation in items {
            let index = annotations.firstIndex { $0 === annotation } ?? -1
            let c = annotation.coordinate
            guard c.isValid else {
                throw AnnotationError.invalidCoordinate(
                    index: index, title: annotation.title, latitude: c.latitude, longitude: c.longitude)
            }
            var groundRadius = 0.0
            let view: AnnotationView
            if let user = annotation as? UserLocation, viewProvider?(annotation) == nil {
                groundRadius = max(0, user.horizontalAccuracy) * MapPoint.pointsPerMeter(atLatitude: c.latitude)
                view = UserLocationView(accuracyRadius: 0, heading: user.heading)
            } else {
                view = try layoutEngine(in: viewport).checkedView(for: annotation, index: index)
            }
            groundRadii.append(groundRadius.isFinite ? groundRadius : 0)
            var frame = view.frame(anchoredAt: Point.zero)
            if selectedAnnotations.contains(where: { $0 === annotation }), view.canShowCallout,
                let title = annotation.title, !title.isEmpty
            {
                var callout = CalloutView(
                    title: title, subtitle: annotation.subtitle, leftAccessoryImage: view.leftCalloutAccessoryImage,
                    rightAccessoryImage: view.rightCalloutAccessoryImage)
                let big = Size(width: 1e9, height: 1e9)
                try callout.place(pointingAt: frame.offsetBy(dx: 5e8, dy: 5e8), imageSize: big)
                let bubble = callout.bubble.offsetBy(dx: -5e8, dy: -5e8)
                frame = frame.union(Rect(x: bubble.minX, y: bubble.minY, width: bubble.width, height: bubble.height))
            }
            rects.append(MapRect(origin: MapPoint(annotation.coordinate), size: MapSize(width: 0, height: 0)))
            extents.append((-frame.minX, -frame.minY, frame.maxX, frame.maxY))
        }
        for overlay in overlays {
            try overlay.validate()
            let rect = overlay.boundingMapRect
            guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite
            else { continue }
            var half = 0.0
            if let renderer = (rendererProvider?(overlay) ?? defaultRenderer(for: overlay)) as? OverlayPathRenderer,
                renderer.strokeColor != nil, renderer.lineWidth.isFinite
            {
                half = max(0, renderer.lineWidth) / 2
            }
            rects.append(rect)
            extents.append((half, half, half, half))
            groundRadii.append(0)
        }
        for c in coordinates {
            guard c.isValid else {
                throw RenderError.invalidOptions(
                    "the point \(c.latitude),\(c.longitude) to show is invalid: latitude must be in -90...90 and "
                        + "longitude in -180...180")
            }
            rects.append(MapRect(origin: MapPoint(c), size: MapSize(width: 0, height: 0)))
            extents.append((0, 0, 0, 0))
            groundRadii.append(0)
        }
        guard let first = rects.first else { return }
        // Every item in the world copy nearest the first one's.
        rects = rects.map { rect in
            rect.offsetBy(dx: WorldCopies.nearest(rect.midX, to: first.midX) - rect.midX, dy: 0)
        }
        var edgePadding = edgePadding
        let paddings = [edgePadding.top, edgePadding.left, edgePadding.bottom, edgePadding.right]
        guard paddings.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw RenderError.invalidOptions(
                "edge padding \(paddings) is invalid; each side must be a finite number of points >= 0")
        }
        // As mapRectThatFits(_:edgePadding:): padding that leaves no room is ignored.
        if viewport.size.width - edgePadding.left - edgePadding.right <= 0
            || viewport.size.height - edgePadding.top - edgePadding.bottom <= 0
        {
            edgePadding = .zero
        }
        let width = viewport.size.width - edgePadding.left - edgePadding.right
        let height = viewport.size.height - edgePadding.top - edgePadding.bottom
        // Map points per point: grows until the views' extents at that scale fit; converges because each
        // step only adds the views' fixed point sizes.
        let zoomCap =
            maximumZoomLevel.isFinite ? min(max(maximumZoomLevel, 0), Self.maximumZoomLevel) : Self.maximumZoomLevel
        let minimumPerPoint = pow(2, 20 - zoomCap)
        var perPoint = minimumPerPoint
        var bounds = (minX: 0.0, minY: 0.0, maxX: 0.0, maxY: 0.0)
        for _ in 0..<200 {
            bounds = (.infinity, .infinity, -.infinity, -.infinity)
            for ((r, e), g) in zip(zip(rects, extents), groundRadii) {
                bounds.minX = min(bounds.minX, r.minX - max(e.l * perPoint, g))
                bounds.maxX = max(bounds.maxX, r.maxX + max(e.r * perPoint, g))
                bounds.minY = min(bounds.minY, r.minY - max(e.t * perPoint, g))
                bounds.maxY = max(bounds.maxY, r.maxY + max(e.b * perPoint, g))
            }
            let needed = max(
                (bounds.maxX - bounds.minX) / width, (bounds.maxY - bounds.minY) / height, minimumPerPoint)
            if needed <= perPoint * (1 + 1e-12) { break }
            perPoint = needed
        }
        let midX = (bounds.minX + bounds.maxX) / 2
        let midY = (bounds.minY + bounds.maxY) / 2
        // The padded area is centered on the extents; the image extends by the padding around it.
        viewport.visibleMapRect = MapRect(
            x: midX - (edgePadding.left + width / 2) * perPoint, y: midY - (edgePadding.top + height / 2) * perPoint,
            width: viewport.size.width * perPoint, height: viewport.size.height * perPoint)
    }

    // MARK: - Views

    /// Whether views with a ``AnnotationView/reuseContentKey`` are drawn once per identifier, key and
    /// size and then copied (true, the default), or drawn into a fresh bitmap each time (for measuring).
    /// Mirrors `dequeueReusableAnnotationViewWithIdentifier:` as a rasterizer's bitmap cache.
    public var reusesAnnotationViewBitmaps: Bool {
        get { annotationStore.reusesViewBitmaps }
        set { annotationStore.reusesViewBitmaps = newValue }
    }

    /// How many view bitmaps the last snapshot drew and how many times it reused one.
    public var annotationViewBitmapCounts: (drawn: Int, reused: Int) {
        (annotationStore.bitmapsDrawn, annotationStore.bitmapsReused)
    }

    /// The view for an annotation: the view provider's, or the default one (a pin; the blue dot for the
    /// user location; a count bubble for a cluster). Mirrors `viewForAnnotation:`.
    public func view(for annotation: Annotation) -> AnnotationView {
        viewProvider?(annotation) ?? AnnotationLayoutEngine.defaultView(for: annotation, in: viewport)
    }

    /// The layout engine for this snapshotter's annotations in `viewport`.
    func layoutEngine(in viewport: MapViewport) -> AnnotationLayoutEngine {
        AnnotationLayoutEngine(
            viewport: viewport, annotations: annotations,
            selected: Set(annotationStore.selected.map(ObjectIdentifier.init)),
            viewProvider: { [viewProvider] annotation in
                viewProvider?(annotation) ?? AnnotationLayoutEngine.defaultView(for: annotation, in: viewport)
            })
    }

    /// Validates the annotations, makes their views, forms clusters and resolves collisions.
    func layoutAnnotations() throws -> AnnotationLayout { try layoutEngine(in: viewport).layout() }

    /// Draws every annotation view that shows in the image, then the selected annotation's callout;
    /// returns all annotations and clusters with their frames and states.
    func drawAnnotations(in context: GraphicsContext) throws -> [Snapshot.PlacedAnnotation] {
        let layout = try sharedPlacement?.annotationLayout(in: viewport) ?? layoutAnnotations()
        let result = try layout.draw(
            in: context, viewport: viewport, sharedLayoutViewport: sharedPlacement?.layoutViewport,
            reusesBitmaps: annotationStore.reusesViewBitmaps)
        annotationStore.bitmapsDrawn = result.drawn
        annotationStore.bitmapsReused = result.reused
        return result.placed
    }
}
