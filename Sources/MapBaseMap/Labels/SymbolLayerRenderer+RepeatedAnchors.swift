import Foundation
import MapGeometry

extension SymbolLayerRenderer {
    /// MapLibre's rule against repeated line labels: within one layer and one of MapLibre's 512-point tiles
    /// (at the style's zoom, rounded down), a line symbol's anchor closer than half of `symbol-spacing` to an
    /// earlier anchor of the same text is dropped before collisions are tested (the earlier anchor counts
    /// whether or not it was shown). Without it, a road mapped as several ways (a dual carriageway, pieces
    /// with different names but one `ref`) repeats its shield every few dozen points.
    ///
    /// MapLibre compares an anchor with every earlier one of its text and tile; here the earlier anchors are
    /// also filed by square cells (of a side fixed by the first distance asked of the text and tile), and only
    /// those of the cells within the distance are compared: the same decisions (the same test on the same
    /// anchors: `hypot` of the differences strictly below the distance), in work proportional to the anchors
    /// rather than to their square (a hostile tile repeating one name on 10,000 segments).
    struct RepeatedAnchors {
        /// The side of MapLibre's tiles in world points: 512 at an integer zoom, up to 1024 just below the next.
        let tileSize: Double
        private var buckets: [Key: Bucket] = [:]
        /// How many earlier anchors have been compared with a new one, over all calls (a measure of the work).
        private(set) var comparisons = 0

        private struct Key: Hashable {
            var text: String
            var column: Int
            var row: Int
            /// The side of the tile: ``tileSize`` or that of the vector tile the anchor was laid out in.
            var side: Double
        }

        /// The earlier anchors of one text in one tile.
        private struct Bucket {
            /// The side of the cells; 0 until a finite positive distance is asked.
            var cellSize = 0.0
            /// Every anchor recorded with finite coordinates, in order.
            var anchors: [Point] = []
            /// The same anchors by cell (when `cellSize` is set).
            var cells: [Cell: [Point]] = [:]

            struct Cell: Hashable {
                var x: Int
                var y: Int
            }

            /// The cell of a point, clamped to ±2^52 cells (monotonic: a point between two others has a cell
            /// between theirs, which the neighbourhood search needs).
            func cell(_ x: Double, _ y: Double) -> Cell {
                let limit = 4_503_599_627_370_496.0
                let cx = min(max((x / cellSize).rounded(.down), -limit), limit)
                let cy = min(max((y / cellSize).rounded(.down), -limit), limit)
                return Cell(x: Int(exactly: cx) ?? 0, y: Int(exactly: cy) ?? 0)
            }

            /// Whether an earlier anchor lies within `distance` of `anchor`; records `anchor` when not.
            mutating func tooClose(_ anchor: Point, within distance: Double, comparisons: inout Int) -> Bool {
                // A non-finite coordinate makes every difference with it NaN or infinite, never below a distance:
                // such an anchor is never too close, nor is any anchor too close to it (it need not be kept).
                guard anchor.x.isFinite, anchor.y.isFinite else { return false }
                let near = { (p: Point) in hypot(p.x - anchor.x, p.y - anchor.y) < distance }
                // No distance at all (zero, negative, NaN) has nothing below it.
                if distance > 0 {
                    if cellSize == 0, distance.isFinite {
                        cellSize = distance
                        for p in anchors { cells[cell(p.x, p.y), default: []].append(p) }
                    }
                    var found = false
                    let low = cellSize > 0 ? cell(anchor.x - distance, anchor.y - distance) : Cell(x: 0, y: 0)
                    let high = cellSize > 0 ? cell(anchor.x + distance, anchor.y + distance) : Cell(x: 0, y: 0)
                    let span = Double(high.x - low.x + 1) * Double(high.y - low.y + 1)
                    // Few anchors (a normal tile's text): comparing them all costs less than looking up cells.
                    if cellSize > 0, span < Double(anchors.count) {
                        // Any anchor within `distance` differs by less than it in x and in y: its cell is in the
                        // range (3 by 3 cells when the distance is the cell size).
                        search: for y in low.y...high.y {
                            for x in low.x...high.x {
                                for p in cells[Cell(x: x, y: y)] ?? [] {
                                    comparisons += 1
                                    if near(p) {
                                        found = true
                                        break search
                                    }
                                }
                            }
                        }
                    } else {
                        // Few anchors, or a distance far beyond the cells' side: fewer anchors than cells.
                        for p in anchors {
                            comparisons += 1
                            if near(p) {
                                found = true
                                break
                            }
                        }
                    }
                    if found { return true }
                }
                anchors.append(anchor)
                if cellSize > 0 { cells[cell(anchor.x, anchor.y), default: []].append(anchor) }
                return false
            }
        }

        /// Rules for a view at `zoom` (the style's zoom, MapLibre's).
        init(zoom: Double) {
            let fraction = zoom.isFinite ? zoom - zoom.rounded(.down) : 0
            tileSize = 512 * pow(2, fraction)
        }

        /// The MapLibre tile (column, row, of ``tileSize``) an anchor lies in; anchors far outside any real map
        /// (non-finite or huge) share tile (0, 0) rather than trap.
        func tile(of anchor: Point) -> (column: Int, row: Int) {
            let column = (anchor.x / tileSize).rounded(.down)
            let row = (anchor.y / tileSize).rounded(.down)
            return (
                Int(exactly: column.isFinite && abs(column) < 1e15 ? column : 0) ?? 0,
                Int(exactly: row.isFinite && abs(row) < 1e15 ? row : 0) ?? 0
            )
        }

        /// Whether `anchor` lies within `distance` of an earlier anchor of `text` in its tile; records it when not.
        /// With a `tile` (the square of the vector tile the line was cut to, in any plane), that tile is the
        /// anchor's: MapLibre compares the anchors of one tile's layout, an overscaled tile's whole square.
        mutating func tooClose(_ text: String, _ anchor: Point, within distance: Double, tile: Rect? = nil) -> Bool {
            var key: Key
            if let tile, tile.width > 0, tile.width.isFinite, tile.minX.isFinite, tile.minY.isFinite {
                func index(_ v: Double) -> Int {
                    let i = (v / tile.width).rounded()
                    return Int(exactly: abs(i) < 1e15 ? i : 0) ?? 0
                }
                key = Key(text: text, column: index(tile.minX), row: index(tile.minY), side: tile.width)
            } else {
                let (column, row) = self.tile(of: anchor)
                key = Key(text: text, column: column, row: row, side: tileSize)
            }
            return buckets[key, default: Bucket()].tooClose(anchor, within: distance, comparisons: &comparisons)
        }
    }
}
