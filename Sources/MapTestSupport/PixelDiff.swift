import Foundation
import MapGraphics

/// Compares two images pixel by pixel with pixelmatch's perceptual color distance (YIQ, blended over
/// white by alpha), for golden-image tests.
public enum PixelDiff {
    /// The outcome of a comparison.
    public struct Result: Sendable {
        /// Pixels whose color distance exceeds the threshold.
        public var differentPixels: Int
        /// All pixels compared.
        public var totalPixels: Int
        /// `differentPixels / totalPixels`.
        public var differentFraction: Double { totalPixels == 0 ? 0 : Double(differentPixels) / Double(totalPixels) }
    }

    /// Compares two RGBA byte buffers of the same size.
    ///
    /// - Parameters:
    ///   - threshold: 0...1, pixelmatch's per-pixel sensitivity (0.1 by default there).
    ///   - diff: when given, receives an RGBA image: differing pixels red, the rest the expected image faded.
    public static func compare(
        expected: [UInt8], actual: [UInt8], width: Int, height: Int, threshold: Double, diff: inout [UInt8]?
    ) -> Result {
        precondition(expected.count == width * height * 4 && actual.count == expected.count, "buffer sizes differ")
        let maxDelta = 35215 * threshold * threshold
        var count = 0
        if diff != nil { diff = [UInt8](repeating: 255, count: expected.count) }
        for i in stride(from: 0, to: expected.count, by: 4) {
            let delta = colorDelta(expected, actual, i)
            let differs = delta > maxDelta
            if differs { count += 1 }
            if diff != nil {
                if differs {
                    diff![i] = 255; diff![i + 1] = 0; diff![i + 2] = 0; diff![i + 3] = 255
                } else {
                    let y = blend(luma(expected, i), alpha: 0.1)
                    diff![i] = y; diff![i + 1] = y; diff![i + 2] = y; diff![i + 3] = 255
                }
            }
        }
        return Result(differentPixels: count, totalPixels: width * height)
    }

    private static func over(_ c: UInt8, _ a: Double) -> Double { 255 + (Double(c) - 255) * a }

    private static func luma(_ b: [UInt8], _ i: Int) -> Double {
        let a = Double(b[i + 3]) / 255
        return over(b[i], a) * 0.29889531 + over(b[i + 1], a) * 0.58662247 + over(b[i + 2], a) * 0.11448223
    }

    private static func blend(_ y: Double, alpha: Double) -> UInt8 { UInt8(max(0, min(255, 255 + (y - 255) * alpha))) }

    /// pixelmatch's squared YIQ distance of two pixels blended over white.
    static func colorDelta(_ a: [UInt8], _ b: [UInt8], _ i: Int) -> Double {
        if a[i] == b[i] && a[i + 1] == b[i + 1] && a[i + 2] == b[i + 2] && a[i + 3] == b[i + 3] { return 0 }
        let aa = Double(a[i + 3]) / 255
        let ba = Double(b[i + 3]) / 255
        let r1 = over(a[i], aa), g1 = over(a[i + 1], aa), b1 = over(a[i + 2], aa)
        let r2 = over(b[i], ba), g2 = over(b[i + 1], ba), b2 = over(b[i + 2], ba)
        let y = (r1 - r2) * 0.29889531 + (g1 - g2) * 0.58662247 + (b1 - b2) * 0.11448223
        let iq = (r1 - r2) * 0.59597799 - (g1 - g2) * 0.27417610 - (b1 - b2) * 0.32180189
        let q = (r1 - r2) * 0.21147017 - (g1 - g2) * 0.52261711 + (b1 - b2) * 0.31114694
        return 0.5053 * y * y + 0.299 * iq * iq + 0.1957 * q * q
    }
}
