import Foundation
import MapData
import MapGeometry
import MapTestSupport
import Testing

@testable import MapGraphics

/// SDF glyphs made from installed fonts, against independent truth: shapes whose distances are known by hand,
/// and MapLibre's test glyphs (made by node-fontnik from Open Sans Semibold).
@Suite struct GlyphSDFTests {
    static let semibold = "/usr/share/fonts/truetype/open-sans/OpenSans-Semibold.ttf"
    static let fixture = "maplibre/assets/glyphs/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf"

    /// A square from (0, 0) to (10, 10), ascender 20: every byte worked out by hand from fontnik's encoding
    /// `255 - trunc(clamp(32 d + 64))`, d the signed distance of the pixel center (negative inside).
    @Test func squareByHand() {
        let square = [
            [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10), Point(x: 0, y: 0)]
        ]
        let glyph = GlyphDistanceField.glyph(id: 65, rings: square, advance: 12, ascender: 20)
        #expect((glyph.width, glyph.height, glyph.left, glyph.top, glyph.advance) == (10, 10, 0, -10, 12))
        #expect(glyph.bitmap.count == 16 * 16)
        func byte(column: Int, row: Int) -> UInt8 { glyph.bitmap[row * 16 + column] }
        #expect(byte(column: 3, row: 3) == 207)  // (0.5, 9.5): 0.5 inside -> 64 - 16 = 48
        #expect(byte(column: 0, row: 8) == 111)  // (-2.5, 5.5): 2.5 outside -> 80 + 64 = 144
        #expect(byte(column: 8, row: 8) == 255)  // (5.5, 5.5): 4.5 inside -> clamped to 0
        #expect(byte(column: 0, row: 0) == 78)  // (-2.5, 12.5): 3.536 outside -> 177
        #expect(byte(column: 2, row: 8) == 175)  // (-0.5, 5.5): 0.5 outside -> 80
    }

    /// A disc of radius 6 (a 720-gon, within 0.0001 px of the circle): every byte from the exact distance.
    @Test func discMatchesExactDistances() {
        let ring = (0...720).map { i -> Point in
            let a = Double(i % 720) * .pi / 360
            return Point(x: 8 + 6 * cos(a), y: 8 + 6 * sin(a))
        }
        let glyph = GlyphDistanceField.glyph(id: 111, rings: [ring], advance: 16, ascender: 18)
        #expect((glyph.width, glyph.height, glyph.left, glyph.top) == (12, 12, 2, -4))
        var worst = 0
        for row in 0..<18 {
            for column in 0..<18 {
                let x = Double(2 - 3 + column) + 0.5
                let y = Double(14 + 3 - row) - 0.5
                let d = ((x - 8) * (x - 8) + (y - 8) * (y - 8)).squareRoot() - 6
                let expected = 255 - Int(max(0, min(255, 32 * d + 64)))
                worst = max(worst, abs(Int(glyph.bitmap[row * 18 + column]) - expected))
            }
        }
        #expect(worst <= 1)
    }

    @Test func oversizedOrEmptyOutlinesHaveNoBitmap() {
        let huge = [[Point(x: 0, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 10), Point(x: 0, y: 0)]]
        let glyph = GlyphDistanceField.glyph(id: 1, rings: huge, advance: 999, ascender: 26)
        #expect(!glyph.hasBitmap && glyph.top == -26 && glyph.advance == 255)
        #expect(!GlyphDistanceField.glyph(id: 32, rings: [], advance: 6, ascender: 26).hasBitmap)
        let nan = [[Point(x: .nan, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]]
        #expect(!GlyphDistanceField.glyph(id: 2, rings: nan, advance: 6, ascender: 26).hasBitmap)
    }

    /// MapLibre's test glyphs came from an early node-fontnik (2014), which boxed the ink on the pixel grid
    /// (floor/ceil) and made the field from a raster; today's fontnik and this maker round the outline's
    /// bounds and measure exact distances. Same font, same size: every advance equal, the fixture's box is
    /// this one grown by at most a pixel a side, and the fields agree where they overlap within a few levels.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: semibold)))
    func closeToMapLibresTestGlyphs() throws {
        let fixture = try GlyphRange(pbf: [UInt8](Fixtures.data(Self.fixture)), index: 0)
        let made = try InstalledGlyphs.makeRange(faces: [FontFace.load(path: Self.semibold)], name: "x", index: 0)
        #expect(Set(made.glyphs.keys) == Set(fixture.glyphs.keys))
        var differences = 0
        var total = 0
        var withinHalfPixel = 0
        for (id, f) in fixture.glyphs {
            guard let g = made.glyphs[id] else { continue }
            #expect(g.advance == f.advance, "U+\(id)")
            guard g.hasBitmap, f.hasBitmap else {
                #expect(g.hasBitmap == f.hasBitmap, "U+\(id)")
                continue
            }
            #expect((0...1).contains(g.left - f.left), "U+\(id)")
            #expect((0...1).contains(f.left + f.width - g.left - g.width), "U+\(id)")
            #expect((0...1).contains(f.top - g.top), "U+\(id)")
            #expect((0...1).contains((g.top - g.height) - (f.top - f.height)), "U+\(id)")
            for y in 0..<g.bitmapHeight {
                for x in 0..<g.bitmapWidth {
                    let fx = g.left - f.left + x
                    let fy = f.top - g.top + y
                    guard fx < f.bitmapWidth, fy < f.bitmapHeight else { continue }
                    let d = abs(Int(g.bitmap[y * g.bitmapWidth + x]) - Int(f.bitmap[fy * f.bitmapWidth + fx]))
                    differences += d
                    total += 1
                    if d <= 16 { withinHalfPixel += 1 }
                }
            }
        }
        // Measured: 2.18 levels on average, 99.0 % within 16 levels (half a pixel of distance).
        #expect(total > 60_000)
        #expect(Double(differences) / Double(total) < 2.5)
        #expect(Double(withinHalfPixel) / Double(total) > 0.99)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: semibold)))
    func stacksFallBackPerGlyphAndBytesRepeat() throws {
        let catalog = try FontCatalog(directories: [], includeDefaults: true)
        let glyphs = InstalledGlyphs(catalog: catalog, capacity: 4)
        let latin = try #require(
            try glyphs.glyphRange(fontStack: ["Open Sans Semibold", "DejaVu Sans Book"], index: 0))
        #expect(latin.fontStack == "Open Sans Semibold,DejaVu Sans Book")
        #expect(latin.glyphs[65]?.advance == 15)  // Open Sans Semibold's A, as in MapLibre's glyphs
        // Made afresh (another maker) the bytes are the same.
        let again = try InstalledGlyphs(catalog: catalog).glyphRange(
            fontStack: ["Open Sans Semibold", "DejaVu Sans Book"], index: 0)
        #expect(again?.pbfBytes() == latin.pbfBytes())
        // Hiragana (U+3042) is in no face of the stack: the fallback chain (IPAex) gives it, as labels draw it.
        let kana = try #require(try glyphs.glyphRange(fontStack: ["Open Sans Semibold"], index: 0x30))
        #expect(kana.glyphs[0x3042]?.hasBitmap == true)
        // A stack of no installed font takes the nearest installed face.
        let unknown = try #require(try glyphs.glyphRange(fontStack: ["Klokantech Open Sans Semibold"], index: 0))
        #expect(unknown.glyphs[65] == latin.glyphs[65])
        #expect(throws: GlyphPBFError.badRange(index: 256)) {
            try glyphs.glyphRange(fontStack: ["Open Sans Semibold"], index: 256)
        }
    }
}
