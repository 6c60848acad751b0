/// The triangle coverage loop: which pixel centres a triangle covers (edge functions, a shared edge
/// belonging to one side only), and for each, the fragment stage and the blend.
extension Rasterizer {
    /// How far a row's span of columns to test reaches past where its edge functions cross zero (pixels):
    /// the crossing is computed as x - b / a, whose error (a few ulps of the distance from the triangle's
    /// corner, under 1e-9 pixel for any image) is far below this, so no pixel the exact test takes is left
    /// out; and a thin line's row tests its few covered pixels, not one more either side.
    static let spanMargin = 1.0 / 1024

    /// The first and last columns and rows (relative to `origin`) whose pixel centres a triangle at `a`,
    /// `b`, `c` (relative to `origin`) may cover within `limit` and the `size` box.
    @inline(__always)
    static func pixelBox(
        _ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double),
        limit: (x0: Int, x1: Int, y0: Int, y1: Int), origin: (Int, Int), size: (Int, Int)
    ) -> (xStart: Int, xEnd: Int, yStart: Int, yEnd: Int) {
        // The clip's limits, relative to the origin (saturating: unclipped limits are Int.min/max).
        let lx0 = limit.x0 == Int.min ? 0 : limit.x0 - origin.0
        let lx1 = limit.x1 == Int.max ? size.0 : limit.x1 - origin.0
        let ly0 = limit.y0 == Int.min ? 0 : limit.y0 - origin.1
        let ly1 = limit.y1 == Int.max ? size.1 : limit.y1 - origin.1
        return (
            max(max(0, lx0), ceilToInt(min(min(a.0, b.0), c.0) - 0.5)),
            min(min(size.0 - 1, lx1 - 1), floorToInt(max(max(a.0, b.0), c.0) - 0.5)),
            max(max(0, ly0), ceilToInt(min(min(a.1, b.1), c.1) - 0.5)),
            min(min(size.1 - 1, ly1 - 1), floorToInt(max(max(a.1, b.1), c.1) - 0.5))
        )
    }

    /// Rasterizes the triangles `range` of `triangles` (four indices each: a, b, c, command) with `shader`,
    /// the fragment of their command.
    static func rasterize<S: FragmentShader>(
        _ triangles: UnsafeBufferPointer<Int32>, _ range: Range<Int>, shader: S, command: Command,
        vertices: Vertices, origin: (Int, Int), size: (Int, Int), pixels: PixelBuffer
    ) {
        var t = range.lowerBound
        while t + 3 < range.upperBound {
            rasterizeTriangle(
                Int(triangles[t]), Int(triangles[t + 1]), Int(triangles[t + 2]), shader: shader,
                coverage: command.coverage, period: command.period, limit: command.limit, vertices: vertices,
                origin: origin, size: size, pixels: pixels)
            t += 4
        }
    }

    @inline(__always)
    static func rasterizeTriangle<S: FragmentShader>(
        _ ia: Int, _ ib: Int, _ ic: Int, shader: S, coverage lineCoverage: LineCoverage, period: Double,
        limit: (x0: Int, x1: Int, y0: Int, y1: Int), vertices: Vertices, origin: (Int, Int), size: (Int, Int),
        pixels: PixelBuffer
    ) {
        let positions = vertices.positions
        let normals = vertices.normals
        let progress = vertices.progress
        let distances = vertices.distances
        let ax0 = positions[2 * ia] - Double(origin.0)
        let ay0 = positions[2 * ia + 1] - Double(origin.1)
        let bx0 = positions[2 * ib] - Double(origin.0)
        let by0 = positions[2 * ib + 1] - Double(origin.1)
        let cx = positions[2 * ic] - Double(origin.0)
        let cy = positions[2 * ic + 1] - Double(origin.1)
        let na0 = (normals[2 * ia], normals[2 * ia + 1], progress[ia])
        let nb0 = (normals[2 * ib], normals[2 * ib + 1], progress[ib])
        let nc = (normals[2 * ic], normals[2 * ic + 1], progress[ic])
        // The distance attribute in repeats (dashes, patterns) at each vertex; relative to the triangle's
        // first vertex so that long lines keep their precision.
        var da0: Float = 0
        var db0: Float = 0
        var dc: Float = 0
        if period > 0 {
            let ua = distances[ia] / period
            let dashBase = ua.rounded(.down)
            da0 = Float(ua - dashBase)
            db0 = Float(distances[ib] / period - dashBase)
            dc = Float(distances[ic] / period - dashBase)
        }
        let signedArea = (bx0 - ax0) * (cy - ay0) - (by0 - ay0) * (cx - ax0)
        guard signedArea != 0, signedArea.isFinite else { return }
        // Counter-clockwise: a and b swapped when the triangle winds the other way. Constants from here on
        // (the shaders below capture them; a captured variable would be checked for exclusive access).
        let flip = signedArea < 0
        let (ax, ay, bx, by) = flip ? (bx0, by0, ax0, ay0) : (ax0, ay0, bx0, by0)
        let (na, nb) = flip ? (nb0, na0) : (na0, nb0)
        let (da, db) = flip ? (db0, da0) : (da0, db0)
        let dc2 = dc
        let perspectives = vertices.perspectives
        let (pa0, pb0, pc) = (perspectives[ia], perspectives[ib], perspectives[ic])
        let (pa, pb) = flip ? (pb0, pa0) : (pa0, pb0)
        let area = abs(signedArea)
        let (xStart, xEnd, yStart, yEnd) = pixelBox(
            (ax, ay), (bx, by), (cx, cy), limit: limit, origin: origin, size: size)
        guard xStart <= xEnd, yStart <= yEnd else { return }
        // Edge functions (positive inside): w0(px, py) = e0x * (py - by) - e0y * (px - bx) and so on. A
        // pixel centre exactly on an edge belongs to the triangle on one side only (the edge's direction
        // decides), so triangles sharing an edge never both draw it.
        let e0x = cx - bx  // edge b -> c, weight of a
        let e0y = cy - by
        let e1x = ax - cx  // edge c -> a, weight of b
        let e1y = ay - cy
        let e2x = bx - ax  // edge a -> b, weight of c
        let e2y = by - ay
        // A pixel is inside when w > t for each edge: t is 0, or for an edge that includes its own pixels
        // the negative number closest to 0 (w >= 0 exactly: no double lies between the two).
        let t0 = e0y < 0 || (e0y == 0 && e0x > 0) ? -Double.leastNonzeroMagnitude : 0
        let t1 = e1y < 0 || (e1y == 0 && e1x > 0) ? -Double.leastNonzeroMagnitude : 0
        let t2 = e2y < 0 || (e2y == 0 && e2x > 0) ? -Double.leastNonzeroMagnitude : 0
        let inverse = 1 / area
        let outset = lineCoverage.outset
        let inverseRamp = 1 / lineCoverage.ramp
        let rampStart = lineCoverage.inset - lineCoverage.ramp
        let inverse0 = 1 / -e0y
        let inverse1 = 1 / -e1y
        let inverse2 = 1 / -e2y
        // The row `y`'s pixel pointer, its terms of the edge functions and the columns that may be inside.
        @inline(__always) func span(_ y: Int) -> (
            row: UnsafeMutableRawPointer, r0: Double, r1: Double, r2: Double, first: Int, last: Int
        )? {
            let py = Double(y) + 0.5
            // Column x, row y of the box (all within the pixel memory: see rasterize).
            let row = pixels.row(y)
            let r0 = e0x * (py - by)
            let r1 = e1x * (py - cy)
            let r2 = e2x * (py - ay)
            // Each edge function is linear in x along a row: the span where all three are positive,
            // widened by ``spanMargin`` either side (the exact test below decides), so that the work is the
            // covered pixels.
            var lo = Double(xStart)
            var hi = Double(xEnd)
            @inline(__always) func narrow(_ a: Double, _ inverse: Double, _ x: Double, _ b: Double) {
                // w(px) = b + a * (px - x), zero at x - b / a (times the inverse: an error of an ulp or so,
                // far inside the margin)
                if a > 0 {
                    lo = max(lo, x - b * inverse - 0.5 - Self.spanMargin)
                } else if a < 0 {
                    hi = min(hi, x - b * inverse - 0.5 + Self.spanMargin)
                } else if b < 0 {
                    hi = lo - 1
                }
            }
            narrow(-e0y, inverse0, bx, r0)
            narrow(-e1y, inverse1, cx, r1)
            narrow(-e2y, inverse2, ax, r2)
            guard lo <= hi, lo.isFinite, hi.isFinite else { return nil }
            // lo and hi lie within xStart...xEnd (never negative): truncation is the floor.
            let first = max(xStart, Int(lo))
            let last = min(xEnd, ceilToInt(hi))
            guard first <= last else { return nil }
            return (row, r0, r1, r2, first, last)
        }
        if let source = shader.plainColor {
            // The common case, a plain colour, written out so that it does the least work per pixel. A pixel
            // fully covered by an opaque colour takes the colour whatever was below (the blend's `keep` is 0),
            // so its word is computed once.
            let opaque = source.w == 1
            let opaqueWord = PixelBuffer.blend(0, source, coverage: 1)
            // Four pixels at a time: each lane does the scalar arithmetic, operation for operation (the same
            // IEEE results, so the same pixels as one at a time).
            let lanes = SIMD4<Double>(0.5, 1.5, 2.5, 3.5)
            for y in yStart...yEnd {
                guard let (row, r0, r1, r2, first, last) = span(y) else { continue }
                var x = first
                while x <= last {
                    let px = SIMD4<Double>(repeating: Double(x)) + lanes
                    let w0 = r0 - e0y * (px - bx)
                    let w1 = r1 - e1y * (px - cx)
                    let w2 = r2 - e2y * (px - ax)
                    let inside = (w0 .> t0) .& (w1 .> t1) .& (w2 .> t2)
                    guard any(inside) else {
                        x += 4
                        continue
                    }
                    let l0 = SIMD4<Float>(w0 * inverse)
                    let l1 = SIMD4<Float>(w1 * inverse)
                    let l2 = 1 - l0 - l1
                    let nx = l0 * na.0 + l1 * nb.0 + l2 * nc.0
                    let ny = l0 * na.1 + l1 * nb.1 + l2 * nc.1
                    let dist = (nx * nx + ny * ny).squareRoot() * outset
                    // min(max(min(a, b) * inverseRamp, 0), 1) as the scalar min and max choose (Swift.min(x, y)
                    // is y < x ? y : x; Swift.max(x, y) is y >= x ? y : x), lane by lane without a call.
                    let a = dist - rampStart
                    let b = outset - dist
                    var coverages = a.replacing(with: b, where: b .< a) * inverseRamp
                    coverages.replace(with: 0, where: 0 .>= coverages)
                    coverages.replace(with: 1, where: 1 .< coverages)
                    if x + 3 <= last {
                        // Four columns of the row: blended together, lane by lane as `blend` does (a covered
                        // opaque pixel's blend is `opaqueWord`: nothing of the word below is kept); pixels not
                        // covered are written back unchanged. NaN coverage (degenerate normals) draws nothing.
                        let insideLanes = SIMD4<Int32>(
                            truncatingIfNeeded: SIMD4<Int64>(repeating: 0).replacing(with: 1, where: inside))
                        let covered = (insideLanes .!= 0) .& (coverages .> 0)
                        if any(covered) {
                            let offset = x * 4
                            let words = row.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                            let blended = PixelBuffer.blend(words, source, coverage: coverages)
                            row.storeBytes(
                                of: words.replacing(with: blended, where: covered), toByteOffset: offset,
                                as: SIMD4<UInt32>.self)
                        }
                        x += 4
                        continue
                    }
                    for lane in 0..<min(4, last - x + 1) where inside[lane] {
                        let coverage = coverages[lane]
                        // A NaN distance (degenerate normals) draws nothing, as in the scalar formula.
                        guard coverage > 0, !dist[lane].isNaN else { continue }
                        let offset = (x + lane) * 4
                        if coverage == 1 && opaque {
                            row.storeBytes(of: opaqueWord, toByteOffset: offset, as: UInt32.self)
                            continue
                        }
                        let word = row.load(fromByteOffset: offset, as: UInt32.self)
                        row.storeBytes(
                            of: PixelBuffer.blend(word, source, coverage: coverage), toByteOffset: offset,
                            as: UInt32.self)
                    }
                    x += 4
                }
            }
            return
        }
        // Every other fragment: each pixel inside, with its barycentric weights of a and b, shaded by the
        // fragment's shader.
        let triangle = TriangleAttributes(
            na: na, nb: nb, nc: nc, da: da, db: db, dc: dc2, inverse: inverse, outset: outset,
            inverseRamp: inverseRamp, rampStart: rampStart,
            perspective: pa == pb && pb == pc ? nil : (pa, pb, pc))
        for y in yStart...yEnd {
            guard let (row, r0, r1, r2, first, last) = span(y) else { continue }
            for x in first...last {
                let px = Double(x) + 0.5
                let w0 = r0 - e0y * (px - bx)
                let w1 = r1 - e1y * (px - cx)
                let w2 = r2 - e2y * (px - ax)
                guard w0 > t0, w1 > t1, w2 > t2,
                    let (source, coverage) = shader.shade(
                        FragmentInput(
                            x: Double(x + origin.0) + 0.5, y: Double(y + origin.1) + 0.5, w0: w0, w1: w1,
                            triangle: triangle))
                else { continue }
                let offset = x * 4
                let word = row.load(fromByteOffset: offset, as: UInt32.self)
                row.storeBytes(
                    of: PixelBuffer.blend(word, source, coverage: coverage), toByteOffset: offset, as: UInt32.self)
            }
        }
    }
}
