import MapAnnotations
import MapBaseMap
import MapGeometry
import MapOverlays

/// Base map labels and annotation views laid out once for every image of one zoom level, to be drawn into
/// each image cut from it: a label or pin that crosses an image edge is then drawn whole and identically on
/// both sides, and never twice.
///
/// Labels are laid out region by region (``LabelRegions``), so that any image of the zoom, whoever draws
/// it, gets the same labels; annotation views (a scene's, bounded by the scene) are laid out once for the
/// whole area, in that area's frame.
package final class SharedPlacement: @unchecked Sendable {
    /// The area's viewport for the annotation layout (its size may exceed what one image can be).
    package let layoutViewport: MapViewport
    let labels: LabelRegions?
    let annotationLayout: AnnotationLayout?

    init(layoutViewport: MapViewport, labels: LabelRegions?, annotationLayout: AnnotationLayout?) {
        self.layoutViewport = layoutViewport
        self.labels = labels
        self.annotationLayout = annotationLayout
    }

    /// The number of label regions laid out so far (and still cached).
    package var regionsLaidOut: Int { labels?.regionsLaidOut ?? 0 }

    /// The boxes (world points) of the base map labels placed in the regions the image of `viewport` shows.
    package func labelBounds(meeting viewport: MapViewport) throws -> [Rect] {
        try labels?.labelBounds(meeting: viewport) ?? []
    }

    /// The number of base map labels placed in the regions the image of `viewport` shows.
    package func labelCount(meeting viewport: MapViewport) throws -> Int {
        try labels?.labelCount(meeting: viewport) ?? 0
    }

    /// The annotation layout moved into `viewport`'s image points (same zoom), each item taken from the
    /// copy of the world nearest the image.
    func annotationLayout(in viewport: MapViewport) -> AnnotationLayout? {
        guard var layout = annotationLayout else { return nil }
        let perPoint = viewport.mapPointsPerPoint
        let dx = (layoutViewport.visibleMapRect.minX - viewport.visibleMapRect.minX) / perPoint
        let dy = (layoutViewport.visibleMapRect.minY - viewport.visibleMapRect.minY) / perPoint
        let world = WebMercator.worldSize / perPoint
        let center = viewport.size.width / 2
        func move(_ item: inout AnnotationLayout.Item) {
            let half = item.frame.width / 2
            let x = WorldCopies.nearest(item.frame.minX + dx + half, to: center, worldWidth: world) - half
            item.frame = Rect(x: x, y: item.frame.minY + dy, width: item.frame.width, height: item.frame.height)
            item.y += dy
        }
        for i in layout.annotations.indices { move(&layout.annotations[i]) }
        for i in layout.clusters.indices { move(&layout.clusters[i]) }
        return layout
    }
}

extension MapSnapshotter {
    /// Lays out the annotation views (clusters, collisions) for `mapRect` at this snapshotter's zoom, once,
    /// and the base map's labels region by region as images ask for them, for ``sharedPlacement`` of this
    /// and other snapshotters of the same zoom, scale and content.
    ///
    /// - Throws: ``RenderError`` or ``AnnotationError``.
    package func makeSharedPlacement(covering mapRect: MapRect) throws -> SharedPlacement {
        let layoutViewport = MapViewport.layout(
            covering: mapRect, mapPointsPerPoint: viewport.mapPointsPerPoint, scale: viewport.scale)
        let labels = try loadBaseMap().map {
            LabelRegions(baseMap: $0, mapPointsPerPoint: viewport.mapPointsPerPoint, scale: viewport.scale)
        }
        let layout = try layoutEngine(in: layoutViewport).layout()
        return SharedPlacement(layoutViewport: layoutViewport, labels: labels, annotationLayout: layout)
    }
}
