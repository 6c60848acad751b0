import Foundation
import MapGeometry
import MapGraphics

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
            let world = WebMercator.worldSize
            if [p, MapPoint(x: p.x - world, y: p.y), MapPoint(x: p.x + world, y: p.y)].contains(where: mapRect.contains)
            {
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
        let items = list.filter { !($0 is UserLocation) || userLocation.location != nil }
        guard !items.isEmpty else { return }
        // Each annotation's extent around its anchor, in points: left, top, right, bottom.
        var points: [MapPoint] = []
        var extents: [(l: Double, t: Double, r: Double, b: Double)] = []
        for annotation in items {
            let index = annotations.firstIndex { $0 === annotation } ?? -1
            let c = annotation.coordinate
            guard c.isValid else {
                throw AnnotationError.invalidCoordinate(
                    index: index, title: annotation.title, latitude: c.latitude, longitude: c.longitude)
            }
            let view = try checkedView(for: annotation, index: index)
            var frame = view.frame(anchoredAt: .zero)
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
            var p = MapPoint(annotation.coordinate)
            if let first = points.first {
                p.x += ((first.x - p.x) / WebMercator.worldSize).rounded() * WebMercator.worldSize
            }
            points.append(p)
            extents.append((-frame.minX, -frame.minY, frame.maxX, frame.maxY))
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
        let minimumPerPoint = pow(2, 20 - Self.maximumZoomLevel)
        var perPoint = minimumPerPoint
        var bounds = (minX: 0.0, minY: 0.0, maxX: 0.0, maxY: 0.0)
        for _ in 0..<200 {
            bounds = (.infinity, .infinity, -.infinity, -.infinity)
            for (p, e) in zip(points, extents) {
                bounds.minX = min(bounds.minX, p.x - e.l * perPoint)
                bounds.maxX = max(bounds.maxX, p.x + e.r * perPoint)
                bounds.minY = min(bounds.minY, p.y - e.t * perPoint)
                bounds.maxY = max(bounds.maxY, p.y + e.b * perPoint)
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
        if let view = viewProvider?(annotation) { return view }
        if let user = annotation as? UserLocation {
            let radius: Double
            if let location = user.location {
                radius =
                    max(0, user.horizontalAccuracy) * MapPoint.pointsPerMeter(atLatitude: location.latitude)
                    / viewport.mapPointsPerPoint
            } else {
                radius = 0
            }
            return UserLocationView(accuracyRadius: radius, heading: user.heading)
        }
        if let cluster = annotation as? ClusterAnnotation {
            return ClusterAnnotationView(count: cluster.memberAnnotations.count)
        }
        return PinAnnotationView()
    }

    private func checkedView(for annotation: Annotation, index: Int) throws -> AnnotationView {
        let view = view(for: annotation)
        let s = view.size
        let range = 0...AnnotationError.maximumViewSide
        guard range.contains(s.width), range.contains(s.height) else {
            throw AnnotationError.invalidViewSize(
                index: index, title: annotation.title, width: s.width, height: s.height)
        }
        guard view.centerOffset.x.isFinite, view.centerOffset.y.isFinite else {
            throw AnnotationError.invalidCenterOffset(
                index: index, title: annotation.title, x: view.centerOffset.x, y: view.centerOffset.y)
        }
        return view
    }

    // MARK: - Layout

    /// Validates the annotations, makes their views, forms clusters and resolves collisions.
    func layoutAnnotations() throws -> AnnotationLayout {
        var layout = AnnotationLayout()
        let selected = Set(annotationStore.selected.map(ObjectIdentifier.init))
        for (index, annotation) in annotations.enumerated() {
            if let user = annotation as? UserLocation, user.location == nil { continue }
            let c = annotation.coordinate
            guard c.isValid else {
                throw AnnotationError.invalidCoordinate(
                    index: index, title: annotation.title, latitude: c.latitude, longitude: c.longitude)
            }
            let view = try checkedView(for: annotation, index: index)
            let point = viewport.point(for: c)
            layout.annotations.append(
                AnnotationLayout.Item(
                    annotation: annotation, view: view, frame: view.frame(anchoredAt: point), y: point.y,
                    order: index, isSelected: selected.contains(ObjectIdentifier(annotation))))
        }
        try formClusters(&layout)
        resolveCollisions(&layout)
        return layout
    }

    /// Merges annotations whose views share a clustering identifier and overlap.
    ///
    /// Passes repeat until nothing overlaps: in each, groups (single annotations or clusters) are taken in
    /// order of priority and then of the list, and each group not yet merged in this pass absorbs every
    /// other one whose frame overlaps its own. A cluster sits at the mean of its members' points and its
    /// frame is its own view's (the provider's, or a ``ClusterAnnotationView``), so clusters that grow
    /// into each other merge in the next pass.
    private func formClusters(_ layout: inout AnnotationLayout) throws {
        var byIdentifier: [String: [Int]] = [:]
        var identifiers: [String] = []
        for (i, item) in layout.annotations.enumerated() {
            guard let id = item.view.clusteringIdentifier, !item.isSelected, !(item.annotation is UserLocation)
            else { continue }
            if byIdentifier[id] == nil { identifiers.append(id) }
            byIdentifier[id, default: []].append(i)
        }
        struct Group {
            var members: [Int]
            var sumX: Double
            var sumY: Double
            var priority: Double
            var order: Int
            var frame: Rect
            var view: AnnotationView?
        }
        for identifier in identifiers {
            var groups: [Group] = byIdentifier[identifier]!.map { i in
                let item = layout.annotations[i]
                let p = Point(
                    x: item.frame.midX - item.view.centerOffset.x, y: item.frame.midY - item.view.centerOffset.y)
                return Group(
                    members: [i], sumX: p.x, sumY: p.y, priority: item.view.displayPriority.rawValue, order: item.order,
                    frame: item.frame, view: nil)
            }
            var merged = true
            var pass = 0
            while merged && pass < 64 {
                merged = false
                pass += 1
                groups.sort { ($0.priority, -$0.order) > ($1.priority, -$1.order) }
                var grid = ShapeGrid(cell: 64)
                for g in groups { grid.insert(ShapeGrid.Shape(frame: g.frame, isCircle: false)) }
                var absorbed = [Bool](repeating: false, count: groups.count)
                var next: [Group] = []
                for k in groups.indices where !absorbed[k] {
                    var group = groups[k]
                    let others = grid.candidates(group.frame).filter {
                        $0 != k && !absorbed[$0] && groups[$0].frame.intersects(group.frame)
                    }
                    absorbed[k] = true
                    if !others.isEmpty {
                        merged = true
                        for o in others {
                            absorbed[o] = true
                            group.members += groups[o].members
                            group.sumX += groups[o].sumX
                            group.sumY += groups[o].sumY
                            group.priority = max(group.priority, groups[o].priority)
                            group.order = min(group.order, groups[o].order)
                        }
                        group.members.sort()
                        let n = Double(group.members.count)
                        let center = Point(x: group.sumX / n, y: group.sumY / n)
                        let cluster = ClusterAnnotation(
                            memberAnnotations: group.members.map { layout.annotations[$0].annotation },
                            clusteringIdentifier: identifier, id: 0, coordinate: viewport.coordinate(for: center))
                        let view = try checkedView(for: cluster, index: group.order)
                        group.view = view
                        group.frame = view.frame(anchoredAt: center)
                    }
                    next.append(group)
                }
                groups = next
            }
            for group in groups.sorted(by: { $0.order < $1.order }) where group.members.count > 1 {
                let id = layout.clusters.count
                let n = Double(group.members.count)
                let center = Point(x: group.sumX / n, y: group.sumY / n)
                let cluster = ClusterAnnotation(
                    memberAnnotations: group.members.map { layout.annotations[$0].annotation },
                    clusteringIdentifier: identifier, id: id, coordinate: viewport.coordinate(for: center))
                for m in group.members {
                    layout.annotations[m].state = .clustered
                    layout.annotations[m].clusterID = id
                }
                let view = try checkedView(for: cluster, index: group.order)
                layout.clusters.append(
                    AnnotationLayout.Item(
                        annotation: cluster, view: view, frame: view.frame(anchoredAt: center), y: center.y,
                        order: group.order, isSelected: false, clusterID: id))
            }
        }
    }

    /// Hides lower-priority views that would overlap shown ones. Selected and required views always show;
    /// among equals, southern views (in front) win, then earlier ones.
    private func resolveCollisions(_ layout: inout AnnotationLayout) {
        var candidates: [(cluster: Bool, index: Int)] = []
        for (i, item) in layout.annotations.enumerated() where item.state == .visible {
            candidates.append((false, i))
        }
        for i in layout.clusters.indices { candidates.append((true, i)) }
        func item(_ c: (cluster: Bool, index: Int)) -> AnnotationLayout.Item {
            c.cluster ? layout.clusters[c.index] : layout.annotations[c.index]
        }
        candidates.sort {
            let a = item($0)
            let b = item($1)
            let ka = (a.isSelected ? 1 : 0, a.view.displayPriority.rawValue, a.y, -Double(a.order))
            let kb = (b.isSelected ? 1 : 0, b.view.displayPriority.rawValue, b.y, -Double(b.order))
            return ka > kb
        }
        var grid = ShapeGrid(cell: 64)
        for c in candidates {
            let it = item(c)
            let mode = it.view.collisionMode
            let shape = ShapeGrid.Shape(frame: it.frame, isCircle: mode == .circle)
            let always = it.isSelected || it.view.displayPriority >= .required || mode == .none
            if !always && grid.overlapsAny(shape) {
                if c.cluster {
                    layout.clusters[c.index].state = .hiddenByCollision
                } else {
                    layout.annotations[c.index].state = .hiddenByCollision
                }
                continue
            }
            if mode != .none && it.frame.width > 0 && it.frame.height > 0 { grid.insert(shape) }
        }
    }

    // MARK: - Drawing

    private struct BitmapKey: Hashable {
        var reuseIdentifier: String?
        var content: AnyHashable
        var width: Double
        var height: Double
    }

    /// Draws every annotation view that shows in the image, then the selected annotation's callout;
    /// returns all annotations and clusters with their frames and states.
    ///
    /// Order, back to front: views north to south (then in the order added), the user location, selected
    /// views, the callout.
    /// Views with a ``AnnotationView/reuseContentKey`` are drawn into a bitmap once per identifier, key
    /// and size and copied at their frame's origin rounded to whole device pixels.
    func drawAnnotations(in context: GraphicsContext) throws -> [Snapshot.PlacedAnnotation] {
        let layout = try sharedPlacement?.annotationLayout(in: viewport) ?? layoutAnnotations()
        func layer(_ item: AnnotationLayout.Item) -> Int {
            item.isSelected ? 2 : item.annotation is UserLocation ? 1 : 0
        }
        let imageBounds = Rect(origin: .zero, size: viewport.size)
        let shown = (layout.annotations + layout.clusters).filter {
            $0.state == .visible && $0.frame.intersects(imageBounds)
        }.sorted { (layer($0), $0.y, $0.order) < (layer($1), $1.y, $1.order) }
        var bitmaps: [BitmapKey: ImageSurface] = [:]
        annotationStore.bitmapsDrawn = 0
        annotationStore.bitmapsReused = 0
        let scale = viewport.scale
        for item in shown {
            let view = item.view
            guard let content = view.reuseContentKey, view.reuseIdentifier != nil, view.size.width > 0,
                view.size.height > 0
            else {
                context.withSavedState {
                    context.translateBy(x: item.frame.minX, y: item.frame.minY)
                    view.draw(in: context, bounds: Rect(origin: .zero, size: view.size))
                }
                continue
            }
            let key = BitmapKey(
                reuseIdentifier: view.reuseIdentifier, content: content, width: view.size.width,
                height: view.size.height)
            let bitmap: ImageSurface
            if annotationStore.reusesViewBitmaps, let cached = bitmaps[key] {
                bitmap = cached
                annotationStore.bitmapsReused += 1
            } else {
                bitmap = try ImageSurface(
                    width: Int((view.size.width * scale).rounded(.up)),
                    height: Int((view.size.height * scale).rounded(.up)))
                let bitmapContext = try GraphicsContext(surface: bitmap, scale: scale)
                view.draw(in: bitmapContext, bounds: Rect(origin: .zero, size: view.size))
                try bitmapContext.checkStatus("drawing an annotation view")
                bitmaps[key] = bitmap
                annotationStore.bitmapsDrawn += 1
            }
            let x = (item.frame.minX * scale).rounded() / scale
            let y = (item.frame.minY * scale).rounded() / scale
            context.draw(
                bitmap,
                in: Rect(x: x, y: y, width: Double(bitmap.width) / scale, height: Double(bitmap.height) / scale))
        }
        try context.checkStatus("drawing annotation views")
        var calloutRect: Rect?
        // With a shared layout (tiles), the callout is placed in the layout's frame, so that every image
        // cut from it draws the same bubble, also when only the bubble reaches into the image.
        let candidates =
            sharedPlacement == nil ? shown : (layout.annotations + layout.clusters).filter { $0.state == .visible }
        if let item = candidates.last(where: { $0.isSelected }), item.view.canShowCallout,
            let title = item.annotation.title, !title.isEmpty
        {
            var callout = CalloutView(
                title: title, subtitle: item.annotation.subtitle,
                leftAccessoryImage: item.view.leftCalloutAccessoryImage,
                rightAccessoryImage: item.view.rightCalloutAccessoryImage)
            if let shared = sharedPlacement {
                let perPoint = viewport.mapPointsPerPoint
                let dx = (viewport.visibleMapRect.minX - shared.layoutViewport.visibleMapRect.minX) / perPoint
                let dy = (viewport.visibleMapRect.minY - shared.layoutViewport.visibleMapRect.minY) / perPoint
                let frameInLayout = item.frame.offsetBy(dx: dx, dy: dy)
                // Only a selected view inside the laid-out area gets a callout there.
                if frameInLayout.intersects(Rect(origin: .zero, size: shared.layoutViewport.size)) {
                    try callout.place(pointingAt: frameInLayout, imageSize: shared.layoutViewport.size)
                    try context.withSavedState {
                        context.translateBy(x: -dx, y: -dy)
                        try callout.draw(in: context)
                    }
                    calloutRect = callout.bubble.offsetBy(dx: -dx, dy: -dy)
                }
            } else {
                try callout.place(pointingAt: item.frame, imageSize: viewport.size)
                try callout.draw(in: context)
                calloutRect = callout.bubble
            }
        }
        let all = layout.annotations.sorted { ($0.y, $0.order) < ($1.y, $1.order) }.map { item in
            Snapshot.PlacedAnnotation(
                annotation: item.annotation, frame: item.frame, visibility: item.state, clusterID: item.clusterID,
                isSelected: item.isSelected, calloutFrame: item.isSelected ? calloutRect : nil)
        }
        let clusters = layout.clusters.map { item in
            Snapshot.PlacedAnnotation(
                annotation: item.annotation, frame: item.frame, visibility: item.state, clusterID: item.clusterID,
                isSelected: false, calloutFrame: nil)
        }
        return all + clusters
    }
}

extension Rect {
    fileprivate func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    fileprivate func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX)
        let y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }
}
