import MapGeometry

/// A glyph placed on the image: where its origin goes and how it is turned (labels along lines).
public struct PlacedGlyph: Sendable, Equatable {
    /// The font's glyph index.
    public var index: UInt32
    /// The glyph's origin (baseline, left) in points.
    public var origin: Point
    /// Rotation in radians, clockwise on screen.
    public var angle: Double

    /// Creates a placed glyph.
    public init(index: UInt32, origin: Point, angle: Double) {
        self.index = index
        self.origin = origin
        self.angle = angle
    }
}
