import Foundation
internal import MapCompression

/// A fast path for the PNGs golden-image tests compare most: 8-bit RGB or RGBA, not interlaced, with only
/// IHDR, IDAT and IEND chunks (what MapRaster's own writer and most encoders write). The image data is
/// inflated with libdeflate in one call into a buffer of the size the header announces, then unfiltered;
/// about twice as fast as libspng's streaming zlib.
///
/// It decodes only files that libspng decodes too, to the same bytes: every chunk's CRC and the zlib
/// checksum are checked, and anything else (another chunk, a CRC or zlib error, a filter type out of
/// range, data before IHDR or after the image data) returns nil, and ``SPNG`` decodes the file, or reports
/// its error, as before.
enum PNGReader {
    /// Decodes `data` to straight RGBA8, or nil when the file is not one the fast path takes.
    static func decodeRGBA8(_ data: Data) -> (width: Int, height: Int, pixels: [UInt8])? {
        data.withUnsafeBytes { raw in decode(raw) }
    }

    private static func be32(_ p: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(p[at]) << 24 | Int(p[at + 1]) << 16 | Int(p[at + 2]) << 8 | Int(p[at + 3])
    }

    private static func decode(_ raw: UnsafeRawBufferPointer) -> (width: Int, height: Int, pixels: [UInt8])? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard raw.count >= 8 + 25 + 12, raw.prefix(8).elementsEqual(signature) else { return nil }
        // IHDR: 13 bytes, first.
        guard be32(raw, 8) == 13, raw[12..<16].elementsEqual("IHDR".utf8), crcMatches(raw, at: 8) else { return nil }
        let width = be32(raw, 16)
        let height = be32(raw, 20)
        let depth = raw[24]
        let colorType = raw[25]
        guard width > 0, height > 0, width <= Int(SPNG.maximumSide), height <= Int(SPNG.maximumSide),
            width * height <= SPNG.maximumPixels, depth == 8, colorType == 2 || colorType == 6,
            raw[26] == 0, raw[27] == 0, raw[28] == 0
        else { return nil }
        let channels = colorType == 6 ? 4 : 3
        // The IDAT chunks, consecutive, then IEND; nothing else.
        var idat: [(start: Int, count: Int)] = []
        var offset = 33
        var ended = false
        while offset + 12 <= raw.count {
            let length = be32(raw, offset)
            guard length <= 0x7FFF_FFFF, length <= raw.count - offset - 12, crcMatches(raw, at: offset) else {
                return nil
            }
            let type = raw[(offset + 4)..<(offset + 8)]
            if type.elementsEqual("IDAT".utf8) {
                guard idat.isEmpty || idat[idat.count - 1].start + idat[idat.count - 1].count + 12 == offset + 8
                else { return nil }
                idat.append((offset + 8, length))
            } else if type.elementsEqual("IEND".utf8) {
                guard length == 0 else { return nil }
                ended = true
                break
            } else {
                return nil
            }
            offset += length + 12
        }
        guard ended, !idat.isEmpty else { return nil }
        // Deflate shrinks data at most about 1032 to 1: a file too small for its pixels goes to libspng,
        // which refuses it before allocating.
        let rowBytes = width * channels
        let filtered = height * (rowBytes + 1)
        let compressedCount = idat.reduce(0) { $0 + $1.count }
        guard filtered / SPNG.maximumDeflateRatio <= compressedCount else { return nil }
        var rows = [UInt8](repeating: 0, count: filtered)
        let inflated: Bool
        if idat.count == 1 {
            let stream = UnsafeRawBufferPointer(rebasing: raw[idat[0].start..<(idat[0].start + idat[0].count)])
            inflated = rows.withUnsafeMutableBytes { Deflate.zlibDecompress(stream, exactlyInto: $0) }
        } else {
            var joined: [UInt8] = []
            joined.reserveCapacity(compressedCount)
            for chunk in idat { joined.append(contentsOf: raw[chunk.start..<(chunk.start + chunk.count)]) }
            inflated = joined.withUnsafeBytes { stream in
                rows.withUnsafeMutableBytes { Deflate.zlibDecompress(stream, exactlyInto: $0) }
            }
        }
        guard inflated else { return nil }
        var failed = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, initialized in
            rows.withUnsafeMutableBufferPointer { rows in
                failed = !unfilter(rows, width: width, height: height, channels: channels, into: out)
            }
            initialized = failed ? 0 : width * height * 4
        }
        return failed ? nil : (width, height, pixels)
    }

    /// Whether the CRC of the chunk at `offset` (its type and data) matches the one stored after it.
    private static func crcMatches(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let length = be32(raw, offset)
        let body = UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 8 + length)])
        return Deflate.crc32(0, body) == UInt32(be32(raw, offset + 8 + length))
    }

    /// Undoes the filters row by row, in place, and writes RGBA into `out`; false for a filter type above 4.
    private static func unfilter(
        _ rows: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, channels bpp: Int,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let rowBytes = width * bpp
        let base = rows.baseAddress!
        for y in 0..<height {
            let row = base + y * (rowBytes + 1) + 1
            let filter = row[-1]
            let prior: UnsafeMutablePointer<UInt8>? = y > 0 ? base + (y - 1) * (rowBytes + 1) + 1 : nil
            switch filter {
            case 0: break
            case 1:
                for i in bpp..<rowBytes { row[i] &+= row[i - bpp] }
            case 2:
                if let prior { for i in 0..<rowBytes { row[i] &+= prior[i] } }
            case 3:
                for i in 0..<rowBytes {
                    let left = i >= bpp ? Int(row[i - bpp]) : 0
                    let up = prior.map { Int($0[i]) } ?? 0
                    row[i] &+= UInt8((left + up) >> 1)
                }
            case 4:
                for i in 0..<rowBytes {
                    let a = i >= bpp ? Int(row[i - bpp]) : 0
                    let b = prior.map { Int($0[i]) } ?? 0
                    let c = i >= bpp ? (prior.map { Int($0[i - bpp]) } ?? 0) : 0
                    let p = a + b - c
                    let pa = abs(p - a)
                    let pb = abs(p - b)
                    let pc = abs(p - c)
                    row[i] &+= UInt8(pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
                }
            default: return false
            }
            let target = out.baseAddress! + y * width * 4
            if bpp == 4 {
                target.initialize(from: row, count: rowBytes)
            } else {
                for x in 0..<width {
                    (target + x * 4).initialize(to: row[x * 3])
                    (target + x * 4 + 1).initialize(to: row[x * 3 + 1])
                    (target + x * 4 + 2).initialize(to: row[x * 3 + 2])
                    (target + x * 4 + 3).initialize(to: 255)
                }
            }
        }
        return true
    }
}
