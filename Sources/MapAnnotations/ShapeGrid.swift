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

    private var grid: SpatialGrid
    private(set) var shapes: [Shape] = []

    init(cell: Double = 64) { grid = SpatialGrid(cellSize: cell) }

    mutating func insert(_ shape: Shape) {
        shapes.append(shape)
        grid.insert(shape.frame)
    }

    /// Indices of inserted shapes whose cells the rect touches (a superset of the overlapping ones).
    func candidates(_ r: Rect) -> [Int] { grid.query(r) }

    func overlapsAny(_ shape: Shape) -> Bool {
        var hit = false
        grid.forEachCandidate(shape.frame) { if !hit, shapes[$0].overlaps(shape) { hit = true } }
        return hit
    }
}
