import Foundation
import MapData
import MapGeometry
import MapGraphics
import Testing

@testable import MapBaseMap

/// MapLibre's shaping of SDF glyphs, with every number worked out by hand from MapLibre's `shapeText`,
/// `determineLineBreaks` and `getGlyphQuads` (src/symbol/shaping.ts, quads.ts).
@Suite struct GlyphShapingTests {
    /// A glyph with ink `width` x 10 pixels, left 1, top -8, advancing `advance`.
    static func glyph(_ c: Character, advance: Int, width: Int = 8) -> SDFGlyph {
        let id = c.unicodeScalars.first!.value
        let hasInk = c != " "
        let w = hasInk ? width : 0
        let h = hasInk ? 10 : 0
        let count = hasInk ? (w + 6) * (h + 6) : 0
        return SDFGlyph(
            id: id, width: w, height: h, left: 1, top: -8, advance: advance, bitmap: [UInt8](repeating: 0, count: count)
        )
    }

    static func characters(_ text: String, _ glyphs: [Character: SDFGlyph]) -> [GlyphShaping.Character] {
        text.map { GlyphShaping.Character(codePoint: $0.unicodeScalars.first!.value, glyph: glyphs[$0]) }
    }

    static let glyphs: [Character: SDFGlyph] = [
        "a": glyph("a", advance: 10), "b": glyph("b", advance: 14), " ": glyph(" ", advance: 5),
    ]

    @Test func oneCentredLine() {
        // "ab": pens 0 and 10, line 24 long; centre justification moves both left by 12; one line of height
        // 1.2 * 24 = 28.8 centred: glyph y = -17 + (-0.5 * 1 + 0.5) * 28.8 = -17; box +-12 by +-14.4.
        let s = GlyphShaping.shape(
            Self.characters("ab", Self.glyphs), maxWidth: 240, lineHeight: 28.8, align: (0.5, 0.5), justify: 0.5,
            spacing: 0, offset: (0, 0))
        #expect(s.lines.count == 1)
        #expect(s.lines[0].map(\.x) == [-12, -2])
        #expect(s.lines[0].map(\.y) == [-17, -17])
        #expect(s.left == -12 && s.right == 12)
        #expect(abs(s.top + 14.4) < 1e-12 && abs(s.bottom - 14.4) < 1e-12)
    }

    @Test func anchorJustifySpacingAndOffset() {
        // Anchor top-left (align 0, 0), justify left, 2 px letter spacing, offset (24, 12): pens 0 and 12 (10 + 2),
        // line length 12 + 14 = 26; shiftX = 0; shiftY = 0.5 * 28.8 = 14.4 -> y = -17 + 14.4 + 12 = 9.4.
        let s = GlyphShaping.shape(
            Self.characters("ab", Self.glyphs), maxWidth: 240, lineHeight: 28.8, align: (0, 0), justify: 0,
            spacing: 2, offset: (24, 12))
        #expect(s.lines[0].map(\.x) == [24, 36])
        #expect(abs(s.lines[0][0].y - 9.4) < 1e-12)
        #expect(s.left == 24 && s.right == 50 && s.top == 12)
        #expect(abs(s.bottom - 40.8) < 1e-12)
    }

    @Test func balancedLineBreaks() {
        // "aaa aaa aaa", max width 60: total 9 * 10 + 2 * 5 = 100, two lines, target 50. Breaks after the
        // first space (x 30, badness 400) and the second (x 60: alone 100, after the first 400 + 400); the
        // end (x 90, last line): alone 2 * 40^2, after the first 2 * 10^2 + 400 = 600, after the second
        // 20^2 / 2 + 100 = 300. So "aaa aaa" / "aaa" (a greedy wrap gives the same here, but by another rule).
        let text = Self.characters("aaa aaa aaa", Self.glyphs)
        #expect(GlyphShaping.lineBreaks(text, spacing: 0, maxWidth: 60) == [8, 11])
        // Max width 40: three lines (target 33.3): breaks at 4 and 8.
        #expect(GlyphShaping.lineBreaks(text, spacing: 0, maxWidth: 40) == [4, 8, 11])
        // A line feed forces a break whatever the width.
        #expect(GlyphShaping.lineBreaks(Self.characters("ab\nab", Self.glyphs), spacing: 0, maxWidth: 1000) == [3, 5])
    }

    @Test func ideographicBreaks() {
        #expect(GlyphShaping.allowsIdeographicBreaking(0x4E00))
        #expect(GlyphShaping.allowsIdeographicBreaking(0x3042))
        #expect(!GlyphShaping.allowsIdeographicBreaking(0x61))
        #expect(!GlyphShaping.allowsIdeographicBreaking(0xAC00))  // Hangul breaks at spaces only
    }

    @Test func twoLinesCentred() {
        // "ab ab" broken at width 30 (total 53, two lines, target 26.5): lines "ab" and "ab", each 24 long;
        // y of line i: -17 + 28.8 i + (-0.5 * 2 + 0.5) * 28.8 -> -31.4 and -2.6; box top -28.8.
        let s = GlyphShaping.shape(
            Self.characters("ab ab", Self.glyphs), maxWidth: 30, lineHeight: 28.8, align: (0.5, 0.5), justify: 0.5,
            spacing: 0, offset: (0, 0))
        #expect(s.lines.count == 2)
        #expect(s.lines.map { $0.map(\.x) } == [[-12, -2], [-12, -2]])
        #expect(abs(s.lines[0][0].y + 31.4) < 1e-9 && abs(s.lines[1][0].y + 2.6) < 1e-9)
        #expect(abs(s.top + 28.8) < 1e-12)
    }

    @Test func quadCoversTheBitmapAndTheAtlasPadding() throws {
        // getGlyphQuads: x1 = x + (left - 3 - 1) * scale, y1 = y + (-top - 3 - 1) * scale; the quad spans the
        // bitmap (8 + 6 wide) plus one padding texel each side. Glyph "a" at pen (-12, -17), size 24.
        let g = Self.glyphs["a"]!
        let texture = try #require(Texture(distanceField: g.bitmap, width: g.bitmapWidth, height: g.bitmapHeight))
        let quad = SDFText.quad(g, texture: texture, origin: Point(x: -12, y: -17), scale: 1, place: .identity)
        let topLeft = Point(x: quad.source.minX, y: quad.source.minY).applying(quad.transform)
        let bottomRight = Point(x: quad.source.maxX, y: quad.source.maxY).applying(quad.transform)
        #expect(topLeft == Point(x: -15, y: -13))
        #expect(bottomRight == Point(x: -15 + 16, y: -13 + 18))
    }
}
