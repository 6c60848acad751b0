import MapGeometry

/// A failure compressing or decompressing data.
public enum CompressionError: MapRasterError, Equatable {
    /// libdeflate could not allocate a compressor or decompressor (out of memory).
    case cannotStart
    /// Compression failed.
    case compressionFailed
    /// The input is not a valid stream of the named format (`gzip` or `zlib`).
    case badData(format: String, reason: String)
    /// Decompressing would produce more than `limit` bytes: a decompression bomb or a limit set too low.
    case outputTooLarge(format: String, limit: Int)

    public var description: String {
        switch self {
        case .cannotStart: return "libdeflate could not start (out of memory?)"
        case .compressionFailed: return "deflate compression failed"
        case let .badData(format, reason): return "corrupt \(format) data: \(reason)"
        case let .outputTooLarge(format, limit):
            return "\(format) data inflates to more than the limit of \(limit) bytes; refused as a decompression bomb"
                + " (raise the limit if the data is trusted)"
        }
    }
}
