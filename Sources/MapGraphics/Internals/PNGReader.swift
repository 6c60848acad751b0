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
        // Every byte is written by the inflater (or the file is refused), so the buffer is not zeroed first.
        var rows = [UInt8](unsafeUninitializedCapacity: filtered) { _, initialized in initialized = filtered }
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
    /// The row above the first is all zeros, as the PNG specification says.
    private static func unfilter(
        _ rows: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, channels bpp: Int,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let rowBytes = width * bpp
        let base = rows.baseAddress!
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        zeros.initialize(repeating: 0, count: rowBytes)
        defer { zeros.deallocate() }
        for y in 0..<height {
            let row = base + y * (rowBytes + 1) + 1
            let prior = y > 0 ? UnsafePointer(base + (y - 1) * (rowBytes + 1) + 1) : UnsafePointer(zeros)
            switch row[-1] {
            case 0: break
            case 1:
                var i = bpp
                while i < rowBytes {
                    row[i] &+= row[i - bpp]
                    i += 1
                }
            case 2:
                for i in 0..<rowBytes { row[i] &+= prior[i] }
            case 3:
                for i in 0..<bpp { row[i] &+= prior[i] >> 1 }
                var i = bpp
                while i < rowBytes {
                    row[i] &+= UInt8((Int(row[i - bpp]) + Int(prior[i])) >> 1)
                    i += 1
                }
            case 4:
                // The first pixel has no left neighbours: Paeth picks the byte above.
                for i in 0..<bpp { row[i] &+= prior[i] }
                var i = bpp
                while i < rowBytes {
                    let a = Int(row[i - bpp])
                    let b = Int(prior[i])
                    let c = Int(prior[i - bpp])
                    let pa = abs(b - c)
                    let pb = abs(a - c)
                    let pc = abs(a + b - 2 * c)
                    row[i] &+= UInt8(truncatingIfNeeded: pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
                    i += 1
                }
            default: return false
            }
            let target = out.baseAddress! + y * width * 4
            if bpp == 4 {
                target.initialize(from: row, count: rowBytes)
            } else {
                var source = UnsafePointer(row)
                var t = target
                for _ in 0..<width {
                    t.initialize(to: source[0])
                    (t + 1).initialize(to: source[1])
                    (t + 2).initialize(to: source[2])
                    (t + 3).initialize(to: 255)
                    source += 3
                    t += 4
                }
            }
        }
        return true
    }
}
