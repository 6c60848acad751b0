import Foundation
import MapGeometry
import Testing

@testable import MapBaseMap

/// Symbols turned with the viewport on lines (road shields): upright point symbols at anchors along the line.
@Suite("Viewport-aligned line symbols")
struct LineSymbolTests {
    @Test(
        "anchors every symbol-spacing points from half a spacing in, where the symbol fits; the middle of a short line",
        arguments: [
            // An L-shaped line 300 + 400 points long, spacing 200, symbol 50: centers at 100, 300 and 500 along
            // (700 would end past the line), i.e. (100, 0), the corner (300, 0), and (300, 200).
            (
                [Point(x: 0, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 400)], 200.0, 50.0,
                [Point(x: 100, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 200)]
            ),
            // Shorter than a spacing: one symbol at the middle.
            ([Point(x: 0, y: 0), Point(x: 0, y: 120)], 500.0, 40.0, [Point(x: 0, y: 60)]),
            // Shorter than the symbol: none.
            ([Point(x: 0, y: 0), Point(x: 30, y: 0)], 500.0, 40.0, []),
        ] as [([Point], Double, Double, [Point])])
    func anchors(line: [Point], spacing: Double, length: Double, expected: [Point]) {
        let anchors = SymbolLayerRenderer.lineAnchors(line, spacing: spacing, width: length, padding: 0)
        #expect(anchors.count == expected.count, "\(anchors)")
        for (a, e) in zip(anchors, expected) {
            #expect(Swift.abs(a.x - e.x) < 1e-9 && Swift.abs(a.y - e.y) < 1e-9, "\(a) != \(e)")
        }
    }

    /// MapLibre's `anchorIsTooClose`: the two carriageways of one road, 20 points apart, each with anchors at 125
    /// and 375 (spacing 250): the second carriageway's anchors lie within half a spacing of the first's and
    /// are dropped; another road's name at the same place is kept; an anchor exactly half a spacing away is kept
    /// (MapLibre drops only those strictly closer); so is one 10 points away across a tile edge (at zoom 14
    /// MapLibre's tiles are 512 points: x = 507 and 517 lie in different tiles, each its own bucket).
    @Test("a line label repeats no nearer than half symbol-spacing to an earlier anchor of the same text in its tile")
    func repeatedAnchors() {
        var repeats = SymbolLayerRenderer.RepeatedAnchors(zoom: 14)
        let spacing = 250.0
        let north = SymbolLayerRenderer.lineAnchors(
            [Point(x: 0, y: 200), Point(x: 500, y: 200)], spacing: spacing, width: 40, padding: 0)
        let south = SymbolLayerRenderer.lineAnchors(
            [Point(x: 500, y: 220), Point(x: 0, y: 220)], spacing: spacing, width: 40, padding: 0)
        var kept: [Bool] = []
        for anchor in north + south { kept.append(!repeats.tooClose("CG-1", anchor, within: spacing / 2)) }
        #expect(kept == [true, true, false, false])
        let otherRoad = repeats.tooClose("CG-2", north[0], within: spacing / 2)
        let halfSpacing = repeats.tooClose("CG-1", Point(x: 125, y: 75), within: spacing / 2)
        let closer = repeats.tooClose("CG-1", Point(x: 125, y: 75.1), within: spacing / 2)
        #expect(!otherRoad && !halfSpacing && closer)
        let westOfEdge = repeats.tooClose("CG-3", Point(x: 507, y: 100), within: spacing / 2)
        let eastOfEdge = repeats.tooClose("CG-3", Point(x: 517, y: 100), within: spacing / 2)
        #expect(!westOfEdge && !eastOfEdge)
        #expect(SymbolLayerRenderer.RepeatedAnchors(zoom: 14.5).tileSize == 512 * 2.0.squareRoot())
    }
}
