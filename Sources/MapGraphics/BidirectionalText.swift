/// Right-to-left text for labels drawn from glyph PBFs, prepared as MapLibre Native prepares it with ICU
/// (the same steps as MapLibre GL JS's rtl-text plugin): Arabic letters replaced by their contextual
/// presentation forms before lines are broken (``applyArabicShaping(_:)``), then each broken line put in
/// visual order by the Unicode Bidirectional Algorithm (``visualLines(_:lineEnds:)``). Glyph PBFs have no
/// shaping tables, so this is all the shaping such text gets; text drawn from installed fonts is shaped by
/// HarfBuzz instead.
package enum BidirectionalText {
    /// Whether `scalar` is Hebrew or Arabic (their blocks, supplements and presentation forms): the
    /// right-to-left scripts prepared here.
    package static func isRightToLeft(_ scalar: UInt32) -> Bool {
        (0x0590...0x06FF).contains(scalar) || (0x0750...0x077F).contains(scalar)
            || (0x0870...0x08FF).contains(scalar) || (0xFB1D...0xFDFF).contains(scalar)
            || (0xFE70...0xFEFF).contains(scalar)
    }

    /// Whether `scalar` is Arabic (shaped by ``applyArabicShaping(_:)``).
    static func isArabic(_ scalar: UInt32) -> Bool {
        (0x0600...0x06FF).contains(scalar) || (0x0750...0x077F).contains(scalar)
            || (0x0870...0x08FF).contains(scalar)
    }

    /// Whether `scalar` is Arabic or an Arabic presentation form: the characters MapLibre's
    /// `charAllowsLetterSpacing` refuses (a label with any of them gets no `text-letter-spacing`).
    package static func isArabicJoining(_ scalar: UInt32) -> Bool {
        isArabic(scalar) || (0xFB50...0xFDFF).contains(scalar) || (0xFE70...0xFEFF).contains(scalar)
    }

    /// `text` with its Arabic letters in their isolated, initial, medial or final presentation forms and
    /// lam-alef pairs joined (ICU's `u_shapeArabic`, letters shaped, logical order: MapLibre's
    /// `applyArabicShaping`). Text without Arabic, or that ICU refuses, comes back unchanged.
    package static func applyArabicShaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isArabic($0.value) }) else { return text }
        guard let shaped = ICUCalls.shapeArabic(Array(text.utf16)) else { return text }
        return String(decoding: shaped, as: UTF16.self)
    }

    /// One character of a line in visual order: its index in the logical text, and whether it is drawn as
    /// its mirror image (a bracket in a right-to-left run: ``mirror(_:)``).
    package struct VisualCharacter: Equatable, Sendable {
        package var index: Int
        package var mirrored: Bool
    }

    /// The lines of `codePoints` (logical order) ending at `lineEnds` (indices; the text's end is one
    /// whatever is given), each in visual order: MapLibre's `processBidirectionalText`. Every paragraph end
    /// (a line feed, U+001C...U+001E, U+2029) also ends a line, as in MapLibre; bidi controls (LRM, RLM,
    /// ALM, embeddings, isolates) are left out. Nil when ICU refuses the text (the caller keeps logical
    /// order).
    package static func visualLines(_ codePoints: [UInt32], lineEnds: [Int]) -> [[VisualCharacter]]? {
        guard !codePoints.isEmpty else { return [] }
        var utf16: [UInt16] = []
        utf16.reserveCapacity(codePoints.count)
        // The code point each UTF-16 unit belongs to (nil for the second unit of a pair), and the unit each
        // code point starts at.
        var owner: [Int?] = []
        var unitStart: [Int] = []
        for (i, c) in codePoints.enumerated() {
            unitStart.append(utf16.count)
            let scalar = Unicode.Scalar(c) ?? "\u{FFFD}"
            utf16.append(contentsOf: scalar.utf16)
            owner.append(i)
            if scalar.utf16.count > 1 { owner.append(nil) }
        }
        unitStart.append(utf16.count)
        let limits = lineEnds.filter { $0 > 0 && $0 < codePoints.count }.map { unitStart[$0] }
        guard let lines = ICUCalls.reorder(utf16, limits: limits) else { return nil }
        return lines.map { line in
            line.compactMap { unit in
                guard let index = owner[unit.index], !isBidiControl(codePoints[index]) else { return nil }
                let odd = unit.level & 1 == 1
                return VisualCharacter(index: index, mirrored: odd && mirror(codePoints[index]) != codePoints[index])
            }
        }
    }

    /// Unicode's Bidi_Mirroring_Glyph of `scalar` (`)` for `(`), itself when it has none.
    package static func mirror(_ scalar: UInt32) -> UInt32 { ICUCalls.mirror(scalar) }

    /// The formatting characters of the bidirectional algorithm, removed from reordered lines as
    /// MapLibre's `UBIDI_REMOVE_BIDI_CONTROLS` removes them.
    static func isBidiControl(_ c: UInt32) -> Bool {
        c == 0x061C || c == 0x200E || c == 0x200F || (0x202A...0x202E).contains(c) || (0x2066...0x2069).contains(c)
    }
}
