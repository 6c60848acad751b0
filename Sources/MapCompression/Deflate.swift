import Foundation

/// Deflate compression and decompression (zlib RFC 1950 and gzip RFC 1952 containers) with libdeflate.
///
/// Every decompression takes an output limit: a few kilobytes of hostile input can inflate to
/// gigabytes, so a stream that would grow past the limit is refused with
/// ``CompressionError/outputTooLarge(format:limit:)`` before more than `limit` bytes are allocated.
///
/// ```swift
/// let packed = try Deflate.zlibCompress(bytes, level: 6)
/// let tile = try Deflate.decompress(data, limit: Deflate.defaultLimit)   // gzip, zlib or plain
/// ```
public enum Deflate {
    /// The default output limit: 64 MiB, far above any real map tile (a few hundred kilobytes).
    public static let defaultLimit = 64 << 20

    /// `data` as a zlib stream (RFC 1950) at `level` (clamped to 0...12; 6 is zlib's default).
    ///
    /// - Throws: ``CompressionError/cannotStart`` or ``CompressionError/compressionFailed``.
    public static func zlibCompress(_ data: [UInt8], level: Int) throws -> [UInt8] {
        let level = max(0, min(12, level))
        let out = data.withUnsafeBytes { DeflateCalls.compress($0, level: level, container: .zlib) }
        guard let out else { throw CompressionError.compressionFailed }
        return out
    }

    /// `data` as a gzip stream (RFC 1952) at `level` (clamped to 0...12), as HTTP's `Content-Encoding: gzip`.
    ///
    /// - Throws: ``CompressionError/cannotStart`` or ``CompressionError/compressionFailed``.
    public static func gzipCompress(_ data: [UInt8], level: Int) throws -> [UInt8] {
        let level = max(0, min(12, level))
        let out = data.withUnsafeBytes { DeflateCalls.compress($0, level: level, container: .gzip) }
        guard let out else { throw CompressionError.compressionFailed }
        return out
    }

    /// The CRC-32 (as in gzip and PNG) of `bytes`, continuing `crc` (0 to start).
    public static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        DeflateCalls.crc32(crc, bytes)
    }

    /// Whether `data` starts with the gzip magic bytes 1f 8b.
    public static func isGzip<Bytes: Collection<UInt8>>(_ data: Bytes) -> Bool {
        var iterator = data.makeIterator()
        return iterator.next() == 0x1F && iterator.next() == 0x8B
    }

    /// Whether `data` starts with a valid zlib header (deflate method, window <= 32 KiB, check bits).
    public static func isZlib<Bytes: Collection<UInt8>>(_ data: Bytes) -> Bool {
        var iterator = data.makeIterator()
        guard let cmf = iterator.next(), let flg = iterator.next() else { return false }
        return cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }

    /// Inflates a gzip stream (one or more members, as RFC 1952 allows) of at most `limit` bytes.
    ///
    /// - Throws: ``CompressionError/badData(format:reason:)`` for corrupt or truncated input,
    ///   ``CompressionError/outputTooLarge(format:limit:)`` past `limit`.
    public static func gunzip(_ data: Data, limit: Int = defaultLimit) throws -> Data {
        try inflate(.gzip, data, limit: limit)
    }

    /// Inflates a zlib stream of at most `limit` bytes.
    ///
    /// - Throws: ``CompressionError/badData(format:reason:)`` for corrupt or truncated input,
    ///   ``CompressionError/outputTooLarge(format:limit:)`` past `limit`.
    public static func zlibDecompress(_ data: Data, limit: Int = defaultLimit) throws -> Data {
        try inflate(.zlib, data, limit: limit)
    }

    /// Inflates a zlib stream whose inflated size is known into `output`, which it must fill exactly: the
    /// whole of `output` and no byte more (a PNG's image data, whose size follows from its header).
    ///
    /// - Returns: whether the stream was valid (checksum included), used all of `input` and inflated to
    ///   exactly `output.count` bytes; false for corrupt, truncated, shorter or longer streams.
    public static func zlibDecompress(
        _ input: UnsafeRawBufferPointer, exactlyInto output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard case .done(let consumed, let written) = DeflateCalls.decompress(.zlib, input, into: output) else {
            return false
        }
        return consumed == input.count && written == output.count
    }

    /// Inflates `data` if it starts like a gzip or zlib stream, and returns it unchanged otherwise (vector
    /// tiles are stored either way: tippecanoe and planetiler gzip them, others do not).
    ///
    /// - Throws: as ``gunzip(_:limit:)`` and ``zlibDecompress(_:limit:)``.
    public static func decompressIfCompressed(_ data: Data, limit: Int = defaultLimit) throws -> Data {
        if isGzip(data) { return try gunzip(data, limit: limit) }
        if isZlib(data) { return try zlibDecompress(data, limit: limit) }
        return data
    }

    private static func inflate(_ container: DeflateCalls.Container, _ data: Data, limit: Int) throws -> Data {
        let format = container == .gzip ? "gzip" : "zlib"
        let limit = max(0, limit)
        guard !data.isEmpty else { throw CompressionError.badData(format: format, reason: "the input is empty") }
        return try data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Data in
            var result = Data()
            var offset = 0
            while offset < input.count {
                let member = UnsafeRawBufferPointer(rebasing: input[offset...])
                let remaining = limit - result.count
                // Start from a guess (gzip's trailer holds the size modulo 2^32) and double up to the limit.
                var capacity = min(remaining, initialCapacity(container, member))
                while true {
                    var output = [UInt8](repeating: 0, count: max(capacity, 1))
                    let outcome = output.withUnsafeMutableBytes { buffer in
                        DeflateCalls.decompress(
                            container, member, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<capacity]))
                    }
                    switch outcome {
                    case let .done(consumed, written):
                        result.append(contentsOf: output[0..<written])
                        offset += max(consumed, 1)
                    case .needsMoreSpace:
                        guard capacity < remaining else {
                            throw CompressionError.outputTooLarge(format: format, limit: limit)
                        }
                        capacity = capacity > remaining / 2 ? remaining : max(capacity * 2, 4096)
                        continue
                    case .badData:
                        throw CompressionError.badData(
                            format: format,
                            reason: offset == 0
                                ? "the stream is invalid or truncated"
                                : "the member at byte \(offset) is invalid or truncated")
                    case .noDecompressor:
                        throw CompressionError.cannotStart
                    }
                    break
                }
                // zlib has a single stream; bytes after it are not ours to interpret.
                if container == .zlib { break }
            }
            return result
        }
    }

    /// A first output size: gzip's trailer (the size modulo 2^32, which the input may fake) capped at the
    /// most deflate can expand its input (1032:1), so that memory follows the real output; else 4x the input.
    private static func initialCapacity(_ container: DeflateCalls.Container, _ member: UnsafeRawBufferPointer) -> Int {
        let most = member.count <= Int.max / 1032 ? member.count * 1032 : Int.max
        if container == .gzip, member.count >= 18 {
            let tail = member.count - 4
            let size =
                Int(member[tail]) | Int(member[tail + 1]) << 8 | Int(member[tail + 2]) << 16
                | Int(member[tail + 3]) << 24
            return max(min(size, most), 64)
        }
        return max(member.count <= Int.max / 4 ? member.count * 4 : Int.max, 4096)
    }

    /// libdeflate's version, such as "1.14".
    public static var libraryVersion: String { DeflateCalls.version }
}
