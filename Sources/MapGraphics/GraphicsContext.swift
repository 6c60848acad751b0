import Foundation
import MapGeometry

/// A drawing context on an ``ImageSurface``, in points, shaped like Core Graphics' `CGContext` as
/// `drawRect:` uses it.
///
/// The context starts scaled by the image's scale (device pixels per point), so drawing code works in
/// points at every scale. Fill and stroke colors are separate, as in Core Graphics.
///
/// ```swift
/// context.withSavedState {
///     context.translateBy(x: 20, y: 20)
///     context.rotate(by: .pi / 2)
///     context.setFillColor(.red)
///     context.fill(trianglePath)
/// }
/// ```
/// Mirrors `CGContext`.
public final class GraphicsContext {
    let cairo: CairoContext
    private var state = DrawingState()
    /// The opacity multiplied into every fill, stroke and image (``setAlpha(_:)``).
    var alpha: Double { state.alpha }
    private var savedStates: [DrawingState] = []
    /// When drawing must stop, in `DispatchTime` uptime nanoseconds: ``checkStatus(_:)`` throws
    /// ``GraphicsError/deadlineExceeded(operation:)`` after it (a server's per-request render deadline).
    public var deadline: UInt64?

    private struct DrawingState {
        var fillColor = Color.black
        var strokeColor = Color.black
        var alpha = 1.0
    }

    /// Creates a context drawing into `surface`, with `scale` device pixels per point.
    ///
    /// - Throws: a Cairo error.
    public init(surface: ImageSurface, scale: Double = 1) throws {
        cairo = try CairoContext(surface: surface.cairo)
        cairo.scale(scale, scale)
        cairo.setLineWidth(1)
        cairo.setMiterLimit(10)
    }

    /// Reports Cairo's sticky error state as a typed error, and whether the ``deadline`` has passed.
    /// Renderers call it after each layer, so a render past its deadline stops there.
    ///
    /// - Throws: ``GraphicsError/cairo(operation:message:)``, ``GraphicsError/deadlineExceeded(operation:)``.
    public func checkStatus(_ operation: String) throws {
        try cairo.status(operation)
        if let deadline, DispatchTime.now().uptimeNanoseconds > deadline {
            throw GraphicsError.deadlineExceeded(operation: operation)
        }
    }

    // MARK: - State

    /// Runs `body` and then restores everything it changed: transform, colors, line style, clip.
    /// Mirrors a `CGContextSaveGState` / `CGContextRestoreGState` pair.
    @discardableResult
    public func withSavedState<T>(_ body: () throws -> T) rethrows -> T {
        cairo.save()
        savedStates.append(state)
        defer {
            state = savedStates.removeLast()
            cairo.restore()
        }
        return try body()
    }

    /// Sets the fill color. Mirrors `CGContextSetFillColorWithColor` and `[UIColor setFill]`.
    public func setFillColor(_ color: Color) { state.fillColor = color }
    /// Sets the stroke color. Mirrors `CGContextSetStrokeColorWithColor` and `[UIColor setStroke]`.
    public func setStrokeColor(_ color: Color) { state.strokeColor = color }
    /// Sets an opacity multiplied into every later fill, stroke and image. Mirrors `CGContextSetAlpha`.
    public func setAlpha(_ alpha: Double) { state.alpha = max(0, min(1, alpha)) }

    /// Sets the stroke width in points. Mirrors `CGContextSetLineWidth`.
    public func setLineWidth(_ width: Double) { cairo.setLineWidth(max(0, width)) }
    /// Sets the line cap. Mirrors `CGContextSetLineCap`.
    public func setLineCap(_ cap: LineCap) { cairo.setLineCap(cap) }
    /// Sets the line join. Mirrors `CGContextSetLineJoin`.
    public func setLineJoin(_ join: LineJoin) { cairo.setLineJoin(join) }
    /// Sets the miter limit. Mirrors `CGContextSetMiterLimit`.
    public func setMiterLimit(_ limit: Double) { cairo.setMiterLimit(limit) }
    /// Sets the dash pattern (alternating on and off lengths in points) and its phase; an empty pattern
    /// draws solid lines. Mirrors `CGContextSetLineDash`.
    public func setLineDash(phase: Double, lengths: [Double]) {
        let valid = lengths.allSatisfy { $0 >= 0 && $0.isFinite } && lengths.contains { $0 > 0 }
        cairo.setDash(valid ? lengths : [], phase: phase)
    }
    /// Sets the fill rule used by ``fill(_:)`` and ``clip(to:)``.
    public func setFillRule(_ rule: FillRule) { cairo.setFillRule(rule) }

    // MARK: - Transform

    /// Moves the origin. Mirrors `CGContextTranslateCTM`.
    public func translateBy(x: Double, y: Double) { cairo.translate(x, y) }
    /// Rotates the axes by `angle` radians, clockwise on screen. Mirrors `CGContextRotateCTM`.
    public func rotate(by angle: Double) { cairo.rotate(angle) }
    /// Scales the axes. Mirrors `CGContextScaleCTM`.
    public func scaleBy(x: Double, y: Double) { cairo.scale(x, y) }
    /// Prepends a transform to the current one. Mirrors `CGContextConcatCTM`.
    public func concatenate(_ transform: Transform) { cairo.transform(transform) }
    /// The current user-space to device-pixel transform. Mirrors `CGContextGetCTM`.
    public var currentTransform: Transform { cairo.matrix }

    // MARK: - Drawing

    /// Fills a path with the fill color. Mirrors `[UIBezierPath fill]`.
    public func fill(_ path: Path) {
        cairo.append(path)
        cairo.setSource(state.fillColor.withAlphaComponent(state.fillColor.alpha * state.alpha))
        cairo.fill()
    }

    /// Strokes a path with the stroke color and line style. Mirrors `[UIBezierPath stroke]`.
    public func stroke(_ path: Path) {
        cairo.append(path)
        cairo.setSource(state.strokeColor.withAlphaComponent(state.strokeColor.alpha * state.alpha))
        cairo.stroke()
    }

    /// Fills a rect. Mirrors `CGContextFillRect`.
    public func fill(_ rect: Rect) { fill(Path(rect: rect)) }

    /// Replaces every pixel of the image with `color`, ignoring clip and alpha.
    public func clear(to color: Color) {
        cairo.withSavedCairoState {
            cairo.resetClip()
            cairo.setOperatorSource()
            cairo.setSource(color)
            cairo.paint()
        }
    }

    /// Intersects the clip with a path's interior (by the current fill rule). Mirrors `CGContextClip`.
    public func clip(to path: Path) {
        cairo.append(path)
        cairo.clip()
    }

    /// Draws `body` into a transparency layer that is then composited once with `alpha` (times the
    /// context alpha), so that overlapping fills and strokes inside do not show through each other.
    /// Mirrors `CGContextBeginTransparencyLayer` / `CGContextEndTransparencyLayer`.
    public func withTransparencyLayer(alpha: Double = 1, _ body: () throws -> Void) rethrows {
        let outer = state.alpha
        cairo.pushGroup()
        state.alpha = 1
        defer {
            state.alpha = outer
            cairo.popGroupToSource()
            cairo.paint(alpha: max(0, min(1, alpha)) * outer)
        }
        try body()
    }

    /// Draws an image scaled into `rect` (points), smoothly filtered, times the context alpha.
    /// Mirrors `[UIImage drawInRect:]`.
    public func draw(_ image: ImageSurface, in rect: Rect) {
        draw(image, in: rect, smooth: true, padEdges: false)
    }

    /// Draws a map tile's image scaled into `rect` (points), smoothly filtered, with its edge pixels
    /// repeated outward so that the filter does not fade the tile's border: tiles drawn side by side into
    /// rects that meet on device pixels show no seam. `smooth` false samples the nearest pixel.
    public func drawTile(_ image: ImageSurface, in rect: Rect, smooth: Bool = true) {
        draw(image, in: rect, smooth: smooth, padEdges: true)
    }

    /// Draws a map tile's image laid on `rect` (points) as a GPU samples a texture, over `area` (points; the
    /// image's edges repeated outward to fill it): each device pixel bilinear between the four texels about
    /// its centre (`linear`) or the nearest texel, with no area filter however much the image shrinks (pick a
    /// mipmap level first: ``RGBAImage/mipmapLevel(texelsPerPixel:)``). Tiles whose areas meet on device
    /// pixels show no seam whatever their exact rects.
    public func drawTexture(_ image: ImageSurface, in rect: Rect, over area: Rect, linear: Bool) {
        draw(image, in: rect, smooth: linear, padEdges: true, areaFilter: false, over: area)
    }

    private func draw(
        _ image: ImageSurface, in rect: Rect, smooth: Bool, padEdges: Bool, areaFilter: Bool = true,
        over area: Rect? = nil
    ) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        cairo.withSavedCairoState {
            if let area {
                cairo.newPath()
                cairo.rectangle(area)
                cairo.clip()
            }
            cairo.translate(rect.minX, rect.minY)
            cairo.scale(rect.width / Double(image.width), rect.height / Double(image.height))
            cairo.setSource(
                image.cairo, x: 0, y: 0, smooth: smooth, padEdges: padEdges, areaFilter: areaFilter)
            if area == nil {
                cairo.newPath()
                cairo.rectangle(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
                cairo.clip()
            }
            cairo.paint(alpha: state.alpha)
        }
    }

    // MARK: - Text

    /// Draws one line of text with its baseline starting at `origin`, shaped by HarfBuzz (per character the
    /// first face of the font stack that has it), filled with `color`, optionally with a halo (an outline of
    /// `haloWidth` points drawn behind the glyphs).
    public func drawText(
        _ text: String, at origin: Point, font: Font, size: Double, color: Color,
        haloColor: Color? = nil, haloWidth: Double = 0
    ) {
        drawShapedText(
            font.shape(text, size: size), at: origin, size: size, color: color, haloColor: haloColor,
            haloWidth: haloWidth)
    }

    /// Draws shaped text with its origin at `origin` (horizontal text: the first baseline's left end;
    /// vertical text: the column's top center), each glyph with its own face, scale and color (a section's
    /// color, else `color`), optionally with a halo behind all glyphs. The context's alpha applies.
    public func drawShapedText(
        _ shaped: ShapedText, at origin: Point, size: Double, color: Color, haloColor: Color? = nil,
        haloWidth: Double = 0
    ) {
        guard !shaped.glyphs.isEmpty else { return }
        // Consecutive glyphs of one face, scale and color are drawn together.
        var groups: [(face: FontFace, scale: Double, color: Color?, glyphs: [ShapedGlyph])] = []
        for g in shaped.glyphs {
            let glyph = ShapedGlyph(index: g.index, x: g.x, y: g.y)
            if let last = groups.last, last.face === g.face, last.scale == g.scale, last.color == g.color {
                groups[groups.count - 1].glyphs.append(glyph)
            } else {
                groups.append((g.face, g.scale, g.color, [glyph]))
            }
        }
        cairo.withSavedCairoState {
            if let haloColor, haloWidth > 0 {
                cairo.newPath()
                for group in groups {
                    cairo.setFont(group.face.cairoFace, size: size * group.scale)
                    cairo.glyphs(group.glyphs, origin: origin, fill: false)
                }
                cairo.setSource(haloColor.withAlphaComponent(haloColor.alpha * state.alpha))
                cairo.setLineWidth(haloWidth * 2)
                cairo.setLineJoin(.round)
                cairo.setDash([], phase: 0)
                cairo.stroke()
            }
            for group in groups {
                let fill = group.color ?? color
                cairo.setFont(group.face.cairoFace, size: size * group.scale)
                cairo.setSource(fill.withAlphaComponent(fill.alpha * state.alpha))
                cairo.glyphs(group.glyphs, origin: origin, fill: true)
            }
        }
    }
}

extension CairoContext {
    func withSavedCairoState(_ body: () -> Void) {
        save()
        body()
        restore()
    }
}

/// The versions of the C libraries that rendering depends on.
public enum GraphicsLibraryVersions {
    /// Name and version of each library, for `mapraster version --verbose`.
    public static var all: [(name: String, version: String)] {
        [
            ("cairo", CairoVersions.cairo), ("pixman", LinkedLibraryVersions.pixman),
            ("freetype", FreeTypeFace.version), ("harfbuzz", HarfBuzzFont.version),
            ("libpng", LinkedLibraryVersions.libpng), ("libspng", SPNG.version),
            ("libimagequant", ImageQuant.version), ("libjpeg-turbo", TurboJPEG.version), ("libwebp", WebP.version),
            ("librsvg", RsvgVersion.string),
        ]
    }
}
