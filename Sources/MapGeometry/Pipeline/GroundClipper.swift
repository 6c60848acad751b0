/// Cuts ground geometry of a tilted view to the strip of ground in front of the camera that the image can
/// show (``ViewProjection/groundStrip(margin:)``), before it is projected: a point behind the camera or
/// beyond the horizon has no image point, and the homography would fold it back onto the image.
///
/// Points are the view's turned ground offsets (``ViewProjection/turned(_:)``), where the strip is the band
/// `lower <= y <= upper`; the cuts are straight lines there, so clipping is Sutherland-Hodgman for rings
/// and a walk cutting segments for lines. The work is linear in the points.
package enum GroundClipper {
    /// The part of a closed ring inside the band (Sutherland-Hodgman against its two edges); fewer than 3
    /// points when nothing is left.
    package static func clipRing(_ ring: [Point], to band: ClosedRange<Double>) -> [Point] {
        guard ring.contains(where: { !band.contains($0.y) }) else { return ring }
        let upper = clip(ring, keeping: { $0.y <= band.upperBound }, at: band.upperBound)
        return clip(upper, keeping: { $0.y >= band.lowerBound }, at: band.lowerBound)
    }

    private static func clip(_ ring: [Point], keeping inside: (Point) -> Bool, at y: Double) -> [Point] {
        guard let last = ring.last else { return [] }
        var result: [Point] = []
        result.reserveCapacity(ring.count + 2)
        var previous = last
        var previousInside = inside(previous)
        for p in ring {
            let isInside = inside(p)
            if isInside != previousInside { result.append(crossing(previous, p, y)) }
            if isInside { result.append(p) }
            previous = p
            previousInside = isInside
        }
        return result
    }

    /// The runs of an open line inside the band, each cut where the line crosses an edge.
    package static func clipLine(_ line: [Point], to band: ClosedRange<Double>) -> [[Point]] {
        guard line.contains(where: { !band.contains($0.y) }) else { return [line] }
        var runs: [[Point]] = []
        var current: [Point] = []
        for i in line.indices {
            let p = line[i]
            if i > 0 {
                let a = line[i - 1]
                // The part of segment a-p inside the band, as parameters along it.
                var t0 = 0.0
                var t1 = 1.0
                let dy = p.y - a.y
                if dy == 0 {
                    if !band.contains(a.y) { t0 = 1; t1 = 0 }
                } else {
                    let tl = (band.lowerBound - a.y) / dy
                    let tu = (band.upperBound - a.y) / dy
                    t0 = max(t0, min(tl, tu))
                    t1 = min(t1, max(tl, tu))
                }
                if t0 <= t1 {
                    let start = t0 > 0 ? lerp(a, p, t0) : a
                    let end = t1 < 1 ? lerp(a, p, t1) : p
                    if current.isEmpty || t0 > 0 {
                        if current.count > 1 { runs.append(current) }
                        current = [start]
                    }
                    current.append(end)
                    if t1 < 1 {
                        if current.count > 1 { runs.append(current) }
                        current = []
                    }
                } else if !current.isEmpty {
                    if current.count > 1 { runs.append(current) }
                    current = []
                }
            }
        }
        if current.count > 1 { runs.append(current) }
        return runs
    }

    private static func crossing(_ a: Point, _ b: Point, _ y: Double) -> Point {
        lerp(a, b, (y - a.y) / (b.y - a.y))
    }

    private static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
}
