import Foundation
import MapGeometry

/// The comparison loop: rows in bands on several threads, equal rows skipped with one memory compare,
/// pixels compared four at a time (equal words skipped, the YIQ distance of the rest computed in SIMD
/// lanes), and the anti-aliasing test run only for pixels above the threshold, as pixelmatch does.
///
/// Every pixel's outcome depends only on the two images, so counts and the diff image are the same
/// whatever the number of threads: each band counts its own pixels and writes only its own rows of the
/// diff image, and the bands' integer counts are added in band order.
extension PixelMatch {
    /// The buffers one comparison reads and writes, shared by the threads of one run.
    struct Planes: @unchecked Sendable {
        // Safety: img1, img2 and ignored are only read; out is written by row bands that never overlap,
        // and the run waits for every band before the buffers are released.
        let img1: UnsafePointer<UInt8>
        let img2: UnsafePointer<UInt8>
        let ignored: UnsafePointer<Bool>?
        let out: UnsafeMutablePointer<UInt8>?
        let width: Int
        let height: Int
    }

    /// Rows per band: small enough to balance the threads, large enough that a band is not mostly overhead.
    static let rowsPerBand = 16

    /// The number of threads `threads` asks for: 0 means one per core.
    static func lanes(_ threads: Int) -> Int {
        threads > 0 ? threads : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Compares all rows; the differing and anti-aliased counts.
    static func compareRows(_ planes: Planes, _ options: Options, threads: Int) -> (diff: Int, aa: Int) {
        let bands = (planes.height + rowsPerBand - 1) / rowsPerBand
        let lanes = min(lanes(threads), bands)
        if lanes <= 1 { return compareBand(planes, options, rows: 0..<planes.height) }
        let counts = Locked([(Int, Int)](repeating: (0, 0), count: bands))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var band = lane
            var mine: [(Int, (Int, Int))] = []
            while band < bands {
                let rows = band * rowsPerBand..<min(planes.height, (band + 1) * rowsPerBand)
                mine.append((band, compareBand(planes, options, rows: rows)))
                band += lanes
            }
            counts.withLock { all in for (b, c) in mine { all[b] = c } }
        }
        return counts.withLock { all in all.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) } }
    }

    /// Compares the rows `rows`.
    static func compareBand(_ p: Planes, _ options: Options, rows: Range<Int>) -> (diff: Int, aa: Int) {
        let width = p.width
        let stride = width * 4
        let maxDelta = 35215 * options.threshold * options.threshold
        let img1 = UnsafeBufferPointer(start: p.img1, count: stride * p.height)
        let img2 = UnsafeBufferPointer(start: p.img2, count: stride * p.height)
        var diff = 0
        var aa = 0
        for y in rows {
            let rowStart = y * stride
            if memcmp(p.img1 + rowStart, p.img2 + rowStart, stride) == 0 {
                if p.out != nil { drawSimilar(p, options, from: y * width, to: (y + 1) * width) }
                continue
            }
            var x = 0
            while x < width {
                let index = y * width + x
                let pos = index * 4
                let lanes = min(4, width - x)
                var deltas = SIMD4<Double>(repeating: 0)
                if lanes == 4 {
                    let a = UnsafeRawPointer(p.img1 + pos).loadUnaligned(as: SIMD16<UInt8>.self)
                    let b = UnsafeRawPointer(p.img2 + pos).loadUnaligned(as: SIMD16<UInt8>.self)
                    if a == b {
                        if p.out != nil { drawSimilar(p, options, from: index, to: index + 4) }
                        x += 4
                        continue
                    }
                    deltas = colorDeltas(a, b)
                } else {
                    for lane in 0..<lanes { deltas[lane] = colorDelta(img1, img2, pos + lane * 4, pos + lane * 4) }
                }
                for lane in 0..<lanes {
                    let i = index + lane
                    let k = i * 4
                    if let ignored = p.ignored, ignored[i] {
                        if let out = p.out { drawIgnored(img1, k, options, out) }
                        continue
                    }
                    if deltas[lane] > maxDelta {
                        let px = x + lane
                        if !options.includeAA
                            && (antialiased(img1, px, y, width, p.height, img2)
                                || antialiased(img2, px, y, width, p.height, img1))
                        {
                            aa += 1
                            if let out = p.out, !options.diffMask { draw(out, k, options.aaColor) }
                        } else {
                            diff += 1
                            if let out = p.out {
                                let darker = luma(img1, k) > luma(img2, k)
                                draw(out, k, darker ? (options.diffColorAlt ?? options.diffColor) : options.diffColor)
                            }
                        }
                    } else if let out = p.out, !options.diffMask {
                        drawGray(img1, k, options.alpha, out)
                    }
                }
                x += lanes
            }
        }
        return (diff, aa)
    }

    /// Draws pixels `from..<to` whose colors are equal in both images: grey, or tinted where ignored.
    static func drawSimilar(_ p: Planes, _ options: Options, from: Int, to: Int) {
        guard let out = p.out, !options.diffMask else { return }
        let img1 = UnsafeBufferPointer(start: p.img1, count: to * 4)
        for i in from..<to {
            if let ignored = p.ignored, ignored[i] {
                drawIgnored(img1, i * 4, options, out)
            } else {
                drawGray(img1, i * 4, options.alpha, out)
            }
        }
    }

    /// The squared YIQ distances of four pixels, lane by lane the same arithmetic as ``colorDelta(_:_:_:_:)``
    /// (equal pixels give exactly 0; an opaque pixel's blend over white is exact, so every lane is blended).
    @inline(__always) static func colorDeltas(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD4<Double> {
        @inline(__always) func channel(_ v: SIMD16<UInt8>, _ c: Int) -> SIMD4<Double> {
            SIMD4<Double>(Double(v[c]), Double(v[c + 4]), Double(v[c + 8]), Double(v[c + 12]))
        }
        let a1 = channel(a, 3) / 255
        let a2 = channel(b, 3) / 255
        let r1 = 255 + (channel(a, 0) - 255) * a1
        let g1 = 255 + (channel(a, 1) - 255) * a1
        let b1 = 255 + (channel(a, 2) - 255) * a1
        let r2 = 255 + (channel(b, 0) - 255) * a2
        let g2 = 255 + (channel(b, 1) - 255) * a2
        let b2 = 255 + (channel(b, 2) - 255) * a2
        let y1 = r1 * 0.29889531 + g1 * 0.58662247 + b1 * 0.11448223
        let y2 = r2 * 0.29889531 + g2 * 0.58662247 + b2 * 0.11448223
        let i1 = r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189
        let i2 = r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189
        let q1 = r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694
        let q2 = r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694
        let y = y1 - y2
        let i = i1 - i2
        let q = q1 - q2
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }
}
