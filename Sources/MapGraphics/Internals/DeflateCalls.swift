internal import CDeflate
import Foundation

// The one place that calls libdeflate: zlib streams and CRC-32 for MapRaster's own PNG writer. libdeflate
// compresses whole buffers 2-3x faster than zlib at the same level, with slightly smaller output.

enum Deflate {
    /// Compressors by level, reused across calls and threads (one call uses one compressor at a time).
    private final class Pool: @unchecked Sendable {
        private let lock = NSLock()
        private var free: [Int: [OpaquePointer]] = [:]

        func take(level: Int) -> OpaquePointer? {
            lock.lock()
            defer { lock.unlock() }
            if let compressor = free[level]?.popLast() { return compressor }
            return libdeflate_alloc_compressor(Int32(level))
        }

        func give(_ compressor: OpaquePointer, level: Int) {
            lock.lock()
            free[level, default: []].append(compressor)
            lock.unlock()
        }
    }

    private static let pool = Pool()

    /// `data` as a zlib stream (RFC 1950) at `level` 0...12.
    static func zlib(_ data: [UInt8], level: Int) throws -> [UInt8] {
        let level = max(0, min(12, level))
        guard let compressor = pool.take(level: level) else {
            throw GraphicsError.cannotWritePNG(path: "(memory)", reason: "libdeflate could not start")
        }
        defer { pool.give(compressor, level: level) }
        let bound = libdeflate_zlib_compress_bound(compressor, data.count)
        var out = [UInt8](repeating: 0, count: bound)
        let written = data.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard written > 0 else { throw GraphicsError.cannotWritePNG(path: "(memory)", reason: "compression failed") }
        out.removeLast(out.count - written)
        return out
    }

    /// The CRC-32 of `bytes`, continuing `crc`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(libdeflate_crc32(crc, bytes.baseAddress, bytes.count))
    }
}

/// A minimal PNG writer: signature, IHDR, optional PLTE and tRNS, one IDAT of unfiltered rows, IEND.
/// No timestamps or other ancillary chunks, so equal images give equal bytes.
enum PNGWriter {
    static func encode(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [UInt8], rowBytes: Int,
        palette: [UInt8]? = nil, compressionLevel: Int
    ) throws -> Data {
        // Each row gets filter type 0 (None): flat map colors compress best unfiltered.
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        rows.withUnsafeBytes { src in
            raw.withUnsafeMutableBytes { dst in
                for y in 0..<height {
                    dst.baseAddress!.advanced(by: y * (rowBytes + 1) + 1)
                        .copyMemory(from: src.baseAddress!.advanced(by: y * rowBytes), byteCount: rowBytes)
                }
            }
        }
        let compressed = try Deflate.zlib(raw, level: compressionLevel)
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func chunk(_ type: String, _ body: [UInt8]) {
            var length = UInt32(body.count).bigEndian
            png.append(Data(bytes: &length, count: 4))
            var typed = Array(type.utf8)
            typed.append(contentsOf: body)
            png.append(contentsOf: typed)
            var crc = typed.withUnsafeBytes { Deflate.crc32(0, $0) }.bigEndian
            png.append(Data(bytes: &crc, count: 4))
        }
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0])
        if let palette {
            let count = palette.count / 4
            var plte: [UInt8] = []
            var trns: [UInt8] = []
            for i in 0..<count {
                plte += [palette[i * 4], palette[i * 4 + 1], palette[i * 4 + 2]]
                trns.append(palette[i * 4 + 3])
            }
            chunk("PLTE", plte)
            if let last = trns.lastIndex(where: { $0 < 255 }) { chunk("tRNS", Array(trns[...last])) }
        }
        chunk("IDAT", compressed)
        chunk("IEND", [])
        return png
    }
}
