import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `circle` layer: a disc at each point (and at each vertex of lines and polygons, as MapLibre
/// does) with an optional stroke outside it, shaded pixel by pixel as MapLibre's circle shader does:
/// the edge fades over one device pixel inside the outer radius, `circle-blur` widens the fade (a
/// fraction of the radius), colors blend as premultiplied RGBA.
enum CircleLayerRenderer {
    static func draw(_ layer: StyleLayer, source: FeatureSource, in frame: LayerFrame) {
        let pipeline = GeometryPipeline(viewport: frame.viewport, margin: 0, tolerance: 0.5)
        let scale = frame.viewport.scale
        let (tx, ty) = frame.translation(layer, .circleTranslate)
        let size = frame.viewport.size
        let deviceWidth = Int((size.width * scale).rounded(.up))
        let deviceHeight = Int((size.height * scale).rounded(.up))
        guard deviceWidth > 0, deviceHeight > 0 else { return }
        var discs: [Disc] = []
        let margin = StyleLimits.circleMargin
        // The paint properties looked up once, and evaluated once when they are the same for every feature.
        let constant = frame.constantContext
        let circleColor = ResolvedStyleProperty(layer, .circleColor, at: constant)
        let circleRadius = ResolvedStyleProperty(layer, .circleRadius, at: constant)
        let circleStrokeWidth = ResolvedStyleProperty(layer, .circleStrokeWidth, at: constant)
        let circleOpacity = ResolvedStyleProperty(layer, .circleOpacity, at: constant)
        let circleStrokeColor = ResolvedStyleProperty(layer, .circleStrokeColor, at: constant)
        let circleStrokeOpacity = ResolvedStyleProperty(layer, .circleStrokeOpacity, at: constant)
        let circleBlur = ResolvedStyleProperty(layer, .circleBlur, at: constant)
        // A tilted view: circles on the ground (`circle-pitch-alignment: map`) or facing the camera, their
        // size following the distance (`circle-pitch-scale: map`) or not, as MapLibre's circle shader.
        let projection = frame.viewport.projection
        let tilted = !projection.isFlat
        let onMap = layer.string(.circlePitchAlignment, constant) == "map"
        let scalesWithMap = layer.string(.circlePitchScale, constant) == "map"
        frame.forEachFeature(of: source, layer: layer, margin: margin) { feature, offset, context in
            guard let color = circleColor.color(context) else { return }
            let radius = circleRadius.number(context)
            let strokeWidth = circleStrokeWidth.number(context)
            guard radius > 0 || strokeWidth > 0 else { return }
            let opacity = circleOpacity.number(context)
            let stroke = circleStrokeColor.color(context) ?? .black
            let strokeOpacity = circleStrokeOpacity.number(context)
            let template = Disc(
                x: 0, y: 0, radius: radius * scale, strokeWidth: strokeWidth * scale,
                blur: circleBlur.number(context),
                color: color.withAlphaComponent(color.alpha * opacity),
                strokeColor: stroke.withAlphaComponent(stroke.alpha * strokeOpacity))
            let reach = radius + strokeWidth
            func add(_ p: MapPoint) {
                if tilted {
                    addTilted(p)
                    return
                }
                let c = pipeline.project(p, offset: offset)
                let x = c.x + tx
                let y = c.y + ty
                guard x > -reach, y > -reach, x < size.width + reach, y < size.height + reach else { return }
                var disc = template
                disc.x = x * scale
                disc.y = y * scale
                discs.append(disc)
            }
            func addTilted(_ p: MapPoint) {
                guard pipeline.project(p, offset: offset).x.isFinite else { return }
                var r = projection.turned(MapPoint(x: p.x + offset, y: p.y))
                r = Point(x: r.x + tx, y: r.y + ty)  // translated on the ground, as MapLibre's tile matrix
                let (c, w) = projection.project(turned: r)
                guard w > 0 else { return }
                var disc = template
                var k = 1.0
                if onMap {
                    // On the ground: its square projected, each pixel taken back to the ground (exact, as a GPU
                    // interpolates the extrusion with perspective).
                    let fit = scalesWithMap ? 1 : w / projection.distance
                    let groundRadius = reach * fit
                    let corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { (sx, sy) in
                        projection.project(
                            turned: Point(x: r.x + sx * groundRadius, y: r.y + sy * groundRadius)
                        ).point
                    }
                    guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
                    // Device pixel -> turned ground (ViewProjection's inverse, written as a homography).
                    let d = projection.distance
                    let (cp, sp) = (projection.cosP, projection.sinP)
                    let (hw, hh) = (size.width / 2, size.height / 2)
                    let inverse = [
                        d * cp / scale, 0, -d * cp * hw, 0, d / scale, -d * hh, 0, sp / scale, d * cp - sp * hh,
                    ]
                    disc.ground = GroundDisc(
                        inverse: inverse, center: r, radius: groundRadius,
                        corners: corners.map { Point(x: $0.x * scale, y: $0.y * scale) })
                    k = corners.map { max(abs($0.x - c.x), abs($0.y - c.y)) }.max().map { $0 / max(reach, 1e-9) } ?? 1
                } else if scalesWithMap {
                    k = projection.distance / w
                    disc.radius *= k
                    disc.strokeWidth *= k
                }
                let far = reach * max(k, 1)
                guard c.x > -far, c.y > -far, c.x < size.width + far, c.y < size.height + far else { return }
                disc.x = c.x * scale
                disc.y = c.y * scale
                discs.append(disc)
            }
            switch feature.shape {
            case .points(let points): points.forEach(add)
            case .lines(let lines): lines.forEach { $0.forEach(add) }
            case .polygons(let polygons): polygons.forEach { $0.forEach { $0.forEach(add) } }
            }
        }
        guard !discs.isEmpty else { return }
        let rasterizer = frame.context.makeRasterizer()
        for disc in discs { rasterizer.addDisc(disc) }
        frame.context.draw(rasterizer)
    }
}
