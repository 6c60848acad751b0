/// Joins lines whose ends meet into longer lines: the pieces of one road cut at tile edges become one
/// line again, so that a label along it is placed as on the whole road.
///
/// ```swift
/// LineMerger.merge([[a, b], [b, c], [x, y]])  // [[a, b, c], [x, y]]
/// ```
package enum LineMerger {
    /// Chains the lines: a line whose last point is within `tolerance` (map points) of another line's first
    /// point continues into it. Chains start at lines that no other line leads into; lines forming a
    /// loop are chained from the first of them. Order and direction of the pieces are kept; work is
    /// proportional to the number of points.
    package static func merge(_ lines: [[MapPoint]], tolerance: Double = 1.0 / 64) -> [[MapPoint]] {
        let pieces = lines.filter { !$0.isEmpty }
        guard pieces.count > 1, tolerance > 0, tolerance.isFinite else { return pieces }
        struct Cell: Hashable {
            let x: Int
            let y: Int
        }
        func cell(_ p: MapPoint) -> Cell? {
            guard let x = Int(exactly: (p.x / tolerance).rounded(.down)),
                let y = Int(exactly: (p.y / tolerance).rounded(.down))
            else { return nil }
            return Cell(x: x, y: y)
        }
        var starts: [Cell: [Int]] = [:]
        for (i, piece) in pieces.enumerated() {
            if let c = cell(piece[0]) { starts[c, default: []].append(i) }
        }
        func next(after i: Int, used: [Bool]) -> Int? {
            let end = pieces[i][pieces[i].count - 1]
            guard let c = cell(end) else { return nil }
            for dx in -1...1 {
                for dy in -1...1 {
                    for j in starts[Cell(x: c.x &+ dx, y: c.y &+ dy)] ?? [] where j != i && !used[j] {
                        let p = pieces[j][0]
                        if abs(p.x - end.x) <= tolerance, abs(p.y - end.y) <= tolerance { return j }
                    }
                }
            }
            return nil
        }
        let none = [Bool](repeating: false, count: pieces.count)
        var ledInto = none
        for i in pieces.indices {
            if let j = next(after: i, used: none) { ledInto[j] = true }
        }
        var used = none
        var result: [[MapPoint]] = []
        func chain(from first: Int) {
            var line = pieces[first]
            used[first] = true
            var current = first
            while let j = next(after: current, used: used) {
                used[j] = true
                line += pieces[j].dropFirst()
                current = j
            }
            result.append(line)
        }
        for i in pieces.indices where !used[i] && !ledInto[i] { chain(from: i) }
        for i in pieces.indices where !used[i] { chain(from: i) }
        return result
    }
}
