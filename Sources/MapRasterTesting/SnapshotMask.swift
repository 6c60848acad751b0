import MapDiff
import MapGeometry
import MapRender

extension MapMask {
    /// The boxes a snapshot drew: its attribution lines, the frames (and callouts) of the annotation views
    /// that show, and the base map's labels.
    public init(_ snapshot: Snapshot) {
        func box(_ r: Rect) -> (x: Double, y: Double, width: Double, height: Double) {
            (r.minX, r.minY, r.width, r.height)
        }
        let shown = (snapshot.annotations + snapshot.clusters).filter { $0.visibility == .visible }
        self.init(
            scale: snapshot.viewport.scale, attribution: snapshot.attributionBoxes.map(box),
            annotations: shown.map { box($0.frame) } + shown.compactMap { $0.calloutFrame.map(box) },
            labels: snapshot.labelBoxes.map(box))
    }
}
