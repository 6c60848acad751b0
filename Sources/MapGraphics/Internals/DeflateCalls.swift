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
