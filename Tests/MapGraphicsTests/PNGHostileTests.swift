import Foundation
import MapGraphics
import Testing

/// Corrupt and oversized PNGs are refused by the decoder before it allocates the image.
@Suite("PNG decoding: CRCs and size limits")
struct PNGHostileTests {
    /// A valid 3x2 PNG from the encoder.
    static func validPNG() throws -> [UInt8] {
        let image = RGBAImage(width: 3, height: 2, red: 10, green: 20, blue: 30, alpha: 255)
        return [UInt8](try image.pngData())
    }

    /// The offsets of each chunk: (type, start of length field, data length).
    static func chunks(_ png: [UInt8]) -> [(String, Int, Int)] {
        var result: [(String, Int, Int)] = []
        var i = 8
        while i + 12 <= png.count {
            let length = png[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
            result.append((String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self), i, length))
            i += 12 + length
        }
        return result
    }

    /// CRC-32 of PNG chunks (ISO 3309), written out here rather than taken from the code under test.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = crc32(body[...])
        return withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + body
            + withUnsafeBytes(of: crc.bigEndian, Array.init)
    }

    @Test("the encoder's PNG decodes; with one bit of any critical chunk's CRC flipped it is refused")
    func crc() throws {
        let png = try Self.validPNG()
        #expect(try RGBAImage(pngData: Data(png), source: "ok.png").width == 3)
        for (type, start, length) in Self.chunks(png) where ["IHDR", "IDAT", "IEND"].contains(type) {
            var bad = png
            bad[start + 8 + length] ^= 0x01
            #expect(throws: GraphicsError.self, "\(type)") { try RGBAImage(pngData: Data(bad), source: "bad.png") }
        }
    }

    @Test(
        "a header announcing a huge image is refused before decoding, naming the limit",
        arguments: [(16384, 16385), (100_000, 100_000), (2_000_000, 1), (1, 2_000_000)])
    func bomb(width: Int, height: Int) throws {
        var ihdr: [UInt8] = []
        ihdr += withUnsafeBytes(of: UInt32(width).bigEndian, Array.init)
        ihdr += withUnsafeBytes(of: UInt32(height).bigEndian, Array.init)
        ihdr += [8, 6, 0, 0, 0]
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Self.chunk("IHDR", ihdr)
            + Self.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + Self.chunk("IEND", [])
        do {
            _ = try RGBAImage(pngData: Data(png), source: "bomb.png")
            Issue.record("accepted \(width)x\(height)")
        } catch let error as GraphicsError {
            #expect("\(error)".contains("limit"), "\(error)")
        }
    }
}
