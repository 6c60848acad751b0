import Foundation
import MapGeometry
import Testing

@testable import MapBaseMap

/// Icons along lines at MapLibre's anchors (`getAnchors` / `resample`), the tile pixels they are laid out
/// in, polygon outlines, poles of inaccessibility and touching collision boxes.
@Suite("Line icon anchors")
struct LineIconAnchorTests {
    /// Road 262115852 (`road` layer of the render tests' tile 14/8802/5374, its MVT coordinates) seen at
    /// zoom 17 over data that stops at zoom 14: the tile is 4096 points wide, MapLibre's 8192 units are half
    /// a point. `symbol-spacing` 20, icon `triangle-stroked-12` (22 pixels), default `text-size` 16. The
    /// anchors and turns are the ones MapLibre draws in `symbol-spacing/line-overscaled/expected.png`
    /// (MapRaster's render of that case matches it with 0 differing pixels): the first anchor 14.67 points
    /// in ((11 + 48) x 16/24 x 8 mod 20), then every 20 points while the 14.67-point label fits; the fifth is
    /// rounded onto the vertex (2647, 3184) and takes the previous segment's direction (-102.1 degrees).
    @Test("anchors and turns of an overscaled road, as in MapLibre's image")
    func overscaledRoad() {
        let line = [(2669, 3276), (2653, 3214), (2650, 3198), (2647, 3184), (2668, 3142)].map {
            Point(x: Double($0.0), y: Double($0.1))
        }
        let tile = Rect(x: 0, y: 0, width: 4096, height: 4096)
        let scaling = SymbolLayerRenderer.tileScaling(tileWidth: tile.width)
        #expect(scaling.overscaling == 8 && scaling.pixel == 1)
        let anchors = SymbolLayerRenderer.iconLineAnchors(
            line, tile: tile, spacing: 20, shapedLength: 22, boxScale: 16.0 / 24, scaling: scaling, center: false)
        let expected: [(Double, Double, Double)] = [
            (2665.5, 3262.0, -104.036), (2660.5, 3242.5, -104.237), (2655.5, 3223.0, -104.290),
            (2651.0, 3203.5, -100.784), (2647.0, 3184.0, -102.095), (2656.0, 3166.0, -63.435),
        ]
        #expect(anchors.count == expected.count, "\(anchors)")
        for ((p, angle), (x, y, degrees)) in zip(anchors, expected) {
            #expect(p.x == x && p.y == y, "\(p) != (\(x), \(y))")
            #expect(Swift.abs(angle * 180 / .pi - degrees) < 1e-3, "\(angle * 180 / .pi) != \(degrees)")
        }
    }

    @Test(
        "a piece starting on the tile's edge continues: first anchor half a spacing in, no fallback to the middle",
        arguments: [
            // Continued from the left edge, spacing 100 (label 22 x 16/24 = 14.7 fits): anchors at 50, 150, 250.
            ([Point(x: 0, y: 100), Point(x: 300, y: 100)], [50.0, 150, 250]),
            // Not continued: first anchor (11 + 48) x 16/24 = 39.33 in, then every 100.
            ([Point(x: 10, y: 100), Point(x: 310, y: 100)], [49.333, 149.333, 249.333]),
            // Not continued and too short for the first anchor: the middle.
            ([Point(x: 10, y: 100), Point(x: 40, y: 100)], [25.0]),
            // Continued and short: nothing (MapLibre places it from the neighbouring tile).
            ([Point(x: 0, y: 100), Point(x: 30, y: 100)], []),
        ] as [([Point], [Double])])
    func continued(line: [Point], xs: [Double]) {
        let tile = Rect(x: 0, y: 0, width: 512, height: 512)
        let anchors = SymbolLayerRenderer.iconLineAnchors(
            line, tile: tile, spacing: 100, shapedLength: 22, boxScale: 16.0 / 24, scaling: (1, 1), center: false)
        #expect(anchors.count == xs.count, "\(anchors)")
        // Anchors sit on the tile's 8192-unit grid (1/16 point here).
        for ((p, _), x) in zip(anchors, xs) { #expect(Swift.abs(p.x - x) <= 1.0 / 32, "\(p.x) != \(x)") }
    }

    @Test(
        "MapLibre's tile pixels: overscaling by powers of two, fractional zooms scale the pixels",
        arguments: [
            (512.0, 1.0, 1.0), (4096, 8, 1), (1024, 2, 1), (512 * 1.5, 1, 1.5), (256, 1, 0.5),
            (1536, 2, 1.5),
        ] as [(Double, Double, Double)])
    func scaling(width: Double, overscaling: Double, pixel: Double) {
        let s = SymbolLayerRenderer.tileScaling(tileWidth: width)
        #expect(s.overscaling == overscaling && Swift.abs(s.pixel - pixel) < 1e-12)
    }

    @Test("a tile-cut polygon ring is split where it runs along the tile's square")
    func outlineSplit() {
        let tile = Rect(x: 0, y: 0, width: 100, height: 100)
        // A ring from inside the tile out across the right edge: the edge piece (100, 20)-(100, 60) goes.
        let ring = [
            Point(x: 50, y: 20), Point(x: 100, y: 20), Point(x: 100, y: 60), Point(x: 50, y: 60), Point(x: 50, y: 20),
        ]
        let pieces = SymbolLayerRenderer.split(ring, alongEdgesOf: tile)
        #expect(pieces.count == 2)
        #expect(pieces.first == [Point(x: 50, y: 20), Point(x: 100, y: 20)])
        #expect(pieces.last == [Point(x: 100, y: 60), Point(x: 50, y: 60), Point(x: 50, y: 20)])
        // Not from a tile: unchanged.
        #expect(SymbolLayerRenderer.split(ring, alongEdgesOf: nil) == [ring])
    }

    @Test(
        "the pole of inaccessibility is as far from the outline as a fine brute-force search finds (to the precision)",
        arguments: [
            // A square: its centre, 50 from every side.
            [[Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)]],
            // An L: the centroid (inside the bend) is not the best point.
            [
                [
                    Point(x: 0, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 60), Point(x: 60, y: 60),
                    Point(x: 60, y: 300), Point(x: 0, y: 300),
                ]
            ],
            // A square with a hole at its centre.
            [
                [Point(x: 0, y: 0), Point(x: 200, y: 0), Point(x: 200, y: 200), Point(x: 0, y: 200)],
                [Point(x: 80, y: 80), Point(x: 120, y: 80), Point(x: 120, y: 120), Point(x: 80, y: 120)],
            ],
        ] as [[[Point]]])
    func pole(rings: [[Point]]) throws {
        let precision = 1.0
        let pole = try #require(PoleOfInaccessibility.find(rings, precision: precision))
        let found = PoleOfInaccessibility.signedDistance(pole, rings)
        // Second method: every point of a 1-unit grid over the bounding box.
        var best = -Double.infinity
        let xs = rings[0].map(\.x)
        let ys = rings[0].map(\.y)
        var y = ys.min()!
        while y <= ys.max()! {
            var x = xs.min()!
            while x <= xs.max()! {
                best = max(best, PoleOfInaccessibility.signedDistance(Point(x: x, y: y), rings))
                x += 1
            }
            y += 1
        }
        #expect(found >= best - precision, "pole \(pole) at \(found), grid best \(best)")
        #expect(found <= best + 1, "pole \(pole) at \(found) beats the grid by more than its spacing")
    }

    @Test("degenerate polygons do not spin: a flat ring gives its corner, an empty one nothing")
    func degeneratePole() {
        let flat = [[Point(x: 5, y: 5), Point(x: 50, y: 5), Point(x: 20, y: 5)]]
        #expect(PoleOfInaccessibility.find(flat, precision: 1) == Point(x: 5, y: 5))
        #expect(PoleOfInaccessibility.find([], precision: 1) == nil)
        // A huge polygon with a tiny precision stops at the cell budget.
        let big = [[Point(x: 0, y: 0), Point(x: 1e9, y: 0), Point(x: 1e9, y: 1), Point(x: 0, y: 1)]]
        #expect(PoleOfInaccessibility.find(big, precision: 1e-9) != nil)
    }

    @Test("collision boxes that only touch collide, as in MapLibre's grid")
    func touching() {
        var grid = SpatialGrid(cellSize: 64)
        grid.insert(Rect(x: 0, y: 0, width: 26, height: 26))
        #expect(SymbolLayerRenderer.collides(Rect(x: 10, y: 26, width: 26, height: 26), with: grid))
        #expect(!SymbolLayerRenderer.collides(Rect(x: 10, y: 26.01, width: 26, height: 26), with: grid))
    }
}

/// Line text laid out as MapLibre lays it out.
@Suite("Line text: MapLibre's pen positions, letter spacing, line-center, text-offset")
struct LineTextLayoutTests {
    /// "ASDF" at 20 points in Open Sans Semibold: MapLibre's advances are 15, 13, 17 and 12 pixels at 24
    /// (measured on MapLibre's icon-text-fit images, see IconTextFitTests), i.e. 12.5, 10.83, 14.17 and 10
    /// points; with `text-letter-spacing` 0.5 (10 points) the pens are at 0, 22.5, 43.33 and 67.5 and the label
    /// is 77.5 wide. `line-center` on a line along the equator from 10 W to 10 E puts its middle at longitude 0
    /// (world x 8192 at zoom 6), `text-offset` [2, 0] moves it 40 points east: glyph centres at 8192 + 1.25 +
    /// 6.25, 27.92, 50.42, 72.5.
    @Test("glyph centres of a line-center label with letter spacing and an offset along the line")
    func centres() throws {
        let labels = try LabelPlacementTests.place(
            data: LabelPlacementTests.line([(-10, 0), (10, 0)], name: "ASDF"),
            layout: #"""
                {"text-field": "{name}", "text-font": ["Open Sans Semibold"], "text-size": 20,
                 "symbol-placement": "line-center", "text-letter-spacing": 0.5, "text-offset": [2, 0]}
                """#)
        #expect(labels.count == 1)
        let label = try #require(labels.first)
        guard case .glyphs(let glyphs) = label.content else {
            Issue.record("not laid along the line")
            return
        }
        // MapLibre's pens from its 24-pixel advances, centred on the middle moved 40 points along.
        let advances = [15.0, 13, 17, 12].map { $0 * 20 / 24 }
        var pens: [Double] = []
        var pen = 0.0
        for advance in advances {
            pens.append(pen)
            pen += advance + 10
        }
        let width = pens.last! + advances.last!
        let expected = zip(pens, advances).map { 8192 + 40 - width / 2 + $0 + $1 / 2 }
        #expect(glyphs.count == expected.count)
        for ((glyph, character), x) in zip(zip(glyphs, "ASDF"), expected) {
            // The glyph is drawn centred on its pen centre: origin + its own advance / 2.
            let own = label.font.shape(String(character), size: 20).width
            #expect(Swift.abs(glyph.origin.x + own / 2 - x) < 1e-6, "\(character): \(glyph.origin.x + own / 2) != \(x)")
        }
    }

    @Test("text-anchor left and right on a line: the label starts or ends at the anchor, and turns about it")
    func anchoredAlongLine() throws {
        let advances = [15.0, 13, 17, 12].map { $0 * 20 / 24 }
        var pens: [Double] = []
        var pen = 0.0
        for advance in advances {
            pens.append(pen)
            pen += advance
        }
        let width = pens.last! + advances.last!
        for (anchor, shift) in [("left", 0.0), ("right", -width), ("center", -width / 2)] {
            // Eastwards, then westwards (read backwards).
            for coordinates in [[(-10.0, 0.0), (10.0, 0.0)], [(10.0, 0.0), (-10.0, 0.0)]] {
                let labels = try LabelPlacementTests.place(
                    data: LabelPlacementTests.line(coordinates, name: "ASDF"),
                    layout: #"""
                        {"text-field": "{name}", "text-font": ["Open Sans Semibold"], "text-size": 20,
                         "symbol-placement": "line-center", "text-anchor": "\#(anchor)"}
                        """#)
                let label = try #require(labels.first)
                guard case .glyphs(let glyphs) = label.content else {
                    Issue.record("not laid along the line")
                    return
                }
                let eastwards = coordinates[0].0 < coordinates[1].0
                // Either way the label reads left to right from `shift` after the anchor: read backwards, each
                // glyph's offset from the anchor turns about it (MapLibre's flipped glyphs).
                let expected = zip(pens, advances).map { pen, advance in 8192 + shift + pen + advance / 2 }
                for ((glyph, character), x) in zip(zip(glyphs, "ASDF"), expected) {
                    let own = label.font.shape(String(character), size: 20).width
                    #expect(
                        Swift.abs(glyph.origin.x + own / 2 - x) < 1e-6,
                        "\(anchor), eastwards \(eastwards), \(character): \(glyph.origin.x + own / 2) != \(x)")
                }
            }
        }
    }

    @Test("a label whose glyph centres would pass the line's end is not placed")
    func offTheEnd() throws {
        // 77.5 points of text moved 200 points along a line whose half is about 114 points long.
        let labels = try LabelPlacementTests.place(
            data: LabelPlacementTests.line([(-2.5, 0), (2.5, 0)], name: "ASDF"),
            layout: #"""
                {"text-field": "{name}", "text-font": ["Open Sans Semibold"], "text-size": 20,
                 "symbol-placement": "line-center", "text-letter-spacing": 0.5, "text-offset": [10, 0]}
                """#)
        #expect(labels.isEmpty)
    }
}
