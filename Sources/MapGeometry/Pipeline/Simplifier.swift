/// Removes vertices that make no visible difference: first those within `tolerance` of the last kept one
/// (radial distance), then those within `tolerance` of the simplified line (Douglas-Peucker). With a
/// tolerance of a fraction of a device pixel the drawing does not change visibly.
package enum Simplifier {
    /// `points` without the vertices that make no visible difference at `tolerance`.
    package static func simplify(_ points: [Point], tolerance: Double) -> [Point] {
        guard points.count > 2, tolerance > 0 else { return points }
        let tolerance2 = tolerance * tolerance
        var radial: [Point] = [points[0]]
        radial.reserveCapacity(points.count)
        var last = points[0]
        for p in points.dropFirst().dropLast() {
            let dx = p.x - last.x
            let dy = p.y - last.y
            if dx * dx + dy * dy > tolerance2 {
                radial.append(p)
                last = p
            }
        }
        radial.append(points[points.count - 1])
        guard radial.count > 2 else { return radial }
        var keep = [Bool](repeating: false, count: radial.count)
        keep[0] = true
        keep[radial.count - 1] = true
        var stack: [(Int, Int)] = [(0, radial.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let a = radial[first]
            let b = radial[last]
            var farthest = first
            var maxDistance2 = 0.0
            for i in (first + 1)..<last {
                let d = segmentDistance2(radial[i], a, b)
                if d > maxDistance2 {
                    maxDistance2 = d
                    farthest = i
                }
            }
            if maxDistance2 > tolerance2 {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        var result: [Point] = []
        result.reserveCapacity(radial.count)
        for (i, p) in radial.enumerated() where keep[i] { result.append(p) }
        return result
    }

    /// The squared distance from p to the segment a-b.
    @inline(__always)
    package static func segmentDistance2(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0
        t = max(0, min(1, t))
        let ex = a.x + t * dx - p.x
        let ey = a.y + t * dy - p.y
        return ex * ex + ey * ey
    }
}
