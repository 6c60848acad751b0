import Foundation
import MapCompression
import Testing

@Suite struct DeflateTests {
    static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return data
    }

    /// Streams written by Python's `gzip.compress(..., mtime=0)` and `zlib.compress(..., 9)` (CPython 3.11).
    static let pythonStreams: [(id: String, format: String, hex: String, text: String)] = [
        (
            "gzip-one-member", "gzip",
            "1f8b0800000000000203f34d2c084a2c2e492d52284b4d2ec92f5228c9cc492d56f025491800ba63d2e145000000",
            String(repeating: "MapRaster vector tiles ", count: 3)
        ),
        ("zlib-level-9", "zlib", "78dacb48cdc9c9d751a8cac94c020018b20412", "hello, zlib"),
        (
            "gzip-two-members", "gzip",
            "1f8b08000000000002034bcb2c2a2e510000fc7af11c060000001f8b08000000000002032b4e4dcecf4b010069111fb606000000",
            "first second"
        ),
    ]

    @Test(arguments: pythonStreams.map(\.id))
    func inflatesPythonStreams(id: String) throws {
        let stream = try #require(Self.pythonStreams.first { $0.id == id })
        let data = Self.bytes(stream.hex)
        let out =
            stream.format == "gzip"
            ? try Deflate.gunzip(data, limit: 1000) : try Deflate.zlibDecompress(data, limit: 1000)
        #expect(String(decoding: out, as: UTF8.self) == stream.text)
        #expect(try Deflate.decompressIfCompressed(data) == out)
    }

    @Test func exactLimitIsAllowedAndOneByteLessIsRefused() throws {
        let data = Self.bytes(Self.pythonStreams[0].hex)
        let size = Self.pythonStreams[0].text.utf8.count
        #expect(try Deflate.gunzip(data, limit: size).count == size)
        #expect(throws: CompressionError.outputTooLarge(format: "gzip", limit: size - 1)) {
            try Deflate.gunzip(data, limit: size - 1)
        }
    }

    @Test func zlibRoundTripsAtEveryLevel() throws {
        var generator = SplitMix(seed: 7)
        let input = (0..<50_000).map { _ in UInt8(generator.next() % 16) }
        for level in [0, 1, 6, 9, 12] {
            let packed = try Deflate.zlibCompress(input, level: level)
            #expect(Deflate.isZlib(packed))
            #expect(try Deflate.zlibDecompress(Data(packed), limit: input.count) == Data(input))
        }
    }

    /// 64 MiB of zeros packs into about 64 KiB; with a 1 MiB limit it must be refused, not allocated.
    @Test func refusesDecompressionBombs() throws {
        let zeros = [UInt8](repeating: 0, count: 64 << 20)
        let zlib = try Deflate.zlibCompress(zeros, level: 9)
        #expect(zlib.count < 100_000)
        #expect(throws: CompressionError.outputTooLarge(format: "zlib", limit: 1 << 20)) {
            try Deflate.zlibDecompress(Data(zlib), limit: 1 << 20)
        }
        let gzip = Self.gzip(fromZlib: zlib, original: zeros)
        #expect(throws: CompressionError.outputTooLarge(format: "gzip", limit: 1 << 20)) {
            try Deflate.gunzip(gzip, limit: 1 << 20)
        }
        #expect(try Deflate.gunzip(gzip, limit: 64 << 20).count == 64 << 20)
        let message = "\(CompressionError.outputTooLarge(format: "gzip", limit: 1 << 20))"
        #expect(message.contains("1048576 bytes"))
    }

    @Test(arguments: ["empty", "truncated", "flipped", "garbage-after"])
    func corruptStreamsAreTypedErrors(kind: String) {
        var data = Self.bytes(Self.pythonStreams[0].hex)
        switch kind {
        case "empty": data = Data()
        case "truncated": data = data.prefix(data.count - 6)
        case "flipped": data[12] ^= 0xFF
        default: data.append(contentsOf: [1, 2, 3])
        }
        #expect(throws: CompressionError.self) { try Deflate.gunzip(data, limit: 1000) }
    }

    @Test func plainDataPassesThrough() throws {
        let tile = Data([0x1A, 0x05, 0x78, 0x01])  // a protobuf tag, not a stream
        #expect(try Deflate.decompressIfCompressed(tile) == tile)
        #expect(!Deflate.isGzip(tile))
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        // The CRC-32 check value of "123456789" (ISO-HDLC) is cbf43926.
        let crc = Array("123456789".utf8).withUnsafeBytes { Deflate.crc32(0, $0) }
        #expect(crc == 0xCBF4_3926)
    }

    /// A gzip member around the deflate body of a zlib stream (RFC 1950 header 2 bytes, Adler-32 trailer 4).
    static func gzip(fromZlib zlib: [UInt8], original: [UInt8]) -> Data {
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3])
        out.append(contentsOf: zlib[2..<(zlib.count - 4)])
        let crc = original.withUnsafeBytes { Deflate.crc32(0, $0) }
        let size = UInt32(truncatingIfNeeded: original.count)
        for value in [crc, size] {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(value >> shift & 0xFF)) }
        }
        return out
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
