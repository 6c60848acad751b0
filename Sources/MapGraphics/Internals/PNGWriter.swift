import Foundation
internal import MapCompression

/// A minimal PNG writer: signature, IHDR, optional PLTE and tRNS, one IDAT of unfiltered rows, IEND.
/// No timestamps or other ancillary chunks, so equal images give equal bytes.
enum PNGWriter {
    static func encode(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [UInt8], rowBytes: Int,
        palette: [UInt8]? = nil, compressionLevel: Int
    ) throws -> Data {
        try rows.withUnsafeBytes { src in
            try encode(
                width: width, height: height, bitDepth: bitDepth, colorType: colorType, rowBytes: rowBytes,
                palette: palette, compressionLevel: compressionLevel
            ) { row, y in
                row.copyMemory(from: src.baseAddress!.advanced(by: y * rowBytes), byteCount: rowBytes)
            }
        }
    }

    /// Encodes rows that `fill` writes: `fill(row, y)` writes row `y`'s `rowBytes` bytes at `row` (the
    /// filter byte before it is the writer's).
    static func encode(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rowBytes: Int, palette: [UInt8]? = nil,
        compressionLevel: Int, fill: (UnsafeMutableRawPointer, Int) -> Void
    ) throws -> Data {
        // Each row gets filter type 0 (None): flat map colors compress best unfiltered. The rows are written
        // straight into the buffer deflate reads, each after its filter byte.
        let count = (rowBytes + 1) * height
        let raw = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let base = UnsafeMutableRawPointer(buffer.baseAddress!)
            for y in 0..<height {
                let row = base.advanced(by: y * (rowBytes + 1))
                row.storeBytes(of: 0, as: UInt8.self)
                fill(row + 1, y)
            }
            initialized = count
        }
        let compressed: [UInt8]
        do {
            compressed = try Deflate.zlibCompress(raw, level: compressionLevel)
        } catch {
            throw GraphicsError.cannotWritePNG(path: "(memory)", reason: "\(error)")
        }
        var png = Data(capacity: compressed.count + 128 + (palette?.count ?? 0))
        png.append(contentsOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func chunk(_ type: String, _ body: [UInt8]) {
            let length = UInt32(body.count)
            png.append(contentsOf: [
                UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
            ])
            let typed = Array(type.utf8)
            png.append(contentsOf: typed)
            png.append(contentsOf: body)
            let crc = body.withUnsafeBytes { Deflate.crc32(typed.withUnsafeBytes { Deflate.crc32(0, $0) }, $0) }
            png.append(contentsOf: [
                UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF),
            ])
        }
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0])
        if let palette {
            let count = palette.count / 4
            var plte: [UInt8] = []
            var trns: [UInt8] = []
            for i in 0..<count {
                plte += [palette[i * 4], palette[i * 4 + 1], palette[i * 4 + 2]]
                trns.append(palette[i * 4 + 3])
            }
            chunk("PLTE", plte)
            if let last = trns.lastIndex(where: { $0 < 255 }) { chunk("tRNS", Array(trns[...last])) }
        }
        chunk("IDAT", compressed)
        chunk("IEND", [])
        return png
    }

    /// Encodes straight RGBA8 as an 8-bit RGBA PNG, or RGB when every pixel is opaque.
    static func encodeRGBA8(width: Int, height: Int, pixels: [UInt8], compressionLevel: Int) throws -> Data {
        let opaque = pixels.withUnsafeBytes { raw in
            var i = 3
            while i < raw.count {
                if raw[i] != 255 { return false }
                i += 4
            }
            return true
        }
        guard opaque else {
            return try PNGWriter.encode(
                width: width, height: height, bitDepth: 8, colorType: 6, rows: pixels, rowBytes: width * 4,
                compressionLevel: compressionLevel)
        }
        precondition(pixels.count == width * height * 4, "RGBA image size mismatch")
        return try pixels.withUnsafeBytes { px in
            try PNGWriter.encode(
                width: width, height: height, bitDepth: 8, colorType: 2, rowBytes: width * 3,
                compressionLevel: compressionLevel
            ) { row, y in
                let source = px.baseAddress!.advanced(by: y * width * 4)
                for x in 0..<width {
                    row.storeBytes(
                        of: source.load(fromByteOffset: 4 * x, as: UInt8.self), toByteOffset: 3 * x, as: UInt8.self)
                    row.storeBytes(
                        of: source.load(fromByteOffset: 4 * x + 1, as: UInt8.self), toByteOffset: 3 * x + 1,
                        as: UInt8.self)
                    row.storeBytes(
                        of: source.load(fromByteOffset: 4 * x + 2, as: UInt8.self), toByteOffset: 3 * x + 2,
                        as: UInt8.self)
                }
            }
        }
    }

    /// Encodes a Cairo surface (premultiplied ARGB32 words) as ``encodeRGBA8(width:height:pixels:compressionLevel:)``
    /// encodes its unpremultiplied bytes; an opaque surface's rows go straight into the PNG's rows (an opaque
    /// word's components need no unpremultiplying).
    static func encode(_ surface: ImageSurface, compressionLevel: Int) throws -> Data {
        let width = surface.width
        let height = surface.height
        if width > 0, height > 0,
            let png = try encodeOpaque(
                surface, x: 0, y: 0, width: width, height: height, compressionLevel: compressionLevel)
        {
            return png
        }
        return try encodeRGBA8(
            width: width, height: height, pixels: surface.rgbaBytes(), compressionLevel: compressionLevel)
    }

    /// The RGB PNG of a rectangle of `surface` (which must lie inside and not be empty) when every pixel in it
    /// is opaque, written from the surface's words; nil when one is not.
    static func encodeOpaque(
        _ surface: ImageSurface, x x0: Int, y y0: Int, width: Int, height: Int, compressionLevel: Int
    ) throws -> Data? {
        let opaque = surface.cairo.withPixels { base, stride in
            // A row is opaque when the AND of its words keeps every alpha bit (a loop without exits).
            for y in y0..<(y0 + height) {
                let row = base.advanced(by: y * stride + 4 * x0)
                var all: UInt32 = 0xFFFF_FFFF
                for x in 0..<width { all &= row.load(fromByteOffset: 4 * x, as: UInt32.self) }
                if all < 0xFF00_0000 { return false }
            }
            return true
        }
        guard opaque else { return nil }
        return try surface.cairo.withPixels { base, stride in
            try PNGWriter.encode(
                width: width, height: height, bitDepth: 8, colorType: 2, rowBytes: width * 3,
                compressionLevel: compressionLevel
            ) { row, y in
                let source = base.advanced(by: (y0 + y) * stride + 4 * x0)
                for x in 0..<width {
                    let word = source.load(fromByteOffset: 4 * x, as: UInt32.self)
                    row.storeBytes(of: UInt8(truncatingIfNeeded: word >> 16), toByteOffset: 3 * x, as: UInt8.self)
                    row.storeBytes(of: UInt8(truncatingIfNeeded: word >> 8), toByteOffset: 3 * x + 1, as: UInt8.self)
                    row.storeBytes(of: UInt8(truncatingIfNeeded: word), toByteOffset: 3 * x + 2, as: UInt8.self)
                }
            }
        }
    }

    /// Encodes palette indices as an indexed PNG (1, 2, 4 or 8 bits per pixel, whichever fits the palette),
    /// with a tRNS chunk when any palette entry is not opaque.
    static func encodeIndexed(
        width: Int, height: Int, palette: [UInt8], indices: [UInt8], compressionLevel: Int
    ) throws -> Data {
        let count = palette.count / 4
        precondition(count >= 1 && count <= 256 && indices.count == width * height, "palette image mismatch")
        let depth = count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8
        let rowBytes = (width * depth + 7) / 8
        var packed = [UInt8](repeating: 0, count: rowBytes * height)
        if depth == 8 {
            packed = indices
        } else {
            let perByte = 8 / depth
            for y in 0..<height {
                for x in 0..<width {
                    let shift = 8 - depth * (x % perByte + 1)
                    packed[y * rowBytes + x / perByte] |= indices[y * width + x] << shift
                }
            }
        }
        return try PNGWriter.encode(
            width: width, height: height, bitDepth: UInt8(depth), colorType: 3, rows: packed, rowBytes: rowBytes,
            palette: palette, compressionLevel: compressionLevel)
    }
}
