import Foundation
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

/// Shared helpers of the graphics tests: named pixels, whole-image pixel assertions and temporary folders.
typealias Pixel = ImageSurface.Pixel

extension ImageSurface.Pixel {
    static let transparent = Pixel(red: 0, green: 0, blue: 0, alpha: 0)
    static let pureRed = Pixel(red: 255, green: 0, blue: 0, alpha: 255)
    static let pureGreen = Pixel(red: 0, green: 255, blue: 0, alpha: 255)
    static let pureBlue = Pixel(red: 0, green: 0, blue: 255, alpha: 255)
    static let pureBlack = Pixel(red: 0, green: 0, blue: 0, alpha: 255)
    static let pureWhite = Pixel(red: 255, green: 255, blue: 255, alpha: 255)
}

/// A transparent surface of `width` x `height` device pixels with a context at `scale`.
func canvas(_ width: Int, _ height: Int, scale: Double = 1) throws -> (ImageSurface, GraphicsContext) {
    let surface = try ImageSurface(width: width, height: height)
    let context = try GraphicsContext(surface: surface, scale: scale)
    return (surface, context)
}

/// A transparent surface of a golden case's size (points) and scale, with its context.
func canvas(_ golden: GoldenCase) throws -> (ImageSurface, GraphicsContext) {
    try canvas(
        Int(golden.pointSize.width * golden.pixelScale), Int(golden.pointSize.height * golden.pixelScale),
        scale: golden.pixelScale)
}

/// Checks every pixel of `surface`: `expected(x, y)` gives the exact pixel wanted there. Reports the first
/// few mismatches with their coordinates, and the total count.
func expectPixels(
    _ surface: ImageSurface, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
    expected: (Int, Int) -> Pixel
) {
    var mismatches: [String] = []
    var count = 0
    for y in 0..<surface.height {
        for x in 0..<surface.width {
            let want = expected(x, y)
            let got = surface.pixel(x: x, y: y)
            if got != want {
                count += 1
                if mismatches.count < 8 { mismatches.append("(\(x),\(y)): got \(got), want \(want)") }
            }
        }
    }
    if count > 0 {
        Issue.record(
            "\(what): \(count) pixel(s) differ: \(mismatches.joined(separator: "; "))", sourceLocation: sourceLocation)
    }
}

/// Checks that the pixels where `inside(x, y)` holds are exactly `color` and all others fully transparent.
func expectCoverage(
    _ surface: ImageSurface, _ what: String, color: Pixel, sourceLocation: SourceLocation = #_sourceLocation,
    inside: (Int, Int) -> Bool
) {
    expectPixels(surface, what, sourceLocation: sourceLocation) { x, y in inside(x, y) ? color : .transparent }
}

/// Whether two 8-bit values differ by at most `tolerance`.
func close(_ a: UInt8, _ b: UInt8, _ tolerance: Int) -> Bool { abs(Int(a) - Int(b)) <= tolerance }

/// Whether two pixels have equal alpha and color channels within `tolerance`.
func close(_ a: Pixel, _ b: Pixel, tolerance: Int) -> Bool {
    a.alpha == b.alpha && close(a.red, b.red, tolerance) && close(a.green, b.green, tolerance)
        && close(a.blue, b.blue, tolerance)
}

/// A fresh empty folder under the system's temporary folder, removed by `body`'s caller through `defer`.
func withTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("MapGraphicsTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
