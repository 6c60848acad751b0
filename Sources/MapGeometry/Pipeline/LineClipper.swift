/// A piece of a stroked line in image points, with its distance from the line's start (for dashes).
package struct StrokePiece: Sendable {
    package var points: [Point]
    /// How far along the whole (unclipped) line, in points, this piece starts.
    package var startLength: Double
    /// Whether the piece is a whole ring, to be closed with a join rather than caps.
    package var closed: Bool
    /// The length of the whole line the piece comes from, in points.
    package var lineLength = 0.0

    /// A piece of a line.
    package init(points: [Point], startLength: Double, closed: Bool, lineLength: Double = 0) {
        self.points = points
        self.startLength = startLength
        self.closed = closed
        self.lineLength = lineLength
    }
}

/// Clips polylines to a rectangle (Liang-Barsky per segment), keeping the length travelled so that dash
/// patterns continue where a clipped line re-enters.
package enum LineClipper {
    /// The parts of `points` inside `rect`, and the length of the whole line (only repeated points are
    /// dropped).
    package static func clip(_ points: [Point], to rect: Rect) -> (pieces: [StrokePiece], length: Double) {
        clip(points, project: { $0 }, to: rect, tolerance: 0)
    }

    /// Projects, clips and radially thins a line in one pass, without intermediate arrays: map points go
    /// through `project`, the parts inside `rect` become pieces, and inside a piece a vertex closer than
    /// `tolerance` to the last kept one is dropped (the piece's ends are always kept).
    package static func clip<P>(
        _ points: [P], project: (P) -> Point, to rect: Rect, tolerance: Double
    ) -> (pieces: [StrokePiece], length: Double) {
        var pieces: [StrokePiece] = []
        guard points.count > 1 else { return ([], 0) }
        let tolerance2 = tolerance * tolerance
        var current: [Point] = []
        var pending: Point?
        var currentStart = 0.0
        var travelled = 0.0
        func finish() {
            if let p = pending { current.append(p) }
            pending = nil
            if current.count > 1 {
                pieces.append(StrokePiece(points: current, startLength: currentStart, closed: false))
            }
            current = []
        }
        var a = project(points[0])
        for i in 1..<points.count {
            let b = project(points[i])
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            if let (t0, t1) = clipSegment(a, b, rect) {
                let p0 = t0 == 0 ? a : Point(x: a.x + t0 * dx, y: a.y + t0 * dy)
                let p1 = t1 == 1 ? b : Point(x: a.x + t1 * dx, y: a.y + t1 * dy)
                if current.isEmpty || t0 > 0 {
                    finish()
                    current = [p0]
                    currentStart = travelled + t0 * length
                }
                if t1 < 1 {
                    pending = nil
                    current.append(p1)
                    finish()
                } else {
                    let last = current[current.count - 1]
                    let ex = p1.x - last.x
                    let ey = p1.y - last.y
                    if ex * ex + ey * ey > tolerance2 {
                        current.append(p1)
                        pending = nil
                    } else {
                        pending = p1
                    }
                }
            } else if !current.isEmpty {
                finish()
            }
            travelled += length
            a = b
        }
        finish()
        return (pieces, travelled)
    }

    /// The parameter range of segment a-b inside `rect`, or nil when it misses it.
    @inline(__always)
    package static func clipSegment(_ a: Point, _ b: Point, _ rect: Rect) -> (Double, Double)? {
        var t0 = 0.0
        var t1 = 1.0
        let dx = b.x - a.x
        let dy = b.y - a.y
        let checks = [
            (-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y),
        ]
        for (p, q) in checks {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    if r > t0 { t0 = r }
                } else {
                    if r < t0 { return nil }
                    if r < t1 { t1 = r }
                }
            }
        }
        return (t0, t1)
    }
}
