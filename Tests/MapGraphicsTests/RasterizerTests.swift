import Foundation
import MapGeometry
import MapGraphics
import Testing

/// The rasterizer's disc and quad fragments against MapLibre's shader arithmetic written out by hand here,
/// and its blending (premultiplied source over, rounded to 8 bits after each primitive, in order).
@Suite("Rasterizer: circle shader, blending order")
struct RasterizerTests {
    /// GLSL's smoothstep, written independently of the product's.
    static func glslSmoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    @Test("a disc's pixels are MapLibre's circle fragment shader: opaque inside, a one-pixel fade at the edge")
    func discShader() throws {
        let surface = try ImageSurface(width: 24, height: 24)
        let context = try GraphicsContext(surface: surface)
        let rasterizer = context.makeRasterizer()
        // A red disc of radius 8 with no stroke at (12, 12), device pixels.
        rasterizer.addDisc(
            Disc(x: 12, y: 12, radius: 8, strokeWidth: 0, blur: 0, color: .red, strokeColor: .clear))
        context.draw(rasterizer)
        for y in 0..<24 {
            for x in 0..<24 {
                // circle.fragment.glsl: extrude = distance / radius, antialiasblur = 1 / radius (device
                // pixels), opacity_t = smoothstep(0, -antialiasblur, length - 1).
                let dx = (Double(x) + 0.5 - 12) / 8
                let dy = (Double(y) + 0.5 - 12) / 8
                let length = (dx * dx + dy * dy).squareRoot()
                let opacity = Self.glslSmoothstep(0, -1.0 / 8, length - 1)
                let expected = Int((opacity * 255).rounded())
                let p = surface.pixel(x: x, y: y)
                #expect(abs(Int(p.alpha) - expected) <= 1, "alpha at \(x),\(y): \(p.alpha), shader \(expected)")
                if p.alpha > 0 { #expect(p.red == 255 && p.green == 0 && p.blue == 0, "colour at \(x),\(y): \(p)") }
            }
        }
        // The centre is fully covered; a pixel beyond the radius is untouched.
        #expect(surface.pixel(x: 12, y: 12).alpha == 255)
        #expect(surface.pixel(x: 1, y: 1).alpha == 0)
    }

    @Test("translucent primitives blend in order, premultiplied, each rounded to 8 bits as a framebuffer is")
    func blendingOrder() throws {
        let surface = try ImageSurface(width: 8, height: 8)
        let context = try GraphicsContext(surface: surface)
        let white = try Texture(rgba: [255, 255, 255, 255], width: 1, height: 1)
        let rasterizer = context.makeRasterizer()
        // A half-opaque blue disc covering pixel (1, 1) fully, then a 30 %-opaque white quad over all.
        rasterizer.addDisc(
            Disc(
                x: 1.5, y: 1.5, radius: 3, strokeWidth: 0, blur: 0, color: Color(red: 0, green: 0, blue: 1, alpha: 0.5),
                strokeColor: .clear))
        rasterizer.addQuad(
            white, source: Rect(x: 0, y: 0, width: 1, height: 1), transform: Transform(scaleX: 8, y: 8), linear: false,
            shading: .plain(opacity: 0.3))
        context.draw(rasterizer)
        // First the disc over transparent: blue 0.5 * 255 = 127.5 -> 128, alpha 128. Then white 0.3 over it:
        // v = 0.3 * 255 + d * 0.7: alpha 76.5 + 89.6 = 166.1 -> 166; blue 76.5 + 89.6 -> 166; red and
        // green 76.5 -> 77 (rounded half away from zero).
        let p = surface.pixel(x: 1, y: 1)
        #expect(p.alpha == 166, "\(p)")
        // Straight colour from the premultiplied bytes: blue 166/166 = 255, red 77/166 * 255 = 118.
        #expect(abs(Int(p.blue) - 255) <= 1 && abs(Int(p.red) - 118) <= 1 && p.red == p.green, "\(p)")
        // A corner pixel beyond the disc has the white quad alone: 0.3 * 255 = 76.5 -> 77.
        #expect(surface.pixel(x: 7, y: 7).alpha == 77)
    }

    @Test(
        "a quad through a homography: an affine one draws the affine quad's pixels; a projective one fills its projected corners"
    )
    func projectiveQuad() throws {
        // A 4 x 4 texture of distinct colours, drawn nearest.
        var bytes: [UInt8] = []
        for k in 0..<16 { bytes += [UInt8(k * 16), UInt8(255 - k * 16), UInt8(k * 7), 255] }
        let texture = try Texture(rgba: bytes, width: 4, height: 4)
        let source = Rect(x: 0, y: 0, width: 4, height: 4)
        let affine = Transform(scaleX: 3.3, y: 2.7).concatenating(Transform(rotationAngle: 0.4))
            .concatenating(Transform(translationX: 12.2, y: 5.9))
        func draw(_ add: (Rasterizer) -> Void) throws -> ImageSurface {
            let surface = try ImageSurface(width: 32, height: 32)
            let context = try GraphicsContext(surface: surface)
            let rasterizer = context.makeRasterizer()
            add(rasterizer)
            context.draw(rasterizer)
            return surface
        }
        let a = try draw {
            $0.addQuad(texture, source: source, transform: affine, linear: false, shading: .plain(opacity: 1))
        }
        let b = try draw {
            $0.addQuad(
                texture, source: source, homography: Homography(affine), linear: false, shading: .plain(opacity: 1))
        }
        for y in 0..<32 {
            for x in 0..<32 { #expect(a.pixel(x: x, y: y) == b.pixel(x: x, y: y), "\(x),\(y)") }
        }
        // A perspective map (a square seen tilted: its far edge shorter): a pixel is drawn exactly when its
        // centre is inside the quadrilateral of the projected corners (tested here by the corners' cross products).
        let h = Homography([6, 0.5, 4, 0, 5, 3, 0, 0.08, 1])
        let c = try draw {
            $0.addQuad(texture, source: source, homography: h, linear: false, shading: .plain(opacity: 1))
        }
        let corners = [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 4), Point(x: 0, y: 4)].map {
            h.apply($0).point
        }
        var drawn = 0
        for y in 0..<32 {
            for x in 0..<32 {
                let p = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let sides = (0..<4).map { k -> Double in
                    let (o, e) = (corners[k], corners[(k + 1) % 4])
                    return (e.x - o.x) * (p.y - o.y) - (e.y - o.y) * (p.x - o.x)
                }
                let inside = sides.allSatisfy { $0 > 1e-6 }
                let outside = sides.contains { $0 < -1e-6 }
                if inside { #expect(c.pixel(x: x, y: y).alpha == 255, "\(x),\(y)") }
                if outside { #expect(c.pixel(x: x, y: y).alpha == 0, "\(x),\(y)") }
                if c.pixel(x: x, y: y).alpha > 0 { drawn += 1 }
            }
        }
        #expect(drawn > 200)
        // The texel at a pixel is the one the inverse homography names: pixel centre -> texel by hand.
        let centre = Point(x: 14.5, y: 12.5)
        let texel = try #require(h.inverted()).apply(centre).point
        let k = Int(texel.y) * 4 + Int(texel.x)
        #expect(c.pixel(x: 14, y: 12).red == UInt8(k * 16), "texel \(texel)")
    }

    /// A line mesh of a tilted view is interpolated along its length as a GPU interpolates varyings, with
    /// perspective: a strip whose far end is three times as deep as its near end, coloured by a grey ramp of
    /// its progress, has at each row the progress `(t / 3) / ((1 - t) + t / 3)` (t the row's share of the
    /// strip on the image), not `t`; with equal depths the progress is `t`.
    @Test("a tilted line mesh's progress and distance are interpolated with perspective, as a GPU's varyings")
    func perspectiveInterpolation() throws {
        let greys = (0..<256).map { Color(red8: $0, green8: $0, blue8: $0) }
        func draw(farPerspective: Double) throws -> ImageSurface {
            let surface = try ImageSurface(width: 80, height: 64)
            let context = try GraphicsContext(surface: surface)
            var mesh = LineMesh()
            // Near end at y 60, far end at y 4; the sides 10 pixels either side of x 40.
            for (y, progress, perspective) in [(60.0, 0.0, 1.0), (4.0, 1.0, farPerspective)] {
                for side in [-1.0, 1.0] {
                    var v = LineMesh.Vertex(
                        position: Point(x: 40 + 10 * side, y: y), normal: Point(x: 0, y: side), progress: progress)
                    v.perspective = perspective
                    mesh.vertices.append(v)
                }
            }
            mesh.indices = [0, 1, 2, 1, 3, 2]
            let rasterizer = context.makeRasterizer()
            rasterizer.add(
                mesh,
                LineShading(
                    color: .black, opacity: 1, outset: 10, inset: 0, ramp: 1, paint: .gradient(ColorRamp(colors: greys))
                ))
            context.draw(rasterizer)
            return surface
        }
        let tilted = try draw(farPerspective: 1.0 / 3)
        let flat = try draw(farPerspective: 1)
        for y in stride(from: 6, to: 58, by: 4) {
            let t = (60 - (Double(y) + 0.5)) / 56
            let expected = (t / 3) / ((1 - t) + t / 3)
            #expect(abs(Double(tilted.pixel(x: 40, y: y).red) - expected * 255) <= 2, "row \(y): \(expected)")
            #expect(abs(Double(flat.pixel(x: 40, y: y).red) - t * 255) <= 2, "row \(y): \(t)")
        }
    }
}
