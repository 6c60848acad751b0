import MapGeometry
import Testing

@testable import MapBaseMap

/// The lines a vector tile's line labels are placed on, as MapLibre's symbol layout makes them: `mergeLines`
/// (a feature's first line joined to lines of the same text meeting it end to start, in layout order), then
/// `clipLines` to the tile's square for `line` placement; `line-center` keeps the tile's whole lines.
@Suite("Line labels per tile: MapLibre's mergeLines and clipLines")
struct TileLabelLinesTests {
    static let a = MapPoint(x: 0, y: 0)
    static let b = MapPoint(x: 10, y: 0)
    static let c = MapPoint(x: 20, y: 5)
    static let d = MapPoint(x: 30, y: 5)
    static let x = MapPoint(x: 0, y: 50)
    static let y = MapPoint(x: 10, y: 50)

    @Test("a line continuing another's end, or leading into another's start, joins it")
    func joins() {
        let (a, b, c) = (Self.a, Self.b, Self.c)
        #expect(SymbolLayerRenderer.mergedLikeMapLibre([("r", [[a, b]]), ("r", [[b, c]])]) == [[[a, b, c]], nil])
        #expect(SymbolLayerRenderer.mergedLikeMapLibre([("r", [[b, c]]), ("r", [[a, b]])]) == [[[a, b, c]], nil])
    }

    @Test("a line between two chains links them into the first chain's feature")
    func links() {
        let (a, b, c, d) = (Self.a, Self.b, Self.c, Self.d)
        let merged = SymbolLayerRenderer.mergedLikeMapLibre([("r", [[a, b]]), ("r", [[c, d]]), ("r", [[b, c]])])
        #expect(merged == [[[a, b, c, d]], nil, nil])
        // A fourth line continuing the linked chain joins it at its new end.
        let e = MapPoint(x: 40, y: 0)
        let more = SymbolLayerRenderer.mergedLikeMapLibre([
            ("r", [[a, b]]), ("r", [[c, d]]), ("r", [[b, c]]), ("r", [[d, e]]),
        ])
        #expect(more == [[[a, b, c, d, e]], nil, nil, nil])
    }

    @Test("different or empty texts, and lines that only touch elsewhere, stay apart")
    func apart() {
        let (a, b, c) = (Self.a, Self.b, Self.c)
        #expect(
            SymbolLayerRenderer.mergedLikeMapLibre([("r", [[a, b]]), ("s", [[b, c]])]) == [[[a, b]], [[b, c]]])
        #expect(SymbolLayerRenderer.mergedLikeMapLibre([("", [[a, b]]), ("", [[b, c]])]) == [[[a, b]], [[b, c]]])
        // End to end (both lines end at b) is not end to start.
        #expect(
            SymbolLayerRenderer.mergedLikeMapLibre([("r", [[a, b]]), ("r", [[c, b]])]) == [[[a, b]], [[c, b]]])
    }

    @Test("only a feature's first line joins; its other lines stay its own; a loop closes on itself")
    func firstLineAndLoops() {
        let (a, b, c, x, y) = (Self.a, Self.b, Self.c, Self.x, Self.y)
        #expect(
            SymbolLayerRenderer.mergedLikeMapLibre([("r", [[a, b]]), ("r", [[b, c], [x, y]])]) == [
                [[a, b, c]], [[x, y]],
            ])
        #expect(SymbolLayerRenderer.mergedLikeMapLibre([("r", [[a, b]]), ("r", [[b, a]])]) == [[[a, b, a]], nil])
    }

    static func feature(_ lines: [[MapPoint]], tile: MapRect) -> FeatureSource.Feature {
        var feature = FeatureSource.Feature(
            shape: .lines(lines), bounds: tile, properties: [:], geometryType: "LineString", labelPoint: nil)
        feature.tileBounds = tile
        return feature
    }

    @Test("line placement: the joined lines of one tile cut to its square; line-center: the whole lines")
    func clippedToTile() {
        let tile = MapRect(x: 0, y: 0, width: 100, height: 100)
        let other = MapRect(x: 100, y: 0, width: 100, height: 100)
        let p = MapPoint(x: 50, y: 50)
        let q = MapPoint(x: 150, y: 50)
        let r = MapPoint(x: 150, y: 150)
        let entries: [(FeatureSource.Feature, Double, String, String)] = [
            (Self.feature([[p, q]], tile: tile), 0, "road", "line"),
            (Self.feature([[q, r]], tile: tile), 0, "road", "line"),
            // The same text in another tile is not joined to the first tile's lines.
            (Self.feature([[q, r]], tile: other), 0, "road", "line"),
            (Self.feature([[p, q]], tile: tile), 0, "road", "line-center"),
            (Self.feature([[p, q]], tile: tile), 0, "road", "point"),
        ]
        let lines = SymbolLayerRenderer.tileLabelLines(entries)
        #expect(lines[0]?.map(\.lines) == [[[p, MapPoint(x: 100, y: 50)]]])
        #expect(lines[0]?.map(\.tile) == [tile])
        #expect(lines[1]?.isEmpty == true)  // joined into entry 0's line
        #expect(lines[2]?.map(\.lines) == [[[q, MapPoint(x: 150, y: 100)]]])
        #expect(lines[3]?.map(\.lines) == [[[p, q]]])
        #expect(lines[4] == nil)
    }

    /// MapLibre tiles a GeoJSON source (geojson-vt, 512-point tiles at the zoom rounded down, a quarter tile of
    /// buffer) and lays out each tile's labels on its own: a GeoJSON line is cut into the tiles it crosses.
    @Test("GeoJSON lines are cut into MapLibre's GeoJSON tiles at the view's zoom, within the window")
    func geoJSONTiles() throws {
        let side = MapRect.world.width / 1024  // zoom 10.5 rounds down to 10
        let window = MapRect(x: 0, y: 0, width: 3 * side, height: side)
        let grid = try #require(SymbolLayerRenderer.GeoJSONTiles(zoom: 10.5, window: window))
        #expect(grid.side == side)
        let start = MapPoint(x: side / 2, y: side / 2)
        let end = MapPoint(x: 2.5 * side, y: side / 2)
        var line = FeatureSource.Feature(
            shape: .lines([[start, end]]), bounds: MapRect(x: side / 2, y: side / 2, width: 2 * side, height: 0),
            properties: [:], geometryType: "LineString", labelPoint: nil)
        line.tileBounds = nil
        let lines = SymbolLayerRenderer.tileLabelLines([(line, 0, "road", "line")], geoJSONTiles: grid)
        let tiles = try #require(lines[0])
        #expect(tiles.map(\.tile.minX) == [0, side, 2 * side])
        #expect(
            tiles.map(\.lines) == [
                [[start, MapPoint(x: side, y: side / 2)]],
                [[MapPoint(x: side, y: side / 2), MapPoint(x: 2 * side, y: side / 2)]],
                [[MapPoint(x: 2 * side, y: side / 2), end]],
            ])
        // Beyond the source's maxzoom the tiles are those of the maxzoom, overscaled (MapLibre's overscaled
        // tiles lay out the maxzoom tile's lines, anchors aligned with it): zoom 17.5 of a source to 16.
        let deep = try #require(
            SymbolLayerRenderer.GeoJSONTiles(
                zoom: 17.5, maxZoom: 16, window: MapRect(x: 0, y: 0, width: 1000, height: 1000)))
        #expect(deep.side == MapRect.world.width / 65536)
        #expect(
            try #require(SymbolLayerRenderer.GeoJSONTiles(zoom: 3.2, maxZoom: 16, window: window)).side
                == MapRect.world.width / 8)
        // Without tiles (a window of too many) the line is labelled whole: absent here.
        #expect(SymbolLayerRenderer.GeoJSONTiles(zoom: 18, window: MapRect.world) == nil)
        #expect(SymbolLayerRenderer.tileLabelLines([(line, 0, "road", "line")]).isEmpty)
    }

    @Test("cutting GeoJSON lines into tiles is bounded: a line past the layer's point budget is labelled whole")
    func boundedCutting() throws {
        let side = MapRect.world.width / 1024
        let grid = try #require(
            SymbolLayerRenderer.GeoJSONTiles(zoom: 10, window: MapRect(x: 0, y: 0, width: 4 * side, height: side)))
        // A line across the four tiles of the window, with more points than the budget allows four times over.
        let count = SymbolLayerRenderer.GeoJSONTiles.pointBudget / 4 + 1
        let points = (0..<count).map { MapPoint(x: 0.1 * side + 3.8 * side * Double($0) / Double(count), y: side / 2) }
        var line = FeatureSource.Feature(
            shape: .lines([points]), bounds: MapRect(x: 0.1 * side, y: side / 2, width: 3.8 * side, height: 0),
            properties: [:], geometryType: "LineString", labelPoint: nil)
        line.tileBounds = nil
        let short = [MapPoint(x: side / 4, y: side / 2), MapPoint(x: side * 3 / 4, y: side / 2)]
        let small = FeatureSource.Feature(
            shape: .lines([short]), bounds: MapRect(x: side / 4, y: side / 2, width: side / 2, height: 0),
            properties: [:], geometryType: "LineString", labelPoint: nil)
        let lines = SymbolLayerRenderer.tileLabelLines(
            [(line, 0, "road", "line"), (small, 0, "lane", "line")], geoJSONTiles: grid)
        #expect(lines[0] == nil)  // labelled whole
        #expect(lines[1]?.map(\.lines) == [[short]])  // within the budget left
    }
}
