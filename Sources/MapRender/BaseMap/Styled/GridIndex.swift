import MapGeometry

/// A uniform grid over the world's map-point square: each feature is listed in every cell its bounds
/// meet, so a query visits only the cells of the view.
struct GridIndex: Sendable {
    static let cellsPerSide = 256
    private let buckets: [[Int32]]
    private let count: Int

    init(bounds: [MapRect]) {
        var buckets = [[Int32]](repeating: [], count: Self.cellsPerSide * Self.cellsPerSide)
        for (i, rect) in bounds.enumerated() {
            guard let (x0, y0, x1, y1) = Self.cells(rect) else { continue }
            for y in y0...y1 {
                for x in x0...x1 { buckets[y * Self.cellsPerSide + x].append(Int32(i)) }
            }
        }
        self.buckets = buckets
        self.count = bounds.count
    }

    private static func cells(_ rect: MapRect) -> (Int, Int, Int, Int)? {
        guard !rect.isNull, rect.minX.isFinite else { return nil }
        let size = WebMercator.worldSize / Double(cellsPerSide)
        func cell(_ v: Double) -> Int { max(0, min(cellsPerSide - 1, Int((v / size).rounded(.down)))) }
        return (cell(rect.minX), cell(rect.minY), cell(rect.maxX), cell(rect.maxY))
    }

    /// Indices of features whose bounds may meet `rect`, ascending (data order), each once.
    func query(_ rect: MapRect) -> [Int] {
        guard let (x0, y0, x1, y1) = Self.cells(rect) else { return [] }
        var seen = [Bool](repeating: false, count: count)
        var result: [Int] = []
        for y in y0...y1 {
            for x in x0...x1 {
                for i in buckets[y * Self.cellsPerSide + x] where !seen[Int(i)] {
                    seen[Int(i)] = true
                    result.append(Int(i))
                }
            }
        }
        result.sort()
        return result
    }
}
