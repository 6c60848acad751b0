extension Font {
    /// Shapes one line of text at `size` points.
    public func shape(_ text: String, size: Double) -> ShapedText {
        let shaped = harfBuzz.shape(text, size: size)
        var glyphs: [ShapedText.Glyph] = []
        glyphs.reserveCapacity(shaped.glyphs.count)
        for (i, g) in shaped.glyphs.enumerated() {
            let next = i + 1 < shaped.glyphs.count ? shaped.glyphs[i + 1].x : shaped.advance
            glyphs.append(ShapedText.Glyph(index: g.index, x: g.x, y: g.y, advance: next - g.x))
        }
        return ShapedText(glyphs: glyphs, width: shaped.advance)
    }

    /// Whether the font has a glyph for every character of `text` (no missing-glyph boxes).
    public func covers(_ text: String) -> Bool {
        !harfBuzz.shape(text, size: 10).glyphs.contains { $0.index == 0 }
    }

    /// The font's ascender and descender as fractions of the size (descender positive).
    public var verticalMetrics: (ascender: Double, descender: Double) { (harfBuzz.ascender, harfBuzz.descender) }
}
