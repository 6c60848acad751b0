import Foundation
import MapGeometry

// The lines line labels are placed on, as MapLibre lays out one tile's symbols: the layer's features of a
// tile (a vector tile's, or one of MapLibre's GeoJSON tiles) with the same text whose lines meet end to start
// are joined (`mergeLines`), then every line is cut to the tile's square (`clipLines`); each piece gets its
// own anchors (a piece entering from the tile's edge starts half a spacing in) and a label must fit on its
// piece.
extension SymbolLayerRenderer {
    /// MapLibre's `mergeLines` over one tile's features, in layout order: `items` are each feature's text
    /// (empty: never joined) and lines (the tile's, its buffer included). Only a feature's first line is
    /// joined, to a line of the same text that ends exactly where it starts or starts where it ends; a
    /// feature joining two chains links them into one. Returns, per item, its lines after the joins, or nil
    /// when they went into an earlier item's line.
    static func mergedLikeMapLibre(_ items: [(text: String, lines: [[MapPoint]])]) -> [[[MapPoint]]?] {
        struct Key: Hashable {
            let text: String
            let x: Double
            let y: Double
            init(_ text: String, _ p: MapPoint) {
                self.text = text
                (x, y) = (p.x, p.y)
            }
        }
        var result: [[[MapPoint]]?] = items.map { $0.lines }
        var startingAt: [Key: Int] = [:]  // a chain's first point -> its item
        var endingAt: [Key: Int] = [:]  // a chain's last point -> its item
        for (k, item) in items.enumerated() {
            guard !item.text.isEmpty, let line = item.lines.first, let first = line.first, let last = line.last else {
                continue
            }
            let head = Key(item.text, first)
            let tail = Key(item.text, last)
            if let i = endingAt[head], let j = startingAt[tail], i != j, let before = result[i], let after = result[j] {
                // Between two chains: `before`, this line, `after` become one, kept by `before`'s item.
                let joined = Array(before[0].dropLast()) + line + after[0].dropFirst()
                result[i]![0] = joined
                result[j] = nil
                result[k] = item.lines.count > 1 ? [] : nil
                endingAt[head] = nil
                startingAt[tail] = nil
                endingAt[Key(item.text, joined[joined.count - 1])] = i
            } else if let i = endingAt[head], result[i] != nil {
                result[i]![0] = Array(result[i]![0].dropLast()) + line
                endingAt[head] = nil
                endingAt[tail] = i
                result[k] = item.lines.count > 1 ? [] : nil
            } else if let j = startingAt[tail], result[j] != nil {
                result[j]![0] = line + result[j]![0].dropFirst()
                startingAt[tail] = nil
                startingAt[head] = j
                result[k] = item.lines.count > 1 ? [] : nil
            } else {
                startingAt[head] = k
                endingAt[tail] = k
                continue
            }
            // A joined feature's other lines stay its own.
            if item.lines.count > 1 { result[k] = Array(item.lines.dropFirst()) }
        }
        return result
    }

    /// One tile's lines for line labels (see ``tileLabelLines(_:geoJSONTiles:)``).
    struct TileLines: Sendable {
        /// The tile's square, map points: anchors lie in it, a piece starting on its edge is continued.
        var tile: MapRect
        var lines: [[MapPoint]]
    }

    /// MapLibre's GeoJSON tiles for line labels: 512-point tiles at the style's zoom rounded down (at most
    /// 18, then overscaled), of `side` map points, their features cut with a buffer of a quarter tile; only
    /// the tiles meeting `window` (map points of the base world) are made.
    struct GeoJSONTiles {
        var side: Double
        var window: MapRect
        /// At most this many tiles are made per layer; beyond, lines are labelled whole.
        static let limit = 1024
        /// At most this many points are cut into tiles per layer (a point counted once per tile its line is
        /// cut to); the lines beyond are labelled whole, so a hostile line costs a bounded cutting.
        static let pointBudget = 4_000_000

        /// The tiles at the view's `zoom` rounded down, at most the source's `maxZoom` (geojson-vt tiles no
        /// deeper: a view beyond shows that tile overscaled, as MapLibre does), meeting `window`.
        init?(zoom: Double, maxZoom: Int = 18, window: MapRect) {
            guard zoom.isFinite, !window.isNull, window.width.isFinite, window.height.isFinite else { return nil }
            let z = max(0, min(Double(max(0, min(24, maxZoom))), zoom.rounded(.down)))
            side = MapRect.world.width / exp2(z)
            self.window = window
            let columns = (window.width / side).rounded(.up) + 1
            let rows = (window.height / side).rounded(.up) + 1
            guard columns * rows <= Double(Self.limit) else { return nil }
        }
    }

    /// The lines of the line-placed entries as MapLibre places labels on them, by entry index, per tile:
    /// `line` placement per tile and world copy, joined by ``mergedLikeMapLibre(_:)`` in entry order, then
    /// cut to the tile's square (an entry whose lines went into an earlier one's has none); `line-center` on
    /// a vector tile's whole lines (its buffer included). Vector-tile features are in their tile; GeoJSON
    /// lines are cut into `geoJSONTiles` (nil: labelled whole, absent here). Entries placed at points are
    /// absent.
    static func tileLabelLines(
        _ entries: [(FeatureSource.Feature, Double, String, String)], geoJSONTiles: GeoJSONTiles? = nil
    ) -> [Int: [TileLines]] {
        struct TileKey: Hashable {
            var offset: Double
            var x: Double
            var y: Double
        }
        // Per tile, in entry order: the entry and its lines in the tile (buffer included).
        var groups: [TileKey: [(entry: Int, lines: [[MapPoint]])]] = [:]
        var tiles: [TileKey: MapRect] = [:]
        var order: [TileKey] = []
        func add(_ key: TileKey, _ tile: MapRect, _ entry: Int, _ lines: [[MapPoint]]) {
            if groups[key] == nil {
                order.append(key)
                tiles[key] = tile
            }
            groups[key, default: []].append((entry, lines))
        }
        var result: [Int: [TileLines]] = [:]
        var budget = GeoJSONTiles.pointBudget
        for (i, (feature, offset, _, placement)) in entries.enumerated() where placement != "point" {
            guard case .lines(let own) = feature.shape else { continue }
            if let tile = feature.tileBounds {
                if placement == "line-center" {
                    result[i] = [TileLines(tile: tile, lines: feature.bufferedLines ?? own)]
                } else {
                    add(TileKey(offset: offset, x: tile.minX, y: tile.minY), tile, i, feature.bufferedLines ?? own)
                }
                continue
            }
            guard placement == "line", let grid = geoJSONTiles else { continue }
            // The tiles of the grid the feature meets within the window (this world copy's).
            let window = grid.window.offsetBy(dx: -offset, dy: 0)
            let box = feature.bounds.intersection(window)
            guard !box.isNull, box.width.isFinite, box.height.isFinite else {
                result[i] = []
                continue
            }
            let side = grid.side
            let c0 = (box.minX / side).rounded(.down)
            let c1 = (box.maxX / side).rounded(.down)
            let r0 = (box.minY / side).rounded(.down)
            let r1 = (box.maxY / side).rounded(.down)
            let tileCount = (c1 - c0 + 1) * (r1 - r0 + 1)
            let points = Double(own.reduce(0) { $0 + $1.count })
            guard tileCount <= Double(GeoJSONTiles.limit), tileCount * points <= Double(budget) else { continue }
            budget -= Int(tileCount * points)
            result[i] = []
            var row = r0
            while row <= r1 {
                var column = c0
                while column <= c1 {
                    let tile = MapRect(x: column * side, y: row * side, width: side, height: side)
                    let buffered = Rect(
                        x: tile.minX - side / 4, y: tile.minY - side / 4, width: side * 1.5, height: side * 1.5)
                    let lines = own.flatMap { cut($0, to: buffered) }
                    if !lines.isEmpty { add(TileKey(offset: offset, x: tile.minX, y: tile.minY), tile, i, lines) }
                    column += 1
                }
                row += 1
            }
        }
        for key in order {
            guard let members = groups[key], let tile = tiles[key] else { continue }
            let square = Rect(x: tile.minX, y: tile.minY, width: tile.width, height: tile.height)
            let merged = mergedLikeMapLibre(members.map { (entries[$0.entry].2, $0.lines) })
            for (member, lines) in zip(members, merged) {
                let pieces = (lines ?? []).flatMap { cut($0, to: square) }
                if !pieces.isEmpty {
                    result[member.entry, default: []].append(TileLines(tile: tile, lines: pieces))
                } else if result[member.entry] == nil {
                    result[member.entry] = []
                }
            }
        }
        return result
    }

    /// The pieces of `line` in `rect` (map points), as ``LineClipper`` cuts them (repeated points dropped):
    /// the line itself, uncopied, when every point is in it and none repeats the one before (a vector tile's
    /// lines mostly); else clipped. A line of fewer than two points has none.
    private static func cut(_ line: [MapPoint], to rect: Rect) -> [[MapPoint]] {
        guard line.count > 1 else { return [] }
        var whole = true
        for (k, p) in line.enumerated() {
            guard rect.minX <= p.x, p.x <= rect.maxX, rect.minY <= p.y, p.y <= rect.maxY, k == 0 || p != line[k - 1]
            else {
                whole = false
                break
            }
        }
        if whole { return [line] }
        return LineClipper.clip(line.map { Point(x: $0.x, y: $0.y) }, to: rect).pieces.map { piece in
            piece.points.map { MapPoint(x: $0.x, y: $0.y) }
        }
    }
}
