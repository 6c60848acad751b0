import Foundation
import MapGeometry

/// An owned ARGB32 image in device pixels: what a map is drawn into and what PNG files decode to.
///
/// ```swift
/// let surface = try ImageSurface(width: 512, height: 512)
/// let context = try GraphicsContext(surface: surface)
/// context.setFillColor(.red)
/// context.fill(Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)))
/// try surface.writePNG(to: URL(fileURLWithPath: "out.png"))
/// ```
public final class ImageSurface {
    let cairo: CairoSurface

    /// Creates a transparent image.
    ///
    /// - Throws: ``GraphicsError/invalidSurfaceSize(width:height:)`` or a Cairo error.
    public init(width: Int, height: Int) throws {
        cairo = try CairoSurface(width: width, height: height)
    }

    /// Decodes a PNG file (8- or 16-bit, grey, RGB, palette, with or without alpha) with libspng.
    ///
    /// - Throws: ``GraphicsError/cannotReadPNG(path:reason:)`` naming the file.
    public convenience init(contentsOfPNG url: URL) throws {
        let image = try RGBAImage(contentsOfPNG: url)
        try self.init(rgba: image.bytes, width: image.width, height: image.height)
    }

    /// Decodes PNG bytes from memory (a tile from MBTiles, say); `source` names them in errors.
    ///
    /// - Throws: ``GraphicsError/cannotReadPNG(path:reason:)`` naming `source`.
    public convenience init(pngData data: Data, source: String) throws {
        let image = try RGBAImage(pngData: data, source: source)
        try self.init(rgba: image.bytes, width: image.width, height: image.height)
    }

    /// Width in device pixels.
    public var width: Int { cairo.width }
    /// Height in device pixels.
    public var height: Int { cairo.height }

    /// One pixel with straight (not premultiplied) 8-bit components.
    public struct Pixel: Hashable, Sendable, CustomStringConvertible {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8
        public var alpha: UInt8

        /// Creates a pixel.
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        public var description: String { "rgba(\(red),\(green),\(blue),\(alpha))" }
    }

    /// The pixel at column `x`, row `y` (0-based from the top-left), unpremultiplied.
    public func pixel(x: Int, y: Int) -> Pixel {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel \(x),\(y) outside \(width)x\(height)")
        return cairo.withPixels { base, stride in
            let word = base.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
            return Self.unpremultiply(word)
        }
    }

    /// All pixels, row by row, unpremultiplied RGBA bytes (4 per pixel, no padding).
    public func rgbaBytes() -> [UInt8] {
        rgbaBytes(x: 0, y: 0, width: width, height: height)
    }

    /// The pixels of a rectangle (which must lie inside), row by row, unpremultiplied RGBA bytes.
    public func rgbaBytes(x x0: Int, y y0: Int, width w: Int, height h: Int) -> [UInt8] {
        precondition(x0 >= 0 && y0 >= 0 && w >= 0 && h >= 0 && x0 + w <= width && y0 + h <= height, "outside the image")
        return [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, initialized in
            cairo.withPixels { base, stride in
                let bytes = UnsafeMutableRawPointer(out.baseAddress!)
                for y in 0..<h {
                    let row = base.advanced(by: (y0 + y) * stride + x0 * 4).assumingMemoryBound(to: UInt32.self)
                    var i = y * w * 4
                    for x in 0..<w {
                        let word = row[x]
                        if word >= 0xFF00_0000 {
                            // Opaque: the bytes r, g, b, 255 in one store (ARGB's r and b swapped, as a
                            // little-endian word).
                            let rgba = (word & 0xFF00_FF00) | ((word >> 16) & 0xFF) | ((word & 0xFF) << 16)
                            bytes.storeBytes(of: rgba.littleEndian, toByteOffset: i, as: UInt32.self)
                        } else {
                            let p = Self.unpremultiply(word)
                            out[i] = p.red
                            out[i + 1] = p.green
                            out[i + 2] = p.blue
                            out[i + 3] = p.alpha
                        }
                        i += 4
                    }
                }
            }
            initialized = w * h * 4
        }
    }

    /// The PNG of a rectangle (which must lie inside) when every pixel in it is opaque, written straight from
    /// the surface: the same bytes as `RGBAImage(width:height:bytes: rgbaBytes(x:y:width:height:))
    /// .pngData(compressionLevel:)` without the RGBA copy. nil when a pixel is not opaque or the rectangle is
    /// empty.
    ///
    /// - Throws: ``GraphicsError/cannotWritePNG(path:reason:)``.
    public func opaquePNGData(x: Int, y: Int, width w: Int, height h: Int, compressionLevel: Int = 6) throws -> Data? {
        precondition(x >= 0 && y >= 0 && w >= 0 && h >= 0 && x + w <= width && y + h <= height, "outside the image")
        guard w > 0, h > 0 else { return nil }
        return try PNGWriter.encodeOpaque(
            self, x: x, y: y, width: w, height: h, compressionLevel: max(0, min(9, compressionLevel)))
    }

    /// The one color of a rectangle (which must lie inside) as unpremultiplied RGBA bytes when all its pixels
    /// are equal (what `rgbaBytes(x:y:width:height:).prefix(4)` gives then); nil when they differ or the
    /// rectangle is empty.
    public func singleColor(x x0: Int, y y0: Int, width w: Int, height h: Int) -> [UInt8]? {
        precondition(x0 >= 0 && y0 >= 0 && w >= 0 && h >= 0 && x0 + w <= width && y0 + h <= height, "outside the image")
        guard w > 0, h > 0 else { return nil }
        let same = cairo.withPixels { base, stride in
            let first = base.load(fromByteOffset: y0 * stride + x0 * 4, as: UInt32.self)
            for y in y0..<(y0 + h) {
                let row = base.advanced(by: y * stride + x0 * 4)
                for x in 0..<w where row.load(fromByteOffset: 4 * x, as: UInt32.self) != first { return false }
            }
            return true
        }
        return same ? rgbaBytes(x: x0, y: y0, width: 1, height: 1) : nil
    }

    private static func unpremultiply(_ word: UInt32) -> Pixel {
        let a = UInt32((word >> 24) & 0xFF)
        guard a > 0 else { return Pixel(red: 0, green: 0, blue: 0, alpha: 0) }
        func channel(_ shift: UInt32) -> UInt8 {
            let c = (word >> shift) & 0xFF
            return UInt8(min(255, (c * 255 + a / 2) / a))
        }
        return Pixel(red: channel(16), green: channel(8), blue: channel(0), alpha: UInt8(a))
    }

    /// The image encoded as PNG by the package's one PNG encoder (``RGBAImage/pngData(compressionLevel:)``:
    /// 8-bit RGBA, or RGB when every pixel is opaque; no timestamps, so equal images give equal bytes), at
    /// zlib `compressionLevel` 0...9 (clamped; 6 by default, 1 is MapLibre Native's effort).
    ///
    /// - Throws: ``GraphicsError/cannotWritePNG(path:reason:)``.
    public func pngData(compressionLevel: Int = 6) throws -> Data {
        try PNGWriter.encode(self, compressionLevel: max(0, min(9, compressionLevel)))
    }

    /// Writes the image as PNG atomically: to a temporary file in the same folder, then renamed, so that
    /// a failure never leaves a half-written file at `url`. A character device (`/dev/null`) or a FIFO
    /// being read is written directly.
    ///
    /// - Throws: `FileWriteError` naming the file and what to do, or
    ///   ``GraphicsError/cannotWritePNG(path:reason:)`` when the image cannot be encoded.
    public func writePNG(to url: URL) throws { try RGBAImage(self).writePNG(to: url) }
}

extension ImageSurface {
    /// Creates an image from unpremultiplied RGBA bytes, row by row without padding.
    ///
    /// - Throws: ``GraphicsError/invalidSurfaceSize(width:height:)`` when the byte count does not match.
    public convenience init(rgba bytes: [UInt8], width: Int, height: Int) throws {
        guard bytes.count == width * height * 4 else {
            throw GraphicsError.invalidSurfaceSize(width: width, height: height)
        }
        try self.init(width: width, height: height)
        cairo.withPixels { base, stride in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let a = UInt32(bytes[i + 3])
                    func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                    let word = (a << 24) | (pre(bytes[i]) << 16) | (pre(bytes[i + 1]) << 8) | pre(bytes[i + 2])
                    base.storeBytes(of: word, toByteOffset: y * stride + x * 4, as: UInt32.self)
                }
            }
        }
        cairo.markDirty()
    }
}

extension ImageSurface {
    /// Creates an image from premultiplied RGBA bytes (each color component already multiplied by
    /// alpha, as GPU blending produces them), row by row without padding.
    ///
    /// - Throws: ``GraphicsError/invalidSurfaceSize(width:height:)`` when the byte count does not match.
    public convenience init(premultipliedRGBA bytes: [UInt8], width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, bytes.count == width * height * 4 else {
            throw GraphicsError.invalidSurfaceSize(width: width, height: height)
        }
        try self.init(width: width, height: height)
        cairo.withPixels { base, stride in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let a = UInt32(bytes[i + 3])
                    func c(_ v: UInt8) -> UInt32 { min(UInt32(v), a) }
                    let word = (a << 24) | (c(bytes[i]) << 16) | (c(bytes[i + 1]) << 8) | c(bytes[i + 2])
                    base.storeBytes(of: word, toByteOffset: y * stride + x * 4, as: UInt32.self)
                }
            }
        }
        cairo.markDirty()
    }
}
