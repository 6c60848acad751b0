import MapGeometry
import Testing

@testable import MapBaseMap

/// Line anchors on a segment far longer than any view (a line across the world seen close up): with a window
/// only the anchors near it are walked, at the distances the whole walk gives (offset + k x spacing).
@Suite struct LineAnchorWindowTests {
    @Test("a 10-million-point segment: the anchors in the window, at offset + k spacing, and no others")
    func anchorsNearTheWindow() {
        let line = [Point(x: 0, y: -5_000_000), Point(x: 0, y: 5_000_000)]
        let window = Rect(x: -100, y: -250, width: 200, height: 500)
        let anchors = SymbolLayerRenderer.iconLineAnchors(
            line, tile: nil, spacing: 10, shapedLength: 0, boxScale: 1, scaling: (1, 1), center: false,
            window: window)
        // Without labels' length the spacing stays 10 and the first anchor is at 48 (MapLibre's offset for
        // an uncontinued line: (0 / 2 + 48) x box scale, modulo the spacing: 8).
        #expect(!anchors.isEmpty && anchors.count < 200)
        for (p, _) in anchors {
            let along = p.y + 5_000_000
            let k = ((along - 8) / 10).rounded()
            #expect(abs(along - (8 + k * 10)) < 1e-3, "\(p.y)")
        }
        // Every anchor inside the window is there.
        let inside = anchors.filter { window.contains($0.0) }
        #expect(inside.count == 50)
    }

    @Test("a segment outside the window is passed whole: the next segment's anchors keep their distances")
    func passesSegmentsOutside() {
        let line = [Point(x: -3_000_000, y: 0), Point(x: 0, y: 0), Point(x: 0, y: 1000)]
        let window = Rect(x: -50, y: 400, width: 100, height: 200)
        let anchors = SymbolLayerRenderer.iconLineAnchors(
            line, tile: nil, spacing: 10, shapedLength: 0, boxScale: 1, scaling: (1, 1), center: false,
            window: window)
        #expect(anchors.filter { window.contains($0.0) }.count == 20)
        for (p, _) in anchors where window.contains(p) {
            let along = 3_000_000 + p.y
            let k = ((along - 8) / 10).rounded()
            #expect(abs(along - (8 + k * 10)) < 1e-3, "\(p)")
        }
    }
}
