import MapGeometry

/// Boxes of placed labels in world points (map points divided by map points per point at the image's
/// zoom), hashed into a grid, so that a new label is tested only against its neighbours.
struct CollisionIndex {
    private static let cell = 64.0
    private var boxes: [Rect] = []
    private var cells: [Int64: [Int]] = [:]

    private static func keys(_ r: Rect) -> [Int64] {
        let x0 = Int64((r.minX / cell).rounded(.down))
        let x1 = Int64((r.maxX / cell).rounded(.down))
        let y0 = Int64((r.minY / cell).rounded(.down))
        let y1 = Int64((r.maxY / cell).rounded(.down))
        var keys: [Int64] = []
        for y in y0...y1 {
            for x in x0...x1 { keys.append((y << 32) ^ (x & 0xFFFF_FFFF)) }
        }
        return keys
    }

    /// Whether a box overlaps any placed box.
    func collides(_ r: Rect) -> Bool {
        for key in Self.keys(r) {
            for i in cells[key] ?? [] where boxes[i].intersects(r) { return true }
        }
        return false
    }

    /// Records a placed box.
    mutating func insert(_ r: Rect) {
        boxes.append(r)
        for key in Self.keys(r) { cells[key, default: []].append(boxes.count - 1) }
    }
}
