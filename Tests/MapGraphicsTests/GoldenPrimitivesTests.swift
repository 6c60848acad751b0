import Foundation
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

/// One golden image of the primitives together, at scale 2: `fixtures/render/graphics/primitives/expected.png`.
@Suite("Golden primitive sheet")
struct GoldenPrimitivesTests {
    static let paper = Color(red8: 242, green8: 239, blue8: 233)
    static let water = Color(red8: 170, green8: 211, blue8: 223)
    static let ink = Color(red8: 40, green8: 40, blue8: 40)

    /// The case `graphics/primitives`: 64x64 points at scale 2 (128x128 pixels, its `case.json`):
    /// - a paper-colored background;
    /// - top: a rounded rect (6,6 52x20, radius 6) filled light blue, stroked dark blue 1.5 pt;
    /// - middle: a red dashed line y = 34 from x 6 to 58, 2 pt, dashes [4, 2], butt caps;
    /// - bottom left: a green arc, center 18,50, radius 9, from 0 clockwise to 3pi/2 (three quarters:
    ///   right, bottom, left, ending at the top), 3 pt, round caps;
    /// - bottom right: "Ag" in 14 pt DejaVu Sans, dark grey with a 1.5 pt white halo, baseline at 34,56.
    static func sheet() throws -> ImageSurface {
        let (surface, context) = try canvas(GoldenCase.load("graphics/primitives"))
        context.clear(to: paper)
        let box = Path(roundedRect: Rect(x: 6, y: 6, width: 52, height: 20), cornerRadius: 6)
        context.setFillColor(water)
        context.fill(box)
        context.setStrokeColor(Color(red8: 30, green8: 60, blue8: 140))
        context.setLineWidth(1.5)
        context.stroke(box)
        context.withSavedState {
            context.setStrokeColor(Color(red8: 200, green8: 30, blue8: 30))
            context.setLineWidth(2)
            context.setLineCap(.butt)
            context.setLineDash(phase: 0, lengths: [4, 2])
            context.stroke(PrimitiveTests.horizontalLine(from: 6, to: 58, y: 34))
        }
        context.withSavedState {
            var arc = Path()
            arc.addArc(center: Point(x: 18, y: 50), radius: 9, startAngle: 0, endAngle: 1.5 * .pi, clockwise: true)
            context.setStrokeColor(Color(red8: 20, green8: 140, blue8: 60))
            context.setLineWidth(3)
            context.setLineCap(.round)
            context.stroke(arc)
        }
        let font = try Font.load(path: Font.defaultPath)
        context.drawText(
            "Ag", at: Point(x: 34, y: 56), font: font, size: 14, color: ink, haloColor: .white, haloWidth: 1.5)
        return surface
    }

    @Test("The primitive sheet matches its golden")
    func golden() throws {
        let surface = try Self.sheet()
        #expect(surface.width == 128 && surface.height == 128)
        #expect(try GoldenCase.load("graphics/primitives").check(surface) == nil)
    }

    @Test("The primitive sheet's flat areas have exactly the colors drawn")
    func flatColors() throws {
        let s = try Self.sheet()
        let paper = Pixel(red: 242, green: 239, blue: 233, alpha: 255)
        let water = Pixel(red: 170, green: 211, blue: 223, alpha: 255)
        #expect(s.pixel(x: 1, y: 1) == paper)
        #expect(s.pixel(x: 126, y: 126) == paper)
        #expect(s.pixel(x: 64, y: 32) == water, "inside the rounded rect")
        // The rounded rect's corner: device pixel 13,13 is points 6.5...7 on each axis, whose nearest point
        // to the corner arc's center 12,12 is 7,7 at 7.07, beyond the radius 6 plus half the 1.5 stroke.
        #expect(s.pixel(x: 13, y: 13) == paper)
        // Dashes of 4 on, 2 off from x = 6: points 6..10 on (device 12..20), 10..12 off (device 20..24).
        #expect(s.pixel(x: 16, y: 67) == Pixel(red: 200, green: 30, blue: 30, alpha: 255))
        #expect(s.pixel(x: 22, y: 67) == paper)
        // The arc passes through 18,59 (bottom) but not 27,50's opposite, the open quarter's middle at
        // 24.4,43.6 (angle -pi/4).
        #expect(s.pixel(x: 36, y: 118) == Pixel(red: 20, green: 140, blue: 60, alpha: 255))
        #expect(s.pixel(x: 49, y: 87) == paper)
    }
}
