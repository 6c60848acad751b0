import MapData
import MapGeometry
import MapGraphics

/// The SDF glyphs a symbol layer draws with, by `text-font` stack: glyph ranges from the style's glyph
/// PBFs (``GlyphStack``) and each glyph's distance field as a texture, made once per layer draw.
final class SDFGlyphSource {
    let provider: any GlyphRangeProvider
    private var stacks: [[String]: GlyphStack?] = [:]
    /// By stack object (each kept in ``stacks`` for the source's life) and glyph.
    private var textures: [TextureKey: Texture?] = [:]
    private struct TextureKey: Hashable {
        let stack: ObjectIdentifier
        let glyph: UInt32
    }

    init(provider: any GlyphRangeProvider) {
        self.provider = provider
    }

    /// The stack's glyphs, or nil when the provider has no file of the stack for the first range (the label
    /// then takes the installed fonts' path).
    ///
    /// - Throws: the provider's error naming the file and range when a file cannot be read.
    func stack(_ names: [String]) throws -> GlyphStack? {
        if let known = stacks[names] { return known }
        let stack = GlyphStack(names: names, provider: provider)
        let found = try stack.isAvailable() ? stack : nil
        stacks[names] = .some(found)
        return found
    }

    /// The texture of a glyph with ink (its bitmap with the PBF's 3-pixel border).
    func texture(_ glyph: SDFGlyph, stack: GlyphStack) -> Texture? {
        let key = TextureKey(stack: ObjectIdentifier(stack), glyph: glyph.id)
        if let known = textures[key] { return known }
        let made = Texture(distanceField: glyph.bitmap, width: glyph.bitmapWidth, height: glyph.bitmapHeight)
        textures[key] = .some(made)
        return made
    }

    /// Whether `text` needs the installed fonts' shaping (HarfBuzz): Syriac, Thaana, N'Ko, Samaritan,
    /// Mandaic and the Indic, Myanmar and Khmer scripts, which MapLibre's glyph-by-glyph layout draws
    /// wrongly. Arabic and Hebrew are drawn from glyph PBFs as MapLibre draws them (presentation forms in
    /// visual order, ``BidirectionalText``) when the stack has every glyph they need.
    static func needsComplexShaping(_ text: String) -> Bool {
        text.unicodeScalars.contains { s in
            let v = s.value
            return (0x0700...0x074F).contains(v) || (0x0780...0x086F).contains(v) || (0x0900...0x0DFF).contains(v)
                || (0x1000...0x109F).contains(v) || (0x1780...0x17FF).contains(v)
        }
    }
}

/// One glyph quad of SDF text: texels `source` of `texture` (the glyph's field and MapLibre's one-texel atlas
/// padding) mapped to world points by `transform`.
struct SDFGlyphQuad {
    var texture: Texture
    var source: Rect
    var transform: Transform
    /// The fill colour of a `format` section with its own `text-color` (nil: the label's).
    var color: Color?
    /// Set for an image inline in the text (``InlineImage``): drawn as a plain texture with the text's
    /// opacity, sampled bilinearly or nearest, in the halo pass and the fill pass alike.
    var image: ImageDrawing?

    /// How an inline image is drawn.
    struct ImageDrawing {
        var opacity: Double
        var linear: Bool
    }
    /// Texels to world points with perspective, for a glyph lying on the ground of a tilted view (`transform`
    /// is then not used); nil: `transform`.
    var projective: Homography? = nil
}

/// SDF text of one label, drawn as MapLibre's `symbol_sdf` shader draws it.
struct SDFText {
    var quads: [SDFGlyphQuad]
    /// `text-size` / 24: MapLibre's font scale, which sets the edge's and the halo's width in the field.
    var fontScale: Double
    /// Device pixels per point (MapLibre's pixel ratio): the edge is 0.105 / ratio wide.
    var pixelRatio: Double
    /// MapLibre's `gamma_scale` over `u_gamma_scale`: 1, or for text lying on a tilted ground the anchor's
    /// depth over (camera distance x cos pitch), which widens the edge where the ground is seen slanted.
    var gammaScale = 1.0

    /// MapLibre's `EDGE_GAMMA` over the font scale: the half-width of the fill's edge in field units.
    var fillGamma: Double { 0.105 / pixelRatio / fontScale * gammaScale }

    /// The fill's shading: coverage `smoothstep(0.75 - gamma, 0.75 + gamma, field)`.
    func fill(_ color: Color) -> QuadShading {
        .signedDistance(color: color, opacity: 1, buffer: 0.75, gamma: fillGamma)
    }

    /// The halo's shading: buffer `(6 - width / fontScale) / 8`, gamma `(blur * 1.19 / 8 + edge) / fontScale`,
    /// empty inside the fill's edge (as for SDF icons).
    func halo(_ color: Color, width: Double, blur: Double) -> QuadShading {
        let gamma = (blur * 1.19 / 8 + 0.105 / pixelRatio) / fontScale * gammaScale
        return .signedDistanceHalo(
            color: color, opacity: 1, buffer: (6 - width / fontScale) / 8, gamma: gamma, inner: 0.75 + gamma,
            innerGamma: gamma)
    }

    /// The quads' bounds in world points.
    var bounds: Rect { Rect.bounds(ofQuads: quads.map { ($0.source, $0.transform, $0.projective) }) }

    /// The quad of `glyph` as MapLibre's `getGlyphQuads` makes it, in layout pixels (24 to the em): the
    /// bitmap (3-pixel border) plus one texel of atlas padding, from `(left - 4, -top - 4)` times `scale`
    /// relative to `origin` (the pen position and glyph y), then mapped by `place` (layout pixels to world
    /// points). Corners are rounded to 1/32 layout pixel, as MapLibre stores them.
    static func quad(
        _ glyph: SDFGlyph, texture: Texture, origin: Point, scale: Double, place: Transform
    ) -> SDFGlyphQuad {
        let padding = Double(SDFGlyph.border + 1)
        let x1 = ((origin.x + (Double(glyph.left) - padding) * scale) * 32).rounded() / 32
        let y1 = ((origin.y + (-Double(glyph.top) - padding) * scale) * 32).rounded() / 32
        // Texel -1 (the padding) is at x1: texel u at x1 + (u + 1) * scale.
        let toLayout = Transform(scaleX: scale, y: scale)
            .concatenating(Transform(translationX: x1 + scale, y: y1 + scale))
        return SDFGlyphQuad(
            texture: texture,
            source: Rect(x: -1, y: -1, width: Double(glyph.bitmapWidth) + 2, height: Double(glyph.bitmapHeight) + 2),
            transform: toLayout.concatenating(place))
    }
}

extension PlacedLabel {
    /// Draws the SDF text of `labels` (one layer's) moved by `shift`, as MapLibre draws a layer's text:
    /// every halo first, then every fill, quad after quad.
    static func drawSDF(_ labels: ArraySlice<(label: PlacedLabel, shift: Point)>, in context: GraphicsContext) {
        let rasterizer = context.makeRasterizer()
        var any = false
        // Labels and quads by index: a copy of each (every texture and field retained and released once more)
        // is not needed to read them.
        for halo in [true, false] {
            for l in labels.indices {
                guard case .sdf(let text) = labels[l].label.content else { continue }
                let (haloWidth, haloColor) = (labels[l].label.haloWidth, labels[l].label.haloColor)
                if halo, haloWidth <= 0 || haloColor.alpha <= 0 { continue }
                let haloShading = text.halo(haloColor, width: haloWidth, blur: labels[l].label.haloBlur)
                let labelColor = labels[l].label.color
                let move = Transform(translationX: -labels[l].shift.x, y: -labels[l].shift.y)
                for q in text.quads.indices {
                    if let image = text.quads[q].image {
                        rasterizer.addQuad(
                            text.quads[q].texture, source: text.quads[q].source,
                            transform: text.quads[q].transform.concatenating(move), linear: image.linear,
                            shading: .plain(opacity: image.opacity))
                        any = true
                        continue
                    }
                    let color = text.quads[q].color ?? labelColor
                    if !halo, color.alpha <= 0 { continue }
                    if let projective = text.quads[q].projective {
                        rasterizer.addQuad(
                            text.quads[q].texture, source: text.quads[q].source,
                            homography: projective.concatenating(move), linear: true,
                            shading: halo ? haloShading : text.fill(color))
                        any = true
                        continue
                    }
                    rasterizer.addQuad(
                        text.quads[q].texture, source: text.quads[q].source,
                        transform: text.quads[q].transform.concatenating(move), linear: true,
                        shading: halo ? haloShading : text.fill(color))
                    any = true
                }
            }
        }
        if any { context.draw(rasterizer) }
    }
}
