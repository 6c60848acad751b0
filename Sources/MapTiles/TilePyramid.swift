import Foundation
import MapAnnotations
import MapBaseMap
import MapGeometry
import MapGraphics
import MapOverlays

/// The image format of tiles: PNG, palette PNG, JPEG or WebP (MapGraphics' ``ImageFormat``).
public typealias TileFormat = ImageFormat

/// What a pyramid covers and how its tiles look.
public struct TilePyramid: Sendable, Equatable {
    /// The area; tiles that share area with it are made.
    public var area: GeoBoundingBox
    /// The lowest zoom, 0...22.
    public var minZoom: Int
    /// The highest zoom, minZoom...22.
    public var maxZoom: Int
    /// Tile side in points: 256, or 512 (the same area drawn with one zoom level more detail).
    public var tileSize: Int
    /// Device pixels per point: 1 or 2 (`@2x` tiles).
    public var scale: Int
    /// Tiles per metatile side: tiles are drawn in blocks of `metatileSize` x `metatileSize` and cut.
    public var metatileSize: Int
    /// The tile format.
    public var format: TileFormat
    /// zlib compression level 0...9 of the PNGs.
    public var compressionLevel: Int
    /// Quality 1...100 of JPEG and WebP tiles (ignored by PNG).
    public var quality: Int

    /// The whole world, between the poles' limits.
    public static let world = GeoBoundingBox(west: -180, south: -85.0511287798066, east: 180, north: 85.0511287798066)

    /// Creates a pyramid description.
    ///
    /// - Throws: ``TileError`` for zooms outside 0...22 or min > max, a tile size other than 256 or 512, a
    ///   scale other than 1 or 2, or a metatile size outside 1...64.
    public init(
        area: GeoBoundingBox = TilePyramid.world, minZoom: Int, maxZoom: Int, tileSize: Int = 256, scale: Int = 1,
        metatileSize: Int = 8, format: TileFormat = .png, compressionLevel: Int = 6,
        quality: Int = ImageFormat.defaultQuality
    ) throws {
        let zooms = 0...Int(MapViewport.maximumZoomLevel)
        guard zooms.contains(minZoom), zooms.contains(maxZoom), minZoom <= maxZoom else {
            throw TileError.invalidZoomRange(minZoom, maxZoom)
        }
        guard tileSize == 256 || tileSize == 512 else {
            throw TileError.invalidOption("tile size \(tileSize)", "256 or 512")
        }
        guard scale == 1 || scale == 2 else { throw TileError.invalidOption("scale \(scale)", "1 or 2") }
        guard (1...64).contains(metatileSize) else {
            throw TileError.invalidOption("metatile size \(metatileSize)", "1...64 tiles per side")
        }
        guard metatileSize * tileSize * scale <= 16_384 else {
            throw TileError.invalidOption(
                "metatile size \(metatileSize) at \(tileSize)-point tiles and scale \(scale)",
                "a metatile of at most 16384 pixels per side")
        }
        guard tileSize == 256 || maxZoom <= 21 else {
            throw TileError.invalidOption(
                "zoom \(maxZoom) with 512-point tiles", "zooms up to 21 (they draw one level deeper)")
        }
        guard (0...9).contains(compressionLevel) else {
            throw TileError.invalidOption("compression level \(compressionLevel)", "0...9")
        }
        guard ImageFormat.qualityRange.contains(quality) else {
            throw TileError.invalidOption("quality \(quality)", "1...100")
        }
        self.area = area
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.tileSize = tileSize
        self.scale = scale
        self.metatileSize = metatileSize
        self.format = format
        self.compressionLevel = compressionLevel
        self.quality = quality
    }

    /// The longitude/latitude box of a region: center -+ half the span (latitudes clamped to the poles'
    /// limit; a box across the 180th meridian has west > east).
    public static func boundingBox(of region: CoordinateRegion) -> GeoBoundingBox {
        func wrap(_ lon: Double) -> Double {
            var l = (lon + 180).truncatingRemainder(dividingBy: 360)
            if l < 0 { l += 360 }
            return l - 180
        }
        let halfLon = min(180, region.span.longitudeDelta / 2)
        let west = halfLon >= 180 ? -180 : wrap(region.center.longitude - halfLon)
        let east = halfLon >= 180 ? 180 : wrap(region.center.longitude + halfLon)
        return GeoBoundingBox(
            west: west, south: max(-WebMercator.maxLatitude, region.center.latitude - region.span.latitudeDelta / 2),
            east: east == -180 ? 180 : east,
            north: min(WebMercator.maxLatitude, region.center.latitude + region.span.latitudeDelta / 2))
    }

    /// The tiles of one zoom that share area with ``area``.
    public func tiles(atZoom z: Int) -> [TileID] {
        TileID.tiles(covering: clampedRect, zoom: z)
    }

    /// The area's map rect, clamped to the world vertically.
    var clampedRect: MapRect {
        let rect = area.mapRect
        let top = max(0, rect.minY)
        let bottom = min(WebMercator.worldSize, rect.maxY)
        return MapRect(x: rect.minX, y: top, width: rect.width, height: max(0, bottom - top))
    }

    /// The tiles of zoom `z` as ranges (rows, and one or two column ranges), without listing them.
    public func grid(atZoom z: Int) -> TileGrid? {
        TileID.ranges(covering: clampedRect, zoom: z).map { TileGrid(z: z, rows: $0.rows, columns: $0.columns) }
    }

    /// Every metatile with at least one tile of the pyramid, by zoom, then row, then column, as an array.
    /// For small pyramids and tests; runs walk ``lazyMetatiles`` instead.
    public func metatiles() -> [Metatile] { Array(lazyMetatiles) }

    /// Every metatile with at least one tile of the pyramid, by zoom, then row, then column, made one at a
    /// time as the sequence is walked: memory does not grow with the pyramid.
    public var lazyMetatiles: MetatileSequence { MetatileSequence(pyramid: self, zooms: minZoom...maxZoom) }

    /// The metatiles of one zoom, made one at a time.
    public func metatiles(atZoom z: Int) -> MetatileSequence { MetatileSequence(pyramid: self, zooms: z...z) }

    /// The metatile that holds `tile`, with the pyramid's tiles of its block, or nil when `tile` is not one
    /// of the pyramid's (found without walking the zoom's metatiles).
    public func metatile(containing tile: TileID) -> Metatile? {
        guard (minZoom...maxZoom).contains(tile.z), let grid = grid(atZoom: tile.z) else { return nil }
        var metatile = Metatile(z: tile.z, x: tile.x / metatileSize, y: tile.y / metatileSize, size: metatileSize)
        metatile.tiles = grid.tiles(columns: metatile.columns, rows: metatile.rows)
        return metatile.tiles.contains(tile) ? metatile : nil
    }

    /// The number of tiles in the pyramid, counted from the ranges (never by listing them).
    public var tileCount: Int { (minZoom...maxZoom).reduce(0) { $0 + (grid(atZoom: $1)?.count ?? 0) } }

    /// Tile side in device pixels.
    public var pixelSize: Int { tileSize * scale }
}

/// The tiles of one zoom that share area with a pyramid: `rows` x `columns` (one range, or two across the
/// 180th meridian), so that counting them or asking about one never lists them.
public struct TileGrid: Sendable, Equatable {
    /// The zoom.
    public let z: Int
    /// Tile rows (y).
    public let rows: Range<Int>
    /// Tile columns (x): ascending, disjoint ranges.
    public let columns: [Range<Int>]

    /// The number of tiles.
    public var count: Int { rows.count * columns.reduce(0) { $0 + $1.count } }

    /// The grid's tiles inside a block of columns and rows, in (row, column) order.
    func tiles(columns block: Range<Int>, rows blockRows: Range<Int>) -> [TileID] {
        let rowPart = rows.clamped(to: blockRows)
        let columnParts = columns.map { $0.clamped(to: block) }.filter { !$0.isEmpty }
        var result: [TileID] = []
        result.reserveCapacity(rowPart.count * columnParts.reduce(0) { $0 + $1.count })
        for y in rowPart {
            for part in columnParts {
                for x in part { if let tile = try? TileID(z: z, x: x, y: y) { result.append(tile) } }
            }
        }
        return result
    }

    /// The metatile columns (tile column / size) that hold tiles of the grid: ascending, disjoint.
    func metatileColumns(size: Int) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for part in columns where !part.isEmpty {
            let blocks = (part.lowerBound / size)..<((part.upperBound - 1) / size + 1)
            if let last = result.last, blocks.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, blocks.upperBound)
            } else {
                result.append(blocks)
            }
        }
        return result
    }
}

/// The metatiles of a pyramid over a range of zooms, by zoom, then row, then column, each made when the
/// walk reaches it (with its tiles), so that a run over billions of tiles never holds their list.
public struct MetatileSequence: Sequence, Sendable {
    let pyramid: TilePyramid
    let zooms: ClosedRange<Int>

    /// Walks the metatiles.
    public struct Iterator: IteratorProtocol {
        let pyramid: TilePyramid
        var zoom: Int
        let lastZoom: Int
        var grid: TileGrid?
        var metaRows: Range<Int> = 0..<0
        var metaColumns: [Range<Int>] = []
        var row = 0
        var part = 0
        var column = 0

        init(pyramid: TilePyramid, zooms: ClosedRange<Int>) {
            self.pyramid = pyramid
            self.zoom = zooms.lowerBound - 1
            self.lastZoom = zooms.upperBound
        }

        public mutating func next() -> Metatile? {
            let size = pyramid.metatileSize
            while true {
                if let grid, row < metaRows.upperBound, part < metaColumns.count {
                    let meta = Metatile(z: grid.z, x: column, y: row, size: size)
                    column += 1
                    if column >= metaColumns[part].upperBound {
                        part += 1
                        if part < metaColumns.count {
                            column = metaColumns[part].lowerBound
                        } else {
                            row += 1
                            part = 0
                            column = metaColumns.first?.lowerBound ?? 0
                        }
                    }
                    var filled = meta
                    filled.tiles = grid.tiles(columns: meta.columns, rows: meta.rows)
                    if !filled.tiles.isEmpty { return filled }
                    continue
                }
                guard zoom < lastZoom else { return nil }
                zoom += 1
                grid = pyramid.grid(atZoom: zoom)
                guard let grid else { continue }
                metaRows = (grid.rows.lowerBound / size)..<((grid.rows.upperBound - 1) / size + 1)
                metaColumns = grid.metatileColumns(size: size)
                row = metaRows.lowerBound
                part = 0
                column = metaColumns.first?.lowerBound ?? 0
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(pyramid: pyramid, zooms: zooms) }
}

/// A block of `size` x `size` tiles drawn as one image and cut, so that nothing is cut at the inner tile
/// edges.
public struct Metatile: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let z: Int
    /// Column of the block (tile column / size).
    public let x: Int
    /// Row of the block (tile row / size).
    public let y: Int
    /// Tiles per side.
    public let size: Int
    /// The pyramid's tiles in this block.
    public internal(set) var tiles: [TileID] = []

    init(z: Int, x: Int, y: Int, size: Int) {
        self.z = z
        self.x = x
        self.y = y
        self.size = size
    }

    public static func == (a: Metatile, b: Metatile) -> Bool { (a.z, a.x, a.y, a.size) == (b.z, b.x, b.y, b.size) }
    public func hash(into h: inout Hasher) {
        h.combine(z)
        h.combine(x)
        h.combine(y)
        h.combine(size)
    }
    public static func < (a: Metatile, b: Metatile) -> Bool { (a.z, a.y, a.x) < (b.z, b.y, b.x) }

    /// The columns and rows of the block inside the world: x0..<x1, y0..<y1.
    var columns: Range<Int> { (x * size)..<min((x + 1) * size, 1 << z) }
    var rows: Range<Int> { (y * size)..<min((y + 1) * size, 1 << z) }

    /// The block's map rect (only the part inside the world).
    var mapRect: MapRect {
        let side = TileID.mapPointSize(atZoom: z)
        return MapRect(
            x: Double(columns.lowerBound) * side, y: Double(rows.lowerBound) * side,
            width: Double(columns.count) * side, height: Double(rows.count) * side)
    }

    public var description: String { "\(z)/\(x)/\(y) (\(size)x\(size))" }
}

/// Bad tile options or output.
public enum TileError: MapRasterError, Equatable {
    /// Zooms outside 0...22 or min above max.
    case invalidZoomRange(Int, Int)
    /// An option with a value that is not allowed.
    case invalidOption(String, String)
    /// A shard spec like 3/2.
    case invalidShard(String)
    /// The output cannot be used.
    case output(path: String, reason: String)
    /// Two inputs of a merge hold different images for one tile.
    case conflictingTile(TileID, first: String, second: String)

    public var description: String {
        switch self {
        case let .invalidZoomRange(min, max):
            return
                "zoom range \(min)-\(max) is invalid: zooms must be within 0...\(Int(MapViewport.maximumZoomLevel)) and the first not above the last"
        case let .invalidOption(what, valid): return "\(what) is invalid: use \(valid)"
        case let .invalidShard(text):
            return "shard '\(text)' is invalid: use I/N with 1 <= I <= N, such as 2/4 for the second of four shards"
        case let .output(path, reason): return "cannot write tiles to '\(path)': \(reason)"
        case let .conflictingTile(tile, first, second):
            return "tile \(tile) differs between '\(first)' and '\(second)'; shards of one pyramid never disagree"
        }
    }
}

/// A deterministic part of the metatiles: shard `index` of `count` takes every `count`-th metatile.
public struct Shard: Hashable, Sendable {
    /// 1...count.
    public let index: Int
    /// The number of shards.
    public let count: Int

    /// All metatiles.
    public static let all = Shard(unchecked: 1, of: 1)

    private init(unchecked index: Int, of count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `I/N`.
    ///
    /// - Throws: ``TileError/invalidShard(_:)``.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, i >= 1, i <= n else {
            throw TileError.invalidShard(text)
        }
        self.init(unchecked: i, of: n)
    }

    /// The metatiles of this shard.
    public func select(_ metatiles: [Metatile]) -> [Metatile] { Array(selectLazily(metatiles)) }

    /// The metatiles of this shard, picked as the sequence is walked.
    public func selectLazily<S: Sequence>(_ metatiles: S) -> some Sequence<Metatile> where S.Element == Metatile {
        let count = count
        let index = index
        return metatiles.enumerated().lazy.filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
