/// The rasterizer's framebuffer: premultiplied 8-bit pixels in Cairo's ARGB32 words (alpha in the high
/// byte), row by row `stride` bytes apart, as a Cairo image surface holds them.
///
/// Column 0, row 0 of the memory is the device pixel `origin`; ``blend(_:_:coverage:)`` is the one way the
/// rasterizer writes a pixel: premultiplied source over the pixel, rounded to 8 bits after every blend as
/// a GPU's framebuffer rounds.
struct PixelBuffer {
    /// The first byte of column 0, row 0.
    let base: UnsafeMutableRawPointer
    /// Bytes from one row to the next.
    let stride: Int
    /// The device pixel at column 0, row 0 of the memory.
    let origin: (x: Int, y: Int)

    /// The row of device pixel row `y`, indexed by device column times 4 (see ``blend(_:_:coverage:)``).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutableRawPointer {
        base.advanced(by: (y - origin.y) * stride - 4 * origin.x)
    }

    /// `source` (premultiplied, 0...1) over the pixel `word` with `coverage`, rounded to 8 bits as a GPU's
    /// framebuffer does.
    @inline(__always)
    static func blend(_ word: UInt32, _ source: SIMD4<Float>, coverage: Float) -> UInt32 {
        let keep = 1 - source.w * coverage
        @inline(__always) func channel(_ src: Float, _ shift: UInt32) -> UInt32 {
            let d = Float((word >> shift) & 0xFF)
            let v = min(max(src * coverage * 255 + d * keep, 0), 255)
            // Rounded half away from zero without a call to roundf: adding 1.5 * 2^23 leaves the
            // nearest integer (ties to even) in the low mantissa bits; a tie rounded down to even is
            // moved up (v - n is exact). Checked against rounded() on every Float in 0...255.
            var n = (v + 12_582_912).bitPattern & 0x3F_FFFF
            if v - Float(n) == 0.5 { n &+= 1 }
            return n << shift
        }
        return channel(source.w, 24) | channel(source.x, 16) | channel(source.y, 8) | channel(source.z, 0)
    }

    /// ``blend(_:_:coverage:)`` of four pixels at once: the same operations in each lane, so the same words.
    @inline(__always)
    static func blend(_ words: SIMD4<UInt32>, _ source: SIMD4<Float>, coverage: SIMD4<Float>) -> SIMD4<UInt32> {
        blend(
            words, alpha: source.w * coverage, red: source.x * coverage, green: source.y * coverage,
            blue: source.z * coverage)
    }

    /// Four pixels each blended with a source of its own, its channels (premultiplied, 0...1) already
    /// multiplied by its coverage: lane by lane the operations of ``blend(_:_:coverage:)``, so the same words.
    @inline(__always)
    static func blend(
        _ words: SIMD4<UInt32>, alpha: SIMD4<Float>, red: SIMD4<Float>, green: SIMD4<Float>, blue: SIMD4<Float>
    ) -> SIMD4<UInt32> {
        let keep = 1 - alpha
        @inline(__always) func channel(_ src: SIMD4<Float>, _ shift: UInt32) -> SIMD4<UInt32> {
            let d = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: (words &>> shift) & 0xFF))
            var v = src * 255 + d * keep
            v.replace(with: 0, where: 0 .>= v)
            v.replace(with: 255, where: 255 .< v)
            var n = unsafeBitCast(v + 12_582_912, to: SIMD4<UInt32>.self) & 0x3F_FFFF
            n &+= SIMD4<UInt32>(repeating: 1).replacing(
                with: 0, where: v - SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: n)) .!= 0.5)
            return n &<< shift
        }
        return channel(alpha, 24) | channel(red, 16) | channel(green, 8) | channel(blue, 0)
    }
}

/// `v.rounded(.up)` as an Int, clamped to +-1e15, without a call to libm (v not NaN).
@inline(__always)
func ceilToInt(_ v: Double) -> Int {
    let c = min(max(v, -1e15), 1e15)
    let t = Int(c)
    return Double(t) < c ? t + 1 : t
}

/// `v.rounded(.down)` as an Int, clamped to +-1e15, without a call to libm (v not NaN).
@inline(__always)
func floorToInt(_ v: Double) -> Int {
    let c = min(max(v, -1e15), 1e15)
    let t = Int(c)
    return Double(t) > c ? t - 1 : t
}

/// `v.rounded(.down)`, bit for bit, without a call to libm when |v| < 2^23 (larger values are whole).
@inline(__always)
func floorFloat(_ v: Float) -> Float {
    guard abs(v) < 8_388_608 else { return v.rounded(.down) }
    let t = Float(Int32(v))
    return t > v ? t - 1 : (t == v ? v : t)
}

/// GLSL's `smoothstep`: 0 below `edge0`, 1 above `edge1` (either order, as GPUs evaluate it), Hermite in
/// between; a step at `edge0` when the edges are equal. The one smoothstep of every shader here.
@inline(__always)
func smoothstep<T: BinaryFloatingPoint>(_ edge0: T, _ edge1: T, _ x: T) -> T {
    guard edge1 != edge0 else { return x < edge0 ? 0 : 1 }
    let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
    return t * t * (3 - 2 * t)
}
