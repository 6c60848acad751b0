import Foundation
import MapGraphics
import MapRasterTesting

/// This package's golden images: `fixtures/render/<feature>/<case>/expected.png`, checked with
/// MapRasterTesting's ``ImageVerification`` (pixelmatch's comparison), the same code users get.
///
/// On a mismatch `actual.png` and `diff.png` are written next to the golden. `MAPRASTER_RECORD_GOLDENS=1`
/// records; never on CI; a recording still fails so that someone looks at the image.
public enum GoldenImage {
    /// The default per-pixel threshold (pixelmatch's default).
    public static let defaultThreshold = 0.1
    /// The default allowed fraction of differing pixels: 0.1 %.
    public static let defaultAllowedFraction = 0.001

    /// The golden's URL for a case such as `"world/zoom1"`.
    public static func url(_ relativeCase: String) -> URL {
        Fixtures.url("render/\(relativeCase)/expected.png")
    }

    /// What went wrong, as a message for the test's failure; nil when the image matches.
    public static func check(
        _ image: ImageSurface, golden relativeCase: String, threshold: Double = defaultThreshold,
        allowedFraction: Double = defaultAllowedFraction
    ) -> String? {
        let outcome = ImageVerification(threshold: threshold, allowedFraction: allowedFraction)
            .verify(RGBAImage(image), approved: url(relativeCase))
        return outcome.passed ? nil : outcome.message
    }
}
