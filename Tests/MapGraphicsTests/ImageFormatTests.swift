import Foundation
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

/// JPEG and WebP output: decoded again (libjpeg-turbo's and libwebp's decoders) and compared with the
/// exact image, byte-for-byte determinism, JPEG's white background, format names, and hostile input to the
/// decoders.
@Suite("Image formats")
struct ImageFormatTests {
    /// Mean absolute error per channel (R, G, B) between two images of the same size, over all pixels.
    static func meanAbsoluteError(_ a: RGBAImage, _ b: RGBAImage) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for i in 0..<(a.width * a.height) {
            for c in 0..<3 { sums[c] += abs(Double(a.bytes[i * 4 + c]) - Double(b.bytes[i * 4 + c])) }
        }
        return sums.map { $0 / Double(a.width * a.height) }
    }

    /// The images compared: a labelled street map (fine text, many colors) and pins on a plain map.
    static let pictures = ["render/labels/helsinki-z15/expected.png", "render/annotations/default-pins/expected.png"]

    /// At quality 90 each channel's mean absolute error stays below 4 (of 255) for both formats. Measured:
    /// pins 0.3-1.3 (JPEG) and 0.3-1.4 (WebP); the Helsinki street map with its small labels 2.0-2.7 (JPEG)
    /// and 1.5-2.8 (WebP), blue the worst. A broken encoder (wrong channel order, wrong stride, a shifted
    /// row) gives tens.
    static let tolerance = 4.0

    @Test("JPEG and WebP at quality 90 decode to the PNG within a mean error of 4 per channel", arguments: pictures)
    func roundTrip(_ picture: String) throws {
        let exact = try RGBAImage(contentsOfPNG: Fixtures.url(picture))
        for format in [ImageFormat.jpeg, .webp] {
            let data = try exact.encoded(as: format, quality: 90)
            let decoded = try RGBAImage(imageData: data, source: "\(picture).\(format.fileExtension)")
            #expect(decoded.width == exact.width && decoded.height == exact.height)
            let error = Self.meanAbsoluteError(exact, decoded)
            #expect(error.allSatisfy { $0 < Self.tolerance }, "\(format) \(picture): mean error per channel \(error)")
            #expect(stride(from: 3, to: decoded.bytes.count, by: 4).allSatisfy { decoded.bytes[$0] == 255 })
            // Lower quality is smaller and further off: the quality reaches the encoder.
            let low = try exact.encoded(as: format, quality: 20)
            #expect(low.count < data.count, "\(format): quality 20 gives \(low.count) bytes, 90 gives \(data.count)")
        }
    }

    @Test("Equal images give equal bytes in every format")
    func deterministic() throws {
        let image = try RGBAImage(contentsOfPNG: Fixtures.url(Self.pictures[1]))
        for format in ImageFormat.allCases {
            let a = try image.encoded(as: format, quality: 75)
            let b = try RGBAImage(width: image.width, height: image.height, bytes: image.bytes)
                .encoded(as: format, quality: 75)
            #expect(a == b, "\(format)")
        }
    }

    @Test("Files start with their format's signature")
    func signatures() throws {
        let image = RGBAImage(width: 3, height: 2, red: 10, green: 20, blue: 30, alpha: 255)
        let expected: [(ImageFormat, [UInt8])] = [
            (.png, [0x89, 0x50, 0x4E, 0x47]), (.png8, [0x89, 0x50, 0x4E, 0x47]), (.jpeg, [0xFF, 0xD8, 0xFF]),
            (.webp, Array("RIFF".utf8)),
        ]
        for (format, magic) in expected {
            let data = try image.encoded(as: format)
            #expect(Array(data.prefix(magic.count)) == magic, "\(format)")
            if format == .webp { #expect(Array(data[8..<12]) == Array("WEBP".utf8)) }
        }
    }

    @Test("JPEG composites transparency over white (or the given background); WebP keeps alpha")
    func transparency() throws {
        // Left half transparent, right half half-transparent red.
        var bytes: [UInt8] = []
        for _ in 0..<16 {
            for x in 0..<16 { bytes += x < 8 ? [0, 0, 0, 0] : [255, 0, 0, 128] }
        }
        let image = RGBAImage(width: 16, height: 16, bytes: bytes)
        let jpeg = try RGBAImage(imageData: try image.encoded(as: .jpeg, quality: 100), source: "t.jpg")
        func near(_ p: ImageSurface.Pixel, _ rgb: [Int], _ tolerance: Int = 4) -> Bool {
            abs(Int(p.red) - rgb[0]) <= tolerance && abs(Int(p.green) - rgb[1]) <= tolerance
                && abs(Int(p.blue) - rgb[2]) <= tolerance
        }
        // Over white: 255 * a + 255 * (1 - a) = 255 for red; 0 * a + 255 * (1 - 128/255) = 127 for green and blue.
        #expect(near(jpeg.pixel(x: 2, y: 8), [255, 255, 255]), "\(jpeg.pixel(x: 2, y: 8))")
        #expect(near(jpeg.pixel(x: 13, y: 8), [255, 127, 127]), "\(jpeg.pixel(x: 13, y: 8))")
        let black = try RGBAImage(
            imageData: try image.encoded(as: .jpeg, quality: 100, background: .black), source: "b.jpg")
        #expect(near(black.pixel(x: 2, y: 8), [0, 0, 0]) && near(black.pixel(x: 13, y: 8), [128, 0, 0]))
        let webp = try RGBAImage(imageData: try image.encoded(as: .webp, quality: 100), source: "t.webp")
        #expect(webp.pixel(x: 2, y: 8).alpha == 0)
        #expect(abs(Int(webp.pixel(x: 13, y: 8).alpha) - 128) <= 1, "\(webp.pixel(x: 13, y: 8))")
    }

    @Test(
        "Format names and extensions",
        arguments: [
            ("map.png", ImageFormat.png), ("MAP.JPG", .jpeg), ("a/b.jpeg", .jpeg), ("x.webp", .webp),
            ("x.WebP", .webp), ("x.png8", nil), ("x.gif", nil), ("noextension", nil), (".jpg", nil), ("dir.jpg/x", nil),
        ] as [(String, ImageFormat?)])
    func extensions(_ path: String, _ format: ImageFormat?) {
        #expect(ImageFormat(pathExtension: path) == format, "\(path)")
    }

    @Test("Names: png, png8, jpg/jpeg, webp; file extension, media type and MBTiles format")
    func names() {
        let table: [(String, ImageFormat, String, String)] = [
            ("png", .png, "png", "image/png"), ("png8", .png8, "png", "image/png"),
            ("jpg", .jpeg, "jpg", "image/jpeg"), ("JPEG", .jpeg, "jpg", "image/jpeg"),
            ("webp", .webp, "webp", "image/webp"),
        ]
        for (name, format, ext, media) in table {
            #expect(ImageFormat(name: name) == format, "\(name)")
            #expect(format.fileExtension == ext && format.mediaType == media, "\(name)")
        }
        #expect(ImageFormat(name: "gif") == nil && ImageFormat(name: "") == nil)
    }

    /// Bytes that are not a valid image of the kind their first bytes claim.
    static let hostile: [(String, [UInt8])] = {
        let good =
            (try? RGBAImage(width: 8, height: 8, red: 1, green: 2, blue: 3, alpha: 255).encoded(as: .jpeg))
            .map { [UInt8]($0) } ?? []
        let goodWebP =
            (try? RGBAImage(width: 8, height: 8, red: 1, green: 2, blue: 3, alpha: 255).encoded(as: .webp))
            .map { [UInt8]($0) } ?? []
        // A JPEG whose frame header (SOF0) claims 65500 x 65500 pixels.
        var huge = good
        if let sof = (0..<(huge.count - 9)).first(where: { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 }) {
            huge[sof + 5] = 0xFF
            huge[sof + 6] = 0xDC
            huge[sof + 7] = 0xFF
            huge[sof + 8] = 0xDC
        }
        return [
            ("empty", []), ("jpeg-signature-only", [0xFF, 0xD8, 0xFF]), ("jpeg-truncated", Array(good.prefix(40))),
            ("jpeg-65500x65500", huge), ("webp-header-only", Array(goodWebP.prefix(12))),
            ("webp-truncated", Array(goodWebP.prefix(goodWebP.count / 2))),
            ("riff-not-webp", Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)), ("text", Array("hello world!".utf8)),
        ]
    }()

    @Test(
        "A flat 4096x4096 WebP (561 pixels per byte) decodes; a small file claiming more pixels than its limit does not"
    )
    func pixelsPerByte() throws {
        let flat = RGBAImage(width: 4096, height: 4096, red: 170, green: 211, blue: 223, alpha: 255)
        let webp = try flat.encoded(as: .webp, quality: 90)
        #expect(webp.count * RGBAImage.maximumPixelsPerByte > 4096 * 4096, "\(webp.count) bytes")
        let decoded = try RGBAImage(imageData: webp, source: "flat.webp")
        #expect(decoded.width == 4096 && decoded.height == 4096)
        // The same image's header (and a few hundred bytes) must not reach the decoder's allocation.
        do {
            _ = try RGBAImage(imageData: webp.prefix(400), source: "cut.webp")
            Issue.record("400 bytes claiming 4096x4096 pixels decoded")
        } catch let error as GraphicsError {
            #expect(error.description.contains("cut.webp") && error.description.contains("limit"), "\(error)")
        }
    }

    @Test("Hostile bytes are refused with an error naming the source, never a crash", arguments: hostile.map(\.0))
    func hostileInput(_ name: String) throws {
        let bytes = try #require(Self.hostile.first { $0.0 == name }?.1)
        do {
            let image = try RGBAImage(imageData: Data(bytes), source: "bad/\(name)")
            // libjpeg-turbo decodes some truncated files, filling the rest grey; that must still be the
            // header's size, small.
            #expect(name == "jpeg-truncated" && image.width == 8, "\(name) decoded to \(image.width)x\(image.height)")
        } catch let error as GraphicsError {
            #expect(error.description.contains("bad/\(name)"), "\(error)")
        }
    }
}
