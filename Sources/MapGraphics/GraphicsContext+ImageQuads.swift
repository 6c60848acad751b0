import MapGeometry

/// An image drawn as textured quads, sampled the way a GPU samples a texture: pixel centers at half
/// texels, nearest or bilinear, transparent outside the image. Holds premultiplied RGBA as Doubles (0...1).
public struct QuadImage: Sendable {
    /// Width and height in pixels.
    public let width, height: Int
    private let premultiplied: [Float]

    /// Creates an image from straight (unpremultiplied) RGBA bytes, row by row without padding.
    ///
    /// - Throws: ``GraphicsError/invalidSurfaceSize(width:height:)`` when the sizes are not positive, larger
    ///   than 32768 a side, or do not match the byte count.
    public init(rgba bytes: [UInt8], width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, bytes.count == width * height * 4 else {
            throw GraphicsError.invalidSurfaceSize(width: width, height: height)
        }
        self.width = width
        self.height = height
        var values = [Float](repeating: 0, count: bytes.count)
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let a = Float(bytes[i + 3]) / 255
            values[i] = Float(bytes[i]) / 255 * a
            values[i + 1] = Float(bytes[i + 1]) / 255 * a
            values[i + 2] = Float(bytes[i + 2]) / 255 * a
            values[i + 3] = a
        }
        premultiplied = values
    }

    /// The premultiplied texel at `x`, `y`; transparent outside the image.
    @inline(__always)
    func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        guard x >= 0, y >= 0, x < width, y < height else { return .zero }
        let i = (y * width + x) * 4
        return SIMD4(premultiplied[i], premultiplied[i + 1], premultiplied[i + 2], premultiplied[i + 3])
    }

    /// The image sampled at texture coordinates `u`, `v` (texels; texel `i` spans `i...i+1`).
    @inline(__always)
    func sample(_ u: Double, _ v: Double, linear: Bool) -> SIMD4<Float> {
        guard linear else { return texel(Int((u).rounded(.down)), Int((v).rounded(.down))) }
        let x = u - 0.5
        let y = v - 0.5
        let x0 = x.rounded(.down)
        let y0 = y.rounded(.down)
        let fx = Float(x - x0)
        let fy = Float(y - y0)
        let ix = Int(x0)
        let iy = Int(y0)
        let top = texel(ix, iy) * (1 - fx) + texel(ix + 1, iy) * fx
        let bottom = texel(ix, iy + 1) * (1 - fx) + texel(ix + 1, iy + 1) * fx
        return top * (1 - fy) + bottom * fy
    }
}

/// How a ``QuadImage``'s samples become colors (see ``GraphicsContext/drawQuad(_:source:transform:linear:shading:)``).
public enum QuadShading: Sendable {
    /// The image's colors times `opacity`.
    case plain(opacity: Double)
    /// The image's alpha read as a signed distance field (MapLibre's SDF icons): coverage is
    /// `smoothstep(buffer - gamma, buffer + gamma, alpha)`, painted with `color` times `opacity`.
    case signedDistance(color: Color, opacity: Double, buffer: Double, gamma: Double)
    /// A halo: like ``signedDistance(color:opacity:buffer:gamma:)`` but only outside the fill's edge
    /// (`inner` with the fill's gamma): coverage is the halo's times one minus the fill's.
    case signedDistanceHalo(
        color: Color, opacity: Double, buffer: Double, gamma: Double, inner: Double, innerGamma: Double)
}

extension GraphicsContext {
    /// Draws the rectangle `source` of `image` (in texels; it may reach past the image, which is
    /// transparent there) mapped into the context by `transform` (texels to points, then the current
    /// transform), as a GPU draws a textured quad: a device pixel is drawn when its center is inside the
    /// quad (left and top edges inclusive), its color sampled at the center (bilinear when `linear`,
    /// else nearest), then composited over the image. The context alpha multiplies it.
    /// GLSL's smoothstep.
    static func smoothstep(_ lo: Double, _ hi: Double, _ x: Double) -> Double {
        guard hi > lo else { return x >= hi ? 1 : 0 }
        let t = min(1, max(0, (x - lo) / (hi - lo)))
        return t * t * (3 - 2 * t)
    }

    public func drawQuad(
        _ image: QuadImage, source: Rect, transform: Transform, linear: Bool, shading: QuadShading
    ) {
        let m = transform.concatenating(currentTransform)
        let det = m.a * m.d - m.b * m.c
        guard det.isFinite, abs(det) > 1e-12, source.width > 0, source.height > 0 else { return }
        let corners = [
            Point(x: source.minX, y: source.minY), Point(x: source.maxX, y: source.minY),
            Point(x: source.maxX, y: source.maxY), Point(x: source.minX, y: source.maxY),
        ].map { $0.applying(m) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let surfaceWidth = cairo.surface.width
        let surfaceHeight = cairo.surface.height
        guard let minXs = xs.min(), let maxXs = xs.max(), let minYs = ys.min(), let maxYs = ys.max(),
            minXs.isFinite, maxXs.isFinite, minYs.isFinite, maxYs.isFinite
        else { return }
        let x0 = max(0, Int(max(-1, min(Double(surfaceWidth), (minXs - 0.5).rounded(.down)))))
        let x1 = min(surfaceWidth, Int(max(-1, min(Double(surfaceWidth), (maxXs + 0.5).rounded(.up)))))
        let y0 = max(0, Int(max(-1, min(Double(surfaceHeight), (minYs - 0.5).rounded(.down)))))
        let y1 = min(surfaceHeight, Int(max(-1, min(Double(surfaceHeight), (maxYs + 0.5).rounded(.up)))))
        guard x1 > x0, y1 > y0 else { return }
        // Device to texels.
        let ia = m.d / det
        let ib = -m.b / det
        let ic = -m.c / det
        let id = m.a / det
        let itx = -(ia * m.tx + ic * m.ty)
        let ity = -(ib * m.tx + id * m.ty)
        let w = x1 - x0
        let h = y1 - y0
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        let epsilon = 1e-7
        var painted = false
        for py in 0..<h {
            let dy = Double(y0 + py) + 0.5
            for px in 0..<w {
                let dx = Double(x0 + px) + 0.5
                let u = ia * dx + ic * dy + itx
                let v = ib * dx + id * dy + ity
                guard u >= source.minX - epsilon, u < source.maxX - epsilon, v >= source.minY - epsilon,
                    v < source.maxY - epsilon
                else { continue }
                let s = image.sample(u, v, linear: linear)
                var out: SIMD4<Float>
                switch shading {
                case .plain(let opacity):
                    out = s * Float(opacity)
                case .signedDistance(let color, let opacity, let buffer, let gamma):
                    let coverage = Self.smoothstep(buffer - gamma, buffer + gamma, Double(s.w)) * opacity
                    let a = color.alpha * coverage
                    out = SIMD4(Float(color.red * a), Float(color.green * a), Float(color.blue * a), Float(a))
                case .signedDistanceHalo(let color, let opacity, let buffer, let gamma, let inner, let innerGamma):
                    let d = Double(s.w)
                    let fill = Self.smoothstep(inner - innerGamma, inner + innerGamma, d)
                    let coverage = min(Self.smoothstep(buffer - gamma, buffer + gamma, d), 1 - fill) * opacity
                    let a = color.alpha * coverage
                    out = SIMD4(Float(color.red * a), Float(color.green * a), Float(color.blue * a), Float(a))
                }
                let i = (py * w + px) * 4
                for k in 0..<4 {
                    let value = (min(1, max(0, out[k])) * 255).rounded()
                    bytes[i + k] = UInt8(value)
                }
                if bytes[i + 3] > 0 { painted = true }
            }
        }
        guard painted, let surface = try? ImageSurface(premultipliedRGBA: bytes, width: w, height: h) else { return }
        drawDevicePixels(surface, x: x0, y: y0)
    }
}
