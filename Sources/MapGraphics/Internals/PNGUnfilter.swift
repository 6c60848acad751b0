import Foundation

/// Undoes PNG's row filters (PNG specification, section 9) for 8-bit RGB and RGBA, writing RGBA.
///
/// Works in one buffer laid out by `PNGReader.Layout`: the filtered rows (a filter-type byte, then the
/// row) at `filteredAt`, the RGBA rows written from the start. RGBA rows are unfiltered straight into
/// place, the row above read back from the output; RGB rows are unfiltered into a small row buffer
/// (the row above in another) and widened to RGBA from there, or widened straight from the filtered
/// data when neither they nor the next row need a row above. The filters work on whole pixels (four
/// lanes: the RGB lanes plus one ignored) so that Sub, Average and Paeth, whose every byte depends on the
/// byte to its left, take one step per pixel instead of one per byte.
enum PNGUnfilter {
    /// Unfilters and widens every row; false when a row's filter type is above 4.
    static func unfilter(
        _ base: UnsafeMutablePointer<UInt8>, filteredAt offset: Int, width: Int, height: Int, channels: Int
    ) -> Bool {
        channels == 4
            ? unfilterRGBA(base, filteredAt: offset, width: width, height: height)
            : unfilterRGB(base, filteredAt: offset, width: width, height: height)
    }

    private static func unfilterRGBA(
        _ base: UnsafeMutablePointer<UInt8>, filteredAt offset: Int, width: Int, height: Int
    ) -> Bool {
        let rowBytes = width * 4
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        zeros.initialize(repeating: 0, count: rowBytes)
        defer { zeros.deallocate() }
        for y in 0..<height {
            let source = base + offset + y * (rowBytes + 1)
            let target = base + y * rowBytes
            let prior = y > 0 ? UnsafePointer(target - rowBytes) : UnsafePointer(zeros)
            guard row(source[0], UnsafePointer(source + 1), prior, target, pixels: width, bpp: 4) else {
                return false
            }
        }
        return true
    }

    private static func unfilterRGB(
        _ base: UnsafeMutablePointer<UInt8>, filteredAt offset: Int, width: Int, height: Int
    ) -> Bool {
        let rowBytes = width * 3
        // Two rows with room for a four-byte store at the last pixel.
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * (rowBytes + 16))
        scratch.initialize(repeating: 0, count: 2 * (rowBytes + 16))
        defer { scratch.deallocate() }
        var current = scratch
        var above = scratch + rowBytes + 16
        for y in 0..<height {
            let source = base + offset + y * (rowBytes + 1)
            let target = base + y * width * 4
            let filter = source[0]
            let nextFilter = y + 1 < height ? source[rowBytes + 1] : 0
            if filter == 0 && nextFilter == 0 {
                // Nothing reads this row again: widen it where it is.
                widen(UnsafePointer(source + 1), target, pixels: width)
                continue
            }
            guard row(filter, UnsafePointer(source + 1), UnsafePointer(above), current, pixels: width, bpp: 3) else {
                return false
            }
            widen(UnsafePointer(current), target, pixels: width)
            swap(&current, &above)
        }
        return true
    }

    /// RGB to RGBA, alpha 255: four pixels from three four-byte loads and four stores, the rest from one
    /// four-byte load each (its fourth byte, the next pixel's red or the byte after the row, replaced).
    /// `source` may lie ahead of `target` in the same buffer: a group of pixels is read before any store
    /// reaches it.
    @inline(__always)
    private static func widen(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, pixels: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        let alpha: UInt32 = 0xFF00_0000
        @inline(__always) func load(_ offset: Int) -> UInt32 {
            UInt32(littleEndian: from.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        @inline(__always) func store(_ value: UInt32, _ offset: Int) {
            to.storeBytes(of: (value | alpha).littleEndian, toByteOffset: offset, as: UInt32.self)
        }
        var x = 0
        while x + 4 <= pixels {
            // Bytes r0 g0 b0 r1 | g1 b1 r2 g2 | b2 r3 g3 b3, little-endian words.
            let w0 = load(x * 3)
            let w1 = load(x * 3 + 4)
            let w2 = load(x * 3 + 8)
            store(w0, x * 4)
            store(w0 >> 24 | w1 << 8, x * 4 + 4)
            store(w1 >> 16 | w2 << 16, x * 4 + 8)
            store(w2 >> 8, x * 4 + 12)
            x += 4
        }
        while x < pixels {
            store(load(x * 3), x * 4)
            x += 1
        }
    }

    @inline(__always) private static func load(_ p: UnsafePointer<UInt8>) -> SIMD4<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self)
    }

    @inline(__always) private static func store(_ v: SIMD4<UInt8>, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<UInt8>.self)
    }

    /// Unfilters one row of `pixels` pixels of `bpp` bytes from `source` into `target` (which may be
    /// `source` moved back, never ahead). With `bpp` 3 every store writes a fourth byte past the pixel, so
    /// `target` needs one byte of room after the row. False for a filter type above 4.
    @inline(__always)
    private static func row(
        _ filter: UInt8, _ source: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
        _ target: UnsafeMutablePointer<UInt8>, pixels: Int, bpp: Int
    ) -> Bool {
        let count = pixels * bpp
        switch filter {
        case 0:
            memmove(target, source, count)
        case 1:
            var left = SIMD4<UInt8>(repeating: 0)
            for x in 0..<pixels {
                left = load(source + x * bpp) &+ left
                store(left, target + x * bpp)
            }
        case 2:
            var i = 0
            while i + 16 <= count {
                let sum =
                    UnsafeRawPointer(source + i).loadUnaligned(as: SIMD16<UInt8>.self)
                    &+ UnsafeRawPointer(prior + i).loadUnaligned(as: SIMD16<UInt8>.self)
                UnsafeMutableRawPointer(target + i).storeBytes(of: sum, as: SIMD16<UInt8>.self)
                i += 16
            }
            while i < count {
                target[i] = source[i] &+ prior[i]
                i += 1
            }
        case 3:
            var left = SIMD4<UInt16>(repeating: 0)
            for x in 0..<pixels {
                let up = SIMD4<UInt16>(truncatingIfNeeded: load(prior + x * bpp))
                let value = load(source + x * bpp) &+ SIMD4<UInt8>(truncatingIfNeeded: (left &+ up) &>> 1)
                store(value, target + x * bpp)
                left = SIMD4<UInt16>(truncatingIfNeeded: value)
            }
        case 4:
            // Paeth: of left (a), above (b) and above-left (c), the one nearest a + b - c, ties to a then b.
            var a = SIMD4<Int16>(repeating: 0)
            var c = SIMD4<Int16>(repeating: 0)
            for x in 0..<pixels {
                let b = SIMD4<Int16>(truncatingIfNeeded: load(prior + x * bpp))
                let pa = magnitude(b &- c)
                let pb = magnitude(a &- c)
                let pc = magnitude(a &+ b &- c &- c)
                let nearest = c.replacing(with: b, where: pb .<= pc).replacing(
                    with: a, where: (pa .<= pb) .& (pa .<= pc))
                let value = load(source + x * bpp) &+ SIMD4<UInt8>(truncatingIfNeeded: nearest)
                store(value, target + x * bpp)
                a = SIMD4<Int16>(truncatingIfNeeded: value)
                c = b
            }
        default:
            return false
        }
        return true
    }

    @inline(__always) private static func magnitude(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
        v.replacing(with: 0 &- v, where: v .< 0)
    }
}
