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
