/// The runs of a polyline between the segments `cut` rejects: each run holds the points of consecutive kept
/// segments, a run of one point is dropped. Outlines leave out the edges the data's cutting made, strokes the
/// edges off the map, line symbols the edges along a vector tile's square.
///
/// ```swift
/// runs(of: [a, b, c, d]) { $0 == b && $1 == c }  // [[a, b], [c, d]]
/// ```
package func runs<P>(of points: [P], cutting cut: (P, P) -> Bool) -> [[P]] {
    guard let first = points.first else { return [] }
    var runs: [[P]] = []
    var current: [P] = [first]
    for (a, b) in zip(points, points.dropFirst()) {
        if cut(a, b) {
            if current.count > 1 { runs.append(current) }
            current = [b]
        } else {
            current.append(b)
        }
    }
    if current.count > 1 { runs.append(current) }
    return runs
}
