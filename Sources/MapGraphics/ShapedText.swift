import MapGeometry

/// One line of text shaped by HarfBuzz: glyphs with pen positions, for laying text out glyph by glyph
/// (labels along lines).
public struct ShapedText: Sendable {
    /// One glyph of a shaped line.
    public struct Glyph: Sendable, Equatable {
        /// The font's glyph index; 0 is the missing-glyph box.
        public var index: UInt32
        /// Pen position in points from the line's origin (baseline, left).
        public var x: Double
        /// Vertical offset in points (y down).
        public var y: Double
        /// How far the pen moves after this glyph, in points.
        public var advance: Double
    }

    /// The glyphs in visual order.
    public var glyphs: [Glyph]
    /// The advance width of the whole line in points.
    public var width: Double
}
