internal import CRasterKernels
import Foundation
import MapGeometry
import MapTestSupport
import Testing

@testable import MapGraphics

/// The distance-field quad's fast path (rows sampled into field values, four columns shaded at a time, a row's
/// last few as four) against the fragment shader it stands for: every pixel of the surface blended with
/// ``ImageQuad/shade(_:_:)`` at its centre, one by one. The words must be equal, bit for bit.
@Suite("Distance-field quads: fast path = fragment shader")
struct DistanceFieldQuadTests {
    /// The surface's words, row by row.
    func words(_ surface: ImageSurface) -> [UInt32] {
        surface.cairo.withPixels { base, stride in
            (0..<surface.height).flatMap { y in
                (0..<surface.width).map { x in base.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) }
            }
        }
    }

    @Test("upright and turned quads, fills and halos, opaque and translucent, over random pixels")
    func fastPathMatchesShader() throws {
        var random = SplitMix64(state: 26)
        let size = 48
        var checked = 0
        for trial in 0..<120 {
            // A random premultiplied background.
            var background = [UInt8](repeating: 0, count: size * size * 4)
            for i in stride(from: 0, to: background.count, by: 4) {
                let alpha = trial % 3 == 0 ? 255 : UInt8.random(in: 0...255, using: &random)
                for c in 0..<3 { background[i + c] = UInt8.random(in: 0...alpha, using: &random) }
                background[i + 3] = alpha
            }
            let surface = try ImageSurface(premultipliedRGBA: background, width: size, height: size)
            // A field with smooth ramps (a blurred random pattern) and some plateaus.
            let width = Int.random(in: 3...28, using: &random)
            let height = Int.random(in: 3...28, using: &random)
            let centre = (Double(width) / 2, Double(height) / 2)
            let radius = Double.random(in: 1...Double(max(width, height)), using: &random)
            let bitmap = (0..<width * height).map { i -> UInt8 in
                let dx = Double(i % width) - centre.0
                let dy = Double(i / width) - centre.1
                let distance = (dx * dx + dy * dy).squareRoot() - radius
                let v: Double = 192 - 24 * distance + Double.random(in: -6...6, using: &random)
                return UInt8(Swift.min(255.0, Swift.max(0.0, v.rounded())))
            }
            let texture = try #require(Texture(distanceField: bitmap, width: width, height: height))
            let scale = Double.random(in: 0.3...3, using: &random)
            let angle: Double = trial % 4 == 0 ? Double.random(in: 0..<(2 * Double.pi), using: &random) : 0
            let transform = placement(scale: scale, angle: angle, shift: -10...40, &random)
            let color = Color(
                red: Double.random(in: 0...1, using: &random), green: Double.random(in: 0...1, using: &random),
                blue: Double.random(in: 0...1, using: &random),
                alpha: trial % 2 == 0 ? 1 : Double.random(in: 0...1, using: &random))
            let opacity: Double = trial % 5 < 2 ? 1 : Double.random(in: 0...1, using: &random)
            let buffer = Double.random(in: 0.2...0.9, using: &random)
            let gamma: Double = trial % 7 == 0 ? 0 : Double.random(in: 0.005...0.3, using: &random)
            let inner: Double = buffer + Double.random(in: -0.1...0.3, using: &random)
            let innerGamma = Double.random(in: 0...0.2, using: &random)
            let shading: QuadShading
            if trial % 2 == 1 {
                shading = .signedDistance(color: color, opacity: opacity, buffer: buffer, gamma: gamma)
            } else {
                shading = .signedDistanceHalo(
                    color: color, opacity: opacity, buffer: buffer * 0.7, gamma: gamma, inner: inner,
                    innerGamma: innerGamma)
            }
            let source = Rect(
                x: Double.random(in: -1...1, using: &random), y: Double.random(in: -1...1, using: &random),
                width: Double(width), height: Double(height))
            // The fragment shader, pixel by pixel, over the background's words.
            var expected = words(surface)
            shade(
                texture, source: source, transform: transform, shading: shading, over: &expected, size: size)
            let context = try GraphicsContext(surface: surface)
            let rasterizer = context.makeRasterizer()
            rasterizer.addQuad(texture, source: source, transform: transform, linear: true, shading: shading)
            context.draw(rasterizer)
            let drawn = words(surface)
            let differing = zip(drawn, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "trial \(trial): \(differing) pixels differ")
            checked += 1
        }
        #expect(checked == 120)
    }

    @Test("an sdf image with its alpha also kept alone shades as without it, in every shading and quad")
    func separateAlphasShadeTheSame() throws {
        var random = SplitMix64(state: 28)
        for _ in 0..<40 {
            let width = Int.random(in: 2...20, using: &random)
            let height = Int.random(in: 2...20, using: &random)
            let bytes = (0..<width * height * 4).map { _ in UInt8.random(in: 0...255, using: &random) }
            let plain = try Texture(rgba: bytes, width: width, height: height)
            let separate = plain.withSeparateAlphas()
            let color = Color(red: 0.3, green: 0.6, blue: 0.9, alpha: Double.random(in: 0.2...1, using: &random))
            let shadings: [QuadShading] = [
                .plain(opacity: 0.8),
                .signedDistance(
                    color: color, opacity: 0.9, buffer: Double.random(in: 0.2...0.9, using: &random),
                    gamma: 0.1),
                .signedDistanceHalo(color: color, opacity: 1, buffer: 0.4, gamma: 0.15, inner: 0.7, innerGamma: 0.05),
            ]
            let angle = Double.random(in: 0..<6.28, using: &random)
            let scale = Double.random(in: 0.4...3, using: &random)
            let inverse = Transform(
                a: cos(angle) / scale, b: -sin(angle) / scale, c: sin(angle) / scale, d: cos(angle) / scale,
                tx: Double.random(in: -5...5, using: &random), ty: Double.random(in: -5...5, using: &random))
            let source = Rect(x: -1, y: -1, width: Double(width) + 2, height: Double(height) + 2)
            for shading in shadings {
                for linear in [true, false] {
                    let a = ImageQuad(
                        texture: plain, inverse: inverse, source: source, linear: linear, shading: shading)
                    let b = ImageQuad(
                        texture: separate, inverse: inverse, source: source, linear: linear, shading: shading)
                    for y in 0..<40 {
                        for x in 0..<40 {
                            let (px, py) = (Double(x) - 10 + 0.5, Double(y) - 10 + 0.5)
                            #expect(a.shade(px, py) == b.shade(px, py), "\(shading) at \(x), \(y)")
                        }
                    }
                }
            }
        }
    }

    /// Blends the fragment shader of the quad `addQuad` makes of `texture` into `words` (a `size`-square image), pixel
    /// by pixel: device pixels to texels as addQuad inverts the transform (the context's is the identity).
    func shade(
        _ texture: Texture, source: Rect, transform m: Transform, shading: QuadShading, over words: inout [UInt32],
        size: Int
    ) {
        let det = m.a * m.d - m.b * m.c
        let (ia, ib, ic, id) = (m.d / det, -m.b / det, -m.c / det, m.a / det)
        let inverse = Transform(a: ia, b: ib, c: ic, d: id, tx: -(ia * m.tx + ic * m.ty), ty: -(ib * m.tx + id * m.ty))
        let quad = ImageQuad(texture: texture, inverse: inverse, source: source, linear: true, shading: shading)
        for y in 0..<size {
            for x in 0..<size {
                guard let s = quad.shade(Double(x) + 0.5, Double(y) + 0.5) else { continue }
                words[y * size + x] = PixelBuffer.blend(words[y * size + x], s, coverage: 1)
            }
        }
    }

    /// A quad's transform: scaled by `scale`, turned by `angle`, moved by a random shift in `shift` each way.
    func placement(scale: Double, angle: Double, shift: ClosedRange<Double>, _ random: inout SplitMix64) -> Transform {
        Transform(
            a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
            tx: Double.random(in: shift, using: &random), ty: Double.random(in: shift, using: &random))
    }

    /// A random distance field with smooth ramps and some plateaus.
    func randomField(_ random: inout SplitMix64) throws -> Texture {
        let width = Int.random(in: 3...28, using: &random)
        let height = Int.random(in: 3...28, using: &random)
        let radius = Double.random(in: 1...Double(max(width, height)), using: &random)
        let bitmap = (0..<width * height).map { i -> UInt8 in
            let dx = Double(i % width) - Double(width) / 2
            let dy = Double(i / width) - Double(height) / 2
            let v: Double = 192 - 24 * ((dx * dx + dy * dy).squareRoot() - radius)
            return UInt8(Swift.min(255.0, Swift.max(0.0, v.rounded())))
        }
        return try #require(Texture(distanceField: bitmap, width: width, height: height))
    }

    @Test(
        "glyph quads (a texel of padding around a field whose border falls off), lower edges above, at and below 0")
    func glyphBorderAndLowerEdges() throws {
        var random = SplitMix64(state: 28)
        let size = 48
        // Lower edges (buffer - gamma) from well below 0 (a wide halo: the padding's 0 is drawn) to a fill's.
        let buffers: [Double] = [-0.3, -0.05, 0, 0.02, 0.1, 0.3, 0.5, 0.75, 0.9]
        for trial in 0..<108 {
            let surface = try ImageSurface(width: size, height: size)
            // A glyph's field: 192 on an inner box's edge, falling off by `slope` a texel outside it, over a
            // 3-texel border; zeros on the texture's edge for the steepest.
            let inner = (Int.random(in: 1...14, using: &random), Int.random(in: 1...14, using: &random))
            let (width, height) = (inner.0 + 6, inner.1 + 6)
            let slope = Double.random(in: 20...90, using: &random)
            let bitmap = (0..<width * height).map { i -> UInt8 in
                let dx = max(3 - Double(i % width), Double(i % width) - Double(inner.0 + 2), 0)
                let dy = max(3 - Double(i / width), Double(i / width) - Double(inner.1 + 2), 0)
                let inside = dx == 0 && dy == 0 ? Double.random(in: 0...60, using: &random) : 0
                return UInt8(
                    Swift.min(255, Swift.max(0, (192 + inside - slope * (dx * dx + dy * dy).squareRoot()).rounded())))
            }
            let texture = try #require(Texture(distanceField: bitmap, width: width, height: height))
            let scale = Double.random(in: 0.4...2.5, using: &random)
            let angle: Double = trial % 3 == 0 ? Double.random(in: 0..<(2 * Double.pi), using: &random) : 0
            let transform = placement(scale: scale, angle: angle, shift: -5...35, &random)
            let buffer = buffers[trial % buffers.count]
            let gamma: Double = trial % 4 == 0 ? 0 : Double.random(in: 0.01...0.2, using: &random)
            let color = Color(red: 0.9, green: 0.3, blue: 0.1, alpha: trial % 2 == 0 ? 1 : 0.6)
            let shading: QuadShading =
                trial % 2 == 0
                ? .signedDistanceHalo(
                    color: color, opacity: 1, buffer: buffer, gamma: gamma, inner: 0.75 + gamma, innerGamma: gamma)
                : .signedDistance(color: color, opacity: 0.9, buffer: buffer, gamma: gamma)
            // The glyph's bitmap and a texel of padding, as SDFText makes its quads.
            let source = Rect(x: -1, y: -1, width: Double(width) + 2, height: Double(height) + 2)
            var expected = words(surface)
            shade(texture, source: source, transform: transform, shading: shading, over: &expected, size: size)
            let context = try GraphicsContext(surface: surface)
            let rasterizer = context.makeRasterizer()
            rasterizer.addQuad(texture, source: source, transform: transform, linear: true, shading: shading)
            context.draw(rasterizer)
            let differing = zip(words(surface), expected).filter { $0 != $1 }.count
            #expect(differing == 0, "trial \(trial): lower edge \(buffer - gamma), \(differing) pixels differ")
        }
    }

    @Test("halos then fills of glyphs, turned and not, in one rasterizer = each quad shaded in turn")
    func halosThenFills() throws {
        var random = SplitMix64(state: 27)
        let size = 64
        for trial in 0..<20 {
            let background = [UInt8](repeating: 255, count: size * size * 4)
            let surface = try ImageSurface(premultipliedRGBA: background, width: size, height: size)
            // Glyphs as a label's: each a field, a transform (some turned), a halo and a fill.
            var glyphs: [(texture: Texture, transform: Transform, source: Rect)] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let texture = try randomField(&random)
                let scale = Double.random(in: 0.5...2.5, using: &random)
                let angle: Double = Bool.random(using: &random) ? Double.random(in: 0..<6.28, using: &random) : 0
                glyphs.append(
                    (
                        texture,
                        Transform(
                            a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                            tx: Double.random(in: -5...50, using: &random),
                            ty: Double.random(in: -5...50, using: &random)),
                        Rect(x: 0, y: 0, width: Double(texture.width), height: Double(texture.height))
                    ))
            }
            let halo = QuadShading.signedDistanceHalo(
                color: Color(red: 1, green: 1, blue: 1, alpha: 0.9), opacity: 1, buffer: 0.45, gamma: 0.1, inner: 0.75,
                innerGamma: 0.1)
            let fill = QuadShading.signedDistance(
                color: Color(red: 0.2, green: 0.1, blue: 0, alpha: 1), opacity: 0.95, buffer: 0.75, gamma: 0.1)
            // The halos (the first glyph has none), then the fills (the second has none; the third's is moved by a
            // hair from its halo).
            var quads: [(glyph: Int, transform: Transform, shading: QuadShading)] = []
            for (i, glyph) in glyphs.enumerated() where i != 0 { quads.append((i, glyph.transform, halo)) }
            for (i, glyph) in glyphs.enumerated() where i != 1 {
                var transform = glyph.transform
                if i == 2 { transform.tx += 1e-9 }
                quads.append((i, transform, fill))
            }
            var expected = words(surface)
            for q in quads {
                shade(
                    glyphs[q.glyph].texture, source: glyphs[q.glyph].source, transform: q.transform,
                    shading: q.shading, over: &expected, size: size)
            }
            let context = try GraphicsContext(surface: surface)
            let rasterizer = context.makeRasterizer()
            for q in quads {
                rasterizer.addQuad(
                    glyphs[q.glyph].texture, source: glyphs[q.glyph].source, transform: q.transform, linear: true,
                    shading: q.shading)
            }
            context.draw(rasterizer)
            let differing = zip(words(surface), expected).filter { $0 != $1 }.count
            #expect(differing == 0, "trial \(trial): \(differing) pixels differ")
        }
    }

    @Test(
        "the eight-lane kernel (AVX2) blends the same words as the four-lane painter, row lengths 1-37",
        .enabled(if: Rasterizer.DistanceFieldPainter.wideKernel, "this CPU has no AVX2"))
    func wideKernelMatchesPainter() {
        var random = SplitMix64(state: 2026)
        var compared = 0
        var changed = 0
        for trial in 0..<400 {
            let color = Color(
                red: Double.random(in: 0...1, using: &random), green: Double.random(in: 0...1, using: &random),
                blue: Double.random(in: 0...1, using: &random),
                alpha: trial % 3 == 0 ? 1 : Double.random(in: 0...1, using: &random))
            let opacity: Double = trial % 4 == 0 ? 1 : Double.random(in: 0...1, using: &random)
            let buffer = Double.random(in: 0...1, using: &random)
            // A zero gamma (equal edges) and a halo whose fill edges are equal or reversed, now and then.
            let gamma: Double = trial % 9 == 0 ? 0 : Double.random(in: 0...0.3, using: &random)
            let inner: (Double, Double)? =
                trial % 2 == 0
                ? nil
                : (
                    buffer + Double.random(in: -0.2...0.4, using: &random),
                    trial % 11 == 1 ? 0 : Double.random(in: -0.05...0.2, using: &random)
                )
            let painter = Rasterizer.DistanceFieldPainter(
                Rasterizer.DistanceFieldShading(
                    color: color, opacity: opacity, buffer: buffer, gamma: gamma, inner: inner))
            let count = 1 + trial % 37
            // Field values around the edges, below and above them, and the -infinity of a pixel outside a quad.
            let field = (0..<count).map { i -> Float in
                switch (trial + i) % 13 {
                case 0: return -.infinity
                case 1: return Float(buffer)
                case 2: return Float(buffer + gamma)
                default: return Float.random(in: -0.2...1.2, using: &random)
                }
            }
            // Premultiplied words, with a word before and after the row that neither may touch.
            let words = (0..<count + 2).map { _ -> UInt32 in
                let alpha = trial % 5 == 0 ? 255 : UInt32.random(in: 0...255, using: &random)
                return alpha << 24 | UInt32.random(in: 0...alpha, using: &random) << 16
                    | UInt32.random(in: 0...alpha, using: &random) << 8 | UInt32.random(in: 0...alpha, using: &random)
            }
            var narrow = words
            var wide = words
            field.withUnsafeBufferPointer { field in
                narrow.withUnsafeMutableBytes { row in
                    painter.shadeRow(field.baseAddress!, count: count, row: row.baseAddress!, first: 1, wide: false)
                }
                wide.withUnsafeMutableBytes { row in
                    painter.shadeRow(field.baseAddress!, count: count, row: row.baseAddress!, first: 1, wide: true)
                }
            }
            #expect(wide == narrow, "trial \(trial)")
            if narrow != words { changed += 1 }
            #expect(wide.first == words.first && wide.last == words.last, "trial \(trial): a word outside the row")
            compared += 1
        }
        #expect(compared == 400)
        #expect(changed > 200, "most rows draw something: \(changed)")
    }

    @Test(
        "the eight-lane upright sampler (AVX2) gives the same field values as column by column, row lengths 1-60",
        .enabled(if: Rasterizer.DistanceFieldPainter.wideKernel, "this CPU has no AVX2"))
    func wideUprightSamplerMatches() {
        var random = SplitMix64(state: 88)
        var differing = 0
        for trial in 0..<500 {
            let width = Int.random(in: 1...40, using: &random)
            let rows = (0..<2).map { _ in (0..<width).map { _ in Float.random(in: -0.5...1.5, using: &random) } }
            let count = 1 + trial % 60
            // Columns as an upright quad has them: u grows or falls by the scale's inverse from column to column,
            // the texels clamped into the row and a texel outside weighing 0 (minified quads reach past 16 texels
            // in eight columns, and take the columns one by one).
            let step = Double.random(in: 0.2...3.5, using: &random) * (trial % 2 == 0 ? 1 : -1)
            let start = Double.random(in: -3...Double(width) + 3, using: &random)
            var first = [Int32](repeating: 0, count: count)
            var second = [Int32](repeating: 0, count: count)
            var weightFirst = [Float](repeating: 0, count: count)
            var weightSecond = [Float](repeating: 0, count: count)
            for k in 0..<count {
                let cu = start + step * Double(k)
                let i = Int(cu.rounded(.down))
                let f = Float(cu - Double(i))
                first[k] = Int32(min(max(i, 0), width - 1))
                second[k] = Int32(min(max(i + 1, 0), width - 1))
                weightFirst[k] = i >= 0 && i < width ? 1 - f : 0
                weightSecond[k] = i + 1 >= 0 && i + 1 < width ? f : 0
            }
            let top = Float.random(in: 0...1, using: &random)
            var narrow = [Float](repeating: .nan, count: count)
            var wide = [Float](repeating: .nan, count: count)
            rows[0].withUnsafeBufferPointer { upper in
                rows[1].withUnsafeBufferPointer { lower in
                    first.withUnsafeMutableBufferPointer { first in
                        second.withUnsafeMutableBufferPointer { second in
                            weightFirst.withUnsafeMutableBufferPointer { weightFirst in
                                weightSecond.withUnsafeMutableBufferPointer { weightSecond in
                                    let columns = Rasterizer.DistanceFieldColumns(
                                        first: first.baseAddress!, second: second.baseAddress!,
                                        weightFirst: weightFirst.baseAddress!, weightSecond: weightSecond.baseAddress!)
                                    for (isWide, out) in [(false, 0), (true, 1)] {
                                        var field = [Float](repeating: .nan, count: count)
                                        field.withUnsafeMutableBufferPointer { field in
                                            Rasterizer.sampleRow(
                                                upper.baseAddress!, lower.baseAddress!, width: width, weightTop: top,
                                                weightBottom: 1 - top, columns: columns, count: count,
                                                into: field.baseAddress!, wide: isWide)
                                        }
                                        if out == 0 { narrow = field } else { wide = field }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if narrow.map(\.bitPattern) != wide.map(\.bitPattern) { differing += 1 }
        }
        #expect(differing == 0, "\(differing) of 500 rows differ")
    }

    @Test(
        "the four-lane turned-quad sampler (AVX2) gives the same field values as the one by one, -infinity outside",
        .enabled(if: Rasterizer.DistanceFieldPainter.wideKernel, "this CPU has no AVX2"))
    func wideTurnedSamplerMatches() {
        var random = SplitMix64(state: 89)
        var differing = 0
        var outside = 0
        var inside = 0
        for trial in 0..<400 {
            let width = Int.random(in: 1...30, using: &random)
            let height = Int.random(in: 1...30, using: &random)
            let alphas = (0..<width * height).map { _ in Float.random(in: -0.5...1.5, using: &random) }
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
            let scale = Double.random(in: 0.3...3, using: &random)
            let left = Double.random(in: -1...1, using: &random)
            let top = Double.random(in: -1...1, using: &random)
            let epsilon = 1e-7
            let count = 1 + trial % 61
            let x0 = Int64.random(in: -40...40, using: &random)
            let y = Double(Int.random(in: -40...40, using: &random)) + 0.5
            // The row's middle maps near the texture's centre (the row crosses the quad, or passes it by).
            let (a, b, c, d) = (cos(angle) / scale, -sin(angle) / scale, sin(angle) / scale, cos(angle) / scale)
            let middle = Double(x0) + Double(count) / 2
            let u = left + Double(width) / 2 + Double.random(in: -8...8, using: &random)
            let v = top + Double(height) / 2 + Double.random(in: -8...8, using: &random)
            var quad = mapraster_sdf_affine(
                a: a, b: b, c: c, d: d, tx: u - (a * middle + c * y), ty: v - (b * middle + d * y),
                min_u: left - epsilon, max_u: left + Double(width) - epsilon, min_v: top - epsilon,
                max_v: top + Double(height) - epsilon, width: Int64(width), height: Int64(height))
            var narrow = [Float](repeating: .nan, count: count)
            var wide = [Float](repeating: .nan, count: count)
            alphas.withUnsafeBufferPointer { alphas in
                mapraster_sdf_sample_affine_row(&quad, alphas.baseAddress!, x0, y, Int64(count), &narrow)
                mapraster_sdf_sample_affine_row_avx2(&quad, alphas.baseAddress!, x0, y, Int64(count), &wide)
            }
            if narrow.map(\.bitPattern) != wide.map(\.bitPattern) { differing += 1 }
            outside += narrow.filter { $0 == -.infinity }.count
            inside += narrow.filter { $0 != -.infinity }.count
        }
        #expect(differing == 0, "\(differing) of 400 rows differ")
        #expect(outside > 1000 && inside > 1000, "columns outside \(outside), inside \(inside)")
    }
}
