import Foundation
import MapGeometry

/// An image as straight (not premultiplied) 8-bit RGBA bytes, row by row without padding: what a PNG file
/// holds, exactly, and what the diff tool compares.
///
/// ```swift
/// let expected = try RGBAImage(contentsOfPNG: URL(fileURLWithPath: "expected.png"))
/// let red = expected.pixel(x: 0, y: 0).red
/// ```
public struct RGBAImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A of each pixel, rows from the top.
    public var bytes: [UInt8]

    /// Creates an image from its bytes. A byte count other than `width * height * 4` is a programmer error.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width > 0 && height > 0 && bytes.count == width * height * 4, "RGBA buffer size mismatch")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// Creates an image of one color.
    public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: bytes.count, by: 4) {
            bytes[i] = red
            bytes[i + 1] = green
            bytes[i + 2] = blue
            bytes[i + 3] = alpha
        }
        self.init(width: width, height: height, bytes: bytes)
    }

    /// Decodes a PNG file of any flavour (grey, palette, 8- or 16-bit, with or without alpha) exactly:
    /// 16-bit channels keep their high byte, palette transparency applies, no gamma correction.
    ///
    /// - Throws: ``GraphicsError/cannotReadPNG(path:reason:)`` naming the file: missing, not a PNG,
    ///   truncated or corrupt.
    public init(contentsOfPNG url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw GraphicsError.cannotReadPNG(path: url.path, reason: exists ? "cannot read the file" : "no such file")
        }
        try self.init(pngData: data, source: url.path)
    }

    /// Decodes PNG bytes; `source` names them in errors.
    public init(pngData data: Data, source: String) throws {
        let decoded = try SPNG.decodeRGBA8(data, source: source)
        self.init(width: decoded.width, height: decoded.height, bytes: decoded.pixels)
    }

    /// The unpremultiplied pixels of a Cairo surface.
    public init(_ surface: ImageSurface) {
        self.init(width: surface.width, height: surface.height, bytes: surface.rgbaBytes())
    }

    /// The pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> ImageSurface.Pixel {
        let i = (y * width + x) * 4
        return ImageSurface.Pixel(red: bytes[i], green: bytes[i + 1], blue: bytes[i + 2], alpha: bytes[i + 3])
    }

    /// Encodes as an 8-bit RGBA PNG with libspng; zlib `compressionLevel` 0...9 (6 by default).
    ///
    /// - Throws: ``GraphicsError/cannotWritePNG(path:reason:)``.
    public func pngData(compressionLevel: Int = 6) throws -> Data {
        try SPNG.encodeRGBA8(
            width: width, height: height, pixels: bytes, compressionLevel: max(0, min(9, compressionLevel)))
    }

    /// Writes the image as PNG atomically (temporary file, then rename).
    ///
    /// - Throws: ``GraphicsError/cannotWritePNG(path:reason:)`` naming the file.
    public func writePNG(to url: URL) throws {
        let data: Data
        do { data = try pngData() } catch GraphicsError.cannotWritePNG(_, let reason) {
            throw GraphicsError.cannotWritePNG(path: url.path, reason: reason)
        }
        try AtomicFile.write(data, to: url)
    }
}
