import Foundation
import MapDiff
import MapGraphics
import Testing

/// An image of one color with some pixels changed.
func image(_ width: Int, _ height: Int, fill: [UInt8], changes: [(Int, Int, [UInt8])] = []) -> RGBAImage {
    var bytes = [UInt8]()
    for _ in 0..<(width * height) { bytes += fill }
    for (x, y, color) in changes {
        let i = (y * width + x) * 4
        bytes.replaceSubrange(i..<(i + 4), with: color)
    }
    return RGBAImage(width: width, height: height, bytes: bytes)
}

@Suite("PixelMatch: pixelmatch's algorithm")
struct PixelMatchTests {
    static let white: [UInt8] = [255, 255, 255, 255]
    static let black: [UInt8] = [0, 0, 0, 255]

    @Test("identical images differ nowhere; the diff image is the expected image faded to grey")
    func identical() throws {
        let a = image(4, 3, fill: [200, 100, 50, 255])
        let (result, diff) = try PixelMatch.diffImage(a, a)
        #expect(
            result == PixelMatch.Result(differentPixels: 0, antialiasedPixels: 0, ignoredPixels: 0, totalPixels: 12))
        // Grey: y = 200*0.29889531 + 100*0.58662247 + 50*0.11448223 = 124.16; faded 10 % towards white:
        // 255 + (124.16 - 255) * 0.1 = 241.9 -> 241 (truncated, as pixelmatch's drawPixel).
        #expect(diff.pixel(x: 0, y: 0) == ImageSurface.Pixel(red: 241, green: 241, blue: 241, alpha: 255))
    }

    @Test("one black pixel on white is one differing pixel (not anti-aliasing: its neighbours are all equal)")
    func onePixel() throws {
        let a = image(5, 5, fill: Self.white)
        let b = image(5, 5, fill: Self.white, changes: [(2, 2, Self.black)])
        let (result, diff) = try PixelMatch.diffImage(a, b)
        #expect(result.differentPixels == 1 && result.antialiasedPixels == 0)
        #expect(diff.pixel(x: 2, y: 2) == ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(result.differentRatio == 1.0 / 25)
    }

    @Test("the threshold: a grey step of 10 differs at threshold 0 and 0.05, not at 0.1")
    func threshold() throws {
        // Delta of (255,255,255) vs (245,245,245): y = 10 (the Y weights sum to 1), i = q = 0, so the
        // squared distance is 0.5053 * 100 = 50.53. maxDelta = 35215 t^2: 0 -> 0, 0.05 -> 88.04.
        // So 50.53 exceeds 0 only; at 0.03 (31.69) it differs too.
        let a = image(3, 3, fill: Self.white)
        let b = image(3, 3, fill: Self.white, changes: [(1, 1, [245, 245, 245, 255])])
        for (t, expected) in [(0.0, 1), (0.03, 1), (0.05, 0), (0.1, 0)] {
            let result = try PixelMatch.compare(a, b, options: .init(threshold: t))
            #expect(result.differentPixels == expected, "threshold \(t)")
        }
    }

    @Test("an edge pixel between dark and light areas is anti-aliasing and not counted, unless includeAA")
    func antialiasing() throws {
        // Left half black, right half white; in b the boundary pixel (2, 2) turns mid-grey: it has darker and
        // brighter neighbours, and both of those have 3+ equal neighbours, so pixelmatch calls it
        // anti-aliasing.
        var changes: [(Int, Int, [UInt8])] = []
        for y in 0..<5 { for x in 0..<2 { changes.append((x, y, Self.black)) } }
        let a = image(5, 5, fill: Self.white, changes: changes)
        let b = image(5, 5, fill: Self.white, changes: changes + [(2, 2, [128, 128, 128, 255])])
        let skipped = try PixelMatch.diffImage(a, b)
        #expect(skipped.result.differentPixels == 0 && skipped.result.antialiasedPixels == 1)
        #expect(skipped.image.pixel(x: 2, y: 2) == ImageSurface.Pixel(red: 255, green: 255, blue: 0, alpha: 255))
        let counted = try PixelMatch.compare(a, b, options: .init(includeAA: true))
        #expect(counted.differentPixels == 1 && counted.antialiasedPixels == 0)
    }

    @Test("translucent pixels are blended over white first: transparent black equals white")
    func blending() throws {
        let a = image(2, 2, fill: Self.white)
        let b = image(2, 2, fill: [0, 0, 0, 0])
        #expect(try PixelMatch.compare(a, b, options: .init(threshold: 0)).differentPixels == 0)
    }

    @Test("darker pixels take the alternative diff color, lighter ones the diff color")
    func darkerLighter() throws {
        let grey: [UInt8] = [128, 128, 128, 255]
        let a = image(5, 5, fill: grey)
        let b = image(5, 5, fill: grey, changes: [(1, 1, Self.black), (3, 3, Self.white)])
        var options = PixelMatch.Options()
        options.diffColorAlt = PixelMatch.RGB(0, 200, 0)
        let (result, diff) = try PixelMatch.diffImage(a, b, options: options)
        #expect(result.differentPixels == 2)
        #expect(diff.pixel(x: 1, y: 1) == ImageSurface.Pixel(red: 0, green: 200, blue: 0, alpha: 255))
        #expect(diff.pixel(x: 3, y: 3) == ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
    }

    @Test("diffMask draws only the differences, on transparent pixels")
    func diffMask() throws {
        let a = image(3, 3, fill: Self.white)
        let b = image(3, 3, fill: Self.white, changes: [(0, 0, Self.black)])
        var options = PixelMatch.Options()
        options.diffMask = true
        let diff = try PixelMatch.diffImage(a, b, options: options).image
        #expect(diff.pixel(x: 0, y: 0) == ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(diff.pixel(x: 2, y: 2).alpha == 0)
    }

    @Test("ignore rects and a mask image leave pixels out of the count")
    func masks() throws {
        let a = image(6, 4, fill: Self.white)
        let b = image(6, 4, fill: Self.white, changes: [(0, 0, Self.black), (5, 3, Self.black), (3, 1, Self.black)])
        #expect(try PixelMatch.compare(a, b).differentPixels == 3)
        let rects = IgnoreMask(rects: [
            .init(x: 0, y: 0, width: 1, height: 1), .init(x: 5, y: 3, width: 10, height: 10),
        ])
        let r = try PixelMatch.compare(a, b, mask: rects)
        #expect(r.differentPixels == 1 && r.ignoredPixels == 2)
        // A mask image: white (ignored) at (3, 1), black elsewhere, one transparent white pixel (compared).
        let maskImage = image(6, 4, fill: Self.black, changes: [(3, 1, Self.white), (0, 0, [255, 255, 255, 0])])
        let m = try PixelMatch.compare(a, b, mask: IgnoreMask(image: maskImage))
        #expect(m.differentPixels == 2 && m.ignoredPixels == 1)
    }

    @Test("different sizes and a mask of the wrong size are errors naming both sizes")
    func sizeErrors() throws {
        let a = image(4, 3, fill: Self.white)
        let b = image(3, 4, fill: Self.white)
        #expect(throws: DiffError.sizeMismatch(expected: (4, 3), actual: (3, 4))) { try PixelMatch.compare(a, b) }
        #expect(DiffError.sizeMismatch(expected: (4, 3), actual: (3, 4)).description.contains("4x3"))
        let mask = IgnoreMask(image: image(2, 2, fill: Self.white))
        #expect(throws: DiffError.maskSizeMismatch(mask: (2, 2), image: (4, 3))) {
            try PixelMatch.compare(a, a, mask: mask)
        }
    }
}
