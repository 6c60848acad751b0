import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `fill` layer: polygons filled (nonzero winding; GeoJSON holes wind the other way), with an
/// optional one-pixel outline. Features with the same paint are drawn as one path.
enum FillLayerRenderer {
    struct Paint: Hashable {
        var color: Color
        var outline: Color?
    }

    static func draw(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame) {
        let pipeline = GeometryPipeline(viewport: frame.viewport, margin: 2, tolerance: 0.5)
        var groups = PaintGroups<Paint>()
        frame.forEachFeature(of: source, layer: layer, margin: 2) { feature, offset, context in
            guard case .polygons(let polygons) = feature.shape,
                let color = layer.color(.fillColor, context)
            else { return }
            let opacity = layer.number(.fillOpacity, context)
            let outline = layer.color(.fillOutlineColor, context)
            let paint = Paint(
                color: color.withAlphaComponent(color.alpha * opacity),
                outline: outline.map { $0.withAlphaComponent($0.alpha * opacity) })
            groups.withPath(for: paint) { path in
                for polygon in polygons {
                    for ring in polygon {
                        guard let points = pipeline.ring(ring, offset: offset, dropsTinyRings: true) else { continue }
                        path.addLines(points, closed: true)
                    }
                }
            }
        }
        let g = frame.context
        g.setFillRule(.winding)
        for (paint, path) in groups.nonEmpty {
            g.setFillColor(paint.color)
            g.fill(path)
            if let outline = paint.outline {
                g.setStrokeColor(outline)
                g.setLineWidth(1 / frame.viewport.scale)
                g.setLineDash(phase: 0, lengths: [])
                g.stroke(path)
            }
        }
    }
}
