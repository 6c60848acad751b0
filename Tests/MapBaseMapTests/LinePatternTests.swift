import Foundation
import MapData
import MapGeometry
import MapGraphics
import Testing

@testable import MapBaseMap

/// `line-pattern` through the line mesh, tile clips and sharp-corner vertices, against MapLibre's
/// arithmetic done by hand (line_pattern shader, image atlas padding, stencil clipping, line bucket).
///
/// The pattern shader maps one repeat (fraction `f` along) onto the image plus a one-texel border wrapped
/// from the opposite edge: texel coordinate `u = f * (w + 2) - 0.5`, linearly filtered; across, the side
/// normal `s` (-1 on the side of MapLibre's "down" vertices, which is below a line drawn rightwards) gives
/// `v = (0.5 s + 0.5) * (h + 2) - 0.5`.
@Suite("Line patterns, tile clips and sharp corners as MapLibre draws them")
struct LinePatternTests {
    /// A horizontal line at `y` from x 0 to 40, `width` wide, with `shading` (scale 1), optionally clipped.
    static func render(y: Double, width: Double, shading: (Double) -> LineShading, clip: Rect? = nil) throws
        -> ImageSurface
    {
        let surface = try ImageSurface(width: 40, height: 40)
        let g = try GraphicsContext(surface: surface)
        let canvas = g.makeRasterizer()
        let outset = width / 2 + 0.5
        var t = LineTessellator(cap: .butt, join: .miter, miterLimit: 2, roundLimit: 1.05, outset: outset, offset: 0)
        t.add([Point(x: 0, y: y), Point(x: 40, y: y)], closed: false)
        canvas.add(t.mesh, shading(outset), clip: clip)
        g.draw(canvas)
        return surface
    }

    static func patternShading(_ rgba: [UInt8], width: Int, height: Int, period: Double) throws -> (Double) ->
        LineShading
    {
        let image = try ImageSurface(rgba: rgba, width: width, height: height)
        let pattern = try #require(LinePattern(image: image, period: period))
        return { outset in
            var s = LineShading(color: .black, opacity: 1, outset: outset, inset: 0, ramp: 1)
            s.paint = .pattern(pattern)
            return s
        }
    }

    @Test(
        "along the line, one repeat spans the image and its wrapped border, linearly filtered",
        arguments: [
            // A 2x1 image, red then blue, repeated every 20 points: padded texels [blue, red, blue, red].
            // Column 7 (centre 7.5, f 0.375, u 1.0): texel 1, red. Column 12 (f 0.625, u 2.0): blue.
            // Column 17 (f 0.875, u 3.0): the wrapped border texel, red again.
            // Column 5 (f 0.275, u 0.6): 0.4 blue + 0.6 red.
            (7, 255, 0), (12, 0, 255), (17, 255, 0), (5, 153, 102),
        ])
    func alongTheLine(column: Int, red: Int, blue: Int) throws {
        let shading = try Self.patternShading([255, 0, 0, 255, 0, 0, 255, 255], width: 2, height: 1, period: 20)
        let image = try Self.render(y: 20, width: 10, shading: shading)
        let p = image.pixel(x: column, y: 20)
        #expect(abs(Int(p.red) - red) <= 1 && abs(Int(p.blue) - blue) <= 1 && p.alpha == 255, "\(p)")
    }

    @Test("across a rightward line the image's top lies below the centre line (MapLibre's down vertices)")
    func acrossTheLine() throws {
        // A 1x2 image, red over blue: padded rows [blue, red, blue, red]. Width 10 (outset 5.5) at y
        // 20.125: row 21 (centre 21.5) is 1.375 below, side -0.25, v = 1.0: the top row, red. Row 18 is
        // 1.625 above, side 0.2955, v 2.09: 0.91 blue.
        let shading = try Self.patternShading([255, 0, 0, 255, 0, 0, 255, 255], width: 1, height: 2, period: 20)
        let image = try Self.render(y: 20.125, width: 10, shading: shading)
        let below = image.pixel(x: 20, y: 21)
        #expect(below.red >= 254 && below.blue <= 1, "\(below)")
        let above = image.pixel(x: 20, y: 18)
        #expect(abs(Int(above.blue) - 232) <= 2 && abs(Int(above.red) - 23) <= 2, "\(above)")
    }

    @Test("hostile pattern periods give no pattern, never a crash", arguments: [0.0, -1, .nan, .infinity])
    func hostilePeriods(period: Double) throws {
        let image = try ImageSurface(rgba: [0, 0, 0, 255], width: 1, height: 1)
        #expect(LinePattern(image: image, period: period) == nil)
    }

    @Test("a stepped gradient changes color exactly where the pixel's progress passes the step")
    func exactSteps() throws {
        // Progress x / 40 along a line from x 0 to 40: column 19 (centre 19.5) is at 0.4875, column 20 at
        // 0.5125; the step at 0.5 turns red to blue between them.
        let surface = try ImageSurface(width: 40, height: 40)
        let g = try GraphicsContext(surface: surface)
        let canvas = g.makeRasterizer()
        var t = LineTessellator(cap: .butt, join: .miter, miterLimit: 2, roundLimit: 1.05, outset: 5.5, offset: 0)
        t.lineLength = 40
        t.add([Point(x: 0, y: 20), Point(x: 40, y: 20)], closed: false)
        let shading = LineShading(
            color: .black, opacity: 1, outset: 5.5, inset: 0, ramp: 1,
            paint: .gradient(
                ColorRamp(
                    colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)], nearest: true,
                    steps: [-.infinity, 0.5])))
        canvas.add(t.mesh, shading)
        g.draw(canvas)
        #expect(surface.pixel(x: 19, y: 20).red == 255 && surface.pixel(x: 19, y: 20).blue == 0)
        #expect(surface.pixel(x: 20, y: 20).blue == 255 && surface.pixel(x: 20, y: 20).red == 0)
    }

    @Test(
        "a tile clip keeps the pixels whose centres lie inside it, as a stencil does",
        arguments: [(10.3, 10, 19), (10.5, 10, 19), (10.6, 11, 20)])
    func tileClip(left: Double, first: Int, last: Int) throws {
        let image = try Self.render(
            y: 20, width: 10,
            shading: { LineShading(color: .black, opacity: 1, outset: $0, inset: 0, ramp: 1) },
            clip: Rect(x: left, y: 0, width: 10, height: 40))
        let drawn = (0..<40).filter { image.pixel(x: $0, y: 20).alpha > 0 }
        #expect(drawn == Array(first...last))
    }

    @Test(
        "sharp corners (turns over 75 degrees) get vertex pairs 15 points either side, on long enough segments",
        arguments: [
            // (second point, third point, expected distances of the vertex pairs)
            (Point(x: 100, y: 0), Point(x: 100, y: 100), [0.0, 85, 100, 115, 200]),  // 90 degrees
            (Point(x: 100, y: 0), Point(x: 100 + 100 * cos(.pi / 6), y: 100 * sin(.pi / 6)), [0, 100, 200]),  // 30
            (Point(x: 20, y: 0), Point(x: 20, y: 100), [0, 20, 35, 120]),  // first segment under 30 long
        ])
    func sharpCorners(second: Point, third: Point, expected: [Double]) {
        var t = LineTessellator(cap: .butt, join: .miter, miterLimit: 2, roundLimit: 1.05, outset: 5, offset: 0)
        t.sharpCornerOffset = 15
        t.add([Point(x: 0, y: 0), second, third], closed: false)
        var distances: [Double] = []
        for v in t.mesh.vertices where distances.last.map({ abs($0 - v.distance) > 1e-9 }) ?? true {
            distances.append(v.distance)
        }
        #expect(distances.count == expected.count)
        for (d, e) in zip(distances, expected) { #expect(abs(d - e) < 1e-9, "\(distances)") }
    }

    @Test("a tile's line that leaves the tile keeps its buffered geometry; one inside does not")
    func bufferedLines() throws {
        func line(_ points: [(Int32, Int32)]) -> VectorTileFeature {
            VectorTileFeature(
                id: nil, properties: [:], geometry: .lines([points.map { VectorTilePoint(x: $0.0, y: $0.1) }]))
        }
        let tile = try TileID(z: 1, x: 0, y: 0)
        let leaving = try #require(VectorSource.feature(line([(100, 100), (4200, 100)]), tile: tile, extent: 4096))
        let buffered = try #require(leaving.bufferedLines)
        let size = TileID.mapPointSize(atZoom: 1)
        #expect(buffered.count == 1 && buffered[0].count == 2)
        #expect(abs(buffered[0][1].x - 4200 * size / 4096) < 1e-6)
        // The shape itself is still cut at the tile's edge (labels and the other layers use it).
        if case .lines(let pieces) = leaving.shape { #expect(abs(pieces[0][1].x - size) < 1e-6) }
        let inside = try #require(VectorSource.feature(line([(100, 100), (4000, 100)]), tile: tile, extent: 4096))
        #expect(inside.bufferedLines == nil)
    }
}
