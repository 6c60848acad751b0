import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `background` layer: the whole image in one color.
enum BackgroundLayerRenderer {
    static func draw(_ layer: StyleLayer, in frame: LayerFrame) {
        let context = frame.constantContext
        guard let color = layer.color(.backgroundColor, context) else { return }
        let opacity = layer.number(.backgroundOpacity, context)
        frame.context.setFillColor(color.withAlphaComponent(color.alpha * opacity))
        frame.context.fill(Rect(origin: .zero, size: frame.viewport.size))
    }
}
