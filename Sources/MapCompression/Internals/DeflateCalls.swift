internal import CDeflate
import Foundation
import MapGeometry

// The one place that calls libdeflate: zlib compression (MapGraphics' PNG writer), CRC-32, and gzip and zlib
// decompression (vector tiles, PMTiles directories). libdeflate works on whole buffers, 2-3x faster than
// zlib at the same level.

enum DeflateCalls {
    /// Compressors by level, reused across calls and threads (one call uses one compressor at a time).
    private final class Pool: @unchecked Sendable {
        private let free = Locked([Int: [OpaquePointer]]())

        func take(level: Int) -> OpaquePointer? {
            if let compressor = free.withLock({ $0[level]?.popLast() }) { return compressor }
            return libdeflate_alloc_compressor(Int32(level))
        }

        func give(_ compressor: OpaquePointer, level: Int) {
            free.withLock { $0[level, default: []].append(compressor) }
        }
    }

    private static let pool = Pool()

    /// `input` as a zlib stream at `level` 0...12, or nil when libdeflate could not start or compress.
    /// `input` compressed at `level` in a zlib or gzip container; nil when libdeflate fails.
    static func compress(_ input: UnsafeRawBufferPointer, level: Int, container: Container) -> [UInt8]? {
        guard let compressor = pool.take(level: level) else { return nil }
        defer { pool.give(compressor, level: level) }
        let bound =
            container == .zlib
            ? libdeflate_zlib_compress_bound(compressor, input.count)
            : libdeflate_gzip_compress_bound(compressor, input.count)
        // Written straight into the array's storage (no zeroing first); only the compressed bytes count.
        var written = 0
        let out = [UInt8](unsafeUninitializedCapacity: bound) { output, count in
            written =
                container == .zlib
                ? libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, bound)
                : libdeflate_gzip_compress(compressor, input.baseAddress, input.count, output.baseAddress, bound)
            count = min(written, bound)
        }
        guard written > 0 else { return nil }
        return out
    }

    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(libdeflate_crc32(crc, bytes.baseAddress, bytes.count))
    }

    enum Container { case gzip, zlib }

    enum Outcome {
        /// Decompressed: bytes of input used, bytes of output written.
        case done(consumed: Int, written: Int)
        case badData
        case needsMoreSpace
        case noDecompressor
    }

    /// Decompresses one gzip member or zlib stream from `input` into `output`.
    static func decompress(
        _ container: Container, _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> Outcome {
        guard let decompressor = libdeflate_alloc_decompressor() else { return .noDecompressor }
        defer { libdeflate_free_decompressor(decompressor) }
        var consumed = 0
        var written = 0
        let result: libdeflate_result
        switch container {
        case .gzip:
            result = libdeflate_gzip_decompress_ex(
                decompressor, input.baseAddress, input.count, output.baseAddress, output.count, &consumed, &written)
        case .zlib:
            result = libdeflate_zlib_decompress_ex(
                decompressor, input.baseAddress, input.count, output.baseAddress, output.count, &consumed, &written)
        }
        switch result {
        case LIBDEFLATE_SUCCESS: return .done(consumed: consumed, written: written)
        case LIBDEFLATE_INSUFFICIENT_SPACE: return .needsMoreSpace
        default: return .badData
        }
    }

    static var version: String { LIBDEFLATE_VERSION_STRING }
}
