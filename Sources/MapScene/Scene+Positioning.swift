import MapAnnotations
import MapGeometry
import MapOverlays
import MapRender

extension Scene {
    /// The edge padding of the implicit fit when none is given: 16 points at each side.
    public static let defaultContentPadding = EdgeInsets(top: 16, left: 16, bottom: 16, right: 16)
    /// The most detailed zoom the implicit fit chooses (a single marker is shown at it): 17, a few streets.
    public static let contentMaximumZoomLevel = 17.0

    /// Whether the scene positions itself from its content, as a static map with no area does: it gives
    /// no area and no `fitAnnotations`, and has annotations, overlays, a user location or visible points.
    public var positionsFromContent: Bool {
        area == nil && fitAnnotations == nil
            && !(annotations.isEmpty && overlays.isEmpty && userLocation == nil && visibleCoordinates.isEmpty)
    }

    /// Implicit positioning, as Google Static Maps does with no center and zoom: shows everything the scene
    /// draws in a populated snapshotter — every annotation's whole view (and a selected one's callout), every
    /// line, polygon and circle with its line width, the user location and the visible points — with
    /// `edgePadding` points free at the edges. Call it after ``populate(_:)``, when ``positionsFromContent``.
    ///
    /// ```swift
    /// scene.populate(snapshotter)
    /// if scene.positionsFromContent { try scene.showContent(in: snapshotter) }
    /// ```
    ///
    /// `maximumZoomLevel` caps the zoom (``contentMaximumZoomLevel`` by default; tileserver-gl's `maxzoom`).
    ///
    /// - Throws: what ``MapSnapshotter/show(annotations:overlays:coordinates:edgePadding:maximumZoomLevel:)``
    ///   throws.
    public func showContent(
        in snapshotter: MapSnapshotter, edgePadding: EdgeInsets = Scene.defaultContentPadding,
        maximumZoomLevel: Double = Scene.contentMaximumZoomLevel
    ) throws {
        try snapshotter.show(
            annotations: snapshotter.annotations,
            overlays: snapshotter.overlays(in: .aboveRoads)
                + snapshotter.overlays(in: .aboveLabels),
            coordinates: visibleCoordinates, edgePadding: edgePadding, maximumZoomLevel: maximumZoomLevel)
    }

    /// Checks that every visible point (``visibleCoordinates``) is inside the snapshotter's image.
    ///
    /// - Throws: ``SceneVisibilityError`` naming the first point outside.
    public func checkVisibleCoordinates(in snapshotter: MapSnapshotter) throws {
        let viewport = snapshotter.viewport
        for c in visibleCoordinates {
            let p = viewport.point(for: viewport.nearestCopy(of: MapPoint(c)))
            let tolerance = 1e-6
            guard p.x >= -tolerance, p.y >= -tolerance, p.x <= viewport.size.width + tolerance,
                p.y <= viewport.size.height + tolerance
            else { throw SceneVisibilityError(coordinate: c) }
        }
    }
}

/// A point that must be visible lies outside the image that was asked for.
public struct SceneVisibilityError: MapRasterError, Equatable {
    /// The point outside the image.
    public var coordinate: LocationCoordinate2D

    /// Creates the error for a point outside the image.
    public init(coordinate: LocationCoordinate2D) { self.coordinate = coordinate }

    public var description: String {
        "the visible point \(coordinate.latitude),\(coordinate.longitude) is outside the image: give a larger area, "
            + "or leave the area out so that the map fits its content"
    }
}
