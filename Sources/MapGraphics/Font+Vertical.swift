import MapGeometry

/// Vertical text (`text-writing-mode: vertical`): which characters stand upright in a column and which
/// are turned a quarter clockwise, and the vertical presentation forms of punctuation, following the
/// Unicode vertical-orientation property (UAX #50) as MapLibre applies it.
public enum VerticalText {
    /// Whether a character stands upright in vertical text (CJK ideographs, kana, Hangul, Yi, fullwidth
    /// forms, CJK symbols and the vertical forms blocks); other characters (Latin, digits, Arabic, ...)
    /// are turned 90 degrees clockwise.
    public static func isUpright(_ scalar: Unicode.Scalar) -> Bool {
        let c = scalar.value
        switch c {
        case 0x02EA...0x02EB: return true  // bopomofo tone marks
        case 0x1100...0x11FF: return true  // Hangul Jamo
        case 0x1400...0x167F, 0x18B0...0x18FF: return true  // Canadian syllabics
        case 0x2E80...0x2FDF, 0x2FF0...0x2FFF: return true  // CJK radicals, Kangxi, description characters
        case 0x3000...0x303F:  // CJK symbols and punctuation: brackets are upright only in their vertical forms
            return !(0x3008...0x3011).contains(c) && !(0x3014...0x301F).contains(c) && c != 0x3030
        case 0x3040...0x309F, 0x30A0...0x30FF: return true  // Hiragana, Katakana (with the long vowel mark)
        case 0x3100...0x312F, 0x3130...0x318F, 0x3190...0x31FF: return true  // Bopomofo, Hangul, Kanbun
        case 0x3200...0x32FF, 0x3300...0x33FF: return true  // enclosed CJK, CJK compatibility
        case 0x3400...0x4DBF, 0x4DC0...0x4DFF, 0x4E00...0x9FFF: return true  // ideographs, Yijing
        case 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7FF: return true  // Yi, Hangul
        case 0xF900...0xFAFF: return true  // CJK compatibility ideographs
        case 0xFE10...0xFE1F, 0xFE30...0xFE4F: return true  // vertical forms, CJK compatibility forms
        case 0xFF00...0xFFEF:  // halfwidth and fullwidth forms, but not the fullwidth brackets and dashes
            return ![0xFF08, 0xFF09, 0xFF0D, 0xFF1A, 0xFF1B, 0xFF1C, 0xFF1D, 0xFF1E, 0xFF3B, 0xFF3D, 0xFF3F, 0xFF5B]
                .contains(c) && !(0xFF5C...0xFF60).contains(c) && !(0xFF62...0xFF63).contains(c)
        case 0x1F200...0x1F2FF: return true  // enclosed ideographic supplement
        case 0x20000...0x3FFFF: return true  // supplementary ideographs
        default: return false
        }
    }

    /// Whether a character belongs to a script shaped in context (Arabic, Hebrew, Syriac, Thaana, N'Ko,
    /// Devanagari and the other Indic scripts): such runs are turned, never stood up letter by letter.
    public static func isComplexScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0x0900...0x0DFF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: return true
        default: return false
        }
    }

    /// Whether text can be written vertically: it has at least one upright character (MapLibre's
    /// `allowsVerticalWritingMode`); other text stays horizontal whatever `text-writing-mode` asks.
    public static func allowsVertical(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isUpright)
    }

    /// Punctuation and brackets with their vertical presentation forms (Unicode's Vertical Forms and CJK
    /// Compatibility Forms blocks; the fullwidth form where Unicode has no vertical one).
    static let forms: [Unicode.Scalar: Unicode.Scalar] = {
        let pairs: [(UInt32, UInt32)] = [
            (0x21, 0xFE15), (0x23, 0xFF03), (0x24, 0xFF04), (0x25, 0xFF05), (0x26, 0xFF06), (0x28, 0xFE35),
            (0x29, 0xFE36), (0x2A, 0xFF0A), (0x2B, 0xFF0B), (0x2C, 0xFE10), (0x2D, 0xFE32), (0x2E, 0x30FB),
            (0x2F, 0xFF0F), (0x3A, 0xFE13), (0x3B, 0xFE14), (0x3C, 0xFE3F), (0x3D, 0xFF1D), (0x3E, 0xFE40),
            (0x3F, 0xFE16), (0x40, 0xFF20), (0x5B, 0xFE47), (0x5C, 0xFF3C), (0x5D, 0xFE48), (0x5E, 0xFF3E),
            (0x5F, 0xFE33), (0x60, 0xFF40), (0x7B, 0xFE37), (0x7C, 0x2015), (0x7D, 0xFE38), (0x7E, 0xFF5E),
            (0xA2, 0xFFE0), (0xA3, 0xFFE1), (0xA5, 0xFFE5), (0xA6, 0xFFE4), (0xAC, 0xFFE2), (0xAF, 0xFFE3),
            (0x2013, 0xFE32), (0x2014, 0xFE31), (0x2018, 0xFE43), (0x2019, 0xFE44), (0x201C, 0xFE41),
            (0x201D, 0xFE42), (0x2026, 0xFE19), (0x2027, 0x30FB), (0x20A9, 0xFFE6), (0x3001, 0xFE11),
            (0x3002, 0xFE12), (0x3008, 0xFE3F), (0x3009, 0xFE40), (0x300A, 0xFE3D), (0x300B, 0xFE3E),
            (0x300C, 0xFE41), (0x300D, 0xFE42), (0x300E, 0xFE43), (0x300F, 0xFE44), (0x3010, 0xFE3B),
            (0x3011, 0xFE3C), (0x3014, 0xFE39), (0x3015, 0xFE3A), (0x3016, 0xFE17), (0x3017, 0xFE18),
            (0xFF01, 0xFE15), (0xFF08, 0xFE35), (0xFF09, 0xFE36), (0xFF0C, 0xFE10), (0xFF0D, 0xFE32),
            (0xFF0E, 0x30FB), (0xFF1A, 0xFE13), (0xFF1B, 0xFE14), (0xFF1C, 0xFE3F), (0xFF1E, 0xFE40),
            (0xFF1F, 0xFE16), (0xFF3B, 0xFE47), (0xFF3D, 0xFE48), (0xFF3F, 0xFE33), (0xFF5B, 0xFE37),
            (0xFF5C, 0x2015), (0xFF5D, 0xFE38), (0xFF5F, 0xFE35), (0xFF60, 0xFE36), (0xFF61, 0xFE12),
            (0xFF62, 0xFE41), (0xFF63, 0xFE42),
        ]
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (from, to) in pairs {
            if let a = Unicode.Scalar(from), let b = Unicode.Scalar(to) { map[a] = b }
        }
        return map
    }()

    /// Text with its punctuation replaced by vertical forms, where neither neighbour is a character that
    /// is turned (Latin punctuation between Latin letters stays as it is), as MapLibre's
    /// `verticalizePunctuation` does; with `always` (point labels, whose Latin stands up too) whatever the
    /// neighbours. `has` tells whether a form can be drawn (else the character is kept).
    public static func verticalizingPunctuation(
        _ text: String, always: Bool = false, has: (Unicode.Scalar) -> Bool = { _ in true }
    ) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, s) in scalars.enumerated() {
            guard let form = forms[s], has(form) else {
                out.append(s)
                continue
            }
            let turned = { (n: Unicode.Scalar) in !isUpright(n) && forms[n] == nil && n.value > 0x20 }
            let before = i > 0 ? scalars[i - 1] : nil
            let after = i + 1 < scalars.count ? scalars[i + 1] : nil
            if !always, before.map(turned) == true || after.map(turned) == true {
                out.append(s)
            } else {
                out.append(form)
            }
        }
        return String(out)
    }
}

extension Font {
    /// Lays out formatted text as one vertical column, top to bottom: upright characters (see
    /// ``VerticalText/isUpright(_:)``) shaped top to bottom (with the fonts' vertical forms), runs of
    /// other characters shaped left to right and turned 90 degrees clockwise, punctuation in its vertical
    /// presentation forms. Origins are relative to the column's top center; `length` is the column's
    /// length and `width` its width (the largest section's size), in points.
    ///
    /// - Parameter standingLatin: stand every character up except spaces and scripts shaped in context
    ///   (MapLibre's rule for point labels in vertical mode): characters without vertical forms (Latin,
    ///   digits) are centered on the column one em apart. Otherwise (line labels) they are turned.
    public static func layOutColumn(_ sections: [TextSection], size: Double, standingLatin: Bool = false) -> (
        glyphs: [PlacedGlyph], length: Double, width: Double
    ) {
        var glyphs: [PlacedGlyph] = []
        var pen = 0.0
        var width = 0.0
        for section in sections {
            let font = section.font
            let text = VerticalText.verticalizingPunctuation(section.text, always: standingLatin) { form in
                font.faces.contains { $0.hasGlyph(for: form) }
            }
            let scaled = size * section.scale
            width = max(width, scaled)
            // Runs of upright and of turned characters; spaces and marks stay with the run they follow.
            var runs: [(text: String, upright: Bool, standing: Bool)] = []
            for character in text {
                let upright = character.unicodeScalars.contains(where: VerticalText.isUpright)
                let space = character.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
                let standing =
                    standingLatin && !upright && !space
                    && !character.unicodeScalars.contains(where: VerticalText.isComplexScript)
                if standing {
                    runs.append((String(character), false, true))
                } else if let last = runs.last, !last.standing, last.upright == upright || (space && !standingLatin) {
                    runs[runs.count - 1].text.append(character)
                } else {
                    runs.append((String(character), upright, false))
                }
            }
            let metrics = font.verticalMetrics
            for run in runs {
                var shaped: [ShapedText.Glyph] = []
                if run.standing {
                    // One character without vertical forms, centered on the column, one em long.
                    let end = font.appendShaped(
                        run.text, size: size, scale: section.scale, color: section.color, vertical: false, at: 0,
                        to: &shaped)
                    let ascent = metrics.ascender * scaled
                    let baseline = pen + (scaled - (metrics.ascender + metrics.descender) * scaled) / 2 + ascent
                    for g in shaped {
                        glyphs.append(
                            PlacedGlyph(
                                index: g.index, origin: Point(x: g.x - end / 2, y: baseline + g.y), angle: 0,
                                face: g.face, scale: g.scale, color: g.color))
                    }
                    pen += scaled
                } else if run.upright {
                    pen = font.appendShaped(
                        run.text, size: size, scale: section.scale, color: section.color, vertical: true, at: pen,
                        to: &shaped)
                    for g in shaped {
                        glyphs.append(
                            PlacedGlyph(
                                index: g.index, origin: Point(x: g.x, y: g.y), angle: 0, face: g.face, scale: g.scale,
                                color: g.color))
                    }
                } else {
                    let end = font.appendShaped(
                        run.text, size: size, scale: section.scale, color: section.color, vertical: false, at: 0,
                        to: &shaped)
                    // Turned clockwise, the glyphs' tops face right; their em box is centered on the column.
                    let baseline = -(metrics.ascender - metrics.descender) / 2 * scaled
                    for g in shaped {
                        glyphs.append(
                            PlacedGlyph(
                                index: g.index, origin: Point(x: baseline - g.y, y: pen + g.x), angle: .pi / 2,
                                face: g.face, scale: g.scale, color: g.color))
                    }
                    pen += end
                }
            }
        }
        return (glyphs, pen, width)
    }
}
