/// Exact point-in-polygon over a whole layer through a uniform grid of 0.25-degree cells, dense cells split into
/// 4 x 4 sub-cells.
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
    /// One edge of a cell, copied so that a query reads its cell's edges in one sequential stream.
    struct Edge: Sendable {
        var ax, ay, bx, by: Int32
        var feature: Int32
    }

    /// Per cell (and one more at the end): where its edges and inside features start, its first sub-cell (or
    /// -1), in one record so that a query touches one cache line for it.
    struct Cell: Sendable {
        var edgeStart: Int32
        var insideStart: Int32
        var firstSubcell: Int32
        /// The whole answer of a cell without edges: its one feature, or -1 for none; -2 when the lists are needed.
        var only: Int32
    }
    private let cells: [Cell]
    /// Edges of each cell, grouped by feature, features ascending.
    private let cellEdges: [Edge]
    /// Features of each cell containing the cell's reference point, ascending.
    private let cellInside: [Int32]
    /// Cells with more than `subdivisionThreshold` edges are split into 4 x 4 sub-cells with their own reference
    /// points, edges and inside lists (same layout).
    private let subEdgeStart: [Int32]
    private let subEdges: [Edge]
    private let subInsideStart: [Int32]
    private let subInside: [Int32]
    static let subdivisionThreshold = 16
    static let subcellSize: Int32 = cellSize / 4

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
        var edges = [Edge](
            repeating: Edge(ax: 0, ay: 0, bx: 0, by: 0, feature: 0), count: Int(counts[cellCount]))
        for v in 0..<vertexCount where edgeFeature[v] >= 0 {
            let (c0, c1, r0, r1) = cellRange(v)
            for r in r0...r1 {
                for c in c0...c1 {
                    let cell = r * Self.columns + c
                    edges[Int(fill[cell])] = Edge(
                        ax: xs[v], ay: ys[v], bx: xs[v + 1], by: ys[v + 1], feature: edgeFeature[v])
                    fill[cell] += 1
                }
            }
        }
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
        cellInside = inside

        // Sub-cells of dense cells. A sub-cell's reference point is answered by the exact cell query.
        var firstSub = [Int32](repeating: -1, count: cellCount)
        var subStart: [Int32] = [0]
        var subEdgeList: [Edge] = []
        var subInStart: [Int32] = [0]
        var subInList: [Int32] = []
        var found: [Int32] = []
        for cell in 0..<cellCount where Int(counts[cell + 1] - counts[cell]) > Self.subdivisionThreshold {
            firstSub[cell] = Int32(subStart.count - 1)
            let c = cell % Self.columns
            let r = cell / Self.columns
            let cellWest = Double(c) * Double(Self.cellSize) - 180_000_000
            let cellSouth = Double(r) * Double(Self.cellSize) - 90_000_000
            let parent = edges[Int(counts[cell])..<Int(counts[cell + 1])]
            for sr in 0..<4 {
                for sc in 0..<4 {
                    let west = cellWest + Double(sc) * Double(Self.subcellSize)
                    let south = cellSouth + Double(sr) * Double(Self.subcellSize)
                    let east = west + Double(Self.subcellSize)
                    let north = south + Double(Self.subcellSize)
                    for edge in parent
                    where Double(min(edge.ax, edge.bx)) <= east && Double(max(edge.ax, edge.bx)) >= west
                        && Double(min(edge.ay, edge.by)) <= north && Double(max(edge.ay, edge.by)) >= south
                    {
                        subEdgeList.append(edge)
                    }
                    subStart.append(Int32(subEdgeList.count))
                    found.removeAll(keepingCapacity: true)
                    let rx = west + Self.subReferenceOffset
                    let ry = south + Self.subReferenceOffset
                    Self.scan(
                        edges: edges, from: Int(counts[cell]), to: Int(counts[cell + 1]), inside: inside,
                        from: Int(insideCounts[cell]), to: Int(insideCounts[cell + 1]), x: rx, y: ry,
                        referenceX: Self.referenceX(c), referenceY: Self.referenceY(r)
                    ) { feature in
                        found.append(Int32(feature))
                        return true
                    }
                    subInList.append(contentsOf: found)
                    subInStart.append(Int32(subInList.count))
                }
            }
        }
        var table: [Cell] = []
        table.reserveCapacity(cellCount + 1)
        for cell in 0...cellCount {
            var only: Int32 = -2
            if cell < cellCount, counts[cell] == counts[cell + 1] {
                let insideCount = insideCounts[cell + 1] - insideCounts[cell]
                if insideCount == 0 { only = -1 } else if insideCount == 1 { only = inside[Int(insideCounts[cell])] }
            }
            table.append(
                Cell(
                    edgeStart: counts[cell], insideStart: insideCounts[cell],
                    firstSubcell: cell < cellCount ? firstSub[cell] : -1, only: only))
        }
        cells = table
        subEdgeStart = subStart
        subEdges = subEdgeList
        subInsideStart = subInStart
        subInside = subInList
    }

    static let subReferenceOffset = Double(subcellSize / 2) + 0.5

    static let referenceOffset = Double(cellSize / 2) + 0.5

    @inline(__always) static func column(_ x: Double) -> Int {
        MicrodegreeGrid.cell(x, from: -180_000_000, size: Int(cellSize), count: columns)
    }

    @inline(__always) static func row(_ y: Double) -> Int {
        MicrodegreeGrid.cell(y, from: -90_000_000, size: Int(cellSize), count: rows)
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
        let this = cells[cell]
        if this.only >= 0 {
            _ = body(Int(this.only))
            return
        }
        if this.only == -1 { return }
        let next = cells[cell + 1]
        let sub = this.firstSubcell
        if sub < 0 {
            Self.scan(
                edges: cellEdges, from: Int(this.edgeStart), to: Int(next.edgeStart), inside: cellInside,
                from: Int(this.insideStart), to: Int(next.insideStart), x: x, y: y,
                referenceX: Self.referenceX(c), referenceY: Self.referenceY(r), body)
            return
        }
        let west = Double(c) * Double(Self.cellSize) - 180_000_000
        let south = Double(r) * Double(Self.cellSize) - 90_000_000
        let sc = min(3, max(0, Int(((x - west) / Double(Self.subcellSize)).rounded(.down))))
        let sr = min(3, max(0, Int(((y - south) / Double(Self.subcellSize)).rounded(.down))))
        let k = Int(sub) + sr * 4 + sc
        Self.scan(
            edges: subEdges, from: Int(subEdgeStart[k]), to: Int(subEdgeStart[k + 1]), inside: subInside,
            from: Int(subInsideStart[k]), to: Int(subInsideStart[k + 1]), x: x, y: y,
            referenceX: west + Double(sc) * Double(Self.subcellSize) + Self.subReferenceOffset,
            referenceY: south + Double(sr) * Double(Self.subcellSize) + Self.subReferenceOffset, body)
    }

    /// The even-odd walk from (x, y) to the reference point over one cell's edges and inside list.
    @inline(__always) static func scan(
        edges: [Edge], from edgeFirst: Int, to eEnd: Int, inside insideList: [Int32], from insideFirst: Int,
        to iEnd: Int, x: Double, y: Double, referenceX rx: Double, referenceY ry: Double, _ body: (Int) -> Bool
    ) {
        var e = edgeFirst
        var i = insideFirst
        edges.withUnsafeBufferPointer { edges in
            while e < eEnd || i < iEnd {
                let fe = e < eEnd ? edges[e].feature : Int32.max
                let fi = i < iEnd ? insideList[i] : Int32.max
                let feature = min(fe, fi)
                var inside = fi == feature
                if inside { i += 1 }
                while e < eEnd {
                    let edge = edges[e]
                    guard edge.feature == feature else { break }
                    let ax = Double(edge.ax)
                    let ay = Double(edge.ay)
                    let bx = Double(edge.bx)
                    let by = Double(edge.by)
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
