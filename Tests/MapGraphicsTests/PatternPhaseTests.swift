import Testing

@testable import MapGraphics

/// MapLibre's pattern lookup (``PatternPhase``, ``Texture/samplePattern(_:_:)``) against values worked out by
/// hand from its shader: `(tile_units_to_pixels * pos + offset) / pattern_size` rounded to binary16, its
/// fraction taken, and the atlas's padding (edges wrapped, corners transparent).
@Suite struct PatternPhaseTests {
    /// A 1 x 3 pattern in an overscaled tile of 2048 pixels (z14 seen at z16), grid corner at 0.
    @Test func halfPrecisionFarFromTheCorner() {
        // Across, 1 pixel per copy: 1500.5 copies from the corner; binary16 spacing is 1 within 1024..<2048,
        // 1500.5 is a tie rounded to the even 1500: fraction 0 (the exact lookup would be 0.5).
        let u = PatternPhase.fraction(1500.5, origin: 0, inverseSize: 1, grid: 0, cell: 2048)
        #expect(u == 0)
        #expect(PatternPhase.fraction(1500.5, origin: 0, inverseSize: 1, grid: 0, cell: 0) == 0.5)
        // Down, 3 pixels per copy: 1700.5 / 3 = 566.83 copies; spacing 0.5 within 512..<1024: 567, fraction 0.
        let v = PatternPhase.fraction(1700.5, origin: 0, inverseSize: 1.0 / 3, grid: 0, cell: 2048)
        #expect(v == 0)
        // 1000.5 / 3 = 333.5 copies, spacing 0.25 within 256..<512: exact, fraction 0.5.
        #expect(PatternPhase.fraction(1000.5, origin: 0, inverseSize: 1.0 / 3, grid: 0, cell: 2048) == 0.5)
    }

    /// The second tile's corner (world pixel 2048) carries its own phase, 2048 mod 3 = 2 pixels.
    @Test func cornerPhase() {
        // 1.5 pixels into the tile: (1.5 + 2) / 3 = 1.1667 copies; binary16 spacing 1/1024 within 1..<2:
        // 1195 / 1024 = 1.16699, fraction 0.16699.
        let v = PatternPhase.fraction(2049.5, origin: 0, inverseSize: 1.0 / 3, grid: 0, cell: 2048)
        #expect(abs(v - Float(171.0 / 1024)) < 1e-6)
        // A grid given by another cell's corner (-2048) is the same grid.
        #expect(PatternPhase.fraction(2049.5, origin: 0, inverseSize: 1.0 / 3, grid: -2048, cell: 2048) == v)
        // A copy origin moved by whole copies changes nothing.
        #expect(PatternPhase.fraction(2049.5, origin: 3 * 7, inverseSize: 1.0 / 3, grid: 0, cell: 2048) == v)
    }

    /// Beyond binary16's range (65504) the lookup stays exact rather than failing.
    @Test func overflowFallsBackToExact() {
        let u = PatternPhase.fraction(100_000.25, origin: 0, inverseSize: 1, grid: 0, cell: 1_048_576)
        #expect(u == 0.25)
    }

    /// A 1 x 3 texture, rows opaque red, green, blue, looked up at its top-left corner (fractions 0, 0):
    /// halfway into the padding both ways. Texels: corner (transparent), the top padding row above column 0
    /// (blue, wrapped from the bottom row), the left padding column at row 0 (red), and row 0 (red), each a
    /// quarter: red 0.5, blue 0.25, alpha 0.75.
    @Test func atlasCornersAreTransparent() throws {
        let texture = try Texture(rgba: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255], width: 1, height: 3)
        let c = texture.samplePattern(0, 0)
        #expect(abs(c.x - 0.5) < 1e-6 && abs(c.y) < 1e-6 && abs(c.z - 0.25) < 1e-6 && abs(c.w - 0.75) < 1e-6)
        // Row 1's centre (fraction 0.5 down) at the left edge: no corner, red-free green.
        let g = texture.samplePattern(0, 0.5)
        #expect(abs(g.y - 1) < 1e-6 && abs(g.w - 1) < 1e-6)
    }

    /// The bit-level rounding equals the binary16 conversion: every value near the range's edges and the
    /// ties, and a million pseudo-random bit patterns (fixed seed) of every exponent.
    @Test func roundingMatchesBinary16Conversion() {
        func same(_ x: Float) -> Bool {
            let a = PatternPhase.roundedToBinary16(x)
            let b = Float(Float16(x))
            return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        }
        let edges: [Float] = [
            0, -0, 0x1p-14, 0x1p-15, 0x1.ffcp-15, 65504, 65519.996, 65520, 65536, 1e9, .infinity, -.infinity,
            .nan, 1500.5, 1501.5, 2047.5, -2047.5, 1 + 0x1p-11, 1 + 0x1p-11 + 0x1p-23, 1 + 3 * 0x1p-11,
        ]
        for x in edges { #expect(same(x), "\(x)") }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var mismatches = 0
        for _ in 0..<1_000_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if !same(Float(bitPattern: UInt32(truncatingIfNeeded: state >> 32))) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}
