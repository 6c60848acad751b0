import Foundation
import MapGraphics
import MapTestSupport
import Testing

/// Corrupt and oversized PNGs are refused by the decoder before it allocates the image.
@Suite("PNG decoding: CRCs and size limits")
struct PNGHostileTests {
    /// A valid 3x2 PNG from the encoder.
    static func validPNG() throws -> [UInt8] {
        let image = RGBAImage(width: 3, height: 2, red: 10, green: 20, blue: 30, alpha: 255)
        return [UInt8](try image.pngData())
    }

    @Test("the encoder's PNG decodes; with one bit of any critical chunk's CRC flipped it is refused")
    func crc() throws {
        let png = try Self.validPNG()
        #expect(try RGBAImage(pngData: Data(png), source: "ok.png").width == 3)
        for type in ["IHDR", "IDAT", "IEND"] {
            let bad = HostilePNG.flippingCRC(of: type, in: png)
            #expect(bad != png)
            #expect(throws: GraphicsError.self, "\(type)") { try RGBAImage(pngData: Data(bad), source: "bad.png") }
        }
    }

    @Test(
        "a header announcing a huge image is refused before decoding, naming the limit",
        arguments: [(16384, 16385), (100_000, 100_000), (2_000_000, 1), (1, 2_000_000)])
    func bomb(width: Int, height: Int) throws {
        let png = HostilePNG.header(width: UInt32(width), height: UInt32(height))
        do {
            _ = try RGBAImage(pngData: Data(png), source: "bomb.png")
            Issue.record("accepted \(width)x\(height)")
        } catch let error as GraphicsError {
            #expect("\(error)".contains("limit"), "\(error)")
        }
    }

    /// Found by Scripts/fuzz.sh png: a 29-byte file announcing 512 x 65282 grey pixels made the decoder
    /// allocate 134 MB (and libFuzzer's 1 GB limit was passed over repeated runs) before finding no data.
    @Test("fuzz oom-8cc00808: a file too small for the pixels it announces is refused before allocating")
    func tooSmallForItsPixels() throws {
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAgAAAP8CCAAAAAA="))
        do {
            _ = try RGBAImage(pngData: png, source: "oom.png")
            Issue.record("accepted")
        } catch let error as GraphicsError {
            #expect("\(error)".contains("truncated: 29 bytes cannot hold 512x65282 pixels"), "\(error)")
        }
    }

    @Test("the most compressible images still decode: one color, 4096x4096 RGBA")
    func compressibleStillDecodes() throws {
        let rgba = RGBAImage(width: 4096, height: 4096, red: 0, green: 0, blue: 0, alpha: 255)
        let png = try rgba.pngData(compressionLevel: 9)
        let decoded = try RGBAImage(pngData: png, source: "solid.png")
        #expect(decoded.width == 4096 && decoded.bytes == rgba.bytes)
    }
}
