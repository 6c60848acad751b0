import Foundation
import MapDiff
import MapGraphics

/// Compares rendered images with approved PNG files, the way map renderers' own test suites do.
///
/// The comparison is ``PixelMatch`` (pixelmatch's algorithm): a per-pixel `threshold` on the perceptual
/// color distance, anti-aliased pixels detected and not counted, and at most `allowedFraction` of the
/// pixels may differ. On failure `actual.png` and `diff.png` are written next to the approved image
/// (`<name>.actual.png` and `<name>.diff.png` unless the approved file is called `expected.png`).
///
/// Recording: with the environment variable `MAPRASTER_RECORD_GOLDENS=1` the actual image is written as
/// the approved one, and the check still fails so that someone looks at the image before committing it.
/// Nothing is ever recorded when `CI` is set.
public struct ImageVerification: Sendable {
    /// pixelmatch's per-pixel threshold, 0...1.
    public var threshold: Double
    /// The fraction of pixels that may differ, 0...1.
    public var allowedFraction: Double
    /// Count anti-aliased pixels as differences too.
    public var includeAA: Bool

    /// The default tolerance: pixelmatch's threshold 0.1 and at most 0.015 % of pixels differing, as the
    /// MapLibre render tests allow.
    public static let standard = ImageVerification(threshold: 0.1, allowedFraction: 0.000_15, includeAA: false)

    /// Creates a tolerance.
    public init(threshold: Double = 0.1, allowedFraction: Double = 0.000_15, includeAA: Bool = false) {
        self.threshold = threshold
        self.allowedFraction = allowedFraction
        self.includeAA = includeAA
    }

    /// The outcome of one verification.
    public struct Outcome: Sendable {
        /// Whether the image matches (never true for a recording).
        public var passed: Bool
        /// What happened, for a test failure message.
        public var message: String
        /// The comparison's counts, when a comparison took place.
        public var result: PixelMatch.Result?
        /// Files worth attaching to the test result (name, file): the actual and diff images, the report.
        public var attachments: [(name: String, url: URL)] = []

        /// Creates an outcome.
        public init(passed: Bool, message: String, result: PixelMatch.Result?) {
            self.passed = passed
            self.message = message
            self.result = result
        }
    }

    /// Compares `image` with the approved PNG at `approved`, leaving out the pixels of `mask`.
    public func verify(
        _ image: RGBAImage, approved: URL, mask: IgnoreMask? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Outcome {
        let folder = approved.deletingLastPathComponent()
        let stem = approved.deletingPathExtension().lastPathComponent
        let actualURL = folder.appendingPathComponent(stem == "expected" ? "actual.png" : "\(stem).actual.png")
        let diffURL = folder.appendingPathComponent(stem == "expected" ? "diff.png" : "\(stem).diff.png")
        try? FileManager.default.removeItem(at: actualURL)
        try? FileManager.default.removeItem(at: diffURL)
        let onCI = environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false

        if environment["MAPRASTER_RECORD_GOLDENS"] == "1" {
            if onCI {
                return Outcome(
                    passed: false,
                    message: "MAPRASTER_RECORD_GOLDENS=1 is set on CI; approved images are never recorded on CI",
                    result: nil)
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try image.writePNG(to: approved)
            } catch {
                return Outcome(passed: false, message: "recording \(approved.path) failed: \(error)", result: nil)
            }
            return Outcome(
                passed: false,
                message: "recorded \(approved.path): look at it, then run again without MAPRASTER_RECORD_GOLDENS",
                result: nil)
        }
        guard FileManager.default.fileExists(atPath: approved.path) else {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? image.writePNG(to: actualURL)
            return Outcome(
                passed: false,
                message:
                    "no approved image at \(approved.path); wrote \(actualURL.path). Look at it and record it with "
                    + "MAPRASTER_RECORD_GOLDENS=1", result: nil)
        }
        let expected: RGBAImage
        do { expected = try RGBAImage(contentsOfPNG: approved) } catch {
            return Outcome(passed: false, message: "cannot read the approved image: \(error)", result: nil)
        }
        guard expected.width == image.width, expected.height == image.height else {
            try? image.writePNG(to: actualURL)
            return Outcome(
                passed: false,
                message: "size differs: approved \(approved.path) is \(expected.width)x\(expected.height), actual is "
                    + "\(image.width)x\(image.height); wrote \(actualURL.path)", result: nil)
        }
        var options = PixelMatch.Options(threshold: threshold, includeAA: includeAA)
        options.diffColorAlt = PixelMatch.RGB(0, 160, 0)
        let compared: (result: PixelMatch.Result, image: RGBAImage)
        do { compared = try PixelMatch.diffImage(expected, image, options: options, mask: mask) } catch {
            return Outcome(passed: false, message: "\(error)", result: nil)
        }
        let result = compared.result
        if result.differentRatio <= allowedFraction {
            return Outcome(passed: true, message: "matches \(approved.path)", result: result)
        }
        try? image.writePNG(to: actualURL)
        try? compared.image.writePNG(to: diffURL)
        let message = String(
            format:
                "%@: %d of %d pixels differ (%.4f %%, allowed %.4f %%, threshold %.3f, %d anti-aliased not counted%@); "
                + "wrote %@ and %@ (red: lighter or changed, green: darker)",
            approved.path, result.differentPixels, result.totalPixels, result.differentRatio * 100,
            allowedFraction * 100, threshold, result.antialiasedPixels,
            result.ignoredPixels > 0 ? ", \(result.ignoredPixels) ignored" : "", actualURL.path, diffURL.path)
        var outcome = Outcome(passed: false, message: message, result: result)
        outcome.attachments = [("actual.png", actualURL), ("diff.png", diffURL)]
        return outcome
    }
}
