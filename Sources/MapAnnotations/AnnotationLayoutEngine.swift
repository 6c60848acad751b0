import Foundation
import MapGeometry
import MapGraphics

/// Lays out annotation views for one viewport: validates each annotation, makes its view, forms
/// clusters and resolves collisions. A function of the content and the viewport only, so that a tile
/// pyramid lays out a whole zoom level once (in a layout viewport larger than any image) and every
/// image cut from it draws the same views.
package struct AnnotationLayoutEngine {
    /// The view the layout is for.
    package let viewport: MapViewport
    /// The annotations, in the snapshotter's order.
    package let annotations: [Annotation]
    /// The selected annotations.
    package let selected: Set<ObjectIdentifier>
    /// The view for an annotation (the snapshotter's provider, else the default view).
    package let viewProvider: (Annotation) -> AnnotationView

    /// An engine for content in a viewport.
    package init(
        viewport: MapViewport, annotations: [Annotation], selected: Set<ObjectIdentifier>,
        viewProvider: @escaping (Annotation) -> AnnotationView
    ) {
        self.viewport = viewport
        self.annotations = annotations
        self.selected = selected
        self.viewProvider = viewProvider
    }

    /// The default view for an annotation: a pin; the blue dot with its accuracy circle for the user
    /// location; a count bubble for a cluster.
    package static func defaultView(for annotation: Annotation, in viewport: MapViewport) -> AnnotationView {
        if let user = annotation as? UserLocation {
            let radius: Double
            if let location = user.location {
                radius =
                    max(0, user.horizontalAccuracy) * MapPoint.pointsPerMeter(atLatitude: location.latitude)
                    / viewport.mapPointsPerPoint
            } else {
                radius = 0
            }
            // A circle larger than any image is drawn as the largest view allowed (it covers the image).
            return UserLocationView(
                accuracyRadius: min(radius, AnnotationError.maximumViewSide / 2), heading: user.heading)
        }
        if let cluster = annotation as? ClusterAnnotation {
            return ClusterAnnotationView(count: cluster.memberAnnotations.count)
        }
        return PinAnnotationView()
    }

    /// Validates the annotations, makes their views, forms clusters and resolves collisions.
    ///
    /// - Throws: ``AnnotationError`` naming the annotation.
    package func layout() throws -> AnnotationLayout {
        var layout = AnnotationLayout()
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

    /// The view for an annotation, checked: a finite, non-negative size and a finite center offset.
    ///
    /// - Throws: ``AnnotationError`` naming the annotation by `index` and title.
    package func checkedView(for annotation: Annotation, index: Int) throws -> AnnotationView {
        let view = viewProvider(annotation)
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
}
