/// Parallel lines in image points, for `line-offset`.
package enum LineOffset {
    /// The polyline moved sideways by `distance` points: positive to the right of the direction of
    /// travel (with y down, as images are), negative to the left. Each vertex moves along the bisector
    /// of its two segments' normals, far enough that both segments stay `distance` away (the miter),
    /// at most `maximumMiter` times `distance` (sharper corners are cut short). Repeated points are
    /// dropped; fewer than two distinct points give the input unchanged.
    package static func offset(_ points: [Point], by distance: Double, maximumMiter: Double = 4) -> [Point] {
        guard distance != 0, distance.isFinite else { return points }
        var p: [Point] = []
        p.reserveCapacity(points.count)
        for q in points where p.last.map({ $0.x != q.x || $0.y != q.y }) ?? true { p.append(q) }
        guard p.count > 1 else { return points }
        func normal(_ a: Point, _ b: Point) -> Point {
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            return Point(x: -dy / length, y: dx / length)
        }
        var result: [Point] = []
        result.reserveCapacity(p.count)
        for i in 0..<p.count {
            let before = i > 0 ? normal(p[i - 1], p[i]) : nil
            let after = i + 1 < p.count ? normal(p[i], p[i + 1]) : nil
            var n: Point
            switch (before, after) {
            case let (b?, a?):
                let sx = b.x + a.x
                let sy = b.y + a.y
                let length = (sx * sx + sy * sy).squareRoot()
                if length < 1e-9 {
                    n = a
                } else {
                    n = Point(x: sx / length, y: sy / length)
                    let cosine = n.x * a.x + n.y * a.y
                    let factor = min(1 / max(cosine, 1e-9), maximumMiter)
                    n = Point(x: n.x * factor, y: n.y * factor)
                }
            case let (b?, nil): n = b
            case let (nil, a?): n = a
            default: n = Point(x: 0, y: 0)
            }
            result.append(Point(x: p[i].x + n.x * distance, y: p[i].y + n.y * distance))
        }
        return result
    }
}
