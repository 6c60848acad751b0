import Foundation
import MapData
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
        do { data = try FileReader.read(url) } catch {
            throw GraphicsError.cannotReadPNG(path: url.path, reason: error.problem.description)
        }
        try self.init(pngData: data, source: url.path)
    }

    /// Width and height from a PNG's header (signature and IHDR), read before decoding so that a huge
    /// image can be refused unread; nil when `data` does not start as a PNG.
    public static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8].elementsEqual(signature), bytes[12..<16].elementsEqual("IHDR".utf8)
        else { return nil }
        return (bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, bytes[20..<24].reduce(0) { $0 << 8 | Int($1) })
    }

    /// Decodes PNG bytes; `source` names them in errors.
    ///
    /// 8-bit RGB and RGBA files with only IHDR, IDAT and IEND chunks take a faster path (one libdeflate call, see
    /// `PNGReader`) that gives the same bytes; every other file, and every error, goes through libspng.
    public init(pngData data: Data, source: String) throws {
        if let fast = PNGReader.decodeRGBA8(data) {
            self.init(width: fast.width, height: fast.height, bytes: fast.pixels)
            return
        }
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
        try PNGWriter.encodeRGBA8(
            width: width, height: height, pixels: bytes, compressionLevel: max(0, min(9, compressionLevel)))
    }

    /// Encodes as a palette (8-bit or smaller) PNG.
    ///
    /// An image with at most 16 distinct colors is stored exactly, its palette in order of first
    /// appearance; a richer image is quantized with libimagequant, without dithering, to as few colors as
    /// reach `maximumQuality` (90 by default: on map tiles no pixel then differs from the 32-bit tile at
    /// pixelmatch's threshold 0.1, and tiles are about a third smaller than Mapnik's png8). Both are
    /// deterministic: equal images give equal bytes.
    ///
    /// - Parameters:
    ///   - compressionLevel: deflate level 0...12.
    ///   - speed: libimagequant's speed 1 (slowest, best) ... 10 (fastest).
    ///   - maximumQuality: libimagequant's quality target 1...100.
    /// - Throws: ``GraphicsError/cannotWritePNG(path:reason:)``.
    public func palettePNGData(compressionLevel: Int = 6, speed: Int = 10, maximumQuality: Int = 90) throws -> Data {
        let level = max(0, min(12, compressionLevel))
        if let exact = exactPalette(), exact.palette.count <= 16 * 4 {
            return try PNGWriter.encodeIndexed(
                width: width, height: height, palette: exact.palette, indices: exact.indices, compressionLevel: level)
        }
        guard
            let quantized = ImageQuant.quantize(
                width: width, height: height, pixels: bytes, speed: speed, maximumQuality: maximumQuality)
        else {
            throw GraphicsError.cannotWritePNG(path: "(memory)", reason: "libimagequant could not quantize the image")
        }
        return try PNGWriter.encodeIndexed(
            width: width, height: height, palette: quantized.palette, indices: quantized.indices,
            compressionLevel: level)
    }

    /// The palette and indices when the image has at most 256 distinct colors.
    private func exactPalette() -> (palette: [UInt8], indices: [UInt8])? {
        var lookup: [UInt32: UInt8] = [:]
        var palette: [UInt8] = []
        var indices = [UInt8](repeating: 0, count: width * height)
        return bytes.withUnsafeBytes { raw -> (palette: [UInt8], indices: [UInt8])? in
            for i in 0..<(width * height) {
                let word = raw.load(fromByteOffset: i * 4, as: UInt32.self)
                if let index = lookup[word] {
                    indices[i] = index
                    continue
                }
                guard lookup.count < 256 else { return nil }
                let index = UInt8(lookup.count)
                lookup[word] = index
                palette += [bytes[i * 4], bytes[i * 4 + 1], bytes[i * 4 + 2], bytes[i * 4 + 3]]
                indices[i] = index
            }
            return (palette, indices)
        }
    }

    /// Whether every pixel has the same value.
    public var isSingleColor: Bool {
        bytes.withUnsafeBytes { raw in
            let first = raw.load(as: UInt32.self)
            for i in 1..<(width * height) where raw.load(fromByteOffset: i * 4, as: UInt32.self) != first {
                return false
            }
            return true
        }
    }

    /// Writes the image as PNG atomically (temporary file, then rename; a character device or a FIFO being
    /// read is written directly).
    ///
    /// - Throws: `FileWriteError` naming the file and what to do, or
    ///   ``GraphicsError/cannotWritePNG(path:reason:)`` when the image cannot be encoded.
    public func writePNG(to url: URL) throws {
        let data: Data
        do { data = try pngData() } catch GraphicsError.cannotWritePNG(_, let reason) {
            throw GraphicsError.cannotWritePNG(path: url.path, reason: reason)
        }
        try AtomicFile.write(data, to: url)
    }
}
