internal import CSPNG
import Foundation

// The one place that calls libspng, for decoding (PNGWriter encodes, with libdeflate). libspng reports
// errors as return codes (no longjmp), and decodes every
// PNG flavour (grey, palette, 16-bit, tRNS) to straight 8-bit RGBA without premultiplying, which the diff
// tool needs to see exactly the bytes a PNG holds.

enum SPNG {
    /// The largest number of pixels a decoded image may have (1 GiB of RGBA).
    static let maximumPixels = 1 << 28
    /// The widest and tallest image accepted, checked by libspng while it reads the header.
    static let maximumSide: UInt32 = 1 << 20
    /// The most deflate can shrink data (1032 to 1 in theory), with a margin.
    static let maximumDeflateRatio = 1100
    /// The largest chunk and the most memory for ancillary chunks (text, ICC profiles) libspng may use.
    static let maximumChunkBytes = 64 << 20

    static func message(_ code: Int32) -> String { String(cString: spng_strerror(code)) }

    /// Decodes a PNG to straight RGBA8; 16-bit channels keep their high byte, transparency chunks apply.
    static func decodeRGBA8(_ data: Data, source: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        guard let ctx = spng_ctx_new(0) else {
            throw GraphicsError.cannotReadPNG(path: source, reason: "libspng could not start")
        }
        defer { spng_ctx_free(ctx) }
        guard data.count >= 8, data.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw GraphicsError.cannotReadPNG(path: source, reason: "not a PNG file (no PNG signature)")
        }
        return try data.withUnsafeBytes { raw -> (Int, Int, [UInt8]) in
            // Every chunk's CRC is checked: a corrupt critical chunk (IHDR, PLTE, IDAT, IEND) is an error, a
            // corrupt ancillary chunk is dropped. Limits apply before anything is allocated.
            var status = spng_set_crc_action(ctx, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_DISCARD.rawValue))
            if status == 0 { status = spng_set_image_limits(ctx, maximumSide, maximumSide) }
            if status == 0 { status = spng_set_chunk_limits(ctx, maximumChunkBytes, maximumChunkBytes) }
            if status == 0 { status = spng_set_png_buffer(ctx, raw.baseAddress, raw.count) }
            guard status == 0 else { throw GraphicsError.cannotReadPNG(path: source, reason: message(status)) }
            var ihdr = spng_ihdr()
            status = spng_get_ihdr(ctx, &ihdr)
            guard status == 0 else {
                if status == Int32(SPNG_EUSER_WIDTH.rawValue) || status == Int32(SPNG_EUSER_HEIGHT.rawValue) {
                    throw GraphicsError.cannotReadPNG(
                        path: source, reason: "wider or taller than the \(maximumSide) pixels MapRaster reads (limit)")
                }
                throw GraphicsError.cannotReadPNG(path: source, reason: "invalid header: \(message(status))")
            }
            let width = Int(ihdr.width)
            let height = Int(ihdr.height)
            guard width > 0, height > 0, width * height <= maximumPixels else {
                throw GraphicsError.cannotReadPNG(
                    path: source,
                    reason: "\(width)x\(height) is larger than the \(maximumPixels) pixels MapRaster reads (limit)")
            }
            // Deflate shrinks data at most about 1032 to 1, so a file too small to hold the announced pixels
            // is truncated or a bomb: refuse it before allocating the image (a 29-byte file announced 512 x
            // 65282 pixels and was given 134 MB).
            let channels: Int
            switch ihdr.color_type {
            case 2: channels = 3
            case 4: channels = 2
            case 6: channels = 4
            default: channels = 1
            }
            let leastPixelBytes = height * (width * channels * Int(ihdr.bit_depth) / 8)
            guard leastPixelBytes / maximumDeflateRatio <= raw.count else {
                throw GraphicsError.cannotReadPNG(
                    path: source,
                    reason:
                        "truncated: \(raw.count) bytes cannot hold \(width)x\(height) pixels (deflate shrinks at most "
                        + "\(maximumDeflateRatio) to 1; limit)")
            }
            var size = 0
            status = spng_decoded_image_size(ctx, Int32(SPNG_FMT_RGBA8.rawValue), &size)
            guard status == 0 else { throw GraphicsError.cannotReadPNG(path: source, reason: message(status)) }
            var pixels = [UInt8](repeating: 0, count: size)
            status = pixels.withUnsafeMutableBytes { out in
                spng_decode_image(
                    ctx, out.baseAddress, out.count, Int32(SPNG_FMT_RGBA8.rawValue), Int32(SPNG_DECODE_TRNS.rawValue))
            }
            // libspng stops reading when the image data is complete; reading on to IEND checks the CRC of the
            // last IDAT chunk (and of every chunk after it), which decoding alone leaves unchecked.
            if status == 0 { status = spng_decode_chunks(ctx) }
            guard status == 0 else {
                throw GraphicsError.cannotReadPNG(path: source, reason: "truncated or corrupt: \(message(status))")
            }
            return (width, height, pixels)
        }
    }

    static var version: String { String(cString: spng_version_string()) }
}
