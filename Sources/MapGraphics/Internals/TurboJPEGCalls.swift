internal import CTurboJPEG
import Foundation

// The one place that calls libjpeg-turbo (its TurboJPEG API).

enum TurboJPEG {
    /// Encodes opaque RGB8 pixels (`width * height * 3` bytes) as a baseline JPEG with 4:4:4 chroma (map
    /// edges and labels keep their colors) and the accurate integer DCT. Equal pixels give equal bytes: the
    /// file has a JFIF header and no timestamps.
    static func encodeRGB(width: Int, height: Int, pixels: [UInt8], quality: Int) throws -> Data {
        guard let w = Int32(exactly: width), let h = Int32(exactly: height), let pitch = Int32(exactly: width * 3)
        else { throw GraphicsError.cannotEncode(format: "JPEG", reason: "image of \(width)x\(height) is too large") }
        guard let handle = tjInitCompress() else {
            throw GraphicsError.cannotEncode(format: "JPEG", reason: "libjpeg-turbo could not start a compressor")
        }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let buffer { tjFree(buffer) } }
        let status = pixels.withUnsafeBufferPointer { src in
            tjCompress2(
                handle, src.baseAddress, w, pitch, h, Int32(TJPF_RGB.rawValue), &buffer, &size,
                Int32(TJSAMP_444.rawValue), Int32(max(1, min(100, quality))), TJFLAG_ACCURATEDCT)
        }
        guard status == 0, let buffer, let count = Int(exactly: size) else {
            throw GraphicsError.cannotEncode(format: "JPEG", reason: message(handle))
        }
        return Data(bytes: buffer, count: count)
    }

    /// Decodes a JPEG to straight RGBA8 (alpha 255), refusing images larger than `maximumPixels`.
    static func decodeRGBA(_ data: Data, source: String, maximumPixels: Int) throws -> (
        width: Int, height: Int, pixels: [UInt8]
    ) {
        guard let handle = tjInitDecompress() else {
            throw GraphicsError.cannotReadImage(path: source, reason: "libjpeg-turbo could not start a decompressor")
        }
        defer { tjDestroy(handle) }
        guard let size = UInt(exactly: data.count), !data.isEmpty else {
            throw GraphicsError.cannotReadImage(path: source, reason: "the file is empty")
        }
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self).baseAddress
            var w: Int32 = 0
            var h: Int32 = 0
            var subsampling: Int32 = 0
            var colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, bytes, size, &w, &h, &subsampling, &colorspace) == 0 else {
                throw GraphicsError.cannotReadImage(path: source, reason: "not a JPEG: \(message(handle))")
            }
            guard let width = Int(exactly: w), let height = Int(exactly: h), width > 0, height > 0,
                width <= 32767, height <= 32767, width * height <= maximumPixels
            else {
                throw GraphicsError.cannotReadImage(
                    path: source,
                    reason:
                        "its size \(w)x\(h) is outside 1...32767 pixels a side or more than the \(maximumPixels) pixels "
                        + "MapRaster decodes from a file of \(data.count) bytes (limit)")
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let status = pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, bytes, size, out.baseAddress, w, w * 4, h, Int32(TJPF_RGBA.rawValue), 0)
            }
            guard status == 0 else {
                throw GraphicsError.cannotReadImage(path: source, reason: "corrupt JPEG: \(message(handle))")
            }
            return (width, height, pixels)
        }
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown libjpeg-turbo error" }
        return String(cString: text)
    }

    /// The library's version (libjpeg-turbo exports no run-time version, so the headers' one).
    static var version: String {
        let v = Int(LIBJPEG_TURBO_VERSION_NUMBER)
        return "\(v / 1_000_000).\(v / 1000 % 1000).\(v % 1000)"
    }
}
