internal import CRasterKernels
import MapGeometry

/// Image quads (icons, SDF glyphs) drawn over their boxes: each pixel decided by the quad's own test, with
/// the common cases (upright, unturned, untilted) worked out per column and row rather than per pixel.
extension Rasterizer {
    /// Rasterizes one image quad (the two triangles ``Rasterizer/addQuad(_:source:transform:linear:shading:)``
    /// adds, indices `range` of `triangles`) without the triangles' edge tests: every pixel of their box, each
    /// decided by the quad's own test (its centre inside the texels drawn). The same pixels as the triangle
    /// loop: the triangles reach past every pixel the quad's test takes (a pixel or half a texel, whichever
    /// is more), and each such pixel lies in exactly one of the two.
    static func rasterizeQuad(
        _ triangles: UnsafeBufferPointer<Int32>, _ range: Range<Int>, shader: ImageQuad, command: Command,
        vertices: Vertices, origin: (Int, Int), size: (Int, Int), pixels: PixelBuffer
    ) {
        let positions = vertices.positions
        var a = (Double.infinity, Double.infinity)
        var b = (-Double.infinity, -Double.infinity)
        for t in range where (t - range.lowerBound) % 4 < 3 {
            let i = 2 * Int(triangles[t])
            a = (min(a.0, positions[i] - Double(origin.0)), min(a.1, positions[i + 1] - Double(origin.1)))
            b = (max(b.0, positions[i] - Double(origin.0)), max(b.1, positions[i + 1] - Double(origin.1)))
        }
        guard a.0.isFinite, a.1.isFinite, b.0.isFinite, b.1.isFinite else { return }
        let (xStart, xEnd, yStart, yEnd) = pixelBox(a, b, b, limit: command.limit, origin: origin, size: size)
        guard xStart <= xEnd, yStart <= yEnd else { return }
        if shader.perspective == nil, shader.linear, let alphas = shader.texture.alphas {
            let field: DistanceFieldShading
            switch shader.shading {
            case .plain: field = .none
            case .signedDistance(let color, let opacity, let buffer, let gamma):
                field = DistanceFieldShading(color: color, opacity: opacity, buffer: buffer, gamma: gamma, inner: nil)
            case .signedDistanceHalo(let color, let opacity, let buffer, let gamma, let inner, let innerGamma):
                field = DistanceFieldShading(
                    color: color, opacity: opacity, buffer: buffer, gamma: gamma, inner: (inner, innerGamma))
            }
            if field.isSet {
                alphas.withUnsafeBufferPointer { alphas in
                    rasterizeDistanceField(
                        shader, alphas: alphas, shading: field, box: (xStart, xEnd, yStart, yEnd), origin: origin,
                        pixels: pixels)
                }
                return
            }
        }
        if shader.perspective == nil, shader.inverse.b == 0, shader.inverse.c == 0,
            case .plain(let opacity) = shader.shading
        {
            shader.texture.texels.withUnsafeBufferPointer { texels in
                rasterizeUprightImage(
                    shader, texels: texels, opacity: Float(opacity), box: (xStart, xEnd, yStart, yEnd), origin: origin,
                    pixels: pixels)
            }
            return
        }
        for y in yStart...yEnd {
            let row = pixels.row(y)
            let py = Double(y + origin.1) + 0.5
            for x in xStart...xEnd {
                guard let source = shader.shade(Double(x + origin.0) + 0.5, py) else { continue }
                let offset = x * 4
                let word = row.load(fromByteOffset: offset, as: UInt32.self)
                row.storeBytes(of: PixelBuffer.blend(word, source, coverage: 1), toByteOffset: offset, as: UInt32.self)
            }
        }
    }

    /// The constants of a distance-field quad's shading (``QuadShading/signedDistance(color:opacity:buffer:gamma:)``
    /// or its halo), taken out of the pixel loop.
    struct DistanceFieldShading {
        var color = Color(red: 0, green: 0, blue: 0, alpha: 0)
        var opacity = 0.0
        /// `buffer - gamma` and `buffer + gamma`.
        var edge0 = 0.0
        var edge1 = 0.0
        /// For a halo, the fill's edges `inner -/+ innerGamma`.
        var inner: (Double, Double)?
        var isSet = false

        static let none = DistanceFieldShading()

        private init() {}

        init(color: Color, opacity: Double, buffer: Double, gamma: Double, inner: (Double, Double)?) {
            self.color = color
            self.opacity = opacity
            edge0 = buffer - gamma
            edge1 = buffer + gamma
            self.inner = inner.map { ($0.0 - $0.1, $0.0 + $0.1) }
            isSet = true
        }
    }

    /// A distance-field quad drawn affine and bilinear (SDF text and icons on an untilted map): what
    /// ``ImageQuad/shade(_:_:)`` computes for that case, operation for operation (the same pixels), with the
    /// quad's constants out of the pixel loop and each row's columns narrowed to those whose centres may map
    /// inside the texels drawn (a pixel wider either side; the exact test decides). Each row is sampled into
    /// field values first (``sampleRow(_:_:width:weightTop:weightBottom:columns:count:into:wide:)``), then shaded
    /// and blended (``DistanceFieldPainter/shadeRow(_:count:row:first:)``): two small loops rather than one
    /// that holds everything at once.
    static func rasterizeDistanceField(
        _ shader: ImageQuad, alphas: UnsafeBufferPointer<Float>, shading: DistanceFieldShading,
        box: (xStart: Int, xEnd: Int, yStart: Int, yEnd: Int), origin: (Int, Int), pixels: PixelBuffer
    ) {
        let painter = DistanceFieldPainter(shading)
        let m = shader.inverse
        let epsilon = 1e-7
        let minU = shader.source.minX - epsilon
        let maxU = shader.source.maxX - epsilon
        let minV = shader.source.minY - epsilon
        let maxV = shader.source.maxY - epsilon
        let width = shader.texture.width
        let height = shader.texture.height
        /// The columns (relative to the box's origin) where `coefficient * dx + constant` may lie in
        /// `low..<high`: all, none, or those around the crossing points.
        @inline(__always) func columns(
            _ coefficient: Double, _ constant: Double, _ low: Double, _ high: Double, within range: ClosedRange<Int>
        ) -> ClosedRange<Int>? {
            if coefficient == 0 { return constant >= low && constant < high ? range : nil }
            let x0 = (low - constant) / coefficient
            let x1 = (high - constant) / coefficient
            // Pixel centres at column + origin + 0.5, a column more either side.
            let first = min(x0, x1) - 0.5 - Double(origin.0) - 1
            let last = max(x0, x1) - 0.5 - Double(origin.0) + 1
            guard first.isFinite, last.isFinite else { return range }
            let lo = max(Double(range.lowerBound), first.rounded(.down))
            let hi = min(Double(range.upperBound), last.rounded(.up))
            guard lo <= hi else { return nil }
            return Int(lo)...Int(hi)
        }
        /// The sampler along one axis at `c` (texel units, inside the quad): TexelAxis.linear at `c - 0.5` with a
        /// transparent border, as the two texels (clamped into the texture) and their weights, a texel outside
        /// the texture weighing 0 (its value times 0 is the 0 the border gives; the sums are the sampler's).
        /// The floor is taken by truncation (the coordinate is within the quad's few texels).
        @inline(__always) func sampled(_ c: Double, count: Int) -> (
            first: Int, second: Int, weightFirst: Float, weightSecond: Float
        ) {
            let cu = c - 0.5
            let t = Int(cu)
            let i = Double(t) > cu ? t - 1 : t
            let f = Float(cu - Double(i))
            return (
                min(max(i, 0), count - 1), min(max(i + 1, 0), count - 1), i >= 0 && i < count ? 1 - f : 0,
                i + 1 >= 0 && i + 1 < count ? f : 0
            )
        }
        let columnCount = box.xEnd - box.xStart + 1
        withUnsafeTemporaryAllocation(of: Float.self, capacity: columnCount) { field in
            let field = field.baseAddress!
            if m.b == 0, m.c == 0 {
                // Upright and unturned (most text): u depends on the column alone and v on the row alone (the
                // other term is a zero), so each column's texels and weights are worked out once.
                let dx0 = Double(box.xStart + origin.0) + 0.5
                let dy0 = Double(box.yStart + origin.1) + 0.5
                guard let us = columns(m.a, m.c * dy0 + m.tx, minU, maxU, within: box.xStart...box.xEnd) else {
                    return
                }
                // u grows or falls with the column: the columns inside are one run.
                var firstInside = us.upperBound + 1
                var lastInside = us.lowerBound - 1
                for x in us {
                    let u = m.a * (Double(x + origin.0) + 0.5) + m.c * dy0 + m.tx
                    if u >= minU, u < maxU {
                        firstInside = min(firstInside, x)
                        lastInside = max(lastInside, x)
                    }
                }
                guard firstInside <= lastInside else { return }
                let count = lastInside - firstInside + 1
                let wide = DistanceFieldPainter.wideKernel
                // Each column's two texels and their weights, in four arrays (the eight-lane sampler loads them
                // eight at a time).
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * count) { indices in
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * count) { weights in
                        let columns = DistanceFieldColumns(
                            first: indices.baseAddress!, second: indices.baseAddress! + count,
                            weightFirst: weights.baseAddress!, weightSecond: weights.baseAddress! + count)
                        for k in 0..<count {
                            let u = m.a * (Double(firstInside + k + origin.0) + 0.5) + m.c * dy0 + m.tx
                            let a = sampled(u, count: width)
                            columns.first[k] = Int32(a.first)
                            columns.second[k] = Int32(a.second)
                            columns.weightFirst[k] = a.weightFirst
                            columns.weightSecond[k] = a.weightSecond
                        }
                        for y in box.yStart...box.yEnd {
                            let v = m.b * dx0 + m.d * (Double(y + origin.1) + 0.5) + m.ty
                            guard v >= minV, v < maxV else { continue }
                            let r = sampled(v, count: height)
                            sampleRow(
                                alphas.baseAddress! + r.first * width, alphas.baseAddress! + r.second * width,
                                width: width, weightTop: r.weightFirst, weightBottom: r.weightSecond,
                                columns: columns, count: count, into: field, wide: wide)
                            painter.shadeRow(field, count: count, row: pixels.row(y), first: firstInside)
                        }
                    }
                }
                return
            }
            // Turned or sheared (line labels): each row's span of columns sampled by a C kernel (four columns at a
            // time where the CPU runs AVX2), the same operations as `sampled` and the bilinear blend above.
            let wide = DistanceFieldPainter.wideKernel
            var quad = mapraster_sdf_affine(
                a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty, min_u: minU, max_u: maxU, min_v: minV,
                max_v: maxV, width: Int64(width), height: Int64(height))
            for y in box.yStart...box.yEnd {
                let dy = Double(y + origin.1) + 0.5
                guard let us = columns(m.a, m.c * dy + m.tx, minU, maxU, within: box.xStart...box.xEnd),
                    let span = columns(m.b, m.d * dy + m.ty, minV, maxV, within: us)
                else { continue }
                if wide {
                    mapraster_sdf_sample_affine_row_avx2(
                        &quad, alphas.baseAddress!, Int64(span.lowerBound + origin.0), dy, Int64(span.count), field)
                } else {
                    mapraster_sdf_sample_affine_row(
                        &quad, alphas.baseAddress!, Int64(span.lowerBound + origin.0), dy, Int64(span.count), field)
                }
                painter.shadeRow(field, count: span.count, row: pixels.row(y), first: span.lowerBound)
            }
        }
    }

    /// The columns of an upright quad's row (``rasterizeDistanceField``'s upright case): each column's two texels
    /// along u and their weights, by column.
    struct DistanceFieldColumns {
        let first: UnsafeMutablePointer<Int32>
        let second: UnsafeMutablePointer<Int32>
        let weightFirst: UnsafeMutablePointer<Float>
        let weightSecond: UnsafeMutablePointer<Float>
    }

    /// The field values of one row of an upright quad between texel rows `upper` and `lower` (`width` texels
    /// each): the bilinear blend of Texture.sampleAlpha, the rows' weights after the columns', as
    /// ``ImageQuad/shade(_:_:)`` blends them. With the eight-lane sampler when `wide` (the caller's
    /// ``DistanceFieldPainter/wideKernel``: this CPU runs AVX2; the same single-precision operations, so the same
    /// values), else column by column.
    @inline(__always)
    static func sampleRow(
        _ upper: UnsafePointer<Float>, _ lower: UnsafePointer<Float>, width: Int, weightTop: Float, weightBottom: Float,
        columns: DistanceFieldColumns, count: Int, into field: UnsafeMutablePointer<Float>, wide: Bool
    ) {
        if wide {
            mapraster_sdf_sample_upright_row_avx2(
                upper, lower, Int64(width), weightTop, weightBottom, columns.first, columns.second,
                columns.weightFirst, columns.weightSecond, Int64(count), field)
            return
        }
        for k in 0..<count {
            let first = Int(columns.first[k])
            let second = Int(columns.second[k])
            let weightFirst = columns.weightFirst[k]
            let weightSecond = columns.weightSecond[k]
            let up = upper[first] * weightFirst + upper[second] * weightSecond
            let down = lower[first] * weightFirst + lower[second] * weightSecond
            field[k] = up * weightTop + down * weightBottom
        }
    }

    /// Shades and blends rows of field values as ``ImageQuad/shade(_:_:)`` shades them, four columns at a time,
    /// with the shading's constants worked out once: in single precision, as a GPU's fragment shader works.
    /// On a CPU with AVX2 a C kernel does the same operations eight columns at a time (``wideKernel``): the
    /// same words, as each lane's operations are the same IEEE single-precision operations.
    struct DistanceFieldPainter {
        let color: SIMD4<Float>
        let opacity: Float
        let edge0: Float
        let edge1: Float
        let inner: (Float, Float)?
        /// Where a halo turns transparent for good (the fill's upper edge, edges in order: 1 - 1 = 0).
        let clear: Float
        /// The same constants for the C kernel.
        private let constants: mapraster_sdf_shading

        /// Whether this CPU runs the eight-lane kernel (AVX2).
        static let wideKernel = mapraster_has_avx2() != 0

        init(_ shading: DistanceFieldShading) {
            let c = shading.color
            color = SIMD4(Float(c.red), Float(c.green), Float(c.blue), Float(c.alpha))
            opacity = Float(shading.opacity)
            edge0 = Float(shading.edge0)
            edge1 = Float(shading.edge1)
            inner = shading.inner.map { (Float($0.0), Float($0.1)) }
            clear = edge0 < edge1 ? inner.map { $0.0 < $0.1 ? $0.1 : .infinity } ?? .infinity : .infinity
            constants = mapraster_sdf_shading(
                red: color.x, green: color.y, blue: color.z, alpha: color.w, opacity: opacity, edge0: edge0,
                edge1: edge1, fill0: inner?.0 ?? 0, fill1: inner?.1 ?? 0, clear: clear, has_inner: inner == nil ? 0 : 1)
        }

        /// Blends the shading of field values `field[0..<count]` into columns `first...` of `row`: with the
        /// eight-lane kernel when `wide` and this CPU has it (``wideKernel``), else four columns at a time
        /// (``shade4(_:_:drawn:)``), the last one to three as four with the missing ones transparent.
        @inline(never)
        func shadeRow(
            _ field: UnsafePointer<Float>, count: Int, row: UnsafeMutableRawPointer, first: Int,
            wide: Bool = true
        ) {
            if wide && Self.wideKernel {
                withUnsafePointer(to: constants) { constants in
                    mapraster_sdf_shade_row_avx2(constants, field, Int64(count), row + first * 4)
                }
                return
            }
            var k = 0
            while k < count {
                let n = min(4, count - k)
                var d = SIMD4<Float>(repeating: -.infinity)
                if n == 4 {
                    d = UnsafeRawPointer(field + k).loadUnaligned(as: SIMD4<Float>.self)
                } else {
                    for i in 0..<n { d[i] = field[k + i] }
                }
                // Below the lower edge every shading is transparent (smoothstep 0; a halo's min with it 0), and a
                // halo is transparent from the fill's upper edge on.
                let drawn = (d .>= edge0) .& (d .< clear)
                if any(drawn) {
                    let offset = (first + k) * 4
                    if n == 4 {
                        let words = row.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                        row.storeBytes(of: shade4(d, words, drawn: drawn), toByteOffset: offset, as: SIMD4<UInt32>.self)
                    } else {
                        var words = SIMD4<UInt32>.zero
                        for i in 0..<n { words[i] = row.load(fromByteOffset: offset + 4 * i, as: UInt32.self) }
                        let out = shade4(d, words, drawn: drawn)
                        for i in 0..<n { row.storeBytes(of: out[i], toByteOffset: offset + 4 * i, as: UInt32.self) }
                    }
                }
                k += 4
            }
        }

        /// Four pixels' words after the shading of field values `d` where `drawn`: lane by lane the operations of
        /// ``ImageQuad/shade(_:_:)`` (smoothsteps, the colour premultiplied and clamped) and of the blend, so the
        /// same words.
        @inline(__always)
        private func shade4(_ d: SIMD4<Float>, _ words: SIMD4<UInt32>, drawn: SIMDMask<SIMD4<Int32>>) -> SIMD4<UInt32> {
            /// ``smoothstep(_:_:_:)`` lane by lane (its min and max as Swift's choose: `max(q, 0)` is
            /// `0 >= q ? 0 : q`, `min(t, 1)` is `1 < t ? 1 : t`).
            @inline(__always) func smoothstep4(_ e0: Float, _ e1: Float, _ x: SIMD4<Float>) -> SIMD4<Float> {
                guard e1 != e0 else { return SIMD4<Float>(repeating: 1).replacing(with: 0, where: x .< e0) }
                var t = (x - e0) / (e1 - e0)
                t.replace(with: 0, where: 0 .>= t)
                t.replace(with: 1, where: 1 .< t)
                return t * t * (3 - 2 * t)
            }
            let coverage: SIMD4<Float>
            if let (fill0, fill1) = inner {
                let s = smoothstep4(edge0, edge1, d)
                let rest = 1 - smoothstep4(fill0, fill1, d)
                // min(s, rest): `rest < s ? rest : s`.
                coverage = s.replacing(with: rest, where: rest .< s) * opacity
            } else {
                coverage = smoothstep4(edge0, edge1, d) * opacity
            }
            let alpha = color.w * coverage
            @inline(__always) func clamped(_ x: SIMD4<Float>) -> SIMD4<Float> {
                var v = x
                v.replace(with: 0, where: v .<= 0)
                v.replace(with: 1, where: v .> 1)
                return v
            }
            let a = clamped(alpha)
            // Each lane's source at coverage 1 (times 1, as the blend multiplies it).
            let out = PixelBuffer.blend(
                words, alpha: a * 1, red: clamped(color.x * alpha) * 1, green: clamped(color.y * alpha) * 1,
                blue: clamped(color.z * alpha) * 1)
            return words.replacing(with: out, where: drawn .& (a .> 0))
        }
    }

    /// An upright, unturned, untilted image quad of plain colours (icons): what ``ImageQuad/shade(_:_:)``
    /// computes for `.plain` shading, operation for operation, with each column's and row's texels and
    /// weights worked out once (u depends on the column alone, v on the row alone).
    static func rasterizeUprightImage(
        _ shader: ImageQuad, texels: UnsafeBufferPointer<SIMD4<Float>>, opacity: Float,
        box: (xStart: Int, xEnd: Int, yStart: Int, yEnd: Int), origin: (Int, Int), pixels: PixelBuffer
    ) {
        let m = shader.inverse
        let epsilon = 1e-7
        let source = shader.source
        let width = shader.texture.width
        let height = shader.texture.height
        let linear = shader.linear
        typealias Axis = (inside: Bool, first: Int, firstIn: Bool, secondIn: Bool, f: Float)
        // The sampler's addressing (TexelAxis.linear at c - 0.5, or .nearest at c, transparent border).
        @inline(__always) func axis(_ c: Double, low: Double, high: Double, count: Int) -> Axis {
            guard c >= low - epsilon, c < high - epsilon else { return (false, 0, false, false, 0) }
            if linear {
                let cu = c - 0.5
                let lower = cu.rounded(.down)
                let i = Int(lower)
                return (true, i, i >= 0 && i < count, i + 1 >= 0 && i + 1 < count, Float(cu - lower))
            }
            let i = Int(c.rounded(.down))
            return (true, i, i >= 0 && i < count, false, 0)
        }
        let dx0 = Double(box.xStart + origin.0) + 0.5
        let dy0 = Double(box.yStart + origin.1) + 0.5
        let cols = (box.xStart...box.xEnd).map { x in
            axis(
                m.a * (Double(x + origin.0) + 0.5) + m.c * dy0 + m.tx, low: source.minX, high: source.maxX, count: width
            )
        }
        for y in box.yStart...box.yEnd {
            let r = axis(
                m.b * dx0 + m.d * (Double(y + origin.1) + 0.5) + m.ty, low: source.minY, high: source.maxY,
                count: height)
            guard r.inside else { continue }
            let row = pixels.row(y)
            let top = r.first * width
            let bottom = top + width
            for (k, c) in cols.enumerated() where c.inside {
                let s: SIMD4<Float>
                if linear {
                    // Texture.sample's bilinear blend (a linear axis never has one texel).
                    let t00 = r.firstIn && c.firstIn ? texels[top + c.first] : .zero
                    let t10 = r.firstIn && c.secondIn ? texels[top + c.first + 1] : .zero
                    let t01 = r.secondIn && c.firstIn ? texels[bottom + c.first] : .zero
                    let t11 = r.secondIn && c.secondIn ? texels[bottom + c.first + 1] : .zero
                    let upper = t00 * (1 - c.f) + t10 * c.f
                    let lower = t01 * (1 - c.f) + t11 * c.f
                    s = upper * (1 - r.f) + lower * r.f
                } else {
                    s = r.firstIn && c.firstIn ? texels[top + c.first] : .zero
                }
                var out = s * opacity
                out.replace(with: 0, where: .zero .>= out)
                out.replace(with: 1, where: 1 .< out)
                guard out.w > 0 else { continue }
                let offset = (box.xStart + k) * 4
                let word = row.load(fromByteOffset: offset, as: UInt32.self)
                row.storeBytes(of: PixelBuffer.blend(word, out, coverage: 1), toByteOffset: offset, as: UInt32.self)
            }
        }
    }
}
