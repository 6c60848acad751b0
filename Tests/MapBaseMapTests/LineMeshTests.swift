import Foundation
import MapGeometry
import MapGraphics
import Testing

@testable import MapBaseMap

/// Lines drawn as MapLibre's line shader draws them (LineTessellator + Rasterizer).
///
/// Truth is MapLibre's shader arithmetic done by hand, not a recorded image: a pixel centre `d` points
/// from the centre line of a `w`-wide line is covered `clamp((w/2 + 0.5 - d) / 1, 0, 1)` at scale 1;
/// triangles blend one over another (a translucent line over itself covers `1 - (1 - a)^2`); triangles
/// sharing an edge never both draw a pixel; the dash texture holds `128 + signed distance` in texels.
@Suite("Line meshes: MapLibre's line triangles, coverage ramp, blending and dash texture")
struct LineMeshTests {
    /// Draws `lines` (points, scale 1) in black with `opacity` into a transparent `size` image.
    static func render(
        _ lines: [[Point]], width: Double, opacity: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter,
        size: Int = 40, dash: (field: [Float], period: Double, gamma: Double)? = nil
    ) throws -> ImageSurface {
        let surface = try ImageSurface(width: size, height: size)
        let g = try GraphicsContext(surface: surface)
        let canvas = g.makeRasterizer()
        let outset = width / 2 + 0.5
        var shading = LineShading(color: .black, opacity: opacity, outset: outset, inset: 0, ramp: 1)
        if let dash, let field = DashField(dash.field, rows: 1, period: dash.period, gamma: dash.gamma) {
            shading.paint = .dash(field)
        }
        for line in lines {
            var t = LineTessellator(
                cap: cap, join: join, miterLimit: 2, roundLimit: 1.05, outset: outset, offset: 0)
            t.add(line, closed: false)
            canvas.add(t.mesh, shading)
        }
        g.draw(canvas)
        return surface
    }

    @Test(
        "a horizontal line's coverage across it is the shader's one-pixel ramp centred on the edge",
        arguments: [
            // (line width, y of the centre line, expected alpha (0...255) of rows 10...30 at x = 20).
            // Width 10 at y 20: rows 15...24 have centres 4.5 or nearer (covered 1), rows 14 and 25 are 5.5
            // away (0). At y 20.25, row 15 is 4.75 away (0.75) and row 25 is 5.25 away (0.25).
            (10.0, 20.0, [0, 0, 0, 0, 0] + Array(repeating: 255, count: 10) + Array(repeating: 0, count: 6)),
            (10.0, 20.25, [0, 0, 0, 0, 0, 191] + Array(repeating: 255, count: 9) + [64, 0, 0, 0, 0, 0]),
            // Width 3 at y 20.5: rows 19...21 are 1 or nearer (outset 2 minus 1 = full cover).
            (3.0, 20.5, Array(repeating: 0, count: 9) + [255, 255, 255] + Array(repeating: 0, count: 9)),
        ])
    func coverageRamp(width: Double, y: Double, expected: [Int]) throws {
        let image = try Self.render([[Point(x: 0, y: y), Point(x: 40, y: y)]], width: width)
        let alphas = (10...30).map { Int(image.pixel(x: 20, y: $0).alpha) }
        // Pixel centre row r sits at r + 0.5: distance |r + 0.5 - y|, coverage w/2 + 0.5 - distance.
        for (row, (a, e)) in zip(10..., zip(alphas, expected)) {
            #expect(abs(a - e) <= 1, "row \(row): alpha \(a), shader \(e)")
        }
    }

    @Test("a translucent line over itself covers 1 - (1 - a)^2 where it overlaps, a elsewhere")
    func translucentOverlap() throws {
        // A vertical and a horizontal line of one layer crossing: every triangle blends on its own.
        let image = try Self.render(
            [[Point(x: 5, y: 20), Point(x: 35, y: 20)], [Point(x: 20, y: 5), Point(x: 20, y: 35)]], width: 8,
            opacity: 0.5)
        #expect(abs(Int(image.pixel(x: 10, y: 20).alpha) - 128) <= 1)  // 0.5
        #expect(abs(Int(image.pixel(x: 20, y: 20).alpha) - 191) <= 1)  // 0.75
    }

    @Test("two lines meeting end to end with butt caps leave no seam: the shared edge is drawn once")
    func noSeamEndToEnd() throws {
        // Ends at x = 20.5, through the pixel centres of column 20: the pixel belongs to one side only.
        for end in [20.0, 20.5, 20.3] {
            let image = try Self.render(
                [[Point(x: 2, y: 20), Point(x: end, y: 20)], [Point(x: end, y: 20), Point(x: 38, y: 20)]], width: 6,
                opacity: 0.5)
            let row = (2...37).map { Int(image.pixel(x: $0, y: 20).alpha) }
            #expect(row.allSatisfy { abs($0 - 128) <= 1 }, "end \(end): \(row)")
        }
    }

    @Test(
        "the dash texture holds 128 plus the signed distance in texels to the nearest dash edge",
        arguments: [
            // (dasharray, texel, expected byte)
            ([1.0, 1], 0, 128), ([1.0, 1], 64, 192), ([1.0, 1], 128, 128), ([1.0, 1], 192, 64), ([1.0, 1], 255, 127),
            ([3.0, 1], 96, 224), ([3.0, 1], 224, 96),
            // Zero-length gap: the dashes either side merge into one dash filling the repeat.
            ([1.0, 0, 1, 1], 85, 213),
            // Odd count: the last dash joins the first across the repeat (dash 0...64 and 192...256).
            ([1.0, 2, 1], 0, 192),
        ])
    func dashField(dasharray: [Double], texel: Int, expected: Int) throws {
        let field = try #require(LineLayerRenderer.lineDashField(dasharray))
        #expect(field.count == 256)
        #expect(Int((field[texel] * 255).rounded()) == expected)
    }

    @Test(
        "the round dash texture: capsules, value 128 plus the distance past the cap circle",
        arguments: [
            // (row, texel, expected byte) for [1, 1]: stretch 128, half stretch 64.
            // Mid-dash on the centre row: sqrt(64^2 + 64^2) = 90.5 past 128.
            (7, 64, 218),
            // Mid-dash on the edge row: the side is 64 - 65 = -1 off, sqrt(64^2 + 1) = 64.0.
            (0, 64, 192),
            // Mid-gap on the centre row: 64 from either dash end, the cap's radius: on the edge.
            (7, 192, 128),
        ])
    func roundDashField(row: Int, texel: Int, expected: Int) throws {
        let field = try #require(LineLayerRenderer.lineRoundDashField([1, 1]))
        #expect(field.count == 15 * 256)
        #expect(Int((field[row * 256 + texel] * 255).rounded()) == expected)
    }

    @Test("hostile dash arrays give no texture or a finite one, never a crash")
    func hostileDashes() {
        #expect(LineLayerRenderer.lineDashField([]) == nil)
        #expect(LineLayerRenderer.lineDashField([0, 0]) == nil)
        #expect(LineLayerRenderer.lineDashField([.infinity, 1])?.allSatisfy(\.isFinite) ?? true)
        #expect(LineLayerRenderer.lineDashField([-1, 1e300, .nan])?.allSatisfy(\.isFinite) ?? true)
        #expect(LineLayerRenderer.lineRoundDashField([0, 0]) == nil)
        #expect(LineLayerRenderer.lineRoundDashField([0, 1, 0])?.allSatisfy(\.isFinite) ?? true)
    }

    @Test("a dashed line [1, 1] of period 20 is covered in its dashes and empty in its gaps")
    func dashedLine() throws {
        let field = try #require(LineLayerRenderer.lineDashField([1, 1]))
        let image = try Self.render(
            [[Point(x: 0, y: 20), Point(x: 40, y: 20)]], width: 6, dash: (field, 20, 0.05))
        // Dash from 0 to 10 and 20 to 30, gaps 10-20 and 30-40: pixel centres well inside each.
        for x in [2, 5, 8, 22, 25, 28] { #expect(image.pixel(x: x, y: 20).alpha == 255, "x \(x)") }
        for x in [12, 15, 18, 32, 35, 38] { #expect(image.pixel(x: x, y: 20).alpha == 0, "x \(x)") }
    }
}
