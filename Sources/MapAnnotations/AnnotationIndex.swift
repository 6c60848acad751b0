import MapGeometry

/// A static spatial index of map points for rect queries: points sorted into vertical slices by x, each
/// slice sorted by y (a one-level sort-tile-recursive packing).
///
/// A query binary-searches the slices that overlap the rect's x range and, in each, the y range; only
/// points in that y band are tested. Built in O(n log n); rebuilt when the annotations change.
///
/// ```swift
/// let index = AnnotationIndex(points: annotations.map { MapPoint($0.coordinate) })
/// let hits = index.indices(in: cityRect)   // positions into `points`, ascending
/// ```
public struct AnnotationIndex: Sendable {
    private struct Entry: Sendable {
        var x: Double
        var y: Double
        var index: Int32
    }

    private struct Slice: Sendable {
        var minX: Double
        var maxX: Double
        var range: Range<Int>
    }

    private var entries: [Entry] = []
    private var slices: [Slice] = []

    /// The number of points indexed.
    public var count: Int { entries.count }

    /// Indexes `points`; queries answer positions into this array.
    public init(points: [MapPoint]) {
        var entries = points.enumerated().map { Entry(x: $1.x, y: $1.y, index: Int32($0)) }
        entries.sort { ($0.x, $0.index) < ($1.x, $1.index) }
        let n = entries.count
        guard n > 0 else { return }
        // About sqrt(2n) points per slice (about sqrt(n / 2) slices) keeps the slices narrow and the y bands short.
        let perSlice = max(16, Int((Double(n) * 2).squareRoot()))
        var start = 0
        while start < n {
            let end = min(n, start + perSlice)
            let minX = entries[start].x
            let maxX = entries[end - 1].x
            entries[start..<end].sort { ($0.y, $0.index) < ($1.y, $1.index) }
            slices.append(Slice(minX: minX, maxX: maxX, range: start..<end))
            start = end
        }
        self.entries = entries
    }

    /// Positions of the points inside `rect` (minimum edges included, maximum edges excluded, as `MapRect.contains`), ascending. A rect reaching past the world's
    /// edges also finds the points of the neighbouring world copy.
    public func indices(in rect: MapRect) -> [Int] {
        guard !rect.isNull, !entries.isEmpty else { return [] }
        var found: [Int] = []
        // Each copy of the world that the rect reaches, cut to the world.
        let copies = WorldCopies.offsets(meeting: rect)
        for offset in copies {
            let minX = max(0, rect.minX - offset)
            let maxX = min(WebMercator.worldSize, rect.maxX - offset)
            if minX < maxX {
                collect(minX: minX, maxX: maxX, minY: rect.minY, maxY: rect.maxY, into: &found)
            }
        }
        found.sort()
        // Wrapped parts may overlap the rect when it is wider than the world.
        if copies.count > 1 {
            var unique: [Int] = []
            unique.reserveCapacity(found.count)
            for i in found where unique.last != i { unique.append(i) }
            return unique
        }
        return found
    }

    private func collect(minX: Double, maxX: Double, minY: Double, maxY: Double, into found: inout [Int]) {
        guard minX < maxX, minY < maxY else { return }
        // First slice whose maxX >= minX.
        var s = Self.partitionPoint(0..<slices.count) { slices[$0].maxX < minX }
        while s < slices.count, slices[s].minX < maxX {
            let range = slices[s].range
            // First entry with y >= minY.
            var i = Self.partitionPoint(range) { entries[$0].y < minY }
            while i < range.upperBound, entries[i].y < maxY {
                let x = entries[i].x
                if x >= minX && x < maxX { found.append(Int(entries[i].index)) }
                i += 1
            }
            s += 1
        }
    }

    /// The same query by testing every point, for checking the index and for benchmarks.
    public static func linearScan(_ points: [MapPoint], in rect: MapRect) -> [Int] {
        var found: [Int] = []
        for (i, p) in points.enumerated() where rect.contains(p) { found.append(i) }
        return found
    }

    /// The first index of `range` where `isBefore` turns false (it must be true, then false).
    private static func partitionPoint(_ range: Range<Int>, _ isBefore: (Int) -> Bool) -> Int {
        var lo = range.lowerBound
        var hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if isBefore(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
