internal import CWebP
import Foundation

// The one place that calls libwebp.

enum WebP {
    /// Encodes straight RGBA8 pixels as lossy WebP at `quality` 1...100; an image whose pixels are all
    /// opaque is encoded without an alpha plane. libwebp's simple API runs on one thread with fixed
    /// settings, so equal pixels give equal bytes.
    static func encode(width: Int, height: Int, pixels: [UInt8], opaque: Bool, quality: Int) throws -> Data {
        guard let w = Int32(exactly: width), let h = Int32(exactly: height), width <= 16383, height <= 16383 else {
            throw GraphicsError.cannotEncode(
                format: "WebP", reason: "image of \(width)x\(height) pixels: WebP allows at most 16383 a side")
        }
        var output: UnsafeMutablePointer<UInt8>?
        defer { if let output { WebPFree(output) } }
        let factor = Float(max(1, min(100, quality)))
        let size: Int
        if opaque {
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for i in 0..<(width * height) {
                rgb[i * 3] = pixels[i * 4]
                rgb[i * 3 + 1] = pixels[i * 4 + 1]
                rgb[i * 3 + 2] = pixels[i * 4 + 2]
            }
            size = rgb.withUnsafeBufferPointer { WebPEncodeRGB($0.baseAddress, w, h, w * 3, factor, &output) }
        } else {
            size = pixels.withUnsafeBufferPointer { WebPEncodeRGBA($0.baseAddress, w, h, w * 4, factor, &output) }
        }
        guard size > 0, let output else {
            throw GraphicsError.cannotEncode(format: "WebP", reason: "libwebp could not encode the image")
        }
        return Data(bytes: output, count: size)
    }

    /// Decodes a WebP file to straight RGBA8, refusing images larger than `maximumPixels`.
    static func decodeRGBA(_ data: Data, source: String, maximumPixels: Int) throws -> (
        width: Int, height: Int, pixels: [UInt8]
    ) {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self).baseAddress
            var w: Int32 = 0
            var h: Int32 = 0
            guard !data.isEmpty, WebPGetInfo(bytes, data.count, &w, &h) != 0 else {
                throw GraphicsError.cannotReadImage(path: source, reason: "not a WebP file, or its header is corrupt")
            }
            guard let width = Int(exactly: w), let height = Int(exactly: h), width > 0, height > 0,
                width * height <= maximumPixels
            else {
                throw GraphicsError.cannotReadImage(
                    path: source,
                    reason:
                        "its size \(w)x\(h) is more than the \(maximumPixels) pixels MapRaster decodes from a file of "
                        + "\(data.count) bytes (limit)")
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let decoded = pixels.withUnsafeMutableBufferPointer { out in
                WebPDecodeRGBAInto(bytes, data.count, out.baseAddress, out.count, w * 4)
            }
            guard decoded != nil else {
                throw GraphicsError.cannotReadImage(path: source, reason: "corrupt or truncated WebP data")
            }
            return (width, height, pixels)
        }
    }

    /// The encoder's version, such as 1.2.4.
    static var version: String {
        let v = Int(WebPGetEncoderVersion())
        return "\(v >> 16).\(v >> 8 & 0xFF).\(v & 0xFF)"
    }
}
