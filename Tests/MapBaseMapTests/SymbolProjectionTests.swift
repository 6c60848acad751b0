import Foundation
import MapGeometry
import Testing

@testable import MapBaseMap

/// Symbols under a heading and a pitch (issue 26 / 28): MapLibre's alignments, perspective ratios and the
/// projected map angle, with values worked by hand from MapLibre's formulas (`symbol_sdf.vertex`,
/// `CollisionIndex::projectAndGetPerspectiveRatio`, `getLabelPlaneMatrix`).
@Suite("Symbol projection: alignments, perspective ratios, map angle")
struct SymbolProjectionTests {
    static func viewport() throws -> MapViewport {
        try MapViewport(
            size: Size(width: 256, height: 256), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 4)
    }

    @Test("auto alignments resolve as MapLibre's style layer resolves them")
    func alignments() {
        // rotation auto: map on lines, viewport at points; pitch auto follows the rotation.
        #expect(
            SymbolAlignment(rotation: "auto", pitch: "auto", placement: "line")
                == SymbolAlignment(rotateWithMap: true, pitchWithMap: true))
        #expect(
            SymbolAlignment(rotation: "auto", pitch: "auto", placement: "line-center")
                == SymbolAlignment(rotateWithMap: true, pitchWithMap: true))
        #expect(
            SymbolAlignment(rotation: "auto", pitch: "auto", placement: "point")
                == SymbolAlignment(rotateWithMap: false, pitchWithMap: false))
        #expect(
            SymbolAlignment(rotation: "map", pitch: "viewport", placement: "point")
                == SymbolAlignment(rotateWithMap: true, pitchWithMap: false))
        #expect(
            SymbolAlignment(rotation: "viewport", pitch: "map", placement: "line")
                == SymbolAlignment(rotateWithMap: false, pitchWithMap: true))
        // viewport-glyph is not map: pitch auto faces the camera.
        #expect(
            SymbolAlignment(rotation: "viewport-glyph", pitch: "auto", placement: "line")
                == SymbolAlignment(rotateWithMap: false, pitchWithMap: false))
    }

    @Test("perspective ratios: 0.5 + 0.5 d/w facing the camera, 0.5 + 0.5 w/d on the ground, clamped to 0...4")
    func ratios() {
        let d = 384.0
        #expect(PerspectiveRatios(depth: d, distance: d) == PerspectiveRatios(depth: 1, distance: 1))
        let far = PerspectiveRatios(depth: 2 * d, distance: d)
        #expect(far.viewport == 0.75 && far.map == 1.5)
        #expect(abs(far.alongLine - 4.0 / 3) < 1e-15)
        let near = PerspectiveRatios(depth: d / 2, distance: d)
        #expect(near.viewport == 1.5 && near.map == 0.75)
        // 0.5 + 0.5 x 10 = 5.5 is clamped to 4; 0.5 + 0.5 x 0.1 = 0.55.
        let veryNear = PerspectiveRatios(depth: d / 10, distance: d)
        #expect(veryNear.viewport == 4 && abs(veryNear.map - 0.55) < 1e-15)
        // Behind the camera: no scaling.
        #expect(PerspectiveRatios(depth: -1, distance: d) == PerspectiveRatios(depth: 1, distance: 1))
    }

    @Test("the map's east on the image: -heading in a flat view, atan(-tan h cos p) at the center of a tilted one")
    func projectedMapAngle() throws {
        var flat = try Self.viewport()
        try flat.setHeading(30, pitch: 0)
        #expect(abs(flat.projectedMapAngle(at: Point(x: 10, y: 20)) - (-30 * Double.pi / 180)) < 1e-12)
        var tilted = flat
        try tilted.setHeading(45, pitch: 60)
        // East turned by 45 degrees: (cos 45, -sin 45) on the turned ground; at the center the image shows
        // (dx, dy cos p): angle atan2(-0.7071 x 0.5, 0.7071) = atan(-0.5).
        let center = Point(x: 128, y: 128)
        #expect(abs(tilted.projectedMapAngle(at: center) - atan(-0.5)) < 1e-4)
        // Heading 0: east stays horizontal on the image at every depth (a ground line of constant y).
        try tilted.setHeading(0, pitch: 60)
        #expect(abs(tilted.projectedMapAngle(at: Point(x: 40, y: 30))) < 1e-9)
        #expect(abs(tilted.projectedMapAngle(at: Point(x: 200, y: 240))) < 1e-9)
    }

    @Test("the ground's depth at an image point: d at the center, d^2 cos p / (d cos p + v sin p) elsewhere")
    func depth() throws {
        var viewport = try Self.viewport()
        #expect(viewport.groundDepth(at: Point(x: 128, y: 128)) == nil, "flat")
        try viewport.setHeading(0, pitch: 60)
        let d = 1.5 * 256
        #expect(abs((viewport.groundDepth(at: Point(x: 128, y: 128)) ?? 0) - d) < 1e-9)
        // 100 points below the center: d^2 cos 60 / (d cos 60 + 100 sin 60) = 73728 / (192 + 86.6025) = 264.635.
        let below = try #require(viewport.groundDepth(at: Point(x: 50, y: 228)))
        #expect(abs(below - 73728 / (192 + 100 * 3.0.squareRoot() / 2)) < 1e-9)
        #expect(abs(below - 264.6351) < 1e-3)
    }

    @Test("a line's run inside the ground strip around an anchor, cut where it leaves the strip")
    func run() {
        let line = [
            Point(x: 0, y: -50), Point(x: 0, y: -5), Point(x: 0, y: 5), Point(x: 10, y: 5), Point(x: 10, y: 50),
        ]
        let (run, index) = SymbolLayerRenderer.run(of: line, around: Point(x: 0, y: 0), segment: 1, in: -10...20)
        #expect(
            run == [
                Point(x: 0, y: -10), Point(x: 0, y: -5), Point(x: 0, y: 0), Point(x: 0, y: 5), Point(x: 10, y: 5),
                Point(x: 10, y: 20),
            ])
        #expect(index == 2)
    }
}
