/// Where MapLibre Native's `fill_pattern` shader samples a pattern at a pixel, and how its atlas pads it.
///
/// MapLibre measures a fragment's pattern coordinate from the corner of the tile it is drawn with: the
/// vertex shader's `get_pattern_pos` gives `(tile_units_to_pixels * pos + offset) / pattern_size`, `pos` the
/// tile units from the tile's corner and `offset` the corner's world pixel modulo the pattern size, so that
/// the copies line up from tile to tile. The coordinate reaches the fragment shader as a `mediump` varying
/// (`precision mediump float`), which Mesa's llvmpipe (the peer MapLibre Native runs on here, as mobile GPUs
/// do) keeps at half precision: the coordinate is rounded to the nearest binary16 value before its fraction
/// picks the texel. Far from the tile's corner the fraction loses its low bits: a pattern of 1 x 3 pixels in
/// an overscaled z14 tile seen at z16 (2048 pixels per tile) has its coordinate within 1024..2048 copies
/// rounded to whole copies across and to half copies down (2048 / 3 = 683 copies), so the texture unit
/// samples between texels instead of at their centres.
struct PatternPhase {
    /// A copy's top-left corner and one over its size, device pixels.
    let x0, y0, inverseWidth, inverseHeight: Double
    /// One cell of the tile grid the coordinate counts from (device pixels); a zero size counts from the
    /// copy's corner at full precision.
    let gridX, gridY, gridWidth, gridHeight: Double

    /// The fractions of a copy (0..<1 across and down) sampled at device point (`x`, `y`).
    @inline(__always)
    func fractions(_ x: Double, _ y: Double) -> (Float, Float) {
        (
            Self.fraction(x, origin: x0, inverseSize: inverseWidth, grid: gridX, cell: gridWidth),
            Self.fraction(y, origin: y0, inverseSize: inverseHeight, grid: gridY, cell: gridHeight)
        )
    }

    /// One axis of ``fractions(_:_:)``: the coordinate from the cell's corner plus the corner's own phase,
    /// rounded to binary16 (through Float, as the GPU interpolates it), its fraction taken. Exact where
    /// binary16 overflows (a coordinate over 65504 copies) or without a grid.
    @inline(__always)
    static func fraction(_ p: Double, origin: Double, inverseSize: Double, grid: Double, cell: Double) -> Float {
        let exact = (p - origin) * inverseSize
        guard cell > 0 else { return Float(exact - exact.rounded(.down)) }
        let corner = grid + ((p - grid) / cell).rounded(.down) * cell
        let phase = (corner - origin) * inverseSize
        let f = roundedToBinary16(Float((p - corner) * inverseSize + (phase - phase.rounded(.down))))
        guard f.isFinite else { return Float(exact - exact.rounded(.down)) }
        return f - f.rounded(.down)
    }

    /// `x` rounded to the nearest binary16 value (ties to even) and back: `Float(Float16(x))`, with the
    /// normal range done by rounding the significand's bits in place (this machine has no binary16
    /// instructions, and the library call costs more than the rest of a pattern's pixel).
    @inline(__always)
    static func roundedToBinary16(_ x: Float) -> Float {
        let magnitude = abs(x)
        if magnitude >= 0x1p-14, magnitude < 65520 {
            // 23 significand bits to 10: add just under half of the dropped part, plus the kept part's
            // lowest bit (ties to even), then clear the dropped bits; a carry moves into the exponent.
            let bits = x.bitPattern
            return Float(bitPattern: (bits &+ 0xFFF &+ ((bits >> 13) & 1)) & ~UInt32(0x1FFF))
        }
        if magnitude >= 65520 { return x < 0 ? -.infinity : .infinity }
        return Float(Float16(x))
    }
}

extension Texture {
    /// The pattern at fractions `fu`, `fv` of a copy, as MapLibre's texture unit samples its image atlas
    /// (bilinear): the atlas pads each pattern with one pixel of its opposite edges (the rows above and below,
    /// the columns left and right) and leaves the four corner pixels transparent, so a lookup in a copy's
    /// corner mixes in transparency.
    @inline(__always)
    func samplePattern(_ fu: Float, _ fv: Float) -> SIMD4<Float> {
        let cx = fu * Float(width) - 0.5
        let cy = fv * Float(height) - 0.5
        let x = TexelAxis.linear(cx, count: width, wrap: .repeat)
        let y = TexelAxis.linear(cy, count: height, wrap: .repeat)
        // Which of the two texels on an axis is the padding (-1: none).
        let padX = cx < 0 ? 0 : (cx >= Float(width - 1) ? 1 : -1)
        let padY = cy < 0 ? 0 : (cy >= Float(height - 1) ? 1 : -1)
        guard padX >= 0, padY >= 0 else { return sample(x, y) }
        var t00 = texel(x.first, y.first)
        var t10 = texel(x.second, y.first)
        var t01 = texel(x.first, y.second)
        var t11 = texel(x.second, y.second)
        switch (padX, padY) {
        case (0, 0): t00 = .zero
        case (1, 0): t10 = .zero
        case (0, 1): t01 = .zero
        default: t11 = .zero
        }
        let top = t00 * (1 - x.fraction) + t10 * x.fraction
        let bottom = t01 * (1 - x.fraction) + t11 * x.fraction
        return top * (1 - y.fraction) + bottom * y.fraction
    }
}
