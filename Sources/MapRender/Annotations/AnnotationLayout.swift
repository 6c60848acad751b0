import Foundation
import MapGeometry
import MapGraphics

/// Where each annotation's view goes and whether it shows: the result of validation, clustering and
/// collision, before drawing.
struct AnnotationLayout {
    /// One annotation or cluster with its view.
    struct Item {
        var annotation: Annotation
        var view: AnnotationView
        var frame: Rect
        /// The anchor's y, for the north-to-south drawing order.
        var y: Double
        /// Position in the snapshotter's list (a cluster: its first member's).
        var order: Int
        var isSelected: Bool
        var state: Snapshot.Visibility = .visible
        var clusterID: Int?
    }

    /// Every annotation (not clusters), in the snapshotter's order.
    var annotations: [Item] = []
    /// The clusters formed.
    var clusters: [Item] = []
}
