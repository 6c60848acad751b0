import Foundation

/// A tile of the XYZ ("slippy map") scheme: zoom z, column x from the west, row y from the north.
///
/// ```swift
/// let tile = try TileID(z: 2, x: 1, y: 1)
/// tile.mapRect        // {67108864, 67108864, 67108864, 67108864}
/// tile.tmsY           // 2
/// ```
public struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The largest zoom a tile may have.
    public static let maximumZoom = 30

    public let z: Int
    public let x: Int
    public let y: Int

    /// Creates a tile.
    ///
    /// - Throws: ``GeometryError/invalidTile(z:x:y:)`` when z is outside 0...30 or x or y outside 0..<2^z.
    public init(z: Int, x: Int, y: Int) throws {
        guard z >= 0, z <= Self.maximumZoom, x >= 0, y >= 0, x < 1 << z, y < 1 << z else {
            throw GeometryError.invalidTile(z: z, x: x, y: y)
        }
        self.z = z
        self.x = x
        self.y = y
    }

    /// Creates a tile from a TMS row (counted from the south).
    public init(z: Int, x: Int, tmsY: Int) throws {
        guard z >= 0, z <= Self.maximumZoom, x >= 0, tmsY >= 0, x < 1 << z, tmsY < 1 << z else {
            throw GeometryError.invalidTile(z: z, x: x, y: tmsY)
        }
        try self.init(z: z, x: x, y: (1 << z) - 1 - tmsY)
    }

    private init(unchecked z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// The row in the TMS scheme (MBTiles' `tile_row`), counted from the south: 2^z - 1 - y.
    public var tmsY: Int { (1 << z) - 1 - y }

    /// The width and height of a tile of zoom `z` in map points.
    public static func mapPointSize(atZoom z: Int) -> Double { WebMercator.worldSize / Double(1 << z) }

    /// The tile's map rect.
    public var mapRect: MapRect {
        let side = Self.mapPointSize(atZoom: z)
        return MapRect(x: Double(x) * side, y: Double(y) * side, width: side, height: side)
    }

    /// The tile's bounds in degrees.
    public var boundingBox: GeoBoundingBox { mapRect.boundingBox }

    /// The tile containing a coordinate at zoom `z`; longitude 180 and latitudes beyond the poles' limit
    /// fall into the edge tiles.
    public static func containing(_ coordinate: LocationCoordinate2D, zoom z: Int) -> TileID {
        let n = 1 << z
        let p = MapPoint(coordinate)
        let side = mapPointSize(atZoom: z)
        let x = max(0, min(n - 1, Int((p.x / side).rounded(.down))))
        let y = max(0, min(n - 1, Int((p.y / side).rounded(.down))))
        return TileID(unchecked: z, x: x, y: y)
    }

    /// The tiles of zoom `z` whose map rects share area with `mapRect`, row by row from the north-west.
    ///
    /// A rect that extends east or west of the world wraps around: its columns are taken modulo 2^z,
    /// each tile once. Rows are clamped to the world.
    public static func tiles(covering mapRect: MapRect, zoom z: Int) -> [TileID] {
        precondition(z >= 0 && z <= maximumZoom, "zoom \(z) outside 0...\(maximumZoom)")
        guard !mapRect.isNull else { return [] }
        let n = 1 << z
        let side = mapPointSize(atZoom: z)
        let rows = span(mapRect.minY, mapRect.maxY, side: side)
        let firstRow = max(0, rows.lower)
        let lastRow = min(n - 1, rows.upper)
        guard firstRow <= lastRow else { return [] }
        var columns: [Int] = []
        if mapRect.width >= WebMercator.worldSize {
            columns = Array(0..<n)
        } else {
            let range = span(mapRect.minX, mapRect.maxX, side: side)
            var seen = Set<Int>()
            for column in range.lower...range.upper {
                let wrapped = ((column % n) + n) % n
                if seen.insert(wrapped).inserted { columns.append(wrapped) }
            }
        }
        var result: [TileID] = []
        result.reserveCapacity(columns.count * (lastRow - firstRow + 1))
        for row in firstRow...lastRow {
            for column in columns { result.append(TileID(unchecked: z, x: column, y: row)) }
        }
        return result
    }

    /// The tiles of zoom `z` that share area with `mapRect`, as ranges instead of a list: the rows, and the
    /// columns as one or two ascending ranges (two when the rect crosses the 180th meridian). Holds the same
    /// tiles as ``tiles(covering:zoom:)`` without allocating per tile; nil when there are none.
    public static func ranges(covering mapRect: MapRect, zoom z: Int) -> (rows: Range<Int>, columns: [Range<Int>])? {
        precondition(z >= 0 && z <= maximumZoom, "zoom \(z) outside 0...\(maximumZoom)")
        guard !mapRect.isNull else { return nil }
        let n = 1 << z
        let side = mapPointSize(atZoom: z)
        let rowSpan = span(mapRect.minY, mapRect.maxY, side: side)
        let firstRow = max(0, rowSpan.lower)
        let lastRow = min(n - 1, rowSpan.upper)
        guard firstRow <= lastRow else { return nil }
        let rows = firstRow..<(lastRow + 1)
        if mapRect.width >= WebMercator.worldSize { return (rows, [0..<n]) }
        let range = span(mapRect.minX, mapRect.maxX, side: side)
        guard range.upper - range.lower + 1 < n else { return (rows, [0..<n]) }
        let first = ((range.lower % n) + n) % n
        let last = first + (range.upper - range.lower)
        if last < n { return (rows, [first..<(last + 1)]) }
        return (rows, [0..<(last - n + 1), first..<n])
    }

    /// The tile indexes whose open intervals overlap [lo, hi]; a zero-length interval gives its tile.
    /// The columns (or rows) of zoom `z`'s tiles whose squares hold a map coordinate from `lo` through `hi`
    /// (a coordinate on an edge counts for the tile after it), clamped to the world's `0..<2^z`; nil when a
    /// bound is not finite or the range is empty once clamped.
    package static func indices(from lo: Double, through hi: Double, zoom z: Int) -> ClosedRange<Int>? {
        guard z >= 0, z <= maximumZoom else { return nil }
        let size = mapPointSize(atZoom: z)
        let count = 1 << z
        let a = (lo / size).rounded(.down)
        let b = (hi / size).rounded(.down)
        guard a.isFinite, b.isFinite else { return nil }
        let first = Int(max(0, min(Double(count - 1), a)))
        let last = Int(max(0, min(Double(count - 1), b)))
        return first <= last ? first...last : nil
    }

    private static func span(_ lo: Double, _ hi: Double, side: Double) -> (lower: Int, upper: Int) {
        let first = Int((lo / side).rounded(.down))
        let last = Int((hi / side).rounded(.up)) - 1
        return (first, max(first, last))
    }

    public static func < (lhs: TileID, rhs: TileID) -> Bool {
        (lhs.z, lhs.y, lhs.x) < (rhs.z, rhs.y, rhs.x)
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}
