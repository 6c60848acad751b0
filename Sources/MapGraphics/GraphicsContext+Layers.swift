import MapStyle

extension GraphicsContext {
    /// Draws `body` into an offscreen layer, then composites the layer with `alpha`, so that overlapping
    /// parts drawn inside do not add up. Mirrors `CGContextBeginTransparencyLayer` /
    /// `CGContextEndTransparencyLayer`.
    public func withTransparencyLayer(alpha: Double = 1, _ body: () throws -> Void) rethrows {
        cairo.pushGroup()
        defer { cairo.popGroupAndPaint(alpha: max(0, min(1, alpha))) }
        try body()
    }

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
