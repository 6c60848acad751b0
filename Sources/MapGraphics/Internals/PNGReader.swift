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
        // One buffer: the inflated rows go to its end and are unfiltered into RGBA from its start, each row
        // written only over rows already read (see `unfilter`), so decoding touches one image's memory, not
        // two. Every byte is written by the inflater or the unfilter step (or the file is refused), so the
        // buffer is not zeroed first.
        let pixelBytes = width * height * 4
        let layout = Layout(pixelBytes: pixelBytes, filteredBytes: filtered)
        var inflatedAll = false
        let pixels = [UInt8](unsafeUninitializedCapacity: layout.capacity) { buffer, initialized in
            initialized = 0
            let base = buffer.baseAddress!
            Prefault.advise(UnsafeMutableRawPointer(base), count: layout.capacity)
            let target = UnsafeMutableRawBufferPointer(start: base + layout.filteredOffset, count: filtered)
            if idat.count == 1 {
                let stream = UnsafeRawBufferPointer(rebasing: raw[idat[0].start..<(idat[0].start + idat[0].count)])
                inflatedAll = Deflate.zlibDecompress(stream, exactlyInto: target)
            } else {
                var joined: [UInt8] = []
                joined.reserveCapacity(compressedCount)
                for chunk in idat { joined.append(contentsOf: raw[chunk.start..<(chunk.start + chunk.count)]) }
                inflatedAll = joined.withUnsafeBytes { Deflate.zlibDecompress($0, exactlyInto: target) }
            }
            guard inflatedAll,
                PNGUnfilter.unfilter(
                    base, filteredAt: layout.filteredOffset, width: width, height: height, channels: channels)
            else {
                inflatedAll = false
                return
            }
            initialized = pixelBytes
        }
        return inflatedAll ? (width, height, pixels) : nil
    }

    /// Where the inflated rows go in the one buffer of a decode: at its end, so that the RGBA rows written
    /// from its start never overtake the filtered rows still to be read.
    ///
    /// Row `y` of RGBA ends at `4w(y + 1)`; filtered row `y + 1` starts at `offset + (y + 1)(cw + 1)`. With
    /// `offset = max(4wh, h(cw + 1)) - h(cw + 1)` that is `(w - 1)(h - y - 1) >= 0` bytes behind for
    /// three channels and `y + 1` bytes behind for four (where the offset is 0), and within a row the
    /// pixel written never passes the filtered pixel read. `padding` bytes after the rows let the unfilter
    /// step load four bytes for a three-byte pixel at the end of the last row.
    struct Layout {
        static let padding = 16
        let filteredOffset: Int
        let capacity: Int
        init(pixelBytes: Int, filteredBytes: Int) {
            filteredOffset = max(pixelBytes, filteredBytes) - filteredBytes
            capacity = max(pixelBytes, filteredBytes) + Self.padding
        }
    }

    /// Whether the CRC of the chunk at `offset` (its type and data) matches the one stored after it.
    private static func crcMatches(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let length = be32(raw, offset)
        let body = UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 8 + length)])
        return Deflate.crc32(0, body) == UInt32(be32(raw, offset + 8 + length))
    }
}

/// Page faults in bulk for a large fresh buffer that is about to be written through: one
/// `madvise(MADV_POPULATE_WRITE)` call maps every page of it, instead of one trap per 4 KiB page as the
/// decoder first touches it (a 4096x4096 image's 64 MiB are 16,384 pages; the traps were about 8 % of
/// the CPU time of a comparison). Only advice: on kernels before 5.14 the call fails and nothing changes.
///
/// Transparent huge pages (`MADV_HUGEPAGE`) would save more where the kernel has free 2 MiB pages, but where
/// memory is fragmented it compacts memory first, in the call, which was measured to stall a decode by up to
/// 0.4 s: not taken.
enum Prefault {
    static let page = 4096

    /// Maps the whole pages within `count` bytes at `start`; buffers under 1 MiB are left to fault as usual.
    static func advise(_ start: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux)
            guard count >= 1 << 20 else { return }
            let address = UInt(bitPattern: start)
            let first = (address + UInt(page) - 1) & ~UInt(page - 1)
            let end = (address + UInt(count)) & ~UInt(page - 1)
            guard end > first, let block = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = madvise(block, Int(end - first), MADV_POPULATE_WRITE)
        #endif
    }
}
