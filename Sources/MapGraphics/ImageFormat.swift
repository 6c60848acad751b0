import Foundation
import MapGeometry

/// The file formats maps and tiles are written in.
///
/// ```swift
/// let format = ImageFormat(pathExtension: "map.webp") ?? .png   // .webp
/// let data = try snapshot.image.encoded(as: format, quality: 80)
/// ```
public enum ImageFormat: String, Sendable, CaseIterable {
    /// 8-bit RGBA PNG (RGB when every pixel is opaque): exact.
    case png
    /// Palette PNG: exact up to 16 colors, quantized with libimagequant beyond.
    case png8
    /// Baseline JPEG through libjpeg-turbo (4:4:4 chroma). JPEG has no alpha: transparent pixels are
    /// composited over a background color (white unless given).
    case jpeg = "jpg"
    /// Lossy WebP through libwebp, with an alpha plane when the image has transparent pixels.
    case webp

    /// The quality used when none is given: 90 of 1...100.
    public static let defaultQuality = 90
    /// The accepted qualities of JPEG and WebP.
    public static let qualityRange = 1...100

    /// The format named `name`: `png`, `png8`, `jpg` (or `jpeg`), `webp`, any case; nil for another name.
    public init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "png8": self = .png8
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The format a file name's extension asks for (`.png`, `.jpg`, `.jpeg`, `.webp`, any case), or nil
    /// when it has another extension or none.
    public init?(pathExtension path: String) {
        let name = (path as NSString).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        guard ext != "png8", let format = ImageFormat(name: ext) else { return nil }
        self = format
    }

    /// The file extension without the dot: `png` (also for png8), `jpg` or `webp`. Also the MBTiles
    /// `format` metadata value.
    public var fileExtension: String {
        switch self {
        case .png, .png8: return "png"
        case .jpeg: return "jpg"
        case .webp: return "webp"
        }
    }

    /// The media type: `image/png`, `image/jpeg` or `image/webp`.
    public var mediaType: String {
        switch self {
        case .png, .png8: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        }
    }

    /// The format's name for messages: `PNG`, `JPEG` or `WebP`.
    public var displayName: String {
        switch self {
        case .png, .png8: return "PNG"
        case .jpeg: return "JPEG"
        case .webp: return "WebP"
        }
    }

    /// Whether the format keeps transparency (all but JPEG).
    public var keepsAlpha: Bool { self != .jpeg }

    /// Whether `quality` changes the output (JPEG and WebP).
    public var usesQuality: Bool { self == .jpeg || self == .webp }
}

extension RGBAImage {
    /// Encodes the image in `format`: the package's one image encoder, used by the command line, the tiles
    /// and the snapshot API. Equal images and settings give equal bytes.
    ///
    /// JPEG has no alpha channel: each pixel is composited over `background` (white by default; pass the
    /// map's background color to match it), so a map drawn without a base map comes out on white.
    ///
    /// ```swift
    /// let jpeg = try image.encoded(as: .jpeg, quality: 85)
    /// ```
    ///
    /// - Parameters:
    ///   - format: the file format.
    ///   - quality: 1...100 for JPEG and WebP (ignored by PNG); values outside are clamped.
    ///   - compressionLevel: zlib level of PNG and png8 (0...9).
    ///   - background: the color JPEG composites transparent pixels over (its alpha is ignored).
    /// - Returns: the file's bytes.
    /// - Throws: ``GraphicsError/cannotWritePNG(path:reason:)`` or ``GraphicsError/cannotEncode(format:reason:)``.
    public func encoded(
        as format: ImageFormat, quality: Int = ImageFormat.defaultQuality, compressionLevel: Int = 6,
        background: Color = .white
    ) throws -> Data {
        switch format {
        case .png: return try pngData(compressionLevel: compressionLevel)
        case .png8: return try palettePNGData(compressionLevel: compressionLevel)
        case .jpeg:
            return try TurboJPEG.encodeRGB(
                width: width, height: height, pixels: opaqueRGB(over: background), quality: quality)
        case .webp:
            let opaque = stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 }
            return try WebP.encode(width: width, height: height, pixels: bytes, opaque: opaque, quality: quality)
        }
    }

    /// RGB8 bytes of the image composited over `background` (straight alpha, rounded to nearest).
    func opaqueRGB(over background: Color) -> [UInt8] {
        func byte(_ v: Double) -> UInt32 { UInt32((max(0, min(1, v.isFinite ? v : 1)) * 255).rounded()) }
        let back = [byte(background.red), byte(background.green), byte(background.blue)]
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            let a = UInt32(bytes[i * 4 + 3])
            for c in 0..<3 {
                let value = UInt32(bytes[i * 4 + c]) * a + back[c] * (255 - a)
                rgb[i * 3 + c] = UInt8((value + 127) / 255)
            }
        }
        return rgb
    }

    /// The largest image decoded by ``init(imageData:source:)``: 2^28 pixels (1 GiB of RGBA).
    public static let maximumDecodedPixels = 1 << 28
    /// Pixels a JPEG or WebP file may decode to per byte of the file beyond 2048x2048, so that a few
    /// hundred bytes claiming 16383x16383 pixels cannot take a gigabyte (the PNG decoder bounds its deflate
    /// ratio the same way). The flattest images come near half of it: one color at 4096x4096 and quality
    /// 90 takes 459 KB as JPEG (37 pixels per byte) and 30 KB as WebP (561 pixels per byte).
    public static let maximumPixelsPerByte = 1024

    /// The most pixels a JPEG or WebP file of `byteCount` bytes is decoded to.
    static func pixelLimit(forFileOf byteCount: Int) -> Int {
        let (scaled, overflow) = byteCount.multipliedReportingOverflow(by: maximumPixelsPerByte)
        return min(maximumDecodedPixels, max(1 << 22, overflow ? Int.max : scaled))
    }

    /// Decodes a PNG, JPEG or WebP file (told apart by their first bytes) to straight RGBA8; JPEG pixels
    /// get alpha 255.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - source: names the bytes in errors (a path).
    /// - Throws: ``GraphicsError/cannotReadPNG(path:reason:)`` or ``GraphicsError/cannotReadImage(path:reason:)``
    ///   naming `source`: not one of the three formats, truncated, corrupt, larger than
    ///   ``maximumDecodedPixels``, or (JPEG and WebP) more than 2048x2048 pixels and more than
    ///   ``maximumPixelsPerByte`` pixels per byte of the file.
    public init(imageData data: Data, source: String) throws {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            try self.init(pngData: data, source: source)
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            let d = try TurboJPEG.decodeRGBA(
                data, source: source, maximumPixels: Self.pixelLimit(forFileOf: data.count))
            self.init(width: d.width, height: d.height, bytes: d.pixels)
        } else if head.count == 12, head[0..<4] == [0x52, 0x49, 0x46, 0x46], head[8..<12] == [0x57, 0x45, 0x42, 0x50] {
            let d = try WebP.decodeRGBA(data, source: source, maximumPixels: Self.pixelLimit(forFileOf: data.count))
            self.init(width: d.width, height: d.height, bytes: d.pixels)
        } else {
            throw GraphicsError.cannotReadImage(path: source, reason: "not a PNG, JPEG or WebP file")
        }
    }
}

extension ImageSurface {
    /// The image encoded in `format` by ``RGBAImage/encoded(as:quality:compressionLevel:background:)``.
    ///
    /// ```swift
    /// let snapshot = try MapSnapshotter(options: options).snapshot()
    /// try snapshot.image.encoded(as: .webp, quality: 80).write(to: URL(fileURLWithPath: "map.webp"))
    /// ```
    ///
    /// - Throws: ``GraphicsError/cannotWritePNG(path:reason:)`` or ``GraphicsError/cannotEncode(format:reason:)``.
    public func encoded(
        as format: ImageFormat, quality: Int = ImageFormat.defaultQuality, compressionLevel: Int = 6,
        background: Color = .white
    ) throws -> Data {
        // PNG straight from the surface (the same bytes as through RGBAImage, without its copy).
        if format == .png { return try PNGWriter.encode(self, compressionLevel: max(0, min(9, compressionLevel))) }
        return try RGBAImage(self).encoded(
            as: format, quality: quality, compressionLevel: compressionLevel, background: background)
    }
}
