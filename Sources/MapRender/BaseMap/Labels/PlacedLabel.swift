import MapGeometry
import MapGraphics
import MapStyle

/// A label that won its place, in world points, ready to draw.
struct PlacedLabel {
    /// Lines of a point label with their baseline origins, or glyphs along a line.
    enum Content {
        case lines([(text: String, origin: Point)])
        case glyphs([PlacedGlyph])
    }

    var content: Content
    var font: Font
    var size: Double
    var color: Color
    var haloColor: Color
    var haloWidth: Double

    /// Draws the label moved by `shift` (world points to image points).
    func draw(in context: GraphicsContext, shift: Point) {
        switch content {
        case .lines(let lines):
            for line in lines {
                context.drawText(
                    line.text, at: Point(x: line.origin.x - shift.x, y: line.origin.y - shift.y), font: font,
                    size: size, color: color, haloColor: haloWidth > 0 ? haloColor : nil, haloWidth: haloWidth)
            }
        case .glyphs(let glyphs):
            let moved = glyphs.map {
                PlacedGlyph(
                    index: $0.index, origin: Point(x: $0.origin.x - shift.x, y: $0.origin.y - shift.y), angle: $0.angle)
            }
            context.drawGlyphs(
                moved, font: font, size: size, color: color, haloColor: haloWidth > 0 ? haloColor : nil,
                haloWidth: haloWidth)
        }
    }
}
