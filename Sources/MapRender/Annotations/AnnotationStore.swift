import MapGeometry
import MapGraphics

/// The snapshotter's annotation bookkeeping beyond the list itself: the spatial index, the selection, the
/// user location, and the reuse cache's switch and counters.
final class AnnotationStore {
    var index: AnnotationIndex?
    var selected: [Annotation] = []
    var showsUserLocation = false
    let userLocation = UserLocation()
    var userTrackingMode: UserTrackingMode = .none
    var reusesViewBitmaps = true
    var bitmapsDrawn = 0
    var bitmapsReused = 0
}
