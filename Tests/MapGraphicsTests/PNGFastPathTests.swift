import Foundation
import MapCompression
import MapTestSupport
import Testing

@testable import MapGraphics

/// The fast PNG path (`PNGReader`, `PNGUnfilter`) against libspng and against the pixels the file was made
/// from: PNGs filtered here with each of the five filter types, straight from the specification.
@Suite("PNG decoding: the fast path equals libspng for every filter type")
struct PNGFastPathTests {
    /// Pixels with runs and edges (so that Paeth picks the left, the upper and the upper-left byte), plus noise.
    static func pixels(width: Int, height: Int, channels: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(state: seed)
        var bytes = [UInt8](repeating: 0, count: width * height * channels)
        for i in bytes.indices {
            switch random.next() % 4 {
            case 0: bytes[i] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes[i] = i >= channels ? bytes[i - channels] : 0
            case 2: bytes[i] = i >= width * channels ? bytes[i - width * channels] : 255
            default: bytes[i] = UInt8(truncatingIfNeeded: i / channels)
            }
        }
        return bytes
    }

    /// Filters row `y` with `type` as the PNG specification (section 9.2) defines it.
    static func filtered(_ px: [UInt8], y: Int, rowBytes: Int, bpp: Int, type: UInt8) -> [UInt8] {
        func raw(_ i: Int) -> Int { Int(px[y * rowBytes + i]) }
        func left(_ i: Int) -> Int { i >= bpp ? raw(i - bpp) : 0 }
        func up(_ i: Int) -> Int { y > 0 ? Int(px[(y - 1) * rowBytes + i]) : 0 }
        func upLeft(_ i: Int) -> Int { y > 0 && i >= bpp ? Int(px[(y - 1) * rowBytes + i - bpp]) : 0 }
        var out: [UInt8] = [type]
        for i in 0..<rowBytes {
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = left(i)
            case 2: predictor = up(i)
            case 3: predictor = (left(i) + up(i)) / 2
            default:
                let (a, b, c) = (left(i), up(i), upLeft(i))
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            }
            out.append(UInt8(truncatingIfNeeded: raw(i) - predictor))
        }
        return out
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBytes { Deflate.crc32(0, $0) }
        func be(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        return be(UInt32(body.count)) + typed + be(crc)
    }

    /// A PNG of `px` with the filter of row y `filters[y % filters.count]`.
    static func png(_ px: [UInt8], width: Int, height: Int, channels: Int, filters: [UInt8]) throws -> Data {
        let rowBytes = width * channels
        var stream: [UInt8] = []
        for y in 0..<height {
            stream += filtered(px, y: y, rowBytes: rowBytes, bpp: channels, type: filters[y % filters.count])
        }
        func be(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let header = be(width) + be(height) + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
                + chunk("IDAT", try Deflate.zlibCompress(stream, level: 1)) + chunk("IEND", []))
    }

    static func rgba(_ px: [UInt8], channels: Int) -> [UInt8] {
        guard channels == 3 else { return px }
        var out: [UInt8] = []
        out.reserveCapacity(px.count / 3 * 4)
        for i in stride(from: 0, to: px.count, by: 3) { out += [px[i], px[i + 1], px[i + 2], 255] }
        return out
    }

    @Test(
        "rows of each filter type (0 to 4, mixed) decode to the pixels and to libspng's bytes",
        arguments: [3, 4], [1, 2, 3, 5, 6, 17, 33])
    func filters(channels: Int, width: Int) throws {
        let height = 11
        let px = Self.pixels(width: width, height: height, channels: channels, seed: UInt64(width * 10 + channels))
        // Every filter type after every other (including a filter-0 row before and after the others).
        let orders: [[UInt8]] = [[0], [1], [2], [3], [4], [0, 4, 0, 0, 3, 1, 2, 4, 4, 0, 2], [4, 3, 2, 1, 0]]
        for order in orders {
            let data = try Self.png(px, width: width, height: height, channels: channels, filters: order)
            let fast = try #require(PNGReader.decodeRGBA8(data), "fast path refused filters \(order)")
            let spng = try SPNG.decodeRGBA8(data, source: "test.png")
            #expect(fast.width == width && fast.height == height)
            #expect(fast.pixels == Self.rgba(px, channels: channels), "filters \(order)")
            #expect(fast.pixels == spng.pixels, "filters \(order)")
        }
    }

    @Test("a filter type above 4 leaves the file to libspng, which refuses it")
    func badFilter() throws {
        let px = Self.pixels(width: 4, height: 3, channels: 3, seed: 1)
        var data = [UInt8](try Self.png(px, width: 4, height: 3, channels: 3, filters: [0]))
        // Re-make the IDAT with filter type 5 on the second row.
        var stream: [UInt8] = []
        for y in 0..<3 { stream += Self.filtered(px, y: y, rowBytes: 12, bpp: 3, type: 0) }
        stream[13] = 5
        data =
            Array(data.prefix(33)) + Self.chunk("IDAT", try Deflate.zlibCompress(stream, level: 1))
            + Self.chunk("IEND", [])
        #expect(PNGReader.decodeRGBA8(Data(data)) == nil)
        #expect(throws: GraphicsError.self) { try RGBAImage(pngData: Data(data), source: "bad.png") }
    }

    @Test("an image over 1 MiB (pages mapped in bulk, rows widened in place) decodes to the pixels", arguments: [3, 4])
    func large(channels: Int) throws {
        let (width, height) = (1500, 1420)
        let px = Self.pixels(width: width, height: height, channels: channels, seed: 7)
        let data = try Self.png(px, width: width, height: height, channels: channels, filters: [0, 0, 2, 4, 0, 1, 3])
        let fast = try #require(PNGReader.decodeRGBA8(data))
        #expect(fast.pixels == Self.rgba(px, channels: channels))
    }
}
