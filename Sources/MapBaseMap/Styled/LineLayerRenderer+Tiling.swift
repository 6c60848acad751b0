import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// GeoJSON lines cut as MapLibre's geojson-vt tiles them, and a tile's lines cut to the segments a view
/// needs: the geometry a line bucket tessellates.
extension LineLayerRenderer {
    /// A piece of a GeoJSON line in one of geojson-vt's tiles (see ``geojsonTilePieces(_:zoom:window:)``):
    /// the tile's square, the piece in map points, and where it starts and ends as fractions of the line.
    struct GeoJSONTilePiece {
        var tile: MapRect
        var points: [MapPoint]
        var start: Double
        var end: Double
    }

    /// A GeoJSON line as MapLibre's geojson-vt tiles it at `zoom`, for the tiles whose squares meet
    /// `window` (map points): each tile holds the line cut at its square grown by a quarter of a tile
    /// (MapLibre's buffer of 128 of 512), its vertices rounded (halves up) to the tile's grid of 8192.
    /// At most 4096 tiles are cut (a window that big draws lines thinner than the tiles anyway).
    static func geojsonTilePieces(_ line: [MapPoint], zoom: Int, window: MapRect) -> [GeoJSONTilePiece] {
        guard line.count > 1, zoom >= 0, zoom <= 24 else { return [] }
        let size = TileID.mapPointSize(atZoom: zoom)
        let bounds = boundingRect(of: line)
        let reach = bounds.insetBy(dx: -size / 4, dy: -size / 4)
        guard
            let xs = TileID.indices(
                from: max(window.minX, reach.minX), through: min(window.maxX, reach.maxX), zoom: zoom),
            let ys = TileID.indices(
                from: max(window.minY, reach.minY), through: min(window.maxY, reach.maxY), zoom: zoom),
            xs.count * ys.count <= 4096
        else { return [] }
        var total = 0.0
        for i in 1..<line.count {
            total +=
                ((line[i].x - line[i - 1].x) * (line[i].x - line[i - 1].x)
                + (line[i].y - line[i - 1].y) * (line[i].y - line[i - 1].y)).squareRoot()
        }
        guard total > 0, total.isFinite else { return [] }
        let unit = size / 8192
        var result: [GeoJSONTilePiece] = []
        for ty in ys {
            for tx in xs {
                let ox = Double(tx) * size
                let oy = Double(ty) * size
                let buffered = Rect(x: ox - size / 4, y: oy - size / 4, width: size * 1.5, height: size * 1.5)
                guard bounds.minX <= buffered.maxX, bounds.maxX >= buffered.minX, bounds.minY <= buffered.maxY,
                    bounds.maxY >= buffered.minY
                else { continue }
                let (pieces, _) = LineClipper.clip(
                    line, project: { Point(x: $0.x, y: $0.y) }, to: buffered, tolerance: 0)
                for piece in pieces where piece.points.count > 1 {
                    var length = 0.0
                    for i in 1..<piece.points.count {
                        let a = piece.points[i - 1]
                        let b = piece.points[i]
                        length += ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                    }
                    let points = piece.points.map {
                        MapPoint(
                            x: ox + (($0.x - ox) / unit + 0.5).rounded(.down) * unit,
                            y: oy + (($0.y - oy) / unit + 0.5).rounded(.down) * unit)
                    }
                    result.append(
                        GeoJSONTilePiece(
                            tile: MapRect(x: ox, y: oy, width: size, height: size), points: points,
                            start: piece.startLength / total, end: (piece.startLength + length) / total))
                }
            }
        }
        return result
    }

    /// A tile's line cut to the runs of its segments that meet `rect` or neighbour one that does, each
    /// segment whole: the vertices stay the tile's, so their distances are quantized as MapLibre's
    /// (``LineTessellator/distanceQuantum``), and the joins and sharp-corner vertices at the ends of the
    /// segments that meet `rect` are MapLibre's too (a cap there instead of a join skews how the
    /// distance is interpolated over the whole next segment). A ring (`closed`) needed all round or
    /// through its first vertex stays one closed piece. Tile coordinates are bounded by the tile, so no vertex is far beyond the view.
    static func wholeSegments(_ points: [Point], closed: Bool, within rect: Rect) -> [StrokePiece] {
        guard points.count > 1 else { return [] }
        let line = closed ? points + [points[0]] : points
        let n = line.count - 1
        var lengths = [Double](repeating: 0, count: n)
        var meets = [Bool](repeating: false, count: n)
        for i in 0..<n {
            let a = line[i]
            let b = line[i + 1]
            lengths[i] = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            meets[i] = LineClipper.clipSegment(a, b, rect) != nil
        }
        var needed = meets
        for i in 0..<n where !meets[i] {
            let before = i > 0 ? meets[i - 1] : (closed && meets[n - 1])
            let after = i < n - 1 ? meets[i + 1] : (closed && meets[0])
            needed[i] = before || after
        }
        let travelled = lengths.reduce(0, +)
        // A run through a ring's first vertex is drawn as the whole ring: MapLibre joins the ring there
        // (its first vertex pair has distance 0, its last the ring's length), where two pieces would cap.
        if closed, !needed.contains(false) || (needed[0] && needed[n - 1]) {
            return [StrokePiece(points: points, startLength: 0, closed: true, lineLength: travelled)]
        }
        // Every segment needed: the line as it is (what the loop below would rebuild point by point).
        if !closed, !needed.contains(false) {
            return [StrokePiece(points: points, startLength: 0, closed: false, lineLength: travelled)]
        }
        var pieces: [StrokePiece] = []
        var current: [Point] = []
        var start = 0.0
        var along = 0.0
        for i in 0..<n {
            if needed[i] {
                if current.isEmpty {
                    current.reserveCapacity(n + 1 - i)
                    current.append(line[i])
                    start = along
                }
                current.append(line[i + 1])
            } else if !current.isEmpty {
                pieces.append(StrokePiece(points: current, startLength: start, closed: false, lineLength: travelled))
                current = []
            }
            along += lengths[i]
        }
        if !current.isEmpty {
            pieces.append(StrokePiece(points: current, startLength: start, closed: false, lineLength: travelled))
        }
        return pieces
    }

}
