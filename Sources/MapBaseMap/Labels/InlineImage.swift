import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// A sprite image inside a label's text (an `["image", name]` section of `format`), as MapLibre shapes and
/// draws it: it takes the room of its display size (pixels / pixel ratio) times its section's `font-scale`
/// and `24 / text-size` (so it keeps its display size whatever the text's size), its bottom on the line's
/// baseline; a line is pushed down by what the image stands taller than one em; it is drawn as a plain
/// texture with the text's opacity (MapLibre's `symbol_text_and_icon` shader).
struct InlineImage: Sendable {
    /// The sprite image.
    var texture: Texture
    /// Its size in image pixels.
    var pixelWidth: Int
    var pixelHeight: Int
    /// Image pixels per point.
    var pixelRatio: Double
    /// The section's `font-scale` (the line's largest scale counts it; the layout scale is the character's).
    var sectionScale: Double

    /// The display width (points at `text-size` 24).
    var width: Double { Double(pixelWidth) / pixelRatio }
    /// The display height.
    var height: Double { Double(pixelHeight) / pixelRatio }

    /// MapLibre's `IMAGE_PADDING`: the one transparent texel around every image of its atlas.
    static let padding = 1.0

    /// The image's layout scale: `font-scale` x 24 / the layout `text-size` (the size at the tile's zoom),
    /// the whole scale when the size is not positive.
    static func layoutScale(sectionScale: Double, layoutSize: Double) -> Double {
        layoutSize > 0 && layoutSize.isFinite ? sectionScale * GlyphShaping.oneEm / layoutSize : sectionScale
    }

    /// The image's quad as MapLibre's `getGlyphQuads` makes it for an image, in layout pixels: the padded
    /// image from `((1 - 1 / ratio) x scale, (3 - 1 / ratio) x scale)` relative to `origin` (pen x, glyph y),
    /// `(pixels + 2) x scale / ratio` wide and tall, then mapped by `place`; corners rounded to 1/32.
    func quad(origin: Point, scale: Double, place: Transform, opacity: Double, linear: Bool) -> SDFGlyphQuad {
        let buffer = Self.padding / pixelRatio
        let x1 = ((origin.x + (Self.padding - buffer) * scale) * 32).rounded() / 32
        let y1 = ((origin.y + (Double(SDFGlyph.border) - buffer) * scale) * 32).rounded() / 32
        let texel = scale / pixelRatio
        let toLayout = Transform(scaleX: texel, y: texel)
            .concatenating(Transform(translationX: x1 + texel, y: y1 + texel))
        var quad = SDFGlyphQuad(
            texture: texture,
            source: Rect(x: -1, y: -1, width: Double(pixelWidth) + 2, height: Double(pixelHeight) + 2),
            transform: toLayout.concatenating(place))
        quad.image = .init(opacity: opacity, linear: linear)
        return quad
    }
}

extension SymbolLayerRenderer {
    /// Whether a layer's `text-field` has an `["image", ...]` section (its sprites are then needed).
    static func hasInlineImages(_ layer: StyleLayer) -> Bool {
        func reads(_ json: JSONValue) -> Bool {
            guard case .array(let items) = json else { return false }
            if case .string("image") = items.first { return true }
            return items.contains(where: reads)
        }
        return (layer.properties[StylePropertyName.textField.rawValue]?.json).map(reads) ?? false
    }

    /// Whether inline images are sampled bilinearly, as MapLibre decides it: when the text is pitched with the
    /// map (`text-pitch-alignment` map, or `auto` with map rotation alignment, which `auto` is for line
    /// placement), the view is pitched, or `text-size` changes with the zoom; else nearest.
    func inlineImagesLinear(_ context: EvaluationContext) -> Bool {
        var rotation = properties.string(.textRotationAlignment, context)
        if rotation == "auto" {
            rotation = properties.string(.symbolPlacement, context) == "point" ? "viewport" : "map"
        }
        // Read from the JSON: a constant is all MapLibre allows for this property.
        var pitch = "auto"
        if case .string(let value)? = layer.properties["text-pitch-alignment"]?.json { pitch = value }
        if pitch == "auto" { pitch = rotation }
        return pitch == "map" || selection.viewport.pitch != 0 || Self.isZoomDependent(layer, .textSize)
    }

    /// Whether a layer's property changes with the zoom (a `zoom` expression or a legacy function with
    /// `stops`): MapLibre samples inline images bilinearly when `text-size` does.
    static func isZoomDependent(_ layer: StyleLayer, _ key: StylePropertyName) -> Bool {
        func reads(_ json: JSONValue) -> Bool {
            switch json {
            case .array(let items):
                if case .string("zoom") = items.first { return true }
                return items.contains(where: reads)
            case .object(let members):
                if members.contains(where: { $0.0 == "stops" }) && !members.contains(where: { $0.0 == "property" }) {
                    return true
                }
                return members.contains { reads($0.1) }
            default: return false
            }
        }
        return (layer.properties[key.rawValue]?.json).map(reads) ?? false
    }
}
