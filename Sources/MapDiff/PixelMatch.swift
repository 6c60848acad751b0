import MapGraphics

/// pixelmatch's image comparison: per-pixel perceptual color distance (YIQ, after blending translucent
/// pixels over white) with anti-aliasing detection, counting the pixels that really differ.
///
/// The algorithm and its floating-point arithmetic follow the `pixelmatch` package (JavaScript by
/// Mapbox, and its Python port 0.4.0) step for step, so counts agree with it pixel for pixel; MapRaster
/// adds ignore masks and a second diff color for pixels that got darker.
///
/// ```swift
/// let result = try PixelMatch.compare(expected, actual, options: .init(threshold: 0.1))
/// print(result.differentPixels)
/// ```
public enum PixelMatch {
    /// An 8-bit RGB color for the diff image.
    public struct RGB: Hashable, Sendable {
        public var red, green, blue: UInt8
        /// Creates a color.
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// pixelmatch's options, with its defaults.
    public struct Options: Hashable, Sendable {
        /// Per-pixel sensitivity 0...1: the YIQ distance above which a pixel differs is 35215 * t^2.
        public var threshold = 0.1
        /// Count anti-aliased pixels as differences instead of detecting and skipping them.
        public var includeAA = false
        /// Opacity of the expected image drawn faded into the diff image's background, 0...1.
        public var alpha = 0.1
        /// Diff-image color of pixels skipped as anti-aliasing.
        public var aaColor = RGB(255, 255, 0)
        /// Diff-image color of differing pixels (all of them, or those that got lighter when
        /// ``diffColorAlt`` is set).
        public var diffColor = RGB(255, 0, 0)
        /// Diff-image color of differing pixels that got darker in the actual image; nil uses ``diffColor``.
        public var diffColorAlt: RGB?
        /// Draw only the differing pixels, on a transparent background.
        public var diffMask = false
        /// Diff-image color of ignored (masked) pixels.
        public var ignoreColor = RGB(120, 170, 255)

        /// Creates options; every argument has pixelmatch's default.
        public init(threshold: Double = 0.1, includeAA: Bool = false, alpha: Double = 0.1) {
            self.threshold = threshold
            self.includeAA = includeAA
            self.alpha = alpha
        }
    }

    /// What a comparison found.
    public struct Result: Hashable, Sendable {
        /// Pixels whose color distance exceeds the threshold and are not anti-aliasing (or are, with
        /// `includeAA`): pixelmatch's return value.
        public var differentPixels: Int
        /// Pixels above the threshold that were skipped as anti-aliasing.
        public var antialiasedPixels: Int
        /// Pixels not compared because the ignore mask covers them.
        public var ignoredPixels: Int
        /// All pixels of the image.
        public var totalPixels: Int
        /// Creates a result.
        public init(differentPixels: Int, antialiasedPixels: Int, ignoredPixels: Int, totalPixels: Int) {
            self.differentPixels = differentPixels
            self.antialiasedPixels = antialiasedPixels
            self.ignoredPixels = ignoredPixels
            self.totalPixels = totalPixels
        }

        /// `differentPixels / totalPixels`.
        public var differentRatio: Double { totalPixels == 0 ? 0 : Double(differentPixels) / Double(totalPixels) }
    }

    /// Compares two images of the same size and counts the differing pixels.
    ///
    /// Rows are compared in parallel on `threads` threads (0: one per core); the counts do not depend on
    /// the number of threads.
    ///
    /// - Parameters:
    ///   - expected: the approved image (pixelmatch's `img1`).
    ///   - actual: the new image (`img2`).
    ///   - options: pixelmatch's options.
    ///   - mask: pixels to leave out of the comparison; nil compares all.
    ///   - threads: threads comparing rows; 0 uses one per core.
    /// - Throws: ``DiffError/sizeMismatch(expected:actual:)`` or ``DiffError/maskSizeMismatch(mask:image:)``.
    public static func compare(
        _ expected: RGBAImage, _ actual: RGBAImage, options: Options = Options(), mask: IgnoreMask? = nil,
        threads: Int = 0
    ) throws -> Result {
        try compare(expected, actual, options: options, mask: mask, drawing: false, threads: threads).result
    }

    /// Compares two images and also draws the diff image: the expected image faded to grey, differing
    /// pixels in ``Options/diffColor`` (or ``Options/diffColorAlt`` where they got darker), anti-aliased
    /// ones in ``Options/aaColor``, ignored ones tinted with ``Options/ignoreColor``. The image is the same
    /// whatever the number of threads.
    ///
    /// - Throws: as ``compare(_:_:options:mask:threads:)``.
    public static func diffImage(
        _ expected: RGBAImage, _ actual: RGBAImage, options: Options = Options(), mask: IgnoreMask? = nil,
        threads: Int = 0
    ) throws -> (result: Result, image: RGBAImage) {
        let (result, image) = try compare(
            expected, actual, options: options, mask: mask, drawing: true, threads: threads)
        return (result, image!)
    }

    private static func compare(
        _ expected: RGBAImage, _ actual: RGBAImage, options: Options, mask: IgnoreMask?, drawing: Bool,
        threads: Int
    ) throws -> (result: Result, image: RGBAImage?) {
        guard expected.width == actual.width, expected.height == actual.height else {
            throw DiffError.sizeMismatch(
                expected: (expected.width, expected.height), actual: (actual.width, actual.height))
        }
        let width = expected.width
        let height = expected.height
        let total = width * height
        let ignored = try mask?.pixels(width: width, height: height)
        let ignoredCount = ignored?.lazy.filter { $0 }.count ?? 0
        var out: [UInt8]? = drawing ? [UInt8](repeating: 0, count: total * 4) : nil
        let counts = expected.bytes.withUnsafeBufferPointer { img1 in
            actual.bytes.withUnsafeBufferPointer { img2 in
                withOptionalPointer(ignored) { ignoredPointer in
                    withOptionalMutablePointer(&out) { outPointer in
                        let planes = Planes(
                            img1: img1.baseAddress!, img2: img2.baseAddress!, ignored: ignoredPointer,
                            out: outPointer, width: width, height: height)
                        return compareRows(planes, options, threads: threads)
                    }
                }
            }
        }
        let result = Result(
            differentPixels: counts.diff, antialiasedPixels: counts.aa, ignoredPixels: ignoredCount,
            totalPixels: total)
        return (result, out.map { RGBAImage(width: width, height: height, bytes: $0) })
    }

    private static func withOptionalPointer<T, R>(_ array: [T]?, _ body: (UnsafePointer<T>?) -> R) -> R {
        guard let array else { return body(nil) }
        return array.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    private static func withOptionalMutablePointer<T, R>(
        _ array: inout [T]?, _ body: (UnsafeMutablePointer<T>?) -> R
    ) -> R {
        guard var values = array else { return body(nil) }
        array = nil
        defer { array = values }
        return values.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }

    // MARK: - pixelmatch's arithmetic, in its order of operations

    @inline(__always) static func rgb2y(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }
    @inline(__always) static func rgb2i(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.59597799 - g * 0.27417610 - b * 0.32180189
    }
    @inline(__always) static func rgb2q(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.21147017 - g * 0.52261711 + b * 0.31114694
    }
    /// Blends a channel over white.
    @inline(__always) static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }

    /// A pixel's channels as pixelmatch sees them: blended over white when not opaque.
    @inline(__always) static func channels(_ img: UnsafeBufferPointer<UInt8>, _ k: Int) -> (Double, Double, Double) {
        let r = Double(img[k])
        let g = Double(img[k + 1])
        let b = Double(img[k + 2])
        let a = img[k + 3]
        if a < 255 {
            let alpha = Double(a) / 255
            return (blend(r, alpha), blend(g, alpha), blend(b, alpha))
        }
        return (r, g, b)
    }

    @inline(__always) static func luma(_ img: UnsafeBufferPointer<UInt8>, _ k: Int) -> Double {
        let (r, g, b) = channels(img, k)
        return rgb2y(r, g, b)
    }

    @inline(__always) static func same(
        _ img1: UnsafeBufferPointer<UInt8>, _ img2: UnsafeBufferPointer<UInt8>, _ k: Int, _ m: Int
    ) -> Bool {
        img1[k] == img2[m] && img1[k + 1] == img2[m + 1] && img1[k + 2] == img2[m + 2] && img1[k + 3] == img2[m + 3]
    }

    /// The four bytes of the pixel at byte `k`, as one word: equal words are equal pixels.
    @inline(__always) static func word(_ img: UnsafeBufferPointer<UInt8>, _ k: Int) -> UInt32 {
        UnsafeRawPointer(img.baseAddress! + k).loadUnaligned(as: UInt32.self)
    }

    /// The squared YIQ distance of pixel `k` of `img1` and pixel `m` of `img2`.
    static func colorDelta(
        _ img1: UnsafeBufferPointer<UInt8>, _ img2: UnsafeBufferPointer<UInt8>, _ k: Int, _ m: Int
    ) -> Double {
        if same(img1, img2, k, m) { return 0 }
        let (r1, g1, b1) = channels(img1, k)
        let (r2, g2, b2) = channels(img2, m)
        let y = rgb2y(r1, g1, b1) - rgb2y(r2, g2, b2)
        let i = rgb2i(r1, g1, b1) - rgb2i(r2, g2, b2)
        let q = rgb2q(r1, g1, b1) - rgb2q(r2, g2, b2)
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    /// Whether a pixel is likely anti-aliasing (V. Vysniauskas, "Anti-aliased Pixel and Intensity Slope
    /// Detector", 2009), as pixelmatch decides it.
    static func antialiased(
        _ img: UnsafeBufferPointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
        _ img2: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0
        var maxDelta = 0.0
        var minX = 0
        var minY = 0
        var maxX = 0
        var maxY = 0
        // pixelmatch's brightness delta (0 for equal pixels, else the difference of the two lumas), the
        // centre's luma computed once: the same doubles.
        let center = luma(img, pos)
        let centerWord = word(img, pos)
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let m = (y * width + x) * 4
                let delta = word(img, m) == centerWord ? 0 : center - luma(img, m)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x
                    minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x
                    maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(img, minX, minY, width, height) && hasManySiblings(img2, minX, minY, width, height))
            || (hasManySiblings(img, maxX, maxY, width, height) && hasManySiblings(img2, maxX, maxY, width, height))
    }

    /// Whether a pixel has 3 or more neighbours of exactly its color.
    static func hasManySiblings(
        _ img: UnsafeBufferPointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int
    ) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        let centerWord = word(img, pos)
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                if word(img, (y * width + x) * 4) == centerWord { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    // MARK: - Diff image

    @inline(__always) static func draw(_ out: UnsafeMutablePointer<UInt8>, _ pos: Int, _ color: RGB) {
        out[pos] = color.red
        out[pos + 1] = color.green
        out[pos + 2] = color.blue
        out[pos + 3] = 255
    }

    /// The expected pixel as grey, faded towards white by `alpha` (pixelmatch's `drawGrayPixel`).
    @inline(__always) static func grayValue(_ img: UnsafeBufferPointer<UInt8>, _ i: Int, _ alpha: Double) -> UInt8 {
        let y = rgb2y(Double(img[i]), Double(img[i + 1]), Double(img[i + 2]))
        let value = blend(y, alpha * Double(img[i + 3]) / 255)
        return UInt8(max(0, min(255, value.rounded(.towardZero))))
    }

    @inline(__always) static func drawGray(
        _ img: UnsafeBufferPointer<UInt8>, _ i: Int, _ alpha: Double, _ out: UnsafeMutablePointer<UInt8>
    ) {
        let v = grayValue(img, i, alpha)
        draw(out, i, RGB(v, v, v))
    }

    /// Ignored pixels: the faded grey tinted with the ignore color, so masked areas stay visible.
    static func drawIgnored(
        _ img: UnsafeBufferPointer<UInt8>, _ i: Int, _ options: Options, _ out: UnsafeMutablePointer<UInt8>
    ) {
        if options.diffMask { return }
        let v = Int(grayValue(img, i, options.alpha))
        let c = options.ignoreColor
        draw(
            out, i,
            RGB(UInt8((v + Int(c.red)) / 2), UInt8((v + Int(c.green)) / 2), UInt8((v + Int(c.blue)) / 2)))
    }
}
