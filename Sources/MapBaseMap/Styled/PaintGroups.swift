import MapGeometry

/// Features of a layer grouped by their evaluated paint, in first-seen order, each group one path:
/// every feature with the same paint is drawn with one Cairo call.
struct PaintGroups<Paint: Hashable> {
    private(set) var paints: [Paint] = []
    private(set) var paths: [Path] = []
    private var index: [Paint: Int] = [:]

    /// The path that features with `paint` are added to.
    mutating func withPath(for paint: Paint, _ body: (inout Path) -> Void) {
        let k: Int
        if let found = index[paint] {
            k = found
        } else {
            k = paths.count
            index[paint] = k
            paints.append(paint)
            paths.append(Path())
        }
        body(&paths[k])
    }

    /// The groups that have something to draw, in first-seen order.
    var nonEmpty: [(paint: Paint, path: Path)] {
        zip(paints, paths).filter { !$0.1.isEmpty }.map { ($0.0, $0.1) }
    }
}
