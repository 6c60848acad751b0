import Foundation
import MapGraphics

/// Golden-image comparison for tests: decoded pixels against an approved `expected.png`.
///
/// Cases live in `fixtures/render/<feature>/<case>/expected.png`. On a mismatch `actual.png` and `diff.png`
/// are written next to it and the numbers are reported. Set `MAPRASTER_RECORD_GOLDENS=1` to write the
/// actual image as the new expected one; recording never happens when `CI` is set, and a recording
/// still fails the test so that someone looks at the image before committing it.
public enum GoldenImage {
    /// The default per-pixel threshold (pixelmatch's default).
    public static let defaultThreshold = 0.1
    /// The default allowed fraction of differing pixels: 0.1 %.
    public static let defaultAllowedFraction = 0.001

    /// What went wrong, as a message for the test's failure; nil when the image matches.
    public static func check(
        _ image: ImageSurface, golden relativeCase: String, threshold: Double = defaultThreshold,
        allowedFraction: Double = defaultAllowedFraction
    ) -> String? {
        let folder = Fixtures.url("render/\(relativeCase)")
        let expectedURL = folder.appendingPathComponent("expected.png")
        let actualURL = folder.appendingPathComponent("actual.png")
        let diffURL = folder.appendingPathComponent("diff.png")
        let environment = ProcessInfo.processInfo.environment
        let recording = environment["MAPRASTER_RECORD_GOLDENS"] == "1"
        let onCI = environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        try? FileManager.default.removeItem(at: actualURL)
        try? FileManager.default.removeItem(at: diffURL)

        if recording {
            if onCI {
                return
                    "MAPRASTER_RECORD_GOLDENS is set on CI (CI=\(environment["CI"] ?? "")); goldens are never recorded on CI"
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try image.writePNG(to: expectedURL)
            } catch { return "recording \(expectedURL.path) failed: \(error)" }
            return "recorded \(expectedURL.path): look at it, then run the tests again without MAPRASTER_RECORD_GOLDENS"
        }
        guard FileManager.default.fileExists(atPath: expectedURL.path) else {
            try? image.writePNG(to: actualURL)
            return "no golden at \(expectedURL.path); wrote \(actualURL.path). Record with MAPRASTER_RECORD_GOLDENS=1"
        }
        let expected: ImageSurface
        do { expected = try ImageSurface(contentsOfPNG: expectedURL) } catch { return "cannot read golden: \(error)" }
        guard expected.width == image.width, expected.height == image.height else {
            try? image.writePNG(to: actualURL)
            return
                "size differs: expected \(expected.width)x\(expected.height), actual \(image.width)x\(image.height); wrote \(actualURL.path)"
        }
        var diff: [UInt8]? = []
        let result = PixelDiff.compare(
            expected: expected.rgbaBytes(), actual: image.rgbaBytes(), width: image.width, height: image.height,
            threshold: threshold, diff: &diff)
        guard result.differentFraction > allowedFraction else { return nil }
        try? image.writePNG(to: actualURL)
        if let diff, let surface = try? ImageSurface(rgba: diff, width: image.width, height: image.height) {
            try? surface.writePNG(to: diffURL)
        }
        return String(
            format: "%@: %d of %d pixels differ (%.4f%%, allowed %.4f%%, threshold %.3f); wrote %@ and %@",
            relativeCase, result.differentPixels, result.totalPixels, result.differentFraction * 100,
            allowedFraction * 100,
            threshold, actualURL.path, diffURL.path)
    }
}
