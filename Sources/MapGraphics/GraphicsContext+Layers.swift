import MapGeometry

extension GraphicsContext {
    /// Erases (makes transparent) the pixels a stroke of `path` with the current line style covers; used
    /// inside a transparency layer to hollow out line casings.
    public func eraseStroke(_ path: Path) {
        cairo.withSavedCairoState {
            cairo.setOperatorClear()
            cairo.append(path)
            cairo.stroke()
        }
    }
}
