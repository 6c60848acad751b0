import Foundation
import MapGraphics
import MapTestSupport
import Testing

@Suite("RGBAImage: exact PNG decoding with libspng")
struct RGBAImageTests {
    typealias Pixel = ImageSurface.Pixel

    @Test("16-bit RGB and RGBA decode to their high bytes")
    func sixteenBit() throws {
        let rgb = try RGBAImage(contentsOfPNG: Fixtures.url("graphics/rgb16.png"))
        #expect(rgb.pixel(x: 0, y: 0) == Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(rgb.pixel(x: 1, y: 1) == Pixel(red: 128, green: 64, blue: 32, alpha: 255))
        let rgba = try RGBAImage(contentsOfPNG: Fixtures.url("graphics/rgba16.png"))
        #expect(rgba.pixel(x: 1, y: 0) == Pixel(red: 16, green: 32, blue: 48, alpha: 255))
        #expect(rgba.pixel(x: 0, y: 1).alpha == 0)
    }

    @Test("a 2-bit palette with tRNS decodes to the palette colors; the transparent entry keeps its color")
    func palette() throws {
        let image = try RGBAImage(contentsOfPNG: Fixtures.url("graphics/palette.png"))
        #expect(image.pixel(x: 0, y: 0) == Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(image.pixel(x: 1, y: 0) == Pixel(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(image.pixel(x: 0, y: 1) == Pixel(red: 0, green: 128, blue: 0, alpha: 255))
        // Straight alpha: entry 3 is (9, 9, 9) with alpha 0, exactly as stored (Cairo would give 0, 0, 0).
        #expect(image.pixel(x: 1, y: 1) == Pixel(red: 9, green: 9, blue: 9, alpha: 0))
    }

    @Test("grey and grey+alpha decode to (v, v, v, a)")
    func grey() throws {
        let gray = try RGBAImage(contentsOfPNG: Fixtures.url("graphics/gray.png"))
        #expect(gray.pixel(x: 1, y: 0) == Pixel(red: 64, green: 64, blue: 64, alpha: 255))
        let grayAlpha = try RGBAImage(contentsOfPNG: Fixtures.url("graphics/grayalpha.png"))
        #expect(grayAlpha.pixel(x: 0, y: 1) == Pixel(red: 77, green: 77, blue: 77, alpha: 255))
        #expect(grayAlpha.pixel(x: 1, y: 1) == Pixel(red: 0, green: 0, blue: 0, alpha: 0))
    }

    @Test("not a PNG, a truncated PNG, an empty file and a missing file are errors naming the file")
    func badFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rgba-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = try Data(contentsOf: GoldenImage.url("world/zoom1"))
        let truncated = folder.appendingPathComponent("truncated.png")
        try real.prefix(real.count / 2).write(to: truncated)
        let empty = folder.appendingPathComponent("empty.png")
        try Data().write(to: empty)
        for url in [
            Fixtures.url("graphics/not-a-png.png"), truncated, empty, folder.appendingPathComponent("missing.png"),
        ] {
            do {
                _ = try RGBAImage(contentsOfPNG: url)
                Issue.record("\(url.lastPathComponent) was accepted")
            } catch let GraphicsError.cannotReadPNG(path, reason) {
                #expect(path == url.path)
                #expect(!reason.isEmpty)
            }
        }
    }

    @Test("encoding with libspng and decoding again gives the same bytes, translucent pixels included")
    func roundTrip() throws {
        var bytes: [UInt8] = []
        for i in 0..<64 { bytes += [UInt8(i * 4), UInt8(255 - i), UInt8(i % 7 * 30), UInt8(i * 4 + 3)] }
        let image = RGBAImage(width: 8, height: 8, bytes: bytes)
        let decoded = try RGBAImage(pngData: try image.pngData(), source: "memory")
        #expect(decoded == image)
        #expect(try image.pngData() == (try image.pngData()))
    }
}
