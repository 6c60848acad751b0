import MapGeometry

extension GraphicsContext {
    /// Draws glyphs each at its own position and angle, with an optional halo behind all of them. Each
    /// glyph is drawn by its own face (``PlacedGlyph/face``), else by the first face of `font`, in its own
    /// color (``PlacedGlyph/color``), else `color`. The colors carry the opacity (the context alpha is not
    /// applied).
    ///
    /// - Parameter haloBlur: the width in points over which the halo's outer edge fades out (MapLibre's
    ///   `text-halo-blur`): the halo is full up to `haloWidth - haloBlur / 2` from the glyphs' outlines and
    ///   gone at `haloWidth + haloBlur / 2`, in linear steps.
    public func drawGlyphs(
        _ glyphs: [PlacedGlyph], font: Font, size: Double, color: Color, haloColor: Color? = nil,
        haloWidth: Double = 0, haloBlur: Double = 0
    ) {
        guard !glyphs.isEmpty else { return }
        cairo.withSavedCairoState {
            func addOutlines(_ selected: ArraySlice<PlacedGlyph>) {
                cairo.newPath()
                for g in selected {
                    cairo.setFont((g.face ?? font.primary).cairoFace, size: size * g.scale)
                    cairo.save()
                    cairo.translate(g.origin.x, g.origin.y)
                    cairo.rotate(g.angle)
                    cairo.glyphs([ShapedGlyph(index: g.index, x: 0, y: 0)], origin: .zero, fill: false)
                    cairo.restore()
                }
            }
            if let haloColor, haloWidth > 0, haloColor.alpha > 0 {
                cairo.setLineJoin(.round)
                cairo.setDash([], phase: 0)
                let blur = haloBlur.isFinite ? min(max(0, haloBlur), 2 * haloWidth) : 0
                // Strokes from the widest in: stroke k of n, alpha 1/(n - k), adds up to a linear ramp.
                let steps = blur > 0 ? min(8, max(2, Int((blur * 2).rounded(.up)))) : 1
                for k in 0..<steps {
                    let t = steps == 1 ? 0 : Double(k) / Double(steps - 1)
                    let width = haloWidth + blur / 2 - blur * t
                    guard width > 0 else { continue }
                    addOutlines(glyphs[...])
                    cairo.setSource(haloColor.withAlphaComponent(haloColor.alpha / Double(steps - k)))
                    cairo.setLineWidth(width * 2)
                    cairo.stroke()
                }
            }
            // Consecutive glyphs of one color are filled together.
            var start = glyphs.startIndex
            while start < glyphs.endIndex {
                var end = start + 1
                while end < glyphs.endIndex, glyphs[end].color == glyphs[start].color { end += 1 }
                addOutlines(glyphs[start..<end])
                cairo.setSource(glyphs[start].color ?? color)
                cairo.fill()
                start = end
            }
        }
    }
}
