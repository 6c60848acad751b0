import MapGeometry

/// Map points to image points: clipped to the view with a margin (so that Cairo never sees coordinates
/// far outside the image) and simplified in pixel space (Douglas–Peucker at half a device pixel; rings
/// smaller than that dropped).
struct LayerGeometryPipeline {
    /// The clip rectangle in image points.
    let clip: Rect
    /// Map points per image point.
    let perPoint: Double
    /// The visible map rect's origin.
    let origin: MapPoint
    /// Distance in points under which consecutive points merge.
    let tolerance: Double

    init(viewport: MapViewport, margin: Double) {
        clip = Rect(
            x: -margin, y: -margin, width: viewport.size.width + 2 * margin,
            height: viewport.size.height + 2 * margin)
        perPoint = viewport.mapPointsPerPoint
        origin = viewport.visibleMapRect.origin
        tolerance = 0.5 / viewport.scale
    }

    /// A map point of the world copy `offset` in image points.
    @inline(__always) func point(_ p: MapPoint, offset: Double) -> Point {
        Point(x: (p.x + offset - origin.x) / perPoint, y: (p.y - origin.y) / perPoint)
    }

    /// The world-copy offsets (multiples of the world width) whose copy meets the view.
    static func copies(of viewport: MapViewport, margin: Double) -> [Double] {
        let visible = viewport.visibleMapRect
        let world = WebMercator.worldSize
        let pad = margin * viewport.mapPointsPerPoint
        let first = Int(((visible.minX - pad) / world).rounded(.down))
        let last = Int(((visible.maxX + pad - 1e-9) / world).rounded(.down))
        return (first...max(first, last)).map { Double($0) * world }
    }

    /// A closed ring projected, clipped (Sutherland–Hodgman) and simplified; nil when nothing is left.
    func ring(_ ring: [MapPoint], offset: Double) -> [Point]? {
        var points = simplify(ring.map { point($0, offset: offset) })
        guard points.count > 2 else { return nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        guard maxX - minX >= tolerance || maxY - minY >= tolerance else { return nil }
        let needsClip = points.contains { !inClip($0) }
        if needsClip {
            points = clipPolygon(points)
            guard points.count > 2 else { return nil }
        }
        return points
    }

    /// A polyline projected, clipped into the pieces inside the clip rect and simplified.
    func line(_ line: [MapPoint], offset: Double) -> [[Point]] {
        let points = simplify(line.map { point($0, offset: offset) })
        guard points.count > 1 else { return [] }
        if points.allSatisfy({ inClip($0) }) { return [points] }
        var pieces: [[Point]] = []
        var current: [Point] = []
        for (a, b) in zip(points, points.dropFirst()) {
            guard let (p, q) = clipSegment(a, b) else {
                if current.count > 1 { pieces.append(current) }
                current = []
                continue
            }
            if current.isEmpty || current.last! != p {
                if current.count > 1 { pieces.append(current) }
                current = [p]
            }
            current.append(q)
        }
        if current.count > 1 { pieces.append(current) }
        return pieces
    }

    @inline(__always) func inClip(_ p: Point) -> Bool {
        p.x >= clip.minX && p.x <= clip.maxX && p.y >= clip.minY && p.y <= clip.maxY
    }

    /// Drops points closer than the tolerance to the last kept point, then simplifies with Douglas–Peucker
    /// at the same tolerance: the drawn line moves by less than the tolerance (half a device pixel).
    func simplify(_ input: [Point]) -> [Point] {
        guard input.count > 2 else { return input }
        var points: [Point] = [input[0]]
        points.reserveCapacity(input.count)
        let t2 = tolerance * tolerance
        for p in input.dropFirst().dropLast() {
            let last = points[points.count - 1]
            let dx = p.x - last.x
            let dy = p.y - last.y
            if dx * dx + dy * dy >= t2 { points.append(p) }
        }
        points.append(input[input.count - 1])
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            let pa = points[a]
            let ex = points[b].x - pa.x
            let ey = points[b].y - pa.y
            let e2 = ex * ex + ey * ey
            var worst = -1.0
            var index = a
            for i in (a + 1)..<b {
                let dx = points[i].x - pa.x
                let dy = points[i].y - pa.y
                // Squared distance to the segment a-b (to point a when the segment is degenerate).
                var d2: Double
                if e2 == 0 {
                    d2 = dx * dx + dy * dy
                } else {
                    let t = max(0, min(1, (dx * ex + dy * ey) / e2))
                    let qx = dx - t * ex
                    let qy = dy - t * ey
                    d2 = qx * qx + qy * qy
                }
                if d2 > worst {
                    worst = d2
                    index = i
                }
            }
            if worst > t2 {
                keep[index] = true
                stack.append((a, index))
                stack.append((index, b))
            }
        }
        var out: [Point] = []
        out.reserveCapacity(points.count)
        for i in points.indices where keep[i] { out.append(points[i]) }
        return out
    }

    private func clipPolygon(_ input: [Point]) -> [Point] {
        var points = input
        for edge in 0..<4 {
            guard !points.isEmpty else { return [] }
            var out: [Point] = []
            out.reserveCapacity(points.count + 4)
            func inside(_ p: Point) -> Bool {
                switch edge {
                case 0: return p.x >= clip.minX
                case 1: return p.x <= clip.maxX
                case 2: return p.y >= clip.minY
                default: return p.y <= clip.maxY
                }
            }
            func cross(_ a: Point, _ b: Point) -> Point {
                switch edge {
                case 0, 1:
                    let x = edge == 0 ? clip.minX : clip.maxX
                    return Point(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
                default:
                    let y = edge == 2 ? clip.minY : clip.maxY
                    return Point(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
                }
            }
            var previous = points[points.count - 1]
            for p in points {
                let pIn = inside(p)
                if pIn {
                    if !inside(previous) { out.append(cross(previous, p)) }
                    out.append(p)
                } else if inside(previous) {
                    out.append(cross(previous, p))
                }
                previous = p
            }
            points = out
        }
        return points
    }

    /// Liang–Barsky segment clipping.
    private func clipSegment(_ a: Point, _ b: Point) -> (Point, Point)? {
        var t0 = 0.0
        var t1 = 1.0
        let dx = b.x - a.x
        let dy = b.y - a.y
        for (p, q) in [(-dx, a.x - clip.minX), (dx, clip.maxX - a.x), (-dy, a.y - clip.minY), (dy, clip.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    t0 = max(t0, r)
                } else {
                    if r < t0 { return nil }
                    t1 = min(t1, r)
                }
            }
        }
        let p = t0 == 0 ? a : Point(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let q = t1 == 1 ? b : Point(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (p, q)
    }
}
