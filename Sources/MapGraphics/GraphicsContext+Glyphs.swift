import MapGeometry

extension GraphicsContext {
    /// Draws glyphs each at its own position and angle, with an optional halo behind all of them. Each
    /// glyph is drawn by its own face (``PlacedGlyph/face``), else by the first face of `font`. The colors
    /// carry the opacity (the context alpha is not applied).
    public func drawGlyphs(
        _ glyphs: [PlacedGlyph], font: Font, size: Double, color: Color, haloColor: Color? = nil,
        haloWidth: Double = 0
    ) {
        guard !glyphs.isEmpty else { return }
        cairo.withSavedCairoState {
            func addOutlines() {
                cairo.newPath()
                for g in glyphs {
                    cairo.setFont((g.face ?? font.primary).cairoFace, size: size * g.scale)
                    cairo.save()
                    cairo.translate(g.origin.x, g.origin.y)
                    cairo.rotate(g.angle)
                    cairo.glyphs([ShapedGlyph(index: g.index, x: 0, y: 0)], origin: .zero, fill: false)
                    cairo.restore()
                }
            }
            if let haloColor, haloWidth > 0, haloColor.alpha > 0 {
                addOutlines()
                cairo.setSource(haloColor)
                cairo.setLineWidth(haloWidth * 2)
                cairo.setLineJoin(.round)
                cairo.setDash([], phase: 0)
                cairo.stroke()
            }
            addOutlines()
            cairo.setSource(color)
            cairo.fill()
        }
    }
}
