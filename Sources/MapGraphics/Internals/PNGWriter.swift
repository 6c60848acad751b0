import Foundation
internal import MapCompression

/// A minimal PNG writer: signature, IHDR, optional PLTE and tRNS, one IDAT of unfiltered rows, IEND.
/// No timestamps or other ancillary chunks, so equal images give equal bytes.
enum PNGWriter {
    static func encode(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [UInt8], rowBytes: Int,
        palette: [UInt8]? = nil, compressionLevel: Int
    ) throws -> Data {
        // Each row gets filter type 0 (None): flat map colors compress best unfiltered.
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        rows.withUnsafeBytes { src in
            raw.withUnsafeMutableBytes { dst in
                for y in 0..<height {
                    dst.baseAddress!.advanced(by: y * (rowBytes + 1) + 1)
                        .copyMemory(from: src.baseAddress!.advanced(by: y * rowBytes), byteCount: rowBytes)
                }
            }
        }
        let compressed: [UInt8]
        do {
            compressed = try Deflate.zlibCompress(raw, level: compressionLevel)
        } catch {
            throw GraphicsError.cannotWritePNG(path: "(memory)", reason: "\(error)")
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func chunk(_ type: String, _ body: [UInt8]) {
            var length = UInt32(body.count).bigEndian
            png.append(Data(bytes: &length, count: 4))
            var typed = Array(type.utf8)
            typed.append(contentsOf: body)
            png.append(contentsOf: typed)
            var crc = typed.withUnsafeBytes { Deflate.crc32(0, $0) }.bigEndian
            png.append(Data(bytes: &crc, count: 4))
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
        var opaque = true
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 {
                opaque = false
                break
            }
            i += 4
        }
        guard opaque else {
            return try PNGWriter.encode(
                width: width, height: height, bitDepth: 8, colorType: 6, rows: pixels, rowBytes: width * 4,
                compressionLevel: compressionLevel)
        }
        var rgb = [UInt8](repeating: 0, count: pixels.count / 4 * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            pixels.withUnsafeBufferPointer { px in
                var o = 0
                var p = 0
                while p < px.count {
                    out[o] = px[p]
                    out[o + 1] = px[p + 1]
                    out[o + 2] = px[p + 2]
                    o += 3
                    p += 4
                }
            }
        }
        return try PNGWriter.encode(
            width: width, height: height, bitDepth: 8, colorType: 2, rows: rgb, rowBytes: width * 3,
            compressionLevel: compressionLevel)
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
