import MapGeometry

extension GraphicsContext {
    /// Erases (makes transparent) the pixels a stroke of `path` with the current line style covers; used
    /// inside a transparency layer to hollow out line casings.
    ///
    /// Drawn as an opaque source with `DEST_OUT` (destination times one minus coverage), which is what
    /// `CLEAR` means: Cairo 1.16's `CLEAR` left a rectilinear stroke (a horizontal or vertical line with
    /// butt caps) that runs past the surface's edge unerased, so such casings were drawn solid.
    public func eraseStroke(_ path: Path) {
        cairo.withSavedCairoState {
            cairo.setOperatorDestOut()
            cairo.setSource(.black)
            cairo.append(path)
            cairo.stroke()
        }
    }
}
