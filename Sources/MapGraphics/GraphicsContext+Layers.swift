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

/// How later fills and strokes combine with what is drawn. Mirrors `CGBlendMode`.
public enum BlendMode: Sendable {
    /// Source over destination (`kCGBlendModeNormal`).
    case normal
    /// Source plus destination, clamped (`kCGBlendModePlusLighter`).
    case plusLighter
}

extension GraphicsContext {
    /// Sets how later drawing combines with the image. Mirrors `CGContextSetBlendMode`.
    public func setBlendMode(_ mode: BlendMode) {
        switch mode {
        case .normal: cairo.setOperatorOver()
        case .plusLighter: cairo.setOperatorAdd()
        }
    }

    /// Turns antialiasing of fills and strokes on or off (on by default); off, a pixel is drawn when
    /// its center is inside. Mirrors `CGContextSetShouldAntialias`.
    public func setShouldAntialias(_ on: Bool) { cairo.setAntialias(on) }

    /// Draws an image whose pixels are the device pixels from `x`, `y` (device pixels, no filtering),
    /// ignoring the current transform, times the context alpha: for images computed pixel by pixel.
    public func drawDevicePixels(_ image: ImageSurface, x: Int, y: Int) {
        guard image.width > 0, image.height > 0 else { return }
        cairo.withSavedCairoState {
            cairo.identityMatrix()
            cairo.setSource(image.cairo, x: Double(x), y: Double(y), smooth: false)
            cairo.newPath()
            cairo.rectangle(Rect(x: Double(x), y: Double(y), width: Double(image.width), height: Double(image.height)))
            cairo.clip()
            cairo.paint(alpha: alpha)
        }
    }
}

extension GraphicsContext {
    /// Fills a path with an image repeated in both directions, one copy filling `tile` (points; copies
    /// continue from there on every side), times the context alpha. Mirrors `CGContextSetFillPattern`
    /// with an image pattern.
    public func fill(_ path: Path, tiling image: ImageSurface, tile: Rect) {
        guard image.width > 0, image.height > 0, tile.width > 0, tile.height > 0, tile.width.isFinite,
            tile.height.isFinite, tile.minX.isFinite, tile.minY.isFinite
        else { return }
        // Keep the origin near the path: far origins (world coordinates) lose precision.
        let x = tile.minX - (tile.minX / tile.width).rounded(.down) * tile.width
        let y = tile.minY - (tile.minY / tile.height).rounded(.down) * tile.height
        cairo.withSavedCairoState {
            cairo.append(path)
            cairo.setSourceRepeating(image.cairo, tile: Rect(x: x, y: y, width: tile.width, height: tile.height))
            if alpha < 1 {
                cairo.clip()
                cairo.paint(alpha: alpha)
            } else {
                cairo.fill()
            }
        }
    }
}

extension GraphicsContext {
    /// Fills a path with a linear gradient from `start` to `end` (points): `stops` are locations in
    /// 0...1 along it with their colors, sorted; before the first and after the last stop the end colors
    /// continue. Mirrors `CGContextDrawLinearGradient` with both extend options, clipped to the path.
    public func fill(_ path: Path, linearGradientFrom start: Point, to end: Point, stops: [(Double, Color)]) {
        guard !stops.isEmpty else { return }
        cairo.withSavedCairoState {
            cairo.append(path)
            cairo.setSourceLinearGradient(from: start, to: end, stops: stops)
            cairo.fill()
        }
    }

    /// Strokes a path (current line width, caps, joins and dashes) with what `body` draws as its paint
    /// instead of the stroke color: for lines colored along their length (gradients, patterns). What
    /// `body` draws outside the stroke is not shown. Mirrors clipping to
    /// `CGContextReplacePathWithStrokedPath` and drawing.
    public func stroke(_ path: Path, paintedBy body: () -> Void) {
        cairo.pushGroup()
        cairo.save()
        body()
        cairo.restore()
        cairo.popGroupToSource()
        cairo.append(path)
        cairo.stroke()
    }
}
