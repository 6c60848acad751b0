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
}
