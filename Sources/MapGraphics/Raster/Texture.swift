import MapGeometry

/// An image the rasterizer samples: premultiplied r, g, b, a texels (0...1), row by row, transparent
/// outside its `width` x `height` texels. Icons, line patterns, gradient ramps and dash fields are all
/// textures, looked up through one sampler (``sample(_:_:)`` with a ``TexelAxis`` per direction).
package struct Texture: Sendable {
    /// Width and height in texels.
    package let width, height: Int
    let texels: [SIMD4<Float>]
    /// The alpha channel alone, for a distance field (``init(distanceField:width:height:)``), whose shaders
    /// read nothing else: one float per texel instead of four.
    let alphas: [Float]?

    /// A texture of premultiplied texels, row by row (`texels.count == width * height`, both positive).
    init(width: Int, height: Int, texels: [SIMD4<Float>], alphas: [Float]? = nil) {
        precondition(width > 0 && height > 0 && texels.count == width * height)
        precondition(alphas.map { $0.count == texels.count } ?? true)
        self.width = width
        self.height = height
        self.texels = texels
        self.alphas = alphas
    }

    /// A texture from straight (unpremultiplied) RGBA bytes, row by row without padding, premultiplied
    /// without rounding.
    ///
    /// - Throws: ``GraphicsError/invalidSurfaceSize(width:height:)`` when the sizes are not positive, larger
    ///   than 32768 a side, or do not match the byte count.
    package init(rgba bytes: [UInt8], width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, bytes.count == width * height * 4 else {
            throw GraphicsError.invalidSurfaceSize(width: width, height: height)
        }
        var texels = [SIMD4<Float>](repeating: .zero, count: width * height)
        for i in 0..<texels.count {
            let a = Float(bytes[4 * i + 3]) / 255
            texels[i] = SIMD4(
                Float(bytes[4 * i]) / 255 * a, Float(bytes[4 * i + 1]) / 255 * a, Float(bytes[4 * i + 2]) / 255 * a, a)
        }
        self.init(width: width, height: height, texels: texels)
    }

    /// The texture with its alpha channel also kept alone (``alphas``), for an image drawn as a distance field (an
    /// `sdf` sprite image): its shadings read the alpha alone, and sample it as they sample a glyph's field (the
    /// same arithmetic on the one channel, so the same values).
    package func withSeparateAlphas() -> Texture {
        Texture(width: width, height: height, texels: texels, alphas: texels.map(\.w))
    }

    /// `image` (premultiplied already) with a one-texel border on every side wrapped from the opposite
    /// edge, as MapLibre pads a pattern in its image atlas; nil for an empty image or one over 4096 a side.
    init?(wrappingBorderOf image: ImageSurface) { self.init(image, border: 1) }

    /// `image` (premultiplied already) texel for texel (a tile overlay's tile laid on a tilted ground); nil
    /// for an empty image or one over 4096 a side.
    package init?(premultiplied image: ImageSurface) { self.init(image, border: 0) }

    /// `image` with `border` texels on every side wrapped from the opposite edge.
    private init?(_ image: ImageSurface, border: Int) {
        let w = image.width
        let h = image.height
        guard w > 0, h > 0, w <= 4096, h <= 4096 else { return nil }
        let pw = w + 2 * border
        let ph = h + 2 * border
        var texels = [SIMD4<Float>](repeating: .zero, count: pw * ph)
        image.cairo.withPixels { base, stride in
            for py in 0..<ph {
                let row = base.advanced(by: ((py - border + h) % h) * stride)
                for px in 0..<pw {
                    let word = row.load(fromByteOffset: ((px - border + w) % w) * 4, as: UInt32.self)
                    texels[py * pw + px] = SIMD4(
                        Float((word >> 16) & 0xFF) / 255, Float((word >> 8) & 0xFF) / 255, Float(word & 0xFF) / 255,
                        Float(word >> 24) / 255)
                }
            }
        }
        self.init(width: pw, height: ph, texels: texels)
    }

    /// The texel at column `x`, row `y`; transparent outside the texture.
    @inline(__always)
    func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        guard x >= 0, y >= 0, x < width, y < height else { return .zero }
        return texels[y * width + x]
    }

    /// The sampler: the texels `x.first`/`x.second` and `y.first`/`y.second` blended by the axes' fractions
    /// (bilinear; a nearest axis has one texel and no fraction), as a GPU's texture unit blends them.
    @inline(__always)
    func sample(_ x: TexelAxis, _ y: TexelAxis) -> SIMD4<Float> {
        if x.fraction == 0, y.fraction == 0, x.first == x.second, y.first == y.second {
            return texel(x.first, y.first)
        }
        let top = texel(x.first, y.first) * (1 - x.fraction) + texel(x.second, y.first) * x.fraction
        let bottom = texel(x.first, y.second) * (1 - x.fraction) + texel(x.second, y.second) * x.fraction
        return top * (1 - y.fraction) + bottom * y.fraction
    }

    /// The alpha of ``sample(_:_:)`` from ``alphas`` (the same arithmetic on one lane); nil when the texture
    /// keeps no separate alphas.
    @inline(__always)
    func sampleAlpha(_ x: TexelAxis, _ y: TexelAxis) -> Float? {
        guard let alphas else { return nil }
        @inline(__always) func at(_ i: Int, _ j: Int) -> Float {
            guard i >= 0, j >= 0, i < width, j < height else { return 0 }
            return alphas[j * width + i]
        }
        if x.fraction == 0, y.fraction == 0, x.first == x.second, y.first == y.second {
            return at(x.first, y.first)
        }
        let top = at(x.first, y.first) * (1 - x.fraction) + at(x.second, y.first) * x.fraction
        let bottom = at(x.first, y.second) * (1 - x.fraction) + at(x.second, y.second) * x.fraction
        return top * (1 - y.fraction) + bottom * y.fraction
    }
}

/// Where a lookup falls along one direction of a ``Texture``: the two texels either side and how far
/// towards the second (the sampler's addressing and filtering, per axis).
struct TexelAxis {
    var first: Int
    var second: Int
    var fraction: Float

    /// How a coordinate outside the texture is addressed.
    enum Wrap {
        /// The texture repeats (GL_REPEAT).
        case `repeat`
        /// The edge texels continue (GL_CLAMP_TO_EDGE).
        case clamp
        /// Transparent outside (a clamp to a transparent border).
        case border
    }

    /// Linear filtering at `c` (texel units, texel `i`'s centre at `i`) over `count` texels.
    @inline(__always)
    static func linear(_ c: Float, count: Int, wrap: Wrap) -> TexelAxis {
        let lower = floorFloat(c)
        var f = c - lower
        if !f.isFinite { f = 0 }
        return addressed(Int(lower), f, count: count, wrap: wrap)
    }

    /// Linear filtering at `c` (texel units, texel `i`'s centre at `i`), the fraction rounded to Float.
    @inline(__always)
    static func linear(_ c: Double, count: Int, wrap: Wrap) -> TexelAxis {
        let lower = c.rounded(.down)
        return addressed(Int(lower), Float(c - lower), count: count, wrap: wrap)
    }

    /// The texel whose span (texel `i` spans `i..<i + 1`) holds `t`.
    @inline(__always)
    static func nearest(_ t: Double, count: Int, wrap: Wrap) -> TexelAxis {
        addressed(Int(t.rounded(.down)), 0, count: count, wrap: wrap, single: true)
    }

    /// The texel nearest to `c` (texel units, texel `i`'s centre at `i`).
    @inline(__always)
    static func nearest(_ c: Float, count: Int, wrap: Wrap) -> TexelAxis {
        addressed(Int(floorFloat(c + 0.5)), 0, count: count, wrap: wrap, single: true)
    }

    /// Exactly texel `i`.
    @inline(__always)
    static func at(_ i: Int) -> TexelAxis { TexelAxis(first: i, second: i, fraction: 0) }

    @inline(__always)
    private static func addressed(_ i: Int, _ f: Float, count: Int, wrap: Wrap, single: Bool = false) -> TexelAxis {
        let j = single ? i : i + 1
        switch wrap {
        case .repeat:
            // Within one copy either side (every lookup of a coordinate already reduced to one copy) without
            // a division; the same texels as the remainder.
            let a = i >= 0 && i < count ? i : (i < 0 && i >= -count ? i + count : ((i % count) + count) % count)
            return TexelAxis(first: a, second: single ? a : (a + 1 < count ? a + 1 : 0), fraction: f)
        case .clamp:
            return TexelAxis(first: min(max(i, 0), count - 1), second: min(max(j, 0), count - 1), fraction: f)
        case .border:
            return TexelAxis(first: i, second: j, fraction: f)
        }
    }
}

extension Texture {
    /// A glyph's signed distance field as a texture: each byte of `bitmap` (`width` x `height`, row by row)
    /// becomes a texel whose alpha is the byte / 255 (colour 0), as MapLibre's glyph atlas holds it in its
    /// alpha channel; nil for an empty or wrong-sized bitmap.
    package init?(distanceField bitmap: [UInt8], width: Int, height: Int) {
        guard width > 0, height > 0, width <= 1024, height <= 1024, bitmap.count == width * height else { return nil }
        let alphas = bitmap.map { Float($0) / 255 }
        self.init(width: width, height: height, texels: alphas.map { SIMD4(0, 0, 0, $0) }, alphas: alphas)
    }
}
