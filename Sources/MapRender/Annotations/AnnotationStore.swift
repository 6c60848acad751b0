import MapGeometry
import MapGraphics

/// The snapshotter's annotation bookkeeping beyond the list itself: the spatial index, the selection, the
/// user location, and the reuse cache's switch and counters.
final class AnnotationStore {
    var index: AnnotationIndex?
    /// The positions in the annotation list of the indexed points (all but the user location).
    var indexPositions: [Int] = []
    /// The user location's position in the annotation list when the index was built.
    var userLocationPosition: Int?
    var selected: [Annotation] = []
    var showsUserLocation = false
    let userLocation = UserLocation()
    var userTrackingMode: UserTrackingMode = .none
    var reusesViewBitmaps = true
    var bitmapsDrawn = 0
    var bitmapsReused = 0
}
