import Foundation
import MapGeometry
import MapGraphics

/// Where each annotation's view goes and whether it shows: the result of validation, clustering and
/// collision, before drawing.
package struct AnnotationLayout {
    /// One annotation or cluster with its view.
    package struct Item {
        package var annotation: Annotation
        package var view: AnnotationView
        package var frame: Rect
        /// The anchor's y, for the north-to-south drawing order.
        package var y: Double
        /// Position in the snapshotter's list (a cluster: its first member's).
        package var order: Int
        package var isSelected: Bool
        package var state: AnnotationVisibility = .visible
        package var clusterID: Int?
    }

    /// Every annotation (not clusters), in the snapshotter's order.
    package var annotations: [Item] = []
    /// The clusters formed.
    package var clusters: [Item] = []
}
