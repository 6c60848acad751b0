/// One glyph of a glyph PBF (MapLibre's `glyphs` format): a signed distance field of the glyph's outline
/// rendered at ``fontSize`` pixels, with its metrics in pixels at that size.
///
/// The bitmap is `(width + 2 * border) x (height + 2 * border)` bytes, row by row, where a byte of 192 lies on
/// the outline (MapLibre's SDF cutoff 0.75 of 255), larger inside, smaller outside, 8 pixels of distance over
/// the byte range (TinySDF's radius). A glyph without ink (a space) has width and height 0 and no bitmap.
public struct SDFGlyph: Sendable, Equatable {
    /// The size in pixels at which glyph PBFs are drawn (MapLibre's `ONE_EM`).
    public static let fontSize = 24
    /// The blank border around every bitmap, in pixels (MapLibre's `Glyph::borderSize`).
    public static let border = 3

    /// The Unicode code point.
    public var id: UInt32
    /// The width of the ink, in pixels (0...255).
    public var width: Int
    /// The height of the ink, in pixels (0...255).
    public var height: Int
    /// From the pen position to the ink's left edge, in pixels (-128...127).
    public var left: Int
    /// The ink's top edge relative to the font's ascender line, in pixels, up positive (-128...127): node-fontnik
    /// writes the top of the ink above the baseline minus the size's ascender, so a space has `-ascender`
    /// (-26 for Open Sans at 24 px) and MapLibre's shaping adds its baseline offset back.
    public var top: Int
    /// How far the pen moves after this glyph, in pixels (0...255).
    public var advance: Int
    /// The distance field, ``bitmapWidth`` x ``bitmapHeight`` bytes (empty when the glyph has no ink).
    public var bitmap: [UInt8]

    /// A glyph; the bitmap must have ``bitmapWidth`` x ``bitmapHeight`` bytes (checked by ``GlyphRange``).
    public init(id: UInt32, width: Int, height: Int, left: Int, top: Int, advance: Int, bitmap: [UInt8]) {
        self.id = id
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
        self.bitmap = bitmap
    }

    /// Whether the glyph has ink (a bitmap).
    public var hasBitmap: Bool { width > 0 && height > 0 }
    /// The bitmap's width: ``width`` plus the border on both sides (0 without ink).
    public var bitmapWidth: Int { hasBitmap ? width + 2 * Self.border : 0 }
    /// The bitmap's height: ``height`` plus the border on both sides (0 without ink).
    public var bitmapHeight: Int { hasBitmap ? height + 2 * Self.border : 0 }

    /// Whether the metrics are in the ranges MapLibre Native accepts (glyphs outside them are dropped).
    public var hasValidMetrics: Bool {
        (0...255).contains(width) && (0...255).contains(height) && (-128...127).contains(left)
            && (-128...127).contains(top) && (0...255).contains(advance)
    }
}
