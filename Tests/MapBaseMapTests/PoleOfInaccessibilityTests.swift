import Foundation
import MapGeometry
import MapGraphics
import MapStyle
import Testing

@testable import MapBaseMap

/// The pole search's work is bounded per feature: one budget of edge distances (cells times ring vertices)
/// for all of a feature's polygons. A normal feature never meets it (its poles are the same as with no
/// budget at all); a hostile multipolygon stops at it, and every pole it still gives lies inside its polygon.
@Suite("Pole of inaccessibility: one work budget per feature")
struct PoleOfInaccessibilityTests {
    /// A star of `vertices` points (radii alternating 3,000 and 2,400 units) around (cx, cy), in the tile's
    /// 8192 units as labels search them.
    static func star(vertices: Int, cx: Double, cy: Double) -> [[Point]] {
        [
            (0..<vertices).map { k in
                let angle = 2 * Double.pi * Double(k) / Double(vertices)
                let r = k % 2 == 0 ? 3_000.0 : 2_400.0
                return Point(x: (cx + r * cos(angle)).rounded(), y: (cy + r * sin(angle)).rounded())
            }
        ]
    }

    /// A comb of 500 vertices across most of a tile (8192 units, as labels search it): a base 200 units high
    /// and 166 teeth 8,000 units long, 48 units apart. Its many long, thin, equally good teeth make the
    /// search split thousands of cells, each costing 500 distances.
    static func comb(dx: Double, dy: Double) -> [[Point]] {
        var ring = [Point(x: dx, y: dy), Point(x: dx + 8_000, y: dy)]
        for t in 0..<166 {
            let x = dx + 8_000 - Double(t) * 48
            ring += [Point(x: x, y: dy + 8_000), Point(x: x - 24, y: dy + 8_000), Point(x: x - 24, y: dy + 200)]
        }
        return [ring]
    }

    /// The hostile tile of the review: one feature of 2,000 polygons of 500 vertices. With no budget each
    /// search costs what the first one costs alone (counted here), 2,000 times over; with the feature's
    /// budget the total stays under the budget plus two first guesses per polygon (500 distances each).
    @Test("2,000 polygons of 500 vertices in one feature: work within the feature's budget, every pole inside")
    func hostileMultipolygon() throws {
        let polygons = (0..<2_000).map { n in Self.comb(dx: Double(n % 40), dy: Double(n / 40)) }
        #expect(polygons.allSatisfy { $0[0].count == 500 })
        var alone = PoleOfInaccessibility.Budget()
        let firstAlone = try #require(PoleOfInaccessibility.find(polygons[0], precision: 16, budget: &alone))
        let unbounded = alone.spent * polygons.count
        #expect(!alone.exhausted)
        #expect(unbounded > 100 * PoleOfInaccessibility.featureBudget, "one search costs \(alone.spent)")

        var budget = PoleOfInaccessibility.Budget()
        let poles = polygons.map { PoleOfInaccessibility.find($0, precision: 16, budget: &budget) }
        #expect(budget.exhausted)
        #expect(budget.spent <= PoleOfInaccessibility.featureBudget + 2 * 500 * polygons.count, "\(budget.spent)")
        // The searches before the budget ran out are those of a feature of normal size: the same pole.
        #expect(poles[0] == firstAlone)
        // Every pole given is inside its polygon: a label never lands outside because the budget ran out (a
        // polygon whose search was cut before finding a point inside has none).
        for (pole, rings) in zip(poles, polygons) {
            guard let pole else { continue }
            #expect(PoleOfInaccessibility.signedDistance(pole, rings) > 0, "\(pole)")
        }
    }

    /// A feature of a few normal polygons (the L, the square with a hole and stars of 60 vertices): the
    /// poles found with one shared budget are those found with a budget each (it is never exhausted).
    @Test("a normal feature's poles are the same with one budget for all its polygons")
    func normalFeatureUnchanged() {
        let polygons: [[[Point]]] =
            [
                [
                    [
                        Point(x: 0, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 60), Point(x: 60, y: 60),
                        Point(x: 60, y: 300), Point(x: 0, y: 300),
                    ]
                ],
                [
                    [Point(x: 0, y: 0), Point(x: 200, y: 0), Point(x: 200, y: 200), Point(x: 0, y: 200)],
                    [Point(x: 80, y: 80), Point(x: 120, y: 80), Point(x: 120, y: 120), Point(x: 80, y: 120)],
                ],
            ] + (0..<20).map { Self.star(vertices: 60, cx: 4_096 + Double($0 * 7), cy: 4_096) }
        var shared = PoleOfInaccessibility.Budget()
        let together = polygons.map { PoleOfInaccessibility.find($0, precision: 16, budget: &shared) }
        let apart = polygons.map { PoleOfInaccessibility.find($0, precision: 16) }
        #expect(!shared.exhausted)
        #expect(together == apart)
    }

    /// The review's second hostile tile: many polygon features, each within its own budget. One layer's draw
    /// shares ``PoleOfInaccessibility/layerBudget`` among all its features, so 12 comb features (each able to
    /// spend the whole feature budget) cost at most the layer's budget plus two first guesses per polygon.
    @Test("12 hostile polygon features in one layer draw: the layer's pole work stays within its budget")
    func hostileFeaturesShareTheLayerBudget() throws {
        let text = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "x"}}]}
            """#
        let style = try Style.decode(Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: "/"))
        let viewport = try MapViewport(
            size: Size(width: 512, height: 512), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 14)
        let frame = LayerFrame(
            context: try GraphicsContext(surface: try ImageSurface(width: 512, height: 512)), viewport: viewport)
        let renderer = SymbolLayerRenderer(
            layer: style.layers[0], source: FeatureSource(name: "s", features: []), selection: frame.selection)
        // The tile under the view's centre, its 8192 units in map points.
        let tile = MapRect(
            origin: viewport.visibleMapRect.origin,
            size: MapSize(width: viewport.visibleMapRect.width, height: viewport.visibleMapRect.width))
        let unit = tile.width / 8192
        let polygons = (0..<200).map { n in
            Self.comb(dx: Double(n % 40), dy: Double(n / 40)).map { ring in
                ring.map { MapPoint(x: tile.minX + $0.x * unit, y: tile.minY + $0.y * unit) }
            }
        }
        for _ in 0..<12 {
            var feature = FeatureSource.Feature(
                shape: .polygons(polygons), bounds: tile, properties: [:], geometryType: "Polygon",
                labelPoint: tile.origin)
            feature.tileBounds = tile
            _ = renderer.anchorGroups(for: feature)
        }
        let spent = PoleOfInaccessibility.layerBudget - renderer.poleWork.remaining
        #expect(spent <= PoleOfInaccessibility.layerBudget + 2 * 12 * 200 * 500, "\(spent)")
        #expect(spent > 3 * PoleOfInaccessibility.featureBudget, "the features did search: \(spent)")
    }
}
