import Foundation
import MapGeometry
import MapStyle
import Testing

@testable import MapBaseMap

/// A line label's collision shape in an untilted view is MapLibre's: circles laid along the line every half
/// diameter from the label's start (`bboxifyLabel`), those within the glyphs' extent (times 0.8) used, every
/// other one left out where they crowd (`placeLineFeature`). The expected circles are MapLibre's algorithm
/// worked by hand for a 100-point label of 12-point text.
@Suite("Line label collision circles")
struct LineCollisionCircleTests {
    static func renderer() throws -> SymbolLayerRenderer {
        let style = try Style.decode(
            Data(
                #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "x", "text-size": 12, "symbol-placement": "line"}}]}"#
                    .utf8), source: "test", baseURL: URL(fileURLWithPath: "/"))
        let viewport = try MapViewport(
            size: Size(width: 400, height: 300), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 6)
        let map = try StyledBaseMap(style: style)
        let source = try #require(try map.featureSource(for: style.layers[0], viewport: viewport))
        return SymbolLayerRenderer(
            layer: style.layers[0], source: source, selection: FeatureSelection(viewport: viewport))
    }

    /// The circles of a 100-point label of 12-point text (padding 2) anchored `anchor` along a 400-point
    /// horizontal line, its glyphs' centres `glyphs` from the anchor.
    static func circles(anchor: Double, glyphs: ClosedRange<Double>) throws -> [(center: Point, radius: Double)] {
        let renderer = try Self.renderer()
        return renderer.collisionCircles(
            [Point(x: 0, y: 0), Point(x: 400, y: 0)], distances: [0, 400], anchor: anchor, glyphs: glyphs,
            width: 100, size: 12, padding: 2, context: renderer.selection.context())
    }

    @Test("a 100-point label: six circles of radius 9.2 from 42.8 before the anchor, 18.4 apart")
    func straightLine() throws {
        // Label 100 + 2 x 2 padding = 104 long; diameter 1.2 x 12 + 2 x 2 = 18.4; 11 circles from -42.8 every
        // 9.2 lie within the glyphs (0.8 x 49.2 <= 45), and every other one is left out but the last.
        let circles = try Self.circles(anchor: 200, glyphs: -45...45)
        let expected = [-42.8, -24.4, -6.0, 12.4, 30.8, 49.2].map { 200 + $0 }
        #expect(circles.count == expected.count)
        for (circle, x) in zip(circles, expected) {
            #expect(abs(circle.center.x - x) < 1e-9 && circle.center.y == 0, "\(circle.center) != \(x)")
            #expect(abs(circle.radius - 9.2) < 1e-9)
        }
    }

    @Test("glyphs moved along the line by text-offset: circles from the anchor's side to the far glyph")
    func offsetGlyphs() throws {
        // Glyphs 10...90 past the anchor: MapLibre's tile distances are unsigned, so circles from -10 to 90
        // (x 1 / 0.8) are used: those at -6.0 (and the one within a step of the anchor, counted as 0) on.
        let circles = try Self.circles(anchor: 200, glyphs: -10...90)
        #expect(circles.first.map { abs($0.center.x - 194.0) < 1e-9 } == true)
        #expect(circles.allSatisfy { $0.center.x <= 200 + 90 / 0.8 })
    }

    @Test("no circles when the line does not reach back to the label's start")
    func tooShortBehind() throws {
        #expect(try Self.circles(anchor: 40, glyphs: -45...45).isEmpty)
    }

    // Facing the camera in a tilted view, MapLibre GL's circles along the glyphs' path on the image
    // (`placeCollisionCircles`): worked by hand for a radius of 10.

    @Test("a 100-point path: circles from 2.5 inside either end, no more than 25 apart (5 circles, 23.75 apart)")
    func pathCircles() {
        let path = [Point(x: 0, y: 50), Point(x: 60, y: 50), Point(x: 60, y: 90)]
        let circles = SymbolLayerRenderer.pathCircles(
            path, radius: 10, within: Rect(x: -100, y: -100, width: 400, height: 400))
        // Length 100, padded 95: ceil(95 / 25) + 1 = 5 circles at 2.5, 26.25, 50, 73.75 and 97.5 along the path.
        let expected = [
            Point(x: 2.5, y: 50), Point(x: 26.25, y: 50), Point(x: 50, y: 50), Point(x: 60, y: 63.75),
            Point(x: 60, y: 87.5),
        ]
        #expect(circles.count == expected.count)
        for (c, e) in zip(circles, expected) { #expect(abs(c.x - e.x) < 1e-9 && abs(c.y - e.y) < 1e-9) }
    }

    @Test("a path under half a radius long: one circle, padded by at most half its length; one glyph: at it")
    func shortPathCircle() {
        let grid = Rect(x: -10, y: -10, width: 20, height: 20)
        let circles = SymbolLayerRenderer.pathCircles([Point(x: 0, y: 0), Point(x: 4, y: 0)], radius: 10, within: grid)
        #expect(circles.count == 1)
        #expect(abs(circles[0].x - 2) < 1e-12 && circles[0].y == 0)
        // A label of one glyph: its path has no length.
        let glyph = Point(x: 3, y: 4)
        #expect(SymbolLayerRenderer.pathCircles([glyph, glyph], radius: 10, within: grid) == [glyph])
        #expect(
            SymbolLayerRenderer.pathCircles(
                [Point(x: 30, y: 0), Point(x: 30, y: 0)], radius: 10, within: grid
            ).isEmpty)
    }

    @Test("a path leaving the grid and coming back: circles on the two pieces inside only, each laid out on its own")
    func clippedPathCircles() {
        let bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        let path = [Point(x: 10, y: 50), Point(x: 150, y: 50), Point(x: 150, y: 80), Point(x: 10, y: 80)]
        let circles = SymbolLayerRenderer.pathCircles(path, radius: 10, within: bounds)
        // Each piece inside is 90 long, padded 85: ceil(85 / 25) + 1 = 5 circles, 21.25 apart from 2.5 inside.
        let xs = [12.5, 33.75, 55, 76.25, 97.5]
        let expected = xs.map { Point(x: $0, y: 50) } + xs.map { Point(x: 110 - $0, y: 80) }
        #expect(circles.count == expected.count)
        for (c, e) in zip(circles, expected) { #expect(abs(c.x - e.x) < 1e-9 && abs(c.y - e.y) < 1e-9) }
        #expect(
            SymbolLayerRenderer.pathCircles(path, radius: 10, within: Rect(x: 200, y: 0, width: 10, height: 10))
                .isEmpty)
    }

    @Test("the glyph path: the points at both distances and the line's vertices strictly between")
    func glyphPath() {
        let line = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 20, y: 10)]
        let distances = [0.0, 10, 20, 30]
        #expect(
            SymbolLayerRenderer.path(along: line, distances: distances, from: 5, to: 25)
                == [Point(x: 5, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 15, y: 10)])
        #expect(
            SymbolLayerRenderer.path(along: line, distances: distances, from: 10, to: 20)
                == [Point(x: 10, y: 0), Point(x: 10, y: 10)])
        #expect(
            SymbolLayerRenderer.path(along: line, distances: distances, from: 12, to: 12)
                == [Point(x: 10, y: 2), Point(x: 10, y: 2)])
    }

    @Test("a tilted view's label read backwards collides along its glyphs as laid out, before the upright turn")
    func unflippedPath() throws {
        let renderer = try Self.renderer()
        let viewport = renderer.selection.viewport
        let plane = LabelPlane(
            projection: viewport.projection, ground: false, strip: -Double.infinity...Double.infinity)
        var collisions = SpatialGrid(cellSize: 25)
        var repeats = SymbolLayerRenderer.RepeatedAnchors(zoom: renderer.selection.zoom)
        // A line running right to left: the label turns to read upright. Its first glyph is 20 wide, its last
        // 4, so the glyphs' centres span 10...22 from the label's start (188 along the line) as laid out and
        // 2...14 once turned (the first glyph drawn at x 198, the last at 210). The path as laid out is x
        // 190...202; circles of radius 12 x 28.8 / 24 / 2 + 2 =
        // 9.2, a quarter radius inside either end: x 192.3 and 199.7.
        let copies = renderer.glyphsAlongLine(
            [Point(x: 400, y: 0), Point(x: 0, y: 0)], text: "ab", pens: [0, 20], advances: [20, 4], width: 24,
            context: renderer.selection.context(), padding: 2, overlap: .never, collisions: &collisions,
            center: false, repeats: &repeats, anchors: [200], plane: plane)
        #expect(copies.count == 1)
        #expect(copies.first?.map { $0.point.x } == [198, 210])
        #expect(collisions.intersectsAny(circle: Point(x: 183.5, y: 0), radius: 0.01))
        #expect(!collisions.intersectsAny(circle: Point(x: 183, y: 0), radius: 0.01))
        #expect(collisions.intersectsAny(circle: Point(x: 208.5, y: 0), radius: 0.01))
        #expect(!collisions.intersectsAny(circle: Point(x: 209.2, y: 0), radius: 0.01))
    }
}
