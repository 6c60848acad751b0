/// A uniform grid over rectangles in any plane (map points, world points, image points): each entry is
/// listed in every cell its rect meets, so a query visits only the cells it covers. Every spatial index
/// of the package is one of these: base-map features, label and annotation collisions, placed labels.
///
/// Work stays bounded whatever the input: an entry whose rect spans more than ``maxCellsPerSide``
/// cells a side, or is not finite, goes to a list that every query returns; a query that covers more
/// cells than there are entries scans the entries instead of the cells.
///
/// ```swift
/// var grid = SpatialGrid(cellSize: 64)
/// let id = grid.insert(Rect(x: 10, y: 10, width: 20, height: 8))
/// grid.query(Rect(x: 0, y: 0, width: 16, height: 16))  // [id]
/// ```
package struct SpatialGrid: Sendable {
    /// An entry spanning more cells than this per side is kept in the list of large entries.
    package static let maxCellsPerSide = 64

    /// The width and height of a cell.
    package let cellSize: Double
    /// The rects inserted, by id (insertion order).
    package private(set) var rects: [Rect] = []
    private var cells: [Int64: [Int32]] = [:]
    private var large: [Int32] = []
    /// The ids of the entries inserted `soft`, ascending (empty in most grids).
    private var softIDs: Set<Int32> = []
    /// The radii of the entries inserted as circles (``insert(circle:radius:soft:)``), each centred in its
    /// rect; empty in most grids.
    private var radii: [Int32: Double] = [:]

    /// An empty grid with square cells of `cellSize` (in the unit of the rects).
    package init(cellSize: Double) {
        precondition(cellSize > 0 && cellSize.isFinite, "SpatialGrid cell size must be positive")
        self.cellSize = cellSize
    }

    /// A grid of map rects, ids in array order (null rects are never found).
    package init(mapRects: [MapRect], cellSize: Double) {
        self.init(cellSize: cellSize)
        for r in mapRects {
            if r.isNull {
                rects.append(Rect(x: .nan, y: .nan, width: 0, height: 0))
            } else {
                insert(Rect(x: r.minX, y: r.minY, width: r.width, height: r.height))
            }
        }
    }

    /// The number of entries.
    package var count: Int { rects.count }

    private struct CellRange {
        var x0: Int64, y0: Int64, x1: Int64, y1: Int64
        var cellCount: Double { Double(x1 - x0 + 1) * Double(y1 - y0 + 1) }
    }

    /// The cells a rect covers; nil when it is not finite or too large to list.
    private func range(_ r: Rect, limit: Int64) -> CellRange? {
        let x0 = (r.minX / cellSize).rounded(.down)
        let x1 = (r.maxX / cellSize).rounded(.down)
        let y0 = (r.minY / cellSize).rounded(.down)
        let y1 = (r.maxY / cellSize).rounded(.down)
        // 2^40 cells either way keeps the packed key exact.
        let bound = 1_099_511_627_776.0
        guard abs(x0) < bound, abs(x1) < bound, abs(y0) < bound, abs(y1) < bound, x1 - x0 < Double(limit),
            y1 - y0 < Double(limit)
        else { return nil }
        return CellRange(x0: Int64(x0), y0: Int64(y0), x1: Int64(x1), y1: Int64(y1))
    }

    @inline(__always) private static func key(_ x: Int64, _ y: Int64) -> Int64 {
        (y &<< 24) ^ (x & 0xFF_FFFF) ^ (x &<< 44)
    }

    /// Adds a rect and returns its id. A `soft` entry is found by every query but skipped by
    /// ``intersectsAny(_:hardOnly:)`` with `hardOnly` (MapLibre's cooperative overlap: a symbol placed with
    /// `always` or `cooperative` overlap does not keep a `cooperative` symbol out).
    @discardableResult
    package mutating func insert(_ rect: Rect, soft: Bool = false) -> Int {
        let id = Int32(truncatingIfNeeded: rects.count)
        rects.append(rect)
        if soft { softIDs.insert(id) }
        guard let cr = range(rect, limit: Int64(Self.maxCellsPerSide)) else {
            large.append(id)
            return rects.count - 1
        }
        for y in cr.y0...cr.y1 {
            for x in cr.x0...cr.x1 { cells[Self.key(x, y), default: []].append(id) }
        }
        return rects.count - 1
    }

    /// Adds a circle (MapLibre's collision circles of a line label) and returns its id; its rect is the
    /// square around it, and the intersection tests use the circle itself.
    @discardableResult
    package mutating func insert(circle center: Point, radius: Double, soft: Bool = false) -> Int {
        let id = insert(
            Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius), soft: soft)
        radii[Int32(truncatingIfNeeded: id)] = radius
        return id
    }

    /// Ids of the entries whose cells `rect` touches (a superset of those meeting it), ascending, each
    /// once.
    package func query(_ rect: Rect) -> [Int] {
        var result: [Int] = []
        forEachCandidate(rect) { result.append($0) }
        return result
    }

    /// Calls `body` with the ids of the entries whose cells `rect` touches, ascending, each once.
    package func forEachCandidate(_ rect: Rect, _ body: (Int) -> Void) {
        guard !rects.isEmpty else { return }
        guard let cr = range(rect, limit: Int64.max / 4), cr.cellCount <= Double(rects.count) else {
            // A query larger than the grid's content: test every entry.
            for (i, r) in rects.enumerated() where Self.meets(r, rect) { body(i) }
            return
        }
        var found: [Int32] = large
        for y in cr.y0...cr.y1 {
            for x in cr.x0...cr.x1 {
                if let bucket = cells[Self.key(x, y)] { found += bucket }
            }
        }
        found.sort()
        var previous: Int32 = -1
        for i in found where i != previous {
            previous = i
            body(Int(i))
        }
    }

    /// Whether any entry's rect overlaps `rect` (interiors meet); with `hardOnly`, any entry not inserted
    /// `soft`.
    /// A circle entry meets `rect` when MapLibre's `circleAndRectCollide` says so (edges that touch meet).
    package func intersectsAny(_ rect: Rect, hardOnly: Bool = false) -> Bool {
        var hit = false
        let skipSoft = hardOnly && !softIDs.isEmpty
        let circles = !radii.isEmpty
        forEachCandidate(rect) {
            guard !hit else { return }
            let id = Int32(truncatingIfNeeded: $0)
            let meets: Bool
            if circles, let r = radii[id] {
                meets = Self.circle(Point(x: rects[$0].midX, y: rects[$0].midY), r, meets: rect)
            } else {
                meets = rects[$0].intersects(rect)
            }
            if meets, !skipSoft || !softIDs.contains(id) { hit = true }
        }
        return hit
    }

    /// Whether any entry meets the circle at `center` of `radius`: a rect as MapLibre's
    /// `circleAndRectCollide` tests it (touching meets), a circle as its `circlesCollide` does (closer
    /// than the radii together); with `hardOnly`, any entry not inserted `soft`.
    package func intersectsAny(circle center: Point, radius: Double, hardOnly: Bool = false) -> Bool {
        var hit = false
        let skipSoft = hardOnly && !softIDs.isEmpty
        let square = Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        forEachCandidate(square) {
            guard !hit else { return }
            let id = Int32(truncatingIfNeeded: $0)
            let r = rects[$0]
            let meets: Bool
            if let other = radii[id] {
                let (dx, dy) = (r.midX - center.x, r.midY - center.y)
                meets = (radius + other) * (radius + other) > dx * dx + dy * dy
            } else {
                meets = Self.circle(center, radius, meets: r)
            }
            if meets, !skipSoft || !softIDs.contains(id) { hit = true }
        }
        return hit
    }

    /// MapLibre's `circleAndRectCollide`: the circle meets the rect, edges that touch included.
    package static func circle(_ center: Point, _ radius: Double, meets rect: Rect) -> Bool {
        let halfWidth = rect.width / 2
        let halfHeight = rect.height / 2
        let distX = abs(center.x - (rect.minX + halfWidth))
        let distY = abs(center.y - (rect.minY + halfHeight))
        guard distX <= halfWidth + radius, distY <= halfHeight + radius else { return false }
        if distX <= halfWidth || distY <= halfHeight { return true }
        let dx = distX - halfWidth
        let dy = distY - halfHeight
        return dx * dx + dy * dy <= radius * radius
    }

    /// Closed-interval overlap, so that points (empty rects) are found.
    @inline(__always) package static func meets(_ a: Rect, _ b: Rect) -> Bool {
        a.minX <= b.maxX && a.maxX >= b.minX && a.minY <= b.maxY && a.maxY >= b.minY
    }
}
