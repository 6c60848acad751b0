import MapGeometry
import MapGraphics

/// The snapshotter's annotation bookkeeping beyond the list itself: the spatial index, the selection, the
/// user location, and the reuse cache's switch and counters.
package final class AnnotationStore {
    package init() {}

    package var index: AnnotationIndex?
    /// The positions in the annotation list of the indexed points (all but the user location).
    package var indexPositions: [Int] = []
    /// The user location's position in the annotation list when the index was built.
    package var userLocationPosition: Int?
    package var selected: [Annotation] = []
    package var showsUserLocation = false
    package let userLocation = UserLocation()
    package var userTrackingMode: UserTrackingMode = .none
    package var reusesViewBitmaps = true
    package var bitmapsDrawn = 0
    package var bitmapsReused = 0
}
