/// Signed distance fields of rasterized icons, as MapLibre's SDF icons read them.
///
/// The encoding is spreet's (`--sdf`) and TinySDF's: the coverage (alpha) is turned into squared
/// distances to the edge (a pixel of coverage `a` lies `0.5 - a` pixels outside it, so antialiased edges
/// keep their subpixel position), an exact Euclidean distance transform (Felzenszwalb and Huttenlocher,
/// 2012) runs over the outside and the inside, and the signed distance `d` (pixels, negative inside) is
/// stored as `255 - 255 * (d / radius + cutoff)`, clamped to 0...255: the edge sits at 255 * 0.75 = 191.25
/// (MapLibre's SDF threshold 0.75) and the value falls by 255 / radius per pixel outwards.
///
/// As in TinySDF, a fully covered or empty pixel's distance is measured to the nearest pixel center across
/// the edge, so away from antialiased pixels the field reads up to half a pixel long (checked against a
/// disc's exact distance in `SpriteBuilderTests`); spreet's fields have the same bias (its test icons differ
/// from spreet's own output by 0.8 to 1.7 levels on average, `Scripts/compare-sprites.py --spreet`).
enum SignedDistanceField {
    /// The distance transform's stand-in for infinity (TinySDF's).
    private static let infinity = 1e20

    /// The SDF bytes (one per pixel) of an 8-bit `coverage` image of `width` x `height` pixels.
    static func encode(coverage: [UInt8], width: Int, height: Int, radius: Double, cutoff: Double) -> [UInt8] {
        precondition(coverage.count == width * height && width > 0 && height > 0, "coverage size mismatch")
        var outer = [Double](repeating: 0, count: coverage.count)
        var inner = [Double](repeating: 0, count: coverage.count)
        for i in coverage.indices {
            let a = Double(coverage[i]) / 255
            if a == 1 {
                outer[i] = 0
                inner[i] = infinity
            } else if a == 0 {
                outer[i] = infinity
                inner[i] = 0
            } else {
                let d = 0.5 - a
                outer[i] = d > 0 ? d * d : 0
                inner[i] = d < 0 ? d * d : 0
            }
        }
        transform(&outer, width: width, height: height)
        transform(&inner, width: width, height: height)
        var bytes = [UInt8](repeating: 0, count: coverage.count)
        for i in coverage.indices {
            let d = outer[i].squareRoot() - inner[i].squareRoot()
            let value = (255 - 255 * (d / radius + cutoff)).rounded()
            bytes[i] = UInt8(max(0, min(255, value.isFinite ? value : 0)))
        }
        return bytes
    }

    /// Squared distances in place: columns, then rows.
    private static func transform(_ grid: inout [Double], width: Int, height: Int) {
        let side = max(width, height)
        var f = [Double](repeating: 0, count: side)
        var v = [Int](repeating: 0, count: side)
        var z = [Double](repeating: 0, count: side + 1)
        for x in 0..<width {
            transform1D(&grid, offset: x, stride: width, length: height, f: &f, v: &v, z: &z)
        }
        for y in 0..<height {
            transform1D(&grid, offset: y * width, stride: 1, length: width, f: &f, v: &v, z: &z)
        }
    }

    /// The 1D squared distance transform of one row or column: the lower envelope of the parabolas
    /// `(q - r)^2 + f(r)`.
    private static func transform1D(
        _ grid: inout [Double], offset: Int, stride: Int, length: Int, f: inout [Double], v: inout [Int],
        z: inout [Double]
    ) {
        v[0] = 0
        z[0] = -infinity
        z[1] = infinity
        f[0] = grid[offset]
        var k = 0
        for q in 1..<length {
            f[q] = grid[offset + q * stride]
            let q2 = Double(q * q)
            var s: Double
            while true {
                let r = v[k]
                s = (f[q] - f[r] + q2 - Double(r * r)) / Double(q - r) / 2
                if s <= z[k] {
                    k -= 1
                    if k >= 0 { continue }
                }
                break
            }
            k += 1
            v[k] = q
            z[k] = s
            z[k + 1] = infinity
        }
        k = 0
        for q in 0..<length {
            while z[k + 1] < Double(q) { k += 1 }
            let r = v[k]
            let qr = Double(q - r)
            grid[offset + q * stride] = f[r] + qr * qr
        }
    }
}
