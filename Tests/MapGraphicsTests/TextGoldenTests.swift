import Foundation
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

/// Golden images of shaped text: vertical Japanese, a bilingual `format`-style label, complex scripts.
@Suite("Golden text")
struct TextGoldenTests {
    static let paper = Color(red8: 242, green8: 239, blue8: 233)
    static let ink = Color(red8: 40, green8: 40, blue8: 40)

    /// The case `graphics/text`: 200x240 points at scale 2 (its `case.json`): left, two vertical columns 東京都（とうきょう） and 富士山ー; right, the
    /// label "Tokyo" (DejaVu Sans Bold, scale 1) over 東京 (IPAex via fallback, scale 0.8, red), then
    /// القاهرة 12, नई दिल्ली and ירושלים in one DejaVu stack with fallback, each with a white halo.
    static func sheet() throws -> ImageSurface {
        let (surface, context) = try canvas(GoldenCase.load("graphics/text"))
        context.clear(to: paper)
        let jp = try FontCatalog.default.font(stack: ["IPAexGothic"])
        let column1 = jp.shape("東京都（とうきょう）", size: 18, vertical: true)
        let column2 = jp.shape("富士山ー", size: 18, vertical: true)
        context.drawShapedText(column1, at: Point(x: 24, y: 12), size: 18, color: ink)
        context.drawShapedText(column2, at: Point(x: 52, y: 12), size: 18, color: ink, haloColor: .white, haloWidth: 2)
        let bold = try FontCatalog.default.font(stack: ["DejaVu Sans Bold"])
        let regular = try FontCatalog.default.font(stack: ["DejaVu Sans"])
        let label = Font.shape(
            sections: [
                TextSection(text: "Tokyo\n", font: bold),
                TextSection(text: "東京", font: regular, scale: 0.8, color: Color(red8: 180, green8: 30, blue8: 30)),
            ], size: 16, lineHeight: 20)
        context.drawShapedText(
            label, at: Point(x: 140 - label.width / 2, y: 40), size: 16, color: ink, haloColor: .white, haloWidth: 2)
        for (i, text) in ["القاهرة 12", "नई दिल्ली", "ירושלים"].enumerated() {
            let shaped = regular.shape(text, size: 16)
            context.drawShapedText(
                shaped, at: Point(x: 140 - shaped.width / 2, y: 130 + Double(i) * 32), size: 16, color: ink,
                haloColor: .white, haloWidth: 1.5)
        }
        return surface
    }

    @Test("The text sheet matches its golden")
    func golden() throws {
        let surface = try Self.sheet()
        #expect(try GoldenCase.load("graphics/text").check(surface) == nil)
    }
}
