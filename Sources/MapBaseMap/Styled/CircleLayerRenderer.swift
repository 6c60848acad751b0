import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `circle` layer: a disc at each point (and at each vertex of lines and polygons, as MapLibre
/// does) with an optional stroke outside it, shaded pixel by pixel as MapLibre's circle shader does:
/// the edge fades over one device pixel inside the outer radius, `circle-blur` widens the fade (a
/// fraction of the radius), colors blend as premultiplied RGBA.
enum CircleLayerRenderer {
    /// One circle in device pixels, colors premultiplied by their opacity.
    struct Disc {
        var x: Double
        var y: Double
        var radius: Double
        var strokeWidth: Double
        var blur: Double
        var color: Color
        var strokeColor: Color
    }

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
                let c = pipeline.project(p, offset: offset)
                let x = c.x + tx
                let y = c.y + ty
                guard x > -reach, y > -reach, x < size.width + reach, y < size.height + reach else { return }
                var disc = template
                disc.x = x * scale
                disc.y = y * scale
                discs.append(disc)
            }
            switch feature.shape {
            case .points(let points): points.forEach(add)
            case .lines(let lines): lines.forEach { $0.forEach(add) }
            case .polygons(let polygons): polygons.forEach { $0.forEach { $0.forEach(add) } }
            }
        }
        guard !discs.isEmpty else { return }
        // The pixels the circles touch, clipped to the image: work and memory follow the output.
        var minX = deviceWidth
        var minY = deviceHeight
        var maxX = 0
        var maxY = 0
        for d in discs {
            let r = d.radius + d.strokeWidth + 1
            minX = min(minX, max(0, Int((d.x - r).rounded(.down))))
            minY = min(minY, max(0, Int((d.y - r).rounded(.down))))
            maxX = max(maxX, min(deviceWidth, Int((d.x + r).rounded(.up))))
            maxY = max(maxY, min(deviceHeight, Int((d.y + r).rounded(.up))))
        }
        guard maxX > minX, maxY > minY else { return }
        let width = maxX - minX
        let height = maxY - minY
        var pixels = [Float](repeating: 0, count: width * height * 4)
        for d in discs { shade(d, into: &pixels, originX: minX, originY: minY, width: width, height: height) }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<bytes.count { bytes[i] = UInt8(max(0, min(255, (pixels[i] * 255).rounded()))) }
        guard let image = try? ImageSurface(premultipliedRGBA: bytes, width: width, height: height) else { return }
        frame.context.drawDevicePixels(image, x: minX, y: minY)
    }

    /// MapLibre's circle fragment shader for one disc, blended (premultiplied source over) into `pixels`.
    static func shade(
        _ d: Disc, into pixels: inout [Float], originX: Int, originY: Int, width: Int, height: Int
    ) {
        let outer = d.radius + d.strokeWidth
        guard outer > 0 else { return }
        let blur = -max(1 / outer, d.blur)
        let inner = d.radius / outer
        let x0 = max(originX, Int((d.x - outer).rounded(.down)))
        let x1 = min(originX + width, Int((d.x + outer).rounded(.up)))
        let y0 = max(originY, Int((d.y - outer).rounded(.down)))
        let y1 = min(originY + height, Int((d.y + outer).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let fill = premultiplied(d.color)
        let stroke = premultiplied(d.strokeColor)
        let hasStroke = d.strokeWidth >= 0.01
        for py in y0..<y1 {
            let dy = (Double(py) + 0.5 - d.y) / outer
            for px in x0..<x1 {
                let dx = (Double(px) + 0.5 - d.x) / outer
                let length = (dx * dx + dy * dy).squareRoot()
                let opacity = smoothstep(0, blur, length - 1)
                guard opacity > 0 else { continue }
                let t = hasStroke ? smoothstep(blur, 0, length - inner) : 0
                let i = ((py - originY) * width + (px - originX)) * 4
                let alpha = Float(opacity * (fill.3 + (stroke.3 - fill.3) * t))
                pixels[i] = Float(opacity * (fill.0 + (stroke.0 - fill.0) * t)) + pixels[i] * (1 - alpha)
                pixels[i + 1] = Float(opacity * (fill.1 + (stroke.1 - fill.1) * t)) + pixels[i + 1] * (1 - alpha)
                pixels[i + 2] = Float(opacity * (fill.2 + (stroke.2 - fill.2) * t)) + pixels[i + 2] * (1 - alpha)
                pixels[i + 3] = alpha + pixels[i + 3] * (1 - alpha)
            }
        }
    }

    static func premultiplied(_ c: Color) -> (Double, Double, Double, Double) {
        (c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
    }

    /// GLSL's `smoothstep`: 0 below `edge0`, 1 above `edge1` (either order), Hermite in between.
    static func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
        guard edge1 != edge0 else { return x < edge0 ? 0 : 1 }
        let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
        return t * t * (3 - 2 * t)
    }
}
