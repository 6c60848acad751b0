import MapBaseMap
import MapGeometry
import MapGraphics

/// A base map's labels at one zoom level, laid out region by region: the world at that zoom is cut into
/// squares of ``side`` points aligned to the world's origin, and each region's labels are placed on their
/// own (with the features of a ``margin`` around it competing) and kept only where they lie wholly inside
/// the region (``BaseMap/placeLabels(for:within:)``).
///
/// So a region's labels depend on nothing but the region: every image of the zoom that shows part of it
/// draws the same labels at the same world positions, whichever image, tile, metatile, shard, pyramid or
/// server request laid it out. A label that crosses an image edge inside a region is drawn whole and
/// identically on both sides, and never twice; no label crosses a region's edge. Work is proportional to
/// the regions the images meet, not to the zoom level's whole area (the world at zoom 14 is 2048 x 2048
/// regions), and regions are cached, at most ``capacity`` of them.
package final class LabelRegions: Sendable {
    /// The side of a region, in points at the zoom: eight 256-point tiles.
    package static let side = 2048.0
    /// How far around a region features still compete for space (one 256-point tile), in points.
    package static let margin = 256.0
    /// How many regions' labels are kept (the oldest made is dropped first); a region asked for again after
    /// that is laid out again, with the same result.
    package static let capacity = 64

    private struct Key: Hashable, Sendable {
        let column: Int
        let row: Int
    }

    private let baseMap: BaseMap
    private let mapPointsPerPoint: Double
    private let scale: Double
    private let cache = OnceCache<Key, PlacedBaseMapLabels?>(capacity: LabelRegions.capacity)

    /// The regions of `baseMap`'s labels at the zoom of `mapPointsPerPoint`, for images of `scale`.
    package init(baseMap: BaseMap, mapPointsPerPoint: Double, scale: Double) {
        self.baseMap = baseMap
        self.mapPointsPerPoint = mapPointsPerPoint
        self.scale = scale
    }

    /// The world's width (and height) in points at this zoom.
    private var worldSide: Double { WebMercator.worldSize / mapPointsPerPoint }

    /// The number of regions across the world (and down it): at least 1.
    private var regionsAcross: Int {
        let count = (worldSide / Self.side).rounded(.up)
        return count.isFinite ? max(1, Int(min(count, Double(1 << 24)))) : 1
    }

    /// The world points of region (column, row), cut at the world's edges.
    private func rect(_ key: Key) -> Rect {
        let x = Double(key.column) * Self.side
        let y = Double(key.row) * Self.side
        return Rect(x: x, y: y, width: min(Self.side, worldSide - x), height: min(Self.side, worldSide - y))
    }

    /// The labels of one region, laid out on first use.
    private func labels(_ key: Key) throws -> PlacedBaseMapLabels? {
        try cache.value(key) {
            let region = rect(key)
            var area = region.insetBy(dx: -Self.margin, dy: -Self.margin)
            // Past the poles there is nothing; east and west the layout reaches into the next world copy.
            area = Rect(
                x: area.minX, y: max(0, area.minY), width: area.width,
                height: min(worldSide, area.maxY) - max(0, area.minY))
            let mapRect = MapRect(
                x: area.minX * mapPointsPerPoint, y: area.minY * mapPointsPerPoint,
                width: area.width * mapPointsPerPoint, height: area.height * mapPointsPerPoint)
            let layout = MapViewport.layout(covering: mapRect, mapPointsPerPoint: mapPointsPerPoint, scale: scale)
            return try baseMap.placeLabels(for: layout, within: region)
        }
    }

    /// The keys of the regions that `viewport`'s image shows (columns wrapped around the world), in order.
    private func regions(meeting viewport: MapViewport) -> [Key] {
        let origin = viewport.visibleMapRect.origin
        let view = Rect(
            x: origin.x / mapPointsPerPoint, y: origin.y / mapPointsPerPoint, width: viewport.size.width,
            height: viewport.size.height)
        let across = regionsAcross
        // The regions whose inside the image overlaps (a region's labels lie inside it, so one that only
        // touches the image's edge draws nothing into it).
        func index(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
            let scaled = (value / Self.side).rounded(rule)
            return scaled.isFinite ? Int(max(-Double(1 << 30), min(Double(1 << 30), scaled))) : 0
        }
        let rows = max(0, index(view.minY, .down))...max(0, min(across - 1, index(view.maxY, .up) - 1))
        let firstColumn = index(view.minX, .down)
        // At most one world's worth of columns: a wider image shows every region of its rows.
        let lastColumn = max(firstColumn, min(index(view.maxX, .up) - 1, firstColumn + across - 1))
        var keys: [Key] = []
        var seen = Set<Key>()
        for row in rows {
            for column in firstColumn...lastColumn {
                let key = Key(column: ((column % across) + across) % across, row: row)
                if seen.insert(key).inserted { keys.append(key) }
            }
        }
        return keys
    }

    /// Draws the labels of every region that reaches into the image of `viewport` (same zoom), region by
    /// region in row-major order (regions' labels never overlap, so their order does not change a pixel).
    ///
    /// - Throws: ``RenderError`` when the base map's data cannot be loaded.
    package func draw(in context: GraphicsContext, viewport: MapViewport) throws {
        for key in regions(meeting: viewport) {
            try labels(key)?.draw(in: context, viewport: viewport)
        }
    }

    /// The number of regions laid out and still cached.
    package var regionsLaidOut: Int { cache.count }

    /// The boxes (world points) of the labels placed in the regions `viewport`'s image shows.
    package func labelBounds(meeting viewport: MapViewport) throws -> [Rect] {
        try regions(meeting: viewport).flatMap { try labels($0)?.bounds ?? [] }
    }

    /// The number of labels placed in the regions `viewport`'s image shows.
    package func labelCount(meeting viewport: MapViewport) throws -> Int {
        try regions(meeting: viewport).reduce(0) { $0 + (try labels($1)?.count ?? 0) }
    }
}
