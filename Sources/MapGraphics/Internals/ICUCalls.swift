internal import CICU

// The one place that calls ICU (libicuuc, through Sources/CICU): Arabic shaping and the Unicode
// Bidirectional Algorithm, as MapLibre Native calls them for labels drawn from glyph PBFs.

enum ICUCalls {
    /// `u_shapeArabic` with MapLibre's options over UTF-16 `text`; nil when ICU reports an error.
    static func shapeArabic(_ text: [UInt16]) -> [UInt16]? {
        guard !text.isEmpty else { return [] }
        guard text.count < Int(Int32.max) else { return nil }
        // Shaping only merges (lam-alef) or keeps characters, so the input's length is room enough.
        var output = [UInt16](repeating: 0, count: text.count)
        let length = text.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { dest in
                mapraster_shape_arabic(source.baseAddress, Int32(source.count), dest.baseAddress, Int32(dest.count))
            }
        }
        guard length >= 0, Int(length) <= output.count else { return nil }
        return Array(output.prefix(Int(length)))
    }

    /// UTF-16 `text` as one bidi paragraph set (each paragraph's level from its first strong character,
    /// else left to right) cut into lines at `limits` and at every paragraph's end (MapLibre's
    /// `mergeParagraphLineBreaks`: ICU cannot reorder a line across paragraphs): per line its logical
    /// indices in visual order, each with its embedding level (odd: right to left). Nil when ICU reports
    /// an error.
    static func reorder(_ text: [UInt16], limits: [Int]) -> [[(index: Int, level: UInt8)]]? {
        guard !text.isEmpty else { return [] }
        guard text.count < Int(Int32.max) else { return nil }
        // ubidi keeps a pointer to the text: it must outlive every call below.
        return text.withUnsafeBufferPointer { buffer -> [[(index: Int, level: UInt8)]]? in
            guard let bidi = mapraster_bidi_open(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { mapraster_bidi_close(bidi) }
            var ends = Set(limits.filter { $0 > 0 && $0 <= buffer.count })
            ends.insert(buffer.count)
            for i in 0..<max(0, mapraster_bidi_paragraph_count(bidi)) {
                let limit = Int(mapraster_bidi_paragraph_limit(bidi, i))
                guard limit >= 0 else { return nil }
                if limit > 0 && limit <= buffer.count { ends.insert(limit) }
            }
            var result: [[(index: Int, level: UInt8)]] = []
            var start = 0
            for end in ends.sorted() {
                var map = [Int32](repeating: 0, count: end - start)
                let status = map.withUnsafeMutableBufferPointer {
                    mapraster_bidi_line_visual_map(bidi, Int32(start), Int32(end), $0.baseAddress)
                }
                guard status == 0 else { return nil }
                let lineStart = start
                result.append(
                    map.compactMap { logical in
                        guard logical >= 0 else { return nil }
                        let index = lineStart + Int(logical)
                        return (index, mapraster_bidi_level(bidi, Int32(index)))
                    })
                start = end
            }
            return result
        }
    }

    /// The mirror image of `scalar` (Unicode's Bidi_Mirroring_Glyph: `(` for `)`), itself when it has none.
    static func mirror(_ scalar: UInt32) -> UInt32 {
        let mirrored = mapraster_mirror(Int32(bitPattern: scalar))
        return mirrored >= 0 ? UInt32(mirrored) : scalar
    }
}
