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
}
