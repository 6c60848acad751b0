import Foundation
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

/// Fills and strokes on tiny surfaces whose every pixel is known by hand. Shapes sit on whole pixels, where
/// Cairo's coverage is exactly 0 or 1, so the expectations are exact; where a partial pixel is unavoidable
/// (a 50 % alpha, a bevel) the tolerance is written next to it.
@Suite("Primitives")
struct PrimitiveTests {
    @Test("A pixel-aligned rect fill is exactly the fill color inside and transparent outside")
    func alignedRectFill() throws {
        let (surface, context) = try canvas(8, 8)
        context.setFillColor(.red)
        context.fill(Rect(x: 2, y: 3, width: 4, height: 2))
        expectCoverage(surface, "rect 2,3 4x2", color: .pureRed) { x, y in (2..<6).contains(x) && (3..<5).contains(y) }
    }

    @Test("8-bit color components survive a fill exactly")
    func eightBitColor() throws {
        let (surface, context) = try canvas(4, 4)
        context.setFillColor(Color(red8: 10, green8: 200, blue8: 77))
        context.fill(Rect(x: 0, y: 0, width: 4, height: 4))
        expectCoverage(surface, "fill", color: Pixel(red: 10, green: 200, blue: 77, alpha: 255)) { _, _ in true }
    }

    @Test("A fill color with alpha 0.5 over transparent gives alpha 128 (±1) and the full color")
    func halfAlphaFill() throws {
        let (surface, context) = try canvas(4, 4)
        context.setFillColor(Color.red.withAlphaComponent(0.5))
        context.fill(Rect(x: 0, y: 0, width: 4, height: 4))
        // 0.5 * 255 = 127.5: either rounding is right. Unpremultiplying 128/128 (or 127/127) gives 255 red.
        for y in 0..<4 {
            for x in 0..<4 {
                let p = surface.pixel(x: x, y: y)
                #expect(close(p.alpha, 128, 1), "alpha at \(x),\(y): \(p)")
                #expect(p.red >= 254 && p.green == 0 && p.blue == 0, "color at \(x),\(y): \(p)")
            }
        }
    }

    @Test("Half-transparent white over opaque black blends to mid grey (128 ±1), opaque")
    func blendOverOpaque() throws {
        let (surface, context) = try canvas(2, 2)
        context.setFillColor(.black)
        context.fill(Rect(x: 0, y: 0, width: 2, height: 2))
        context.setFillColor(Color.white.withAlphaComponent(0.5))
        context.fill(Rect(x: 0, y: 0, width: 2, height: 2))
        let p = surface.pixel(x: 1, y: 1)
        #expect(p.alpha == 255)
        #expect(close(p.red, 128, 1) && p.red == p.green && p.green == p.blue, "\(p)")
    }

    @Test("setAlpha multiplies into fills: 0.5 of opaque gives 128 (±1), 0.5 of a 0.5 color gives 64 (±1)")
    func contextAlpha() throws {
        let (surface, context) = try canvas(4, 2)
        context.setAlpha(0.5)
        context.setFillColor(.blue)
        context.fill(Rect(x: 0, y: 0, width: 2, height: 2))
        context.setFillColor(Color.blue.withAlphaComponent(0.5))
        context.fill(Rect(x: 2, y: 0, width: 2, height: 2))
        let half = surface.pixel(x: 0, y: 0)
        let quarter = surface.pixel(x: 3, y: 1)
        #expect(close(half.alpha, 128, 1) && half.blue >= 254 && half.red == 0, "\(half)")
        #expect(close(quarter.alpha, 64, 1) && quarter.blue >= 252 && quarter.red == 0, "\(quarter)")
    }

    @Test("setAlpha multiplies into strokes too, and is clamped to 0...1")
    func contextAlphaStrokeAndClamp() throws {
        let (surface, context) = try canvas(8, 8)
        context.setAlpha(0.5)
        context.setStrokeColor(.green)
        context.setLineWidth(2)
        var line = Path()
        line.move(to: Point(x: 0, y: 2))
        line.addLine(to: Point(x: 8, y: 2))
        context.stroke(line)
        let p = surface.pixel(x: 4, y: 1)
        #expect(close(p.alpha, 128, 1) && p.green >= 254, "\(p)")
        // Above 1 is 1: an opaque fill stays opaque; below 0 is 0: nothing is drawn.
        context.setAlpha(7)
        context.setFillColor(.red)
        context.fill(Rect(x: 0, y: 4, width: 8, height: 2))
        context.setAlpha(-3)
        context.fill(Rect(x: 0, y: 6, width: 8, height: 2))
        #expect(surface.pixel(x: 3, y: 5) == .pureRed)
        #expect(surface.pixel(x: 3, y: 7) == .transparent)
    }

    @Test("A 2-point-wide horizontal stroke on a pixel boundary covers exactly 2 rows")
    func horizontalStroke() throws {
        let (surface, context) = try canvas(8, 8)
        context.setStrokeColor(.blue)
        context.setLineWidth(2)
        var line = Path()
        line.move(to: Point(x: 0, y: 4))
        line.addLine(to: Point(x: 8, y: 4))
        context.stroke(line)
        expectCoverage(surface, "line y=4 width 2", color: .pureBlue) { _, y in y == 3 || y == 4 }
    }

    @Test("The default line width is 1 point: a line on y = 2.5 covers exactly row 2")
    func defaultLineWidth() throws {
        let (surface, context) = try canvas(8, 8)
        var line = Path()
        line.move(to: Point(x: 0, y: 2.5))
        line.addLine(to: Point(x: 8, y: 2.5))
        context.stroke(line)
        expectCoverage(surface, "line y=2.5 width 1, black", color: .pureBlack) { _, y in y == 2 }
    }

    @Test("At scale 2 a 4x4-point rect covers 8x8 device pixels")
    func scaleTwo() throws {
        let (surface, context) = try canvas(16, 16, scale: 2)
        #expect(context.currentTransform == Transform(scaleX: 2, y: 2))
        context.setFillColor(.green)
        context.fill(Rect(x: 1, y: 1, width: 4, height: 4))
        expectCoverage(surface, "rect 1,1 4x4 at scale 2", color: .pureGreen) { x, y in
            (2..<10).contains(x) && (2..<10).contains(y)
        }
    }

    @Test("Line widths are in points: at scale 2 a 1-point line covers 2 device rows")
    func lineWidthInPoints() throws {
        let (surface, context) = try canvas(8, 8, scale: 2)
        context.setStrokeColor(.red)
        var line = Path()
        line.move(to: Point(x: 0, y: 2))
        line.addLine(to: Point(x: 4, y: 2))
        context.stroke(line)
        expectCoverage(surface, "1-point line at y=2, scale 2", color: .pureRed) { _, y in y == 3 || y == 4 }
    }

    @Test("A clip to a rect limits later fills to it; a second clip intersects with the first")
    func clipToRect() throws {
        let (surface, context) = try canvas(8, 8)
        context.clip(to: Path(rect: Rect(x: 1, y: 1, width: 5, height: 5)))
        context.clip(to: Path(rect: Rect(x: 3, y: 0, width: 5, height: 4)))
        context.setFillColor(.red)
        context.fill(Rect(x: 0, y: 0, width: 8, height: 8))
        expectCoverage(surface, "clip 1,1 5x5 and 3,0 5x4", color: .pureRed) { x, y in
            (3..<6).contains(x) && (1..<4).contains(y)
        }
    }

    /// A 12x12 square with a 4x4 square in its middle, both drawn in the same direction (clockwise on screen).
    static let nested: Path = {
        var path = Path(rect: Rect(x: 2, y: 2, width: 12, height: 12))
        path.append(Path(rect: Rect(x: 6, y: 6, width: 4, height: 4)))
        return path
    }()

    static func inOuter(_ x: Int, _ y: Int) -> Bool { (2..<14).contains(x) && (2..<14).contains(y) }
    static func inInner(_ x: Int, _ y: Int) -> Bool { (6..<10).contains(x) && (6..<10).contains(y) }

    @Test("Even-odd leaves the middle of two nested same-direction squares empty")
    func evenOdd() throws {
        let (surface, context) = try canvas(16, 16)
        context.setFillRule(.evenOdd)
        context.setFillColor(.blue)
        context.fill(Self.nested)
        expectCoverage(surface, "even-odd", color: .pureBlue) { x, y in Self.inOuter(x, y) && !Self.inInner(x, y) }
    }

    @Test("Winding (the default, as in Core Graphics) fills the middle of two nested same-direction squares")
    func winding() throws {
        for explicit in [false, true] {
            let (surface, context) = try canvas(16, 16)
            if explicit { context.setFillRule(.winding) }
            context.setFillColor(.blue)
            context.fill(Self.nested)
            expectCoverage(surface, explicit ? "winding" : "default rule", color: .pureBlue) { x, y in
                Self.inOuter(x, y)
            }
        }
    }

    @Test("Winding leaves a hole where the inner square runs the other way")
    func windingHole() throws {
        let (surface, context) = try canvas(16, 16)
        var path = Path(rect: Rect(x: 2, y: 2, width: 12, height: 12))
        path.move(to: Point(x: 6, y: 6))
        path.addLine(to: Point(x: 6, y: 10))
        path.addLine(to: Point(x: 10, y: 10))
        path.addLine(to: Point(x: 10, y: 6))
        path.close()
        context.setFillColor(.blue)
        context.fill(path)
        expectCoverage(surface, "winding, reversed hole", color: .pureBlue) { x, y in
            Self.inOuter(x, y) && !Self.inInner(x, y)
        }
    }

    static func horizontalLine(from x0: Double, to x1: Double, y: Double) -> Path {
        var path = Path()
        path.move(to: Point(x: x0, y: y))
        path.addLine(to: Point(x: x1, y: y))
        return path
    }

    @Test(
        "Dash [2, 2] with butt caps alternates 2 covered and 2 empty pixel columns; the phase shifts it",
        arguments: [0.0, 1.0, 2.0, 5.0])
    func dashes(phase: Double) throws {
        let (surface, context) = try canvas(16, 8)
        context.setStrokeColor(.red)
        context.setLineWidth(2)
        context.setLineCap(.butt)
        context.setLineDash(phase: phase, lengths: [2, 2])
        context.stroke(Self.horizontalLine(from: 0, to: 16, y: 4))
        // Distance d along the line is "on" when (d + phase) mod 4 is in [0, 2).
        let p = Int(phase)
        expectCoverage(surface, "dash [2,2] phase \(phase)", color: .pureRed) { x, y in
            (y == 3 || y == 4) && (x + p) % 4 < 2
        }
    }

    @Test(
        "An empty or invalid dash pattern draws a solid line",
        arguments: [[Double](), [0, 0], [2, -1], [Double.infinity, 2]])
    func invalidDashIsSolid(lengths: [Double]) throws {
        let (surface, context) = try canvas(8, 8)
        context.setStrokeColor(.red)
        context.setLineWidth(2)
        context.setLineDash(phase: 0, lengths: [1, 1])
        context.setLineDash(phase: 0, lengths: lengths)
        context.stroke(Self.horizontalLine(from: 0, to: 8, y: 4))
        expectCoverage(surface, "dash \(lengths)", color: .pureRed) { _, y in y == 3 || y == 4 }
    }

    @Test("Butt caps end at the end points; square caps extend half the line width beyond them")
    func lineCaps() throws {
        for cap in [LineCap.butt, .square] {
            let (surface, context) = try canvas(16, 8)
            context.setStrokeColor(.blue)
            context.setLineWidth(2)
            context.setLineCap(cap)
            context.stroke(Self.horizontalLine(from: 4, to: 12, y: 4))
            let columns = cap == .butt ? 4..<12 : 3..<13
            expectCoverage(surface, "\(cap) cap", color: .pureBlue) { x, y in (y == 3 || y == 4) && columns.contains(x)
            }
        }
    }

    @Test("Butt is the default line cap")
    func defaultCap() throws {
        let (surface, context) = try canvas(16, 8)
        context.setLineWidth(2)
        context.stroke(Self.horizontalLine(from: 4, to: 12, y: 4))
        expectCoverage(surface, "default cap", color: .pureBlack) { x, y in (y == 3 || y == 4) && (4..<12).contains(x) }
    }

    @Test("Round caps reach half the line width beyond the end, only partly covering the corner pixels")
    func roundCap() throws {
        let (surface, context) = try canvas(16, 8)
        context.setLineWidth(2)
        context.setLineCap(.round)
        context.stroke(Self.horizontalLine(from: 4, to: 12, y: 4))
        // The cap is a half disc of radius 1 around (4, 4): pixel 3,3 is the quarter disc of radius 1 in a
        // unit square, pi/4 = 78.5 % covered; nothing reaches column 2.
        let corner = surface.pixel(x: 3, y: 3)
        #expect((180...220).contains(Int(corner.alpha)), "corner \(corner), pi/4 * 255 = 200")
        #expect(surface.pixel(x: 2, y: 3) == .transparent && surface.pixel(x: 13, y: 4) == .transparent)
        #expect(surface.pixel(x: 4, y: 3) == .pureBlack)
    }

    @Test("Miter joins fill the outer corner pixel of a stroked square; bevel joins cut it in half")
    func lineJoins() throws {
        for join in [LineJoin.miter, .bevel] {
            let (surface, context) = try canvas(12, 12)
            context.setLineWidth(2)
            context.setLineJoin(join)
            context.stroke(Path(rect: Rect(x: 2, y: 2, width: 8, height: 8)))
            // The stroke is the ring between the squares 1..11 and 3..9, except at the outer corners.
            let corners: Set<[Int]> = [[1, 1], [10, 1], [1, 10], [10, 10]]
            for y in 0..<12 {
                for x in 0..<12 {
                    let inRing =
                        (1..<11).contains(x) && (1..<11).contains(y) && !((3..<9).contains(x) && (3..<9).contains(y))
                    let p = surface.pixel(x: x, y: y)
                    if join == .bevel && corners.contains([x, y]) {
                        // The bevel runs diagonally through the corner pixel: half of it, 127.5 of 255.
                        #expect((112...144).contains(Int(p.alpha)), "bevel corner \(x),\(y): \(p)")
                    } else {
                        #expect(p == (inRing ? .pureBlack : .transparent), "\(join) at \(x),\(y): \(p)")
                    }
                }
            }
        }
    }

    @Test("clear(to:) replaces every pixel, including with a translucent color (no blending)")
    func clearReplaces() throws {
        let (surface, context) = try canvas(6, 6)
        context.setFillColor(.white)
        context.fill(Rect(x: 0, y: 0, width: 6, height: 6))
        context.setFillColor(.red)
        context.fill(Rect(x: 1, y: 1, width: 2, height: 2))
        context.clear(to: Color(red8: 10, green8: 20, blue8: 30))
        expectPixels(surface, "clear to #0a141e") { _, _ in Pixel(red: 10, green: 20, blue: 30, alpha: 255) }
        context.clear(to: .clear)
        expectPixels(surface, "clear to transparent") { _, _ in .transparent }
        context.clear(to: .white)
        context.clear(to: Color.red.withAlphaComponent(0.5))
        for y in 0..<6 {
            for x in 0..<6 {
                let p = surface.pixel(x: x, y: y)
                #expect(close(p.alpha, 128, 1) && p.red >= 254 && p.green == 0 && p.blue == 0, "at \(x),\(y): \(p)")
            }
        }
    }

    @Test("clear(to:) ignores the context alpha and the transform")
    func clearIgnoresAlphaAndTransform() throws {
        let (surface, context) = try canvas(6, 6, scale: 2)
        context.translateBy(x: 2, y: 2)
        context.setAlpha(0.25)
        context.clear(to: .blue)
        expectPixels(surface, "clear to blue") { _, _ in .pureBlue }
    }

    @Test("clear(to:) ignores the clip, as documented (\"Replaces every pixel of the image ..., ignoring clip\")")
    func clearIgnoresClip() throws {
        let (surface, context) = try canvas(6, 6)
        context.clip(to: Path(rect: Rect(x: 0, y: 0, width: 2, height: 2)))
        context.clear(to: .blue)
        expectPixels(surface, "clear to blue under a 2x2 clip") { _, _ in .pureBlue }
        // The clip still applies to later drawing.
        context.setFillColor(.red)
        context.fill(Rect(x: 0, y: 0, width: 6, height: 6))
        expectPixels(surface, "a fill after clear(to:) is still clipped") { x, y in
            x < 2 && y < 2 ? .pureRed : .pureBlue
        }
    }

    @Test("Drawing an image 1:1 into a pixel-aligned rect copies its pixels exactly; the context alpha scales it")
    func drawImage() throws {
        let colors: [Pixel] = [.pureRed, .pureGreen, .pureBlue, .pureWhite]
        var bytes: [UInt8] = []
        for y in 0..<4 {
            for x in 0..<4 {
                let c = colors[(x + y) % 4]
                bytes += [c.red, c.green, c.blue, c.alpha]
            }
        }
        let image = try ImageSurface(rgba: bytes, width: 4, height: 4)
        let (surface, context) = try canvas(8, 8)
        context.draw(image, in: Rect(x: 2, y: 3, width: 4, height: 4))
        expectPixels(surface, "image at 2,3") { x, y in
            (2..<6).contains(x) && (3..<7).contains(y) ? colors[(x - 2 + y - 3) % 4] : .transparent
        }
        let (half, halfContext) = try canvas(4, 4)
        halfContext.setAlpha(0.5)
        halfContext.draw(image, in: Rect(x: 0, y: 0, width: 4, height: 4))
        let p = half.pixel(x: 1, y: 1)  // colors[2], blue
        #expect(close(p.alpha, 128, 1) && p.blue >= 254 && p.red == 0 && p.green == 0, "\(p)")
    }

    @Test("At scale 2 an image drawn into a rect of half its pixel size lands 1:1 on device pixels")
    func drawImageAtScale() throws {
        let image = try ImageSurface(
            rgba: [UInt8](repeating: 255, count: 4 * 4 * 4).enumerated().map { $0.offset % 4 == 1 ? 0 : $0.element },
            width: 4, height: 4)
        let (surface, context) = try canvas(8, 8, scale: 2)
        context.draw(image, in: Rect(x: 1, y: 1, width: 2, height: 2))
        let magenta = Pixel(red: 255, green: 0, blue: 255, alpha: 255)
        expectCoverage(surface, "4x4 image at 1,1 2x2 pt, scale 2", color: magenta) { x, y in
            (2..<6).contains(x) && (2..<6).contains(y)
        }
    }

    @Test("Text ink stays inside the box given by measure(): advance width by ascent + descent")
    func textInkInsideMeasuredBox() throws {
        let font = try Font.load(path: Font.defaultPath)
        let (surface, context) = try canvas(60, 30)
        let origin = Point(x: 5, y: 20)
        context.drawText("Ag", at: origin, font: font, size: 14, color: .black)
        let m = font.measure("Ag", size: 14)
        var ink = 0
        for y in 0..<30 {
            for x in 0..<60 where surface.pixel(x: x, y: y).alpha > 0 {
                ink += 1
                let inside =
                    Double(x) >= origin.x - 1 && Double(x) < origin.x + m.width + 1
                    && Double(y) >= origin.y - m.ascent - 1 && Double(y) < origin.y + m.descent + 1
                #expect(inside, "ink at \(x),\(y) outside the measured box")
            }
        }
        #expect(ink > 40, "\"Ag\" at 14 pt leaves ink")
        // The descender of g reaches below the baseline; the A does not.
        let belowBaseline = (21..<30).contains { y in (0..<60).contains { x in surface.pixel(x: x, y: y).alpha > 0 } }
        #expect(belowBaseline)
    }

    @Test("checkStatus reports no error on a fresh context")
    func status() throws {
        let (_, context) = try canvas(2, 2)
        try context.checkStatus("test")
    }
}

/// The textured-quad primitive against hand-computed GPU sampling: nearest texels at integer positions,
/// bilinear weights at half texels, pixel centers on the left/top edge inside, on the right/bottom outside.
@Suite("Rasterizer image quads")
struct QuadTests {
    /// One quad drawn through a rasterizer of its own.
    func drawQuad(
        _ context: GraphicsContext, _ texture: Texture, source: Rect, transform: Transform, linear: Bool,
        shading: QuadShading
    ) {
        let rasterizer = context.makeRasterizer()
        rasterizer.addQuad(texture, source: source, transform: transform, linear: linear, shading: shading)
        context.draw(rasterizer)
    }

    @Test("nearest and bilinear sampling, edges, SDF smoothstep")
    func sampling() throws {
        // A 2x1 image: white opaque, then transparent.
        let image = try Texture(rgba: [255, 255, 255, 255, 0, 0, 0, 0], width: 2, height: 1)
        let surface = try ImageSurface(width: 8, height: 4)
        let context = try GraphicsContext(surface: surface)
        // Texel (u, v) -> point (2 + u, 1 + v): texel 0 covers pixel x 2, texel 1 pixel x 3.
        drawQuad(
            context, image, source: Rect(x: 0, y: 0, width: 2, height: 1),
            transform: Transform(a: 1, b: 0, c: 0, d: 1, tx: 2, ty: 1), linear: false, shading: .plain(opacity: 1))
        #expect(surface.pixel(x: 2, y: 1).alpha == 255)
        #expect(surface.pixel(x: 3, y: 1).alpha == 0)
        #expect(surface.pixel(x: 1, y: 1).alpha == 0 && surface.pixel(x: 4, y: 1).alpha == 0)
        // Bilinear, shifted by half a texel: pixel centers fall between texels (weights 1/2): the quad
        // spans x 4.5..6.5, so pixel centers 5.5 (u 1 -> between texel 0 and 1) and 4.5 (u 0: half of
        // texel 0, half of the transparent outside) are drawn, at alpha 1/2.
        drawQuad(
            context, image, source: Rect(x: 0, y: 0, width: 2, height: 1),
            transform: Transform(a: 1, b: 0, c: 0, d: 1, tx: 4.5, ty: 2), linear: true, shading: .plain(opacity: 1))
        #expect(surface.pixel(x: 4, y: 2).alpha == 128)
        #expect(surface.pixel(x: 5, y: 2).alpha == 128)
        #expect(surface.pixel(x: 6, y: 2).alpha == 0)
        // SDF: alpha 255 (distance 1) is inside a 0.75 buffer; smoothstep(0.7, 0.8, 1) = 1.
        let sdf = try ImageSurface(width: 4, height: 4)
        let sdfContext = try GraphicsContext(surface: sdf)
        drawQuad(
            sdfContext, image, source: Rect(x: 0, y: 0, width: 1, height: 1), transform: .identity, linear: false,
            shading: .signedDistance(color: .red, opacity: 0.5, buffer: 0.75, gamma: 0.05))
        #expect(sdf.pixel(x: 0, y: 0) == ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 128))
    }
}
