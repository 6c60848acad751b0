import Foundation
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

/// Font loading and measuring against numbers read out of DejaVuSans.ttf (Debian's fonts-dejavu-core,
/// version 2.37) with fontTools, not through MapRaster:
///
/// - head.unitsPerEm 2048; hhea ascender 1901, descender -483 (OS/2 fsSelection 0x40 has no
///   USE_TYPO_METRICS bit, so HarfBuzz takes hhea's values, not the typo ones 1556 / -492);
/// - hmtx advances: M 1767, A 1401, V 1401, T 1251, o 1253, g 1300;
/// - GPOS `kern` pairs: none for M-M or A-g; A-V -131, T-o -348.
@Suite("Font")
struct FontTests {
    static let unitsPerEm = 2048.0
    static let path = Font.defaultPath

    @Test("Font.load of DejaVu Sans works and is cached: the same instance twice")
    func loadAndCache() throws {
        let a = try Font.load(path: Self.path)
        let b = try Font.load(path: Self.path)
        #expect(a === b)
        #expect(a.path == Self.path)
    }

    @Test("The empty string measures 0 wide")
    func emptyWidth() throws {
        let font = try Font.load(path: Self.path)
        #expect(font.measure("", size: 12).width == 0)
    }

    @Test("\"M\" is 1767/2048 em wide; \"MMMM\" is exactly 4 times that (no M-M kerning in DejaVu Sans)")
    func mWidth() throws {
        let font = try Font.load(path: Self.path)
        let m = font.measure("M", size: 10).width
        #expect(abs(m - 1767 / Self.unitsPerEm * 10) < 1e-9, "\(m)")
        #expect(abs(font.measure("MMMM", size: 10).width - 4 * m) < 1e-9)
    }

    @Test("Width scales linearly with size", arguments: [1.0, 7.5, 14, 20, 96])
    func linearWidth(size: Double) throws {
        let font = try Font.load(path: Self.path)
        let at10 = font.measure("Helsinki Ag", size: 10)
        let atSize = font.measure("Helsinki Ag", size: size)
        #expect(abs(atSize.width - at10.width * size / 10) < 1e-9)
        #expect(abs(atSize.ascent - at10.ascent * size / 10) < 1e-9)
        #expect(abs(atSize.descent - at10.descent * size / 10) < 1e-9)
    }

    @Test("Shaping applies GPOS kerning: \"AV\" is (1401 + 1401 - 131)/2048 em, \"To\" (1251 + 1253 - 348)/2048 em")
    func kerning() throws {
        let font = try Font.load(path: Self.path)
        #expect(abs(font.measure("AV", size: 10).width - 2671 / Self.unitsPerEm * 10) < 1e-9)
        #expect(abs(font.measure("To", size: 10).width - 2156 / Self.unitsPerEm * 10) < 1e-9)
        #expect(abs(font.measure("Ag", size: 14).width - 2701 / Self.unitsPerEm * 14) < 1e-9)
    }

    @Test("Ascent and descent of 10 pt DejaVu Sans are 1901/2048 and 483/2048 of 10 pt; their sum is 10...13")
    func verticalMetrics() throws {
        let font = try Font.load(path: Self.path)
        let m = font.measure("x", size: 10)
        let ascent = 1901 / Self.unitsPerEm * 10  // 9.2822265625
        let descent = 483 / Self.unitsPerEm * 10  // 2.3583984375
        #expect(abs(m.ascent - ascent) < 1e-9, "\(m.ascent)")
        #expect(abs(m.descent - descent) < 1e-9, "\(m.descent), positive")
        #expect((10...13).contains(m.ascent + m.descent))
        // Line metrics belong to the font, not to the text.
        #expect(font.measure("", size: 10).ascent == m.ascent && font.measure("ÅgÉ", size: 10).descent == m.descent)
    }

    @Test("A missing font file throws cannotLoadFont naming the path, every time (failures are not cached)")
    func missingFont() throws {
        let path = "/nonexistent/MapGraphicsTests/NoSuchFont.ttf"
        for _ in 0..<2 {
            do {
                _ = try Font.load(path: path)
                Issue.record("loading a missing font succeeded")
            } catch let GraphicsError.cannotLoadFont(p, reason) {
                #expect(p == path)
                #expect(!reason.isEmpty)
            }
        }
    }

    @Test(
        "A file that is not a font throws cannotLoadFont naming the path",
        arguments: ["graphics/make_inputs.py", "graphics/gray.png"])
    func notAFont(relative: String) throws {
        let path = Fixtures.url(relative).path
        #expect(FileManager.default.fileExists(atPath: path))
        do {
            _ = try Font.load(path: path)
            Issue.record("loading \(relative) as a font succeeded")
        } catch let GraphicsError.cannotLoadFont(p, _) {
            #expect(p == path)
        }
    }

    @Test("The error message names the font file and says what to do")
    func errorMessage() {
        let text = GraphicsError.cannotLoadFont(path: "/x/y.ttf", reason: "no such readable file").description
        #expect(text.contains("/x/y.ttf") && text.contains("no such readable file"))
    }
}
