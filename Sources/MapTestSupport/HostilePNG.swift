import Foundation

/// Hand-made PNG bytes for tests of hostile input: chunks with their CRC computed here (not by the code
/// under test), headers announcing any size, and CRCs flipped on purpose.
public enum HostilePNG {
    /// The PNG signature.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// CRC-32 as PNG chunks use it (ISO 3309, polynomial 0xEDB88320).
    public static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// One chunk: length, type, data, CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// A PNG whose header announces `width` x `height` RGBA pixels but whose image data is one tiny zlib
    /// stream: a decompression bomb's header, for checks that must refuse it before allocating.
    public static func header(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return signature + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
            + chunk("IEND", [])
    }

    /// The chunks of a PNG: type, offset of the length field, data length.
    public static func chunks(_ png: [UInt8]) -> [(type: String, offset: Int, length: Int)] {
        var result: [(String, Int, Int)] = []
        var i = 8
        while i + 12 <= png.count {
            let length = png[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
            result.append((String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self), i, length))
            i += 12 + length
        }
        return result
    }

    /// `png` with one bit of the CRC of its first chunk of `type` flipped.
    public static func flippingCRC(of type: String, in png: [UInt8]) -> [UInt8] {
        var bad = png
        if let chunk = chunks(png).first(where: { $0.type == type }) { bad[chunk.offset + 8 + chunk.length] ^= 0x01 }
        return bad
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
}
