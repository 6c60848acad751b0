import Foundation
import MapData
import MapGeometry
import MapGraphics
import Testing

@testable import MapBaseMap

/// Images inline in text (`format` image sections) shaped as MapLibre's `shapeLines` and `getGlyphQuads`
/// shape them; every number worked out by hand from those functions.
@Suite struct InlineImageTests {
    static func image(_ width: Int, _ height: Int, ratio: Double = 1) throws -> InlineImage {
        InlineImage(
            texture: try Texture(
                rgba: [UInt8](repeating: 255, count: width * height * 4), width: width, height: height),
            pixelWidth: width, pixelHeight: height, pixelRatio: ratio, sectionScale: 1)
    }

    static func character(_ image: InlineImage, layoutSize: Double = 24) -> GlyphShaping.Character {
        GlyphShaping.Character(
            codePoint: 0xFFFC, glyph: nil, scale: InlineImage.layoutScale(sectionScale: 1, layoutSize: layoutSize),
            image: image)
    }

    @Test func imageAloneIsCentredWithItsBottomOnTheBaseline() throws {
        // A 20 x 20 image at text-size 24 (scale 1): advance 20, pen 0, y = -17 + (24 - 20) = -13; centred
        // (justify 0.5): x -= 10; one 24-pixel line, shiftY = (-0.5 + 0.5) * 24 = 0; box +-10 by +-12.
        let s = GlyphShaping.shape(
            [Self.character(try Self.image(20, 20))], maxWidth: 240, lineHeight: 24, align: (0.5, 0.5),
            justify: 0.5, spacing: 0, offset: (0, 0))
        #expect(s.lines[0].map(\.x) == [-10])
        #expect(s.lines[0].map(\.y) == [-13])
        #expect(s.left == -10 && s.right == 10 && s.top == -12 && s.bottom == 12)
        // The quad: x1 = -10 + (1 - 1) * 1 = -10, y1 = -13 + (3 - 1) * 1 = -11, 22 layout pixels a side, so
        // image texel 0 starts at (-9, -10) and texel 20 ends at (11, 10).
        let quad = try Self.image(20, 20).quad(
            origin: Point(x: -10, y: -13), scale: 1, place: .identity, opacity: 1, linear: false)
        let start = Point(x: 0, y: 0).applying(quad.transform)
        let end = Point(x: 20, y: 20).applying(quad.transform)
        #expect(start == Point(x: -9, y: -10) && end == Point(x: 11, y: 10))
    }

    @Test func imageKeepsItsDisplaySizeAtAnyTextSize() throws {
        // At text-size 48 the layout scale is 24 / 48 = 0.5: a 2x image of 40 pixels (display 20) advances
        // 20 * 0.5 = 10 layout pixels, 20 points once scaled by 48 / 24.
        let image = try Self.image(40, 40, ratio: 2)
        let c = Self.character(image, layoutSize: 48)
        #expect(c.scale == 0.5 && c.width == 10)
        // Quad: buffer 1 / 2, texel 0.5 * 1 / 2 = 0.25 layout pixels; 40 texels are 10 layout pixels.
        let quad = image.quad(origin: Point(x: 0, y: 0), scale: 0.5, place: .identity, opacity: 1, linear: false)
        let a = Point(x: 0, y: 0).applying(quad.transform)
        let b = Point(x: 40, y: 40).applying(quad.transform)
        #expect(abs((b.x - a.x) - 10) < 1e-12 && abs((b.y - a.y) - 10) < 1e-12)
        // x1 = (1 - 0.5) * 0.5 = 0.25, texel 0 at x1 + 0.25 = 0.5; y1 = (3 - 0.5) * 0.5 = 1.25, texel 0 at 1.5.
        #expect(a == Point(x: 0.5, y: 1.5))
    }

    @Test func tallImagePushesItsLineDown() throws {
        // A 20 x 48 image at size 24: y = -17 + (24 - 48) = -41, line offset 48 - 24 = 24 -> -17; the line is
        // 24 + 24 = 48 tall (not the line height), so shiftY = -48 * 0.5 + 17 = -7: y = -24; box +-24 tall.
        let s = GlyphShaping.shape(
            [Self.character(try Self.image(20, 48))], maxWidth: 240, lineHeight: 24, align: (0.5, 0.5),
            justify: 0.5, spacing: 0, offset: (0, 0))
        #expect(s.lines[0].map(\.y) == [-24])
        #expect(s.top == -24 && s.bottom == 24)
        // The line's offset (vertical labels centre on it): max(24, (1 - 1) * 24) = 24.
        #expect(s.lineOffsets == [24])
    }

    @Test func scaledSectionSetsTheLineOffset() throws {
        // A glyph at font-scale 1.5 beside a 10 x 10 image: no image offset (10 - 24 * 1.5 < 0), the scale adds
        // (1.5 - 1) * 24 = 12. The image's bottom sits on the scaled baseline: y = -17 + 12 + (24 - 10) = 9.
        let glyph = SDFGlyph(
            id: 0x61, width: 8, height: 10, left: 1, top: -8, advance: 10, bitmap: [UInt8](repeating: 0, count: 14 * 16)
        )
        let s = GlyphShaping.shape(
            [
                GlyphShaping.Character(codePoint: 0x61, glyph: glyph, scale: 1.5),
                Self.character(try Self.image(10, 10)),
            ],
            maxWidth: 240, lineHeight: 24, align: (0, 0), justify: 0, spacing: 0, offset: (0, 0))
        #expect(s.lineOffsets == [12])
        #expect(s.lines[0].count == 2)
        // Block of one 36-pixel line (24 x 1.5), not the line height: shiftY = -0 * 36 + 17 = 17.
        #expect(s.lines[0][1].y == 9 + 17)
        #expect(s.lines[0][0].y == -17 + 0 + 17)
    }

    @Test func linesBreakAfterImages() throws {
        // Four 30-pixel images, max width 70: total 120, two lines of target 60; breaks may follow any image,
        // the best after the second (60 / 60).
        let images = try (0..<4).map { _ in Self.character(try Self.image(30, 10)) }
        let breaks = GlyphShaping.lineBreaks(images, spacing: 0, maxWidth: 70)
        #expect(breaks == [2, 4])
    }
}
