import Foundation
import MapGeometry
import MapTestSupport
import Testing

@testable import MapBaseMap

/// `RepeatedAnchors` files earlier anchors by cells; its decisions must be those of MapLibre's rule as it
/// was written before (every earlier anchor of the same text and tile compared), kept here as the oracle.
@Suite("Repeated line-label anchors: the cell search decides as the all-pairs rule, in linear work")
struct RepeatedAnchorsTests {
    /// The all-pairs rule (the implementation before the cells, MapLibre's `anchorIsTooClose`), over the same
    /// tiles (the production tile partition: what is under test is the search within a tile).
    struct Oracle {
        let tiles: SymbolLayerRenderer.RepeatedAnchors
        var anchors: [String: [Point]] = [:]

        init(zoom: Double) { tiles = SymbolLayerRenderer.RepeatedAnchors(zoom: zoom) }

        mutating func tooClose(_ text: String, _ anchor: Point, within distance: Double) -> Bool {
            let (c, r) = tiles.tile(of: anchor)
            let key = "\(text)|\(c)|\(r)"
            let earlier = anchors[key, default: []]
            if earlier.contains(where: { hypot($0.x - anchor.x, $0.y - anchor.y) < distance }) { return true }
            anchors[key, default: []].append(anchor)
            return false
        }
    }

    /// A random case: `count` anchors at `zoom` in a square of side `extent` from the origin (several 512-point
    /// tiles when large), each with one of `distances` and one of `texts`, drawn from `seed`.
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var seed: UInt64, zoom: Double, extent: Double
        var distances: [Double], texts: [String], count: Int
    }

    static let cases: [Case] = [
        Case(
            testDescription: "one text, one distance, one tile", seed: 1, zoom: 14, extent: 500, distances: [125],
            texts: ["A1"], count: 2_000),
        Case(
            testDescription: "three texts, tiles at a fractional zoom", seed: 2, zoom: 13.6, extent: 3_000,
            distances: [40], texts: ["A1", "B2", "Main Street"], count: 3_000),
        Case(
            testDescription: "distances varying (smaller and larger than the first)", seed: 3, zoom: 15,
            extent: 1_500, distances: [30, 5, 90, 30, 600], texts: ["A1", "B2"], count: 3_000),
        Case(
            testDescription: "no distance first, then some (zero, negative, NaN, tiny, infinite)", seed: 4, zoom: 12,
            extent: 800, distances: [0, -3, .nan, 1e-300, 20, .infinity], texts: ["A1"], count: 1_500),
        Case(
            testDescription: "crowded: small distance, many kept", seed: 5, zoom: 14, extent: 512, distances: [3],
            texts: ["A1"], count: 4_000),
    ]

    @Test("the same decisions as the all-pairs rule on random anchors", arguments: cases)
    func sameDecisions(_ c: Case) {
        var random = SplitMix64(state: c.seed)
        var fast = SymbolLayerRenderer.RepeatedAnchors(zoom: c.zoom)
        var oracle = Oracle(zoom: c.zoom)
        var mismatches: [Int] = []
        var kept = 0
        for n in 0..<c.count {
            var anchor = Point(
                x: Double.random(in: 0..<c.extent, using: &random), y: Double.random(in: 0..<c.extent, using: &random))
            // Some anchors repeat an earlier one exactly or sit a whole distance away (ties), a few are odd.
            switch Int.random(in: 0..<20, using: &random) {
            case 0: anchor = Point(x: (anchor.x / 10).rounded() * 10, y: (anchor.y / 10).rounded() * 10)
            case 1: anchor = Point(x: .nan, y: anchor.y)
            case 2: anchor = Point(x: .infinity, y: anchor.y)
            case 3: anchor = Point(x: anchor.x + 1e17, y: -anchor.y)
            default: break
            }
            let distance = c.distances[Int.random(in: 0..<c.distances.count, using: &random)]
            let text = c.texts[Int.random(in: 0..<c.texts.count, using: &random)]
            let expected = oracle.tooClose(text, anchor, within: distance)
            if fast.tooClose(text, anchor, within: distance) != expected { mismatches.append(n) }
            if !expected { kept += 1 }
        }
        #expect(mismatches.isEmpty, "anchors decided otherwise: \(mismatches.prefix(20))")
        // The case decides both ways (not all kept, not all dropped).
        #expect(kept > 0 && kept < c.count, "\(kept) of \(c.count) kept")
    }

    /// A hostile tile: one road name on 10,000 segments, their anchors 5 points apart in one 512-point tile
    /// (a 100 by 100 lattice), half `symbol-spacing` 2.5: the lattice's neighbours are no nearer, so every
    /// anchor is kept (and the all-pairs rule would compare each with all earlier ones, 50 million pairs);
    /// then each anchor again, moved by half a point, is dropped. The cells compare each anchor with the few
    /// anchors of the 3 by 3 cells around it.
    @Test("10,000 anchors of one text in one tile: all kept, each moved copy dropped, in linear comparisons")
    func tenThousand() {
        var repeats = SymbolLayerRenderer.RepeatedAnchors(zoom: 14)
        var anchors: [Point] = []
        for i in 0..<100 {
            for j in 0..<100 { anchors.append(Point(x: 5 + Double(i) * 5, y: 5 + Double(j) * 5)) }
        }
        let kept = anchors.map { !repeats.tooClose("A1", $0, within: 2.5) }
        let moved = anchors.map { repeats.tooClose("A1", Point(x: $0.x + 0.5, y: $0.y), within: 2.5) }
        #expect(kept.allSatisfy { $0 } && moved.allSatisfy { $0 })
        // At most 9 cells of at most 1 kept anchor each (cells of 2.5 points, anchors 5 apart) per anchor.
        #expect(repeats.comparisons <= 9 * 20_000, "\(repeats.comparisons) comparisons")
    }
}
