import MapGeometry

/// Whether an annotation's view shows.
public enum AnnotationVisibility: String, Sendable {
    /// Drawn (if its frame reaches into the image).
    case visible
    /// Hidden because a view of higher priority is in the way.
    case hiddenByCollision = "hidden"
    /// Merged into a cluster.
    case clustered
}

/// An annotation (or a cluster) and its view's frame in image points.
public struct PlacedAnnotation {
    /// An annotation placed in an image.
    public init(
        annotation: Annotation, frame: Rect, visibility: AnnotationVisibility = .visible, clusterID: Int? = nil,
        isSelected: Bool = false, calloutFrame: Rect? = nil
    ) {
        self.annotation = annotation
        self.frame = frame
        self.visibility = visibility
        self.clusterID = clusterID
        self.isSelected = isSelected
        self.calloutFrame = calloutFrame
    }

    /// The annotation, or the ``ClusterAnnotation`` for a cluster.
    public var annotation: Annotation
    /// The view's frame in points; it may lie partly or wholly outside the image.
    public var frame: Rect
    /// Whether the view is drawn, hidden by a collision, or in a cluster.
    public var visibility: AnnotationVisibility = .visible
    /// The cluster's ``ClusterAnnotation/id`` for a member or a cluster.
    public var clusterID: Int?
    /// Whether the annotation is selected.
    public var isSelected = false
    /// The callout bubble's frame in points, for the selected annotation that shows one.
    public var calloutFrame: Rect?
}
