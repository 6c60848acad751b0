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
        let pipeline = LayerGeometryPipeline(viewport: frame.viewport, margin: 2)
        var order: [Paint] = []
        var index: [Paint: Int] = [:]
        var paths: [Path] = []
        frame.forEachFeature(of: source, layer: layer, margin: 2) { feature, offset, context in
            guard case .polygons(let polygons) = feature.shape,
                let color = layer.color("fill-color", context)
            else { return }
            let opacity = layer.number("fill-opacity", context)
            let outline = layer.color("fill-outline-color", context)
            let paint = Paint(
                color: color.withAlphaComponent(color.alpha * opacity),
                outline: outline.map { $0.withAlphaComponent($0.alpha * opacity) })
            let k: Int
            if let found = index[paint] {
                k = found
            } else {
                k = paths.count
                index[paint] = k
                order.append(paint)
                paths.append(Path())
            }
            for polygon in polygons {
                for ring in polygon {
                    guard let points = pipeline.ring(ring, offset: offset) else { continue }
                    paths[k].move(to: points[0])
                    for p in points.dropFirst() { paths[k].addLine(to: p) }
                    paths[k].close()
                }
            }
        }
        let g = frame.context
        g.setFillRule(.winding)
        for (k, paint) in order.enumerated() {
            let path = paths[k]
            guard !path.isEmpty else { continue }
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
