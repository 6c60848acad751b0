import MapGeometry

/// A glyph placed on the image: where its origin goes and how it is turned (labels along lines).
public struct PlacedGlyph: Sendable, Equatable {
    /// The face's glyph index.
    public var index: UInt32
    /// The glyph's origin (baseline, left) in points.
    public var origin: Point
    /// Rotation in radians, clockwise on screen.
    public var angle: Double
    /// The face that draws the glyph; nil for the first face of the font it is drawn with.
    public var face: FontFace?
    /// The glyph's size relative to the size it is drawn at.
    public var scale: Double
    /// The glyph's own color (a `format` section's `text-color`); nil for the color the glyphs are drawn with.
    public var color: Color?

    /// Creates a placed glyph.
    public init(
        index: UInt32, origin: Point, angle: Double, face: FontFace? = nil, scale: Double = 1, color: Color? = nil
    ) {
        self.index = index
        self.origin = origin
        self.angle = angle
        self.face = face
        self.scale = scale
        self.color = color
    }
}
