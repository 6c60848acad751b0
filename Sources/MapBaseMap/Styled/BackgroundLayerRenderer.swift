import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `background` layer: the whole image in one color, or covered with a pattern image aligned to
/// the map (`background-pattern`; nothing when the sprite has no such image).
enum BackgroundLayerRenderer {
    static func draw(_ layer: StyleLayer, in frame: LayerFrame) {
        let context = frame.constantContext
        if layer.isSet(.backgroundPattern) {
            guard let pattern = frame.pattern(layer.string(.backgroundPattern, context)) else { return }
            frame.context.setAlpha(layer.number(.backgroundOpacity, context))
            frame.context.fill(
                Path(rect: Rect(origin: .zero, size: frame.viewport.size)), tiling: pattern.image, tile: pattern.tile)
            frame.context.setAlpha(1)
            return
        }
        guard let color = layer.color(.backgroundColor, context) else { return }
        let opacity = layer.number(.backgroundOpacity, context)
        frame.context.setFillColor(color.withAlphaComponent(color.alpha * opacity))
        frame.context.fill(Rect(origin: .zero, size: frame.viewport.size))
    }
}
