import MapGeometry

/// Text shaped by HarfBuzz: glyphs with pen positions and the face that draws each, for drawing a line
/// at once (``GraphicsContext/drawShapedText(_:at:size:color:haloColor:haloWidth:)``) or laying text out
/// glyph by glyph (labels along lines).
public struct ShapedText: Sendable {
    /// One glyph of shaped text.
    public struct Glyph: Sendable, Equatable {
        /// The face's glyph index; 0 is the missing-glyph box.
        public var index: UInt32
        /// Pen position in points from the text's origin (horizontal text: baseline, left; vertical text:
        /// top of the column, its center line).
        public var x: Double
        /// Vertical offset in points (y down).
        public var y: Double
        /// How far the pen moves after this glyph along the writing direction, in points.
        public var advance: Double
        /// The face that draws the glyph (the stack's first face that has the character, or a fallback).
        public var face: FontFace
        /// The glyph's size relative to the size the text was shaped at (a `format` section's `font-scale`).
        public var scale: Double = 1
        /// The color of the glyph's section, when a `format` section gives one.
        public var color: Color? = nil

        /// Creates a glyph.
        public init(
            index: UInt32, x: Double, y: Double, advance: Double, face: FontFace, scale: Double = 1,
            color: Color? = nil
        ) {
            self.index = index
            self.x = x
            self.y = y
            self.advance = advance
            self.face = face
            self.scale = scale
            self.color = color
        }
    }

    /// The glyphs in visual order (left to right; top to bottom for vertical text).
    public var glyphs: [Glyph]
    /// The advance width of the text in points (the widest line; for vertical text, the column width).
    public var width: Double
    /// The height in points: 0 for one horizontal line, the line heights of several lines, the advance of
    /// vertical text.
    public var height: Double = 0
    /// Whether the text was shaped top to bottom (`text-writing-mode: vertical`).
    public var isVertical = false

    /// Creates shaped text from glyphs.
    public init(glyphs: [Glyph], width: Double, height: Double = 0, isVertical: Bool = false) {
        self.glyphs = glyphs
        self.width = width
        self.height = height
        self.isVertical = isVertical
    }
}

/// One section of a formatted text (a `format` expression's section): its text, the font stack that
/// shapes it, its scale relative to the label's size and an optional color.
public struct TextSection: Sendable {
    /// The section's text; a line feed starts a new line.
    public var text: String
    /// The font stack the section is shaped with.
    public var font: Font
    /// The section's size relative to the label's (`font-scale`).
    public var scale: Double
    /// The section's color (`text-color`), or nil for the label's.
    public var color: Color?

    /// Creates a section.
    public init(text: String, font: Font, scale: Double = 1, color: Color? = nil) {
        self.text = text
        self.font = font
        self.scale = scale
        self.color = color
    }
}
