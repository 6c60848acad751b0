import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `line` layer: lines, or the outlines of polygons without the edges that only exist because
/// the data is cut at the 180th meridian or at the south pole's limit. `line-gap-width` draws a casing:
/// two lines either side of a gap, hollowed out in an offscreen layer.
enum LineLayerRenderer {
    struct Paint: Hashable {
        var color: Color
        var width: Double
        var opacity: Double
        var gap: Double
        var dash: [Double]
        var cap: String
        var join: String
        var miterLimit: Double
    }

    static func draw(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame) {
        var order: [Paint] = []
        var index: [Paint: Int] = [:]
        var paths: [Path] = []
        let constant = EvaluationContext(zoom: frame.zoom)
        let maxWidth = layer.number("line-width", constant) + layer.number("line-gap-width", constant)
        let margin = max(4, maxWidth * 2 + 4)
        let pipeline = LayerGeometryPipeline(viewport: frame.viewport, margin: margin)
        frame.forEachFeature(of: source, layer: layer, margin: margin) { feature, offset, context in
            guard let color = layer.color("line-color", context) else { return }
            let width = layer.number("line-width", context)
            let paint = Paint(
                color: color, width: width, opacity: layer.number("line-opacity", context),
                gap: layer.number("line-gap-width", context),
                dash: layer.value("line-dasharray", context).array?.compactMap(\.number) ?? [],
                cap: layer.string("line-cap", context), join: layer.string("line-join", context),
                miterLimit: layer.number("line-miter-limit", context))
            guard width > 0, paint.opacity > 0 else { return }
            var lines: [[MapPoint]] = []
            switch feature.shape {
            case .lines(let l): lines = l
            case .polygons(let polygons): lines = polygons.flatMap { $0.flatMap(outline) }
            case .points: return
            }
            let k: Int
            if let found = index[paint] {
                k = found
            } else {
                k = paths.count
                index[paint] = k
                order.append(paint)
                paths.append(Path())
            }
            for line in lines {
                for piece in pipeline.line(line, offset: offset) {
                    paths[k].move(to: piece[0])
                    for p in piece.dropFirst() { paths[k].addLine(to: p) }
                }
            }
        }
        let g = frame.context
        for (k, paint) in order.enumerated() {
            let path = paths[k]
            guard !path.isEmpty else { continue }
            g.setLineCap(LineCap(rawValue: paint.cap) ?? .butt)
            g.setLineJoin(LineJoin(rawValue: paint.join) ?? .miter)
            g.setMiterLimit(paint.miterLimit)
            g.setLineDash(phase: 0, lengths: paint.dash.map { $0 * paint.width })
            if paint.gap > 0 {
                g.withTransparencyLayer(alpha: paint.opacity) {
                    g.setStrokeColor(paint.color)
                    g.setLineWidth(paint.gap + 2 * paint.width)
                    g.stroke(path)
                    g.setLineWidth(paint.gap)
                    g.eraseStroke(path)
                }
            } else {
                g.setStrokeColor(paint.color.withAlphaComponent(paint.color.alpha * paint.opacity))
                g.setLineWidth(paint.width)
                g.stroke(path)
            }
        }
        g.setLineDash(phase: 0, lengths: [])
    }

    /// A polygon ring as open polylines, split where an edge runs along x = 0 or x = world width (the
    /// 180th meridian cut) or below 84.9 S (Antarctica's cut at the projection's limit).
    static func outline(_ ring: [MapPoint]) -> [[MapPoint]] {
        guard ring.count > 1 else { return [] }
        let world = WebMercator.worldSize
        let southLimit = WebMercator.y(latitude: -84.9)
        func artificial(_ a: MapPoint, _ b: MapPoint) -> Bool {
            (a.x == b.x && (a.x == 0 || a.x == world)) || (a.y >= southLimit && b.y >= southLimit)
        }
        var lines: [[MapPoint]] = []
        var current: [MapPoint] = []
        for i in 0..<ring.count {
            let a = ring[i]
            let b = ring[(i + 1) % ring.count]
            if artificial(a, b) {
                if current.count > 1 { lines.append(current) }
                current = []
                continue
            }
            if current.isEmpty { current.append(a) }
            current.append(b)
        }
        if current.count > 1 { lines.append(current) }
        return lines
    }
}
