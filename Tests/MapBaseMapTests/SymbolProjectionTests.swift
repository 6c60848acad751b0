import Foundation
import MapGeometry
import MapGraphics
import MapRender
import MapStyle
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

    /// The rows of dark ink in `image` (a label's glyphs on a light background): first and last.
    static func inkRows(_ image: ImageSurface) -> ClosedRange<Int>? {
        var rows: [Int] = []
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y).red < 128 {
                rows.append(y)
                break
            }
        }
        return rows.first.map { $0...rows.last! }
    }

    /// Text drawn with the installed fonts (Devanagari, shaped by HarfBuzz: no glyph PBF draws it) in a view
    /// tilted by 60 degrees is scaled at its anchor as MapLibre scales symbols facing the camera: the label
    /// below the centre (nearer) taller than the same label above it (farther), by the ratio of their
    /// perspective ratios; in the flat view both are the same height.
    @Test("installed-font text under a pitch: nearer labels larger by MapLibre's perspective ratio")
    func installedFontTextScales() throws {
        let size = Size(width: 400, height: 300)
        let center = LocationCoordinate2D(latitude: 0, longitude: 0)
        func render(latitude: Double, pitch: Double) throws -> (ImageSurface, MapViewport) {
            let text = #"""
                {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point",
                   "coordinates": [0, \#(latitude)]}}},
                 "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                   {"id": "t", "type": "symbol", "source": "p",
                    "layout": {"text-field": "नमस्ते", "text-font": ["Noto Sans Regular"], "text-size": 24},
                    "paint": {"text-color": "#000000"}}]}
                """#
            var options = MapSnapshotter.Options(size: size)
            options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: 13).visibleMapRect
            options.camera = try MapCamera(
                lookingAtCenter: center,
                fromDistance: MapCamera.distance(forZoomLevel: 13, latitude: 0, height: size.height), pitch: pitch,
                heading: 0)
            options.style = try Style.decode(
                Data(text.utf8), source: "test", baseURL: FileManager.default.temporaryDirectory)
            options.showsAttribution = false
            let snapshot = try MapSnapshotter(options: options).snapshot()
            return (snapshot.image, snapshot.viewport)
        }
        // 0.01 degrees is about 58 points at zoom 13: at pitch 60 the far label is well up the image, the near
        // one well down it.
        let (far, viewport) = try render(latitude: 0.06, pitch: 60)
        let (near, _) = try render(latitude: -0.02, pitch: 60)
        let farRows = try #require(Self.inkRows(far))
        let nearRows = try #require(Self.inkRows(near))
        #expect(farRows.upperBound < 150 && nearRows.lowerBound > 150)
        func ratio(_ latitude: Double) -> Double {
            let point = viewport.point(for: LocationCoordinate2D(latitude: latitude, longitude: 0))
            return viewport.perspectiveRatio(at: viewport.worldPoint(viewport.mapPoint(for: point)))
        }
        let expected = ratio(-0.02) / ratio(0.06)
        let measured = Double(nearRows.count) / Double(farRows.count)
        #expect(expected > 1.3)
        #expect(
            abs(measured / expected - 1) < 0.1, "ink heights \(nearRows.count) / \(farRows.count), ratios \(expected)")
        let (flatFar, _) = try render(latitude: 0.002, pitch: 0)
        let (flatNear, _) = try render(latitude: -0.002, pitch: 0)
        #expect(Self.inkRows(flatFar)?.count == Self.inkRows(flatNear)?.count)
    }
}
