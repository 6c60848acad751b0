import MapGeometry

/// A grid of occupied shapes in image points for collision and clustering queries.
struct ShapeGrid {
    struct Shape {
        var frame: Rect
        var isCircle: Bool

        func overlaps(_ other: Shape) -> Bool {
            guard frame.intersects(other.frame) else { return false }
            switch (isCircle, other.isCircle) {
            case (false, false): return true
            case (true, true):
                let r1 = min(frame.width, frame.height) / 2
                let r2 = min(other.frame.width, other.frame.height) / 2
                let dx = frame.midX - other.frame.midX
                let dy = frame.midY - other.frame.midY
                return dx * dx + dy * dy < (r1 + r2) * (r1 + r2)
            case (true, false): return Self.circle(frame, overlaps: other.frame)
            case (false, true): return Self.circle(other.frame, overlaps: frame)
            }
        }

        static func circle(_ c: Rect, overlaps rect: Rect) -> Bool {
            let r = min(c.width, c.height) / 2
            let nx = max(rect.minX, min(c.midX, rect.maxX))
            let ny = max(rect.minY, min(c.midY, rect.maxY))
            let dx = c.midX - nx
            let dy = c.midY - ny
            return dx * dx + dy * dy < r * r
        }
    }

    let cell: Double
    private var cells: [Int64: [Int]] = [:]
    private(set) var shapes: [Shape] = []

    init(cell: Double = 64) { self.cell = cell }

    private func keys(_ r: Rect) -> [Int64] {
        let limit = 1e12
        guard abs(r.minX) < limit, abs(r.maxX) < limit, abs(r.minY) < limit, abs(r.maxY) < limit else {
            return [Int64.min]
        }
        let x0 = Int64((r.minX / cell).rounded(.down))
        let x1 = Int64((r.maxX / cell).rounded(.down))
        let y0 = Int64((r.minY / cell).rounded(.down))
        let y1 = Int64((r.maxY / cell).rounded(.down))
        guard x1 - x0 < 64, y1 - y0 < 64 else { return [Int64.min] }  // huge shapes share one bucket
        var result: [Int64] = []
        for x in x0...x1 { for y in y0...y1 { result.append(x &* 4_194_304 &+ y) } }
        return result
    }

    mutating func insert(_ shape: Shape) {
        shapes.append(shape)
        for key in keys(shape.frame) { cells[key, default: []].append(shapes.count - 1) }
    }

    /// Indices of inserted shapes whose buckets the rect touches (a superset of the overlapping ones).
    func candidates(_ r: Rect) -> [Int] {
        var seen = Set<Int>()
        var result: [Int] = []
        for key in keys(r) + [Int64.min] {
            for i in cells[key] ?? [] where seen.insert(i).inserted { result.append(i) }
        }
        return result.sorted()
    }

    func overlapsAny(_ shape: Shape) -> Bool {
        candidates(shape.frame).contains { shapes[$0].overlaps(shape) }
    }
}
