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
}
