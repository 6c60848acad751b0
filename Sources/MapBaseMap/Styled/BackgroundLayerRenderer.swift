import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `background` layer: the whole image in one color, or covered with a pattern image aligned to
/// the map (`background-pattern`; nothing when the sprite has no such image), lying on the ground of a
/// tilted view.
enum BackgroundLayerRenderer {
    static func draw(_ layer: StyleLayer, in frame: LayerFrame) {
        let context = frame.constantContext
        if layer.isSet(.backgroundPattern) {
            let name = layer.string(.backgroundPattern, context)
            guard let pattern = frame.pattern(name) else { return }
            let g = frame.context
            let viewport = frame.viewport
            if !viewport.projection.isFlat {
                // Tilted: the copies lie on the ground (MapLibre draws the background as tiles on the map),
                // each pixel looked up through the ground's homography by the rasterizer.
                guard let ground = frame.fillPattern(name, opacity: layer.number(.backgroundOpacity, context)),
                    ground.homography != nil
                else { return }
                let (w, h) = (viewport.size.width, viewport.size.height)
                var mesh = LineMesh()
                mesh.vertices = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: 0, y: h), Point(x: w, y: h)].map {
                    LineMesh.Vertex(position: $0, normal: Point(x: 0, y: 0))
                }
                mesh.indices = [0, 1, 2, 1, 3, 2]
                let rasterizer = g.makeRasterizer()
                rasterizer.addPatternFill(mesh, ground, outline: false)
                g.draw(rasterizer)
                return
            }
            g.setAlpha(layer.number(.backgroundOpacity, context))
            if viewport.heading == 0 {
                g.fill(Path(rect: Rect(origin: .zero, size: viewport.size)), tiling: pattern.image, tile: pattern.tile)
            } else {
                // Turned with the map about the image's centre: the pattern's copies as the view facing north
                // places them, over a square that covers the image whichever way it is turned.
                let w = viewport.size.width
                let h = viewport.size.height
                let side = (w * w + h * h).squareRoot()
                g.withSavedState {
                    g.translateBy(x: w / 2, y: h / 2)
                    g.rotate(by: -viewport.heading * .pi / 180)
                    g.translateBy(x: -w / 2, y: -h / 2)
                    g.fill(
                        Path(rect: Rect(x: (w - side) / 2, y: (h - side) / 2, width: side, height: side)),
                        tiling: pattern.image, tile: pattern.tile)
                }
            }
            g.setAlpha(1)
            return
        }
        guard let color = layer.color(.backgroundColor, context) else { return }
        let opacity = layer.number(.backgroundOpacity, context)
        frame.context.setFillColor(color.withAlphaComponent(color.alpha * opacity))
        frame.context.fill(Rect(origin: .zero, size: frame.viewport.size))
    }
}
