/// Exact point-in-polygon over a whole layer through a uniform grid of 0.25-degree cells.
///
/// Each cell keeps the edges whose bounding box touches it and the features that contain the cell's reference
/// point (its center moved half a micro-degree, so that it never shares an x or y with a vertex, which all lie on
/// whole micro-degrees). A query walks from the point horizontally to the reference's longitude and then
/// vertically to the reference: that path stays inside the cell, so it can only cross the cell's own edges, and
/// the point is inside a feature exactly when the reference is inside and the path crosses that feature's
/// boundary an even number of times. The crossing tests are the even-odd ray test's half-open rules, so the
/// answer is the ray test's answer against the full polygon.
struct PolygonIndex: Sendable {
    static let cellSize: Int32 = 250_000
    static let columns = 1440
    static let rows = 720

    let layer: PolygonLayer
    /// Per cell, a range of `cellEdges`; edges are grouped by feature, features ascending.
    private let edgeStart: [Int32]
    private let cellEdges: [Int32]
    /// Per cell, a range of `cellInside`: the features containing the reference point, ascending.
    private let insideStart: [Int32]
    private let cellInside: [Int32]

    /// The most (cell, edge) pairs an index may hold: the shipped data needs a few million; a file whose edges
    /// would cover more is refused instead of exhausting memory.
    static let maximumCellEdges = 50_000_000

    init(layer: PolygonLayer, file: String) throws {
        self.layer = layer
        let cellCount = Self.columns * Self.rows
        let xs = layer.xs
        let ys = layer.ys
        let edgeFeature = layer.edgeFeature
        let vertexCount = xs.count

        // Edges into cells: count, prefix sums, fill (vertex order is feature order, so cells stay grouped).
        var counts = [Int32](repeating: 0, count: cellCount + 1)
        @inline(__always) func cellRange(_ v: Int) -> (Int, Int, Int, Int) {
            let (ax, bx) = (xs[v], xs[v + 1])
            let (ay, by) = (ys[v], ys[v + 1])
            return (
                Self.column(Double(min(ax, bx))), Self.column(Double(max(ax, bx))),
                Self.row(Double(min(ay, by))), Self.row(Double(max(ay, by)))
            )
        }
        var total = 0
        for v in 0..<vertexCount where edgeFeature[v] >= 0 {
            let (c0, c1, r0, r1) = cellRange(v)
            total += (c1 - c0 + 1) * (r1 - r0 + 1)
            guard total <= Self.maximumCellEdges else {
                throw GeocodingError.badData(
                    file: file, reason: "polygon edges cover more than \(Self.maximumCellEdges) grid cells")
            }
        }
        for v in 0..<vertexCount where edgeFeature[v] >= 0 {
            let (c0, c1, r0, r1) = cellRange(v)
            for r in r0...r1 { for c in c0...c1 { counts[r * Self.columns + c + 1] += 1 } }
        }
        for i in 0..<cellCount { counts[i + 1] += counts[i] }
        var fill = counts
        var edges = [Int32](repeating: 0, count: Int(counts[cellCount]))
        for v in 0..<vertexCount where edgeFeature[v] >= 0 {
            let (c0, c1, r0, r1) = cellRange(v)
            for r in r0...r1 {
                for c in c0...c1 {
                    let cell = r * Self.columns + c
                    edges[Int(fill[cell])] = Int32(v)
                    fill[cell] += 1
                }
            }
        }
        edgeStart = counts
        cellEdges = edges

        // Reference points: for each row, the crossings of its reference latitude, swept from east to west.
        var rowCrossings = [[(x: Double, feature: Int32)]](repeating: [], count: Self.rows)
        for v in 0..<vertexCount where edgeFeature[v] >= 0 {
            let ay = Double(ys[v])
            let by = Double(ys[v + 1])
            guard ay != by else { continue }
            let low = min(ay, by)
            let high = max(ay, by)
            var r = max(
                0, Int(((low - Self.referenceOffset) / Double(Self.cellSize) + Double(Self.rows / 2)).rounded(.up)))
            while r < Self.rows {
                let ry = Self.referenceY(r)
                if ry >= high { break }
                if ry > low {
                    let ax = Double(xs[v])
                    let bx = Double(xs[v + 1])
                    rowCrossings[r].append((ax + (ry - ay) * (bx - ax) / (by - ay), edgeFeature[v]))
                }
                r += 1
            }
        }
        var pairs: [(cell: Int32, feature: Int32)] = []
        var odd: [Int32] = []
        for r in 0..<Self.rows {
            let crossings = rowCrossings[r].sorted { $0.x > $1.x }
            var next = 0
            odd.removeAll(keepingCapacity: true)
            for c in stride(from: Self.columns - 1, through: 0, by: -1) {
                let rx = Self.referenceX(c)
                while next < crossings.count, crossings[next].x > rx {
                    let feature = crossings[next].feature
                    if let at = odd.firstIndex(of: feature) {
                        odd.remove(at: at)
                    } else {
                        odd.insert(feature, at: odd.firstIndex(where: { $0 > feature }) ?? odd.count)
                    }
                    next += 1
                }
                for feature in odd { pairs.append((Int32(r * Self.columns + c), feature)) }
            }
        }
        var insideCounts = [Int32](repeating: 0, count: cellCount + 1)
        for pair in pairs { insideCounts[Int(pair.cell) + 1] += 1 }
        for i in 0..<cellCount { insideCounts[i + 1] += insideCounts[i] }
        var insideFill = insideCounts
        var inside = [Int32](repeating: 0, count: pairs.count)
        // Pairs of one cell were appended in ascending feature order; a stable placement keeps that order.
        for pair in pairs {
            inside[Int(insideFill[Int(pair.cell)])] = pair.feature
            insideFill[Int(pair.cell)] += 1
        }
        insideStart = insideCounts
        cellInside = inside
    }

    static let referenceOffset = Double(cellSize / 2) + 0.5

    @inline(__always) static func column(_ x: Double) -> Int {
        let c = ((x + 180_000_000) / Double(cellSize)).rounded(.down)
        return c < 0 ? 0 : c >= Double(columns) ? columns - 1 : Int(c)
    }

    @inline(__always) static func row(_ y: Double) -> Int {
        let r = ((y + 90_000_000) / Double(cellSize)).rounded(.down)
        return r < 0 ? 0 : r >= Double(rows) ? rows - 1 : Int(r)
    }

    @inline(__always) static func referenceX(_ column: Int) -> Double {
        Double(column) * Double(cellSize) - 180_000_000 + referenceOffset
    }

    @inline(__always) static func referenceY(_ row: Int) -> Double {
        Double(row) * Double(cellSize) - 90_000_000 + referenceOffset
    }

    /// Calls `body` with every feature containing the point (micro-degrees), in ascending order, until `body`
    /// returns false.
    func forEachFeature(containingX x: Double, y: Double, _ body: (Int) -> Bool) {
        let c = Self.column(x)
        let r = Self.row(y)
        let cell = r * Self.columns + c
        let rx = Self.referenceX(c)
        let ry = Self.referenceY(r)
        var e = Int(edgeStart[cell])
        let eEnd = Int(edgeStart[cell + 1])
        var i = Int(insideStart[cell])
        let iEnd = Int(insideStart[cell + 1])
        layer.xs.withUnsafeBufferPointer { xs in
            layer.ys.withUnsafeBufferPointer { ys in
                layer.edgeFeature.withUnsafeBufferPointer { edgeFeature in
                    while e < eEnd || i < iEnd {
                        let fe = e < eEnd ? edgeFeature[Int(cellEdges[e])] : Int32.max
                        let fi = i < iEnd ? cellInside[i] : Int32.max
                        let feature = min(fe, fi)
                        var inside = fi == feature
                        if inside { i += 1 }
                        while e < eEnd {
                            let v = Int(cellEdges[e])
                            guard edgeFeature[v] == feature else { break }
                            let ax = Double(xs[v])
                            let ay = Double(ys[v])
                            let bx = Double(xs[v + 1])
                            let by = Double(ys[v + 1])
                            if (ay > y) != (by > y) {
                                let xi = ax + (y - ay) * (bx - ax) / (by - ay)
                                if (xi > x) != (xi > rx) { inside.toggle() }
                            }
                            if (ax > rx) != (bx > rx) {
                                let yi = ay + (rx - ax) * (by - ay) / (bx - ax)
                                if (yi > y) != (yi > ry) { inside.toggle() }
                            }
                            e += 1
                        }
                        if inside, !body(Int(feature)) { return }
                    }
                }
            }
        }
    }
}
