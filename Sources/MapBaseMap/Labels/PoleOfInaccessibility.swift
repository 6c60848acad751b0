import Foundation
import MapGeometry

/// The point of a polygon farthest from its outline (its "pole of inaccessibility"), where MapLibre puts
/// a polygon's point label, found as MapLibre finds it: square cells covering the outer ring's bounding
/// box (as wide as its shorter side), searched best-first by the distance a cell could reach (its
/// centre's signed distance to the outline plus its half-diagonal), split in four until no cell can beat
/// the best by more than `precision`; the centroid and then the bounding box's centre are the first
/// candidates. Cells of equal promise are taken in a binary heap's order (append and sift up, take the top and
/// sift the last item down), which decides between the equally good centres of symmetric shapes as MapLibre's
/// queue does.
///
/// Work is bounded (a hostile polygon cannot spin it, nor can a hostile feature of many polygons): at most
/// `maximumCells` cells per polygon, and one ``Budget`` of edge distances (each cell costs one distance per
/// vertex of the polygon's rings) shared by all the polygons of a feature. When either runs out, the best
/// cell so far is the pole: a polygon whose search the budget cut short, and whose best point so far is not
/// inside it (only its centroid and box centre were tried, outside it), has none.
enum PoleOfInaccessibility {
    static let maximumCells = 20_000

    /// The edge distances one feature's poles may cost: 2^24 (about 16.8 million), tens of milliseconds of
    /// a release build. Every polygon feature of the repository's vector tiles and of MapLibre's render-test
    /// tiles (14,063 features, 42 tiles, searched at precision 16 as labels are) takes at most 572,200.
    static let featureBudget = 1 << 24

    /// The edge distances all the poles of one symbol layer's draw may cost: 2^26 (about 67 million), four
    /// features at their full budget; the busiest real tile layer seen (MapLibre's extent1024 landcover, 1,054
    /// features) takes about 1 million.
    static let layerBudget = 1 << 26

    /// The work a feature's pole searches may still do, counted in edge distances (point-to-segment distances).
    struct Budget {
        /// The edge distances the grid cells may cost in all.
        let limit: Int
        /// The edge distances computed so far: cells and first guesses (a centroid and a box centre are always
        /// computed, so this can exceed `limit` by two guesses per polygon, which is linear in the input).
        private(set) var spent = 0
        /// Whether a search stopped because the budget ran out.
        private(set) var exhausted = false

        init(limit: Int = PoleOfInaccessibility.featureBudget) {
            self.limit = limit
        }

        /// Takes `cost` from the budget when it holds that much (false, and exhausted, otherwise).
        mutating func take(_ cost: Int) -> Bool {
            guard cost <= limit - min(spent, limit) else {
                exhausted = true
                return false
            }
            spent += cost
            return true
        }

        /// Counts `cost` whether or not the budget holds it.
        mutating func charge(_ cost: Int) {
            spent += cost
        }
    }

    /// The pole of `rings` (the outer ring first, then holes; closed or not) to within `precision` units;
    /// nil for an empty polygon. Spends a budget of its own (a feature's, ``featureBudget``).
    static func find(_ rings: [[Point]], precision: Double) -> Point? {
        var budget = Budget()
        return find(rings, precision: precision, budget: &budget)
    }

    /// The pole of `rings` (the outer ring first, then holes; closed or not) to within `precision` units,
    /// spending `budget` (one for all the polygons of a feature); nil for an empty polygon, or when the budget
    /// ran out before a point inside was found.
    static func find(_ rings: [[Point]], precision: Double, budget: inout Budget) -> Point? {
        guard let outer = rings.first, let first = outer.first else { return nil }
        var minX = first.x
        var minY = first.y
        var maxX = first.x
        var maxY = first.y
        for p in outer {
            minX = min(minX, p.x)
            minY = min(minY, p.y)
            maxX = max(maxX, p.x)
            maxY = max(maxY, p.y)
        }
        guard [minX, minY, maxX, maxY].allSatisfy(\.isFinite) else { return nil }
        let size = min(maxX - minX, maxY - minY)
        guard size > 0 else { return Point(x: minX, y: minY) }
        // What `signedDistance` computes for one cell: a distance per vertex of every ring of two or more.
        let cost = max(1, rings.reduce(0) { $0 + ($1.count > 1 ? $1.count : 0) })
        var queue = Heap()
        var h = size / 2
        var x = minX
        var examined = 0
        var cut = false
        while x < maxX, examined < maximumCells, !cut {
            var y = minY
            while y < maxY, examined < maximumCells {
                guard budget.take(cost) else {
                    cut = true
                    break
                }
                queue.push(Cell(x: x + h, y: y + h, h: h, rings: rings))
                examined += 1
                y += size
            }
            x += size
        }
        // The first two guesses: the outer ring's centroid, then its bounding box's centre (a rectangle's pole,
        // which the cells only approach).
        budget.charge(2 * cost)
        var best = centroidCell(rings)
        let boxCentre = Cell(x: minX + (maxX - minX) / 2, y: minY + (maxY - minY) / 2, h: 0, rings: rings)
        if boxCentre.d > best.d { best = boxCentre }
        while let cell = queue.pop() {
            if cell.d > best.d || best.d == 0 { best = cell }
            if cell.max - best.d <= precision { continue }
            guard examined + 4 <= maximumCells else { break }
            guard budget.take(4 * cost) else {
                cut = true
                break
            }
            h = cell.h / 2
            for (dx, dy) in [(-h, -h), (h, -h), (-h, h), (h, h)] {
                queue.push(Cell(x: cell.x + dx, y: cell.y + dy, h: h, rings: rings))
            }
            examined += 4
        }
        // Cut short with no point inside found: no pole rather than a label outside the polygon.
        if cut, best.d <= 0 { return nil }
        return Point(x: best.x, y: best.y)
    }

    struct Cell {
        var x: Double
        var y: Double
        var h: Double
        /// Signed distance from the centre to the outline, positive inside.
        var d: Double
        /// The largest distance a point of the cell could have.
        var max: Double

        init(x: Double, y: Double, h: Double, rings: [[Point]]) {
            self.x = x
            self.y = y
            self.h = h
            d = PoleOfInaccessibility.signedDistance(Point(x: x, y: y), rings)
            max = d + h * 2.0.squareRoot()
        }
    }

    /// The signed distance from `p` to the rings' edges: positive inside (even-odd), negative outside.
    static func signedDistance(_ p: Point, _ rings: [[Point]]) -> Double {
        var inside = false
        var best = Double.infinity
        for ring in rings where ring.count > 1 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i]
                let b = ring[j]
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                    inside.toggle()
                }
                best = min(best, segmentDistanceSquared(p, a, b))
                j = i
            }
        }
        let d = best.isFinite ? best.squareRoot() : 0
        return inside ? d : -d
    }

    static func segmentDistanceSquared(_ p: Point, _ a: Point, _ b: Point) -> Double {
        var x = a.x
        var y = a.y
        let dx = b.x - x
        let dy = b.y - y
        if dx != 0 || dy != 0 {
            let t = ((p.x - x) * dx + (p.y - y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = b.x
                y = b.y
            } else if t > 0 {
                x += dx * t
                y += dy * t
            }
        }
        return (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)
    }

    /// A zero-size cell at the outer ring's area centroid (its first point when the area is zero).
    static func centroidCell(_ rings: [[Point]]) -> Cell {
        let ring = rings[0]
        var area = 0.0
        var cx = 0.0
        var cy = 0.0
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i]
            let b = ring[j]
            let f = a.x * b.y - b.x * a.y
            cx += (a.x + b.x) * f
            cy += (a.y + b.y) * f
            area += f * 3
            j = i
        }
        if area == 0 { return Cell(x: ring[0].x, y: ring[0].y, h: 0, rings: rings) }
        return Cell(x: cx / area, y: cy / area, h: 0, rings: rings)
    }

    /// A max-heap of cells by `max` (a textbook binary heap).
    struct Heap {
        private var items: [Cell] = []

        mutating func push(_ cell: Cell) {
            items.append(cell)
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if cell.max <= items[parent].max { break }
                items[i] = items[parent]
                i = parent
            }
            items[i] = cell
        }

        mutating func pop() -> Cell? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            guard !items.isEmpty else { return top }
            var i = 0
            let half = items.count / 2
            while i < half {
                var child = 2 * i + 1
                if child + 1 < items.count, items[child + 1].max > items[child].max { child += 1 }
                if items[child].max <= last.max { break }
                items[i] = items[child]
                i = child
            }
            items[i] = last
            return top
        }
    }
}
