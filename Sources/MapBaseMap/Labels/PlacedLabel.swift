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
    /// A box around everything the label draws, in world points.
    var bounds = Rect(x: 0, y: 0, width: 0, height: 0)

    /// A generous box around the label's glyphs and halo, in world points.
    func contentBounds() -> Rect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        let pad = haloWidth + size * 0.5
        func add(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            minX = min(minX, x0 - pad); minY = min(minY, y0 - pad); maxX = max(maxX, x1 + pad);
            maxY = max(maxY, y1 + pad)
        }
        switch content {
        case .lines(let lines):
            for line in lines {
                let width = font.measure(line.text, size: size).width
                add(line.origin.x, line.origin.y - size * 1.2, line.origin.x + width, line.origin.y + size * 0.4)
            }
        case .glyphs(let glyphs):
            for glyph in glyphs {
                add(glyph.origin.x - size, glyph.origin.y - size * 1.2, glyph.origin.x + size, glyph.origin.y + size)
            }
        }
        return minX.isFinite ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : bounds
    }

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
                var glyph = $0
                glyph.origin = Point(x: $0.origin.x - shift.x, y: $0.origin.y - shift.y)
                return glyph
            }
            context.drawGlyphs(
                moved, font: font, size: size, color: color, haloColor: haloWidth > 0 ? haloColor : nil,
                haloWidth: haloWidth)
        }
    }
}
