import MapData
import MapGraphics

/// Text shaped from SDF glyph metrics as MapLibre's `shapeText` shapes it: glyphs put side by side by
/// their PBF advances (no kerning) plus `text-letter-spacing`, lines broken by MapLibre's
/// `determineLineBreaks` (least total badness against the average line width, ideographic breaks),
/// justified, and the block aligned by the text anchor. Units are MapLibre's layout pixels: 24 to the em
/// (``SDFGlyph/fontSize``), y down, relative to the anchor; times `text-size / 24` on screen.
struct GlyphShaping {
    /// One glyph with its pen position: `x` the left of its advance, `y` MapLibre's glyph y (the quad's top
    /// is at `y - (top + border + 1) * scale`).
    struct Positioned {
        var codePoint: UInt32
        var glyph: SDFGlyph
        var x: Double
        var y: Double
        var scale: Double
        var section: Int
        /// Laid out one em tall in a vertical label, its quad turned a quarter counter-clockwise.
        var vertical = false
        /// The image of an image section (``glyph`` is then an empty stand-in).
        var image: InlineImage? = nil

        /// MapLibre's `metrics.advance`: the glyph's, or the image's width (its height when vertical).
        var advance: Double {
            guard let image else { return Double(glyph.advance) }
            return vertical ? image.height : image.width
        }
    }

    /// One character of the input: its code point, the glyph its section's stack has (nil when none has it:
    /// it takes no room, as in MapLibre), its section's `font-scale` and index.
    struct Character: Sendable {
        var codePoint: UInt32
        var glyph: SDFGlyph?
        var scale: Double = 1
        var section: Int = 0
        /// Stood upright in a vertical label (MapLibre: every character but whitespace and complex scripts).
        var vertical = false
        /// An image section's image (``glyph`` nil; ``scale`` is the image's layout scale,
        /// ``InlineImage/layoutScale(sectionScale:layoutSize:)``).
        var image: InlineImage? = nil
        /// The mirror image and its glyph (`)` for `(`), drawn instead where the character falls in a
        /// right-to-left run.
        var mirror: (codePoint: UInt32, glyph: SDFGlyph)? = nil

        /// The room the character takes on its line, before letter spacing.
        var width: Double {
            if let image { return image.width * scale }
            return glyph.map { Double($0.advance) * scale } ?? 0
        }
    }

    var lines: [[Positioned]] = []
    /// By line, MapLibre's `positionedLine.lineOffset`: the larger of what an image pushes the line down and
    /// what its largest `font-scale` adds, (scale - 1) x 24 (vertical labels centre images and scaled glyphs
    /// on it).
    var lineOffsets: [Double] = []
    /// The box of the shaped text (MapLibre's `shaping.top/bottom/left/right`), offset included.
    var top = 0.0
    var bottom = 0.0
    var left = 0.0
    var right = 0.0

    /// MapLibre's `SHAPING_DEFAULT_OFFSET`: from a line's top to the glyphs' reference line.
    static let defaultOffset = -17.0
    static let oneEm = Double(SDFGlyph.fontSize)

    /// Whether any glyph has ink.
    var isEmpty: Bool { !lines.contains { $0.contains { $0.glyph.hasBitmap || $0.image != nil } } }

    /// Shapes `text`.
    ///
    /// - Parameters:
    ///   - maxWidth: the width lines are broken at (`text-max-width` x 24; infinity for line labels).
    ///   - lineHeight: `text-line-height` x 24.
    ///   - align: the anchor's alignment (0 left/top, 0.5 center, 1 right/bottom).
    ///   - justify: 0 left, 0.5 center, 1 right.
    ///   - spacing: `text-letter-spacing` x 24.
    ///   - offset: added to every glyph and to the box (`text-offset` x 24, or a radial offset).
    static func shape(
        _ text: [Character], maxWidth: Double, lineHeight: Double, align: (x: Double, y: Double), justify: Double,
        spacing: Double, offset: (x: Double, y: Double)
    ) -> GlyphShaping {
        var shaping = GlyphShaping()
        // MapLibre spaces no letters of a label with Arabic in it (`allowsLetterSpacing`): joined letters
        // would come apart.
        let spacing = spacing != 0 && text.contains { BidirectionalText.isArabicJoining($0.codePoint) } ? 0 : spacing
        let breaks = lineBreaks(text, spacing: spacing, maxWidth: maxWidth)
        var lines: [ArraySlice<Character>] = []
        var start = 0
        for end in breaks {
            lines.append(text[start..<end])
            start = end
        }
        if start < text.count { lines.append(text[start...]) }
        // Lines broken in logical order, then each put in visual order (MapLibre's
        // `processBidirectionalText`).
        if text.contains(where: { BidirectionalText.isRightToLeft($0.codePoint) }),
            let visual = BidirectionalText.visualLines(text.map(\.codePoint), lineEnds: breaks)
        {
            lines = visual.map { line in
                ArraySlice(
                    line.map { v in
                        var c = text[v.index]
                        if v.mirrored, let mirror = c.mirror {
                            (c.codePoint, c.glyph) = (mirror.codePoint, mirror.glyph)
                        }
                        return c
                    })
            }
        }
        var y = 0.0
        var maxLineLength = 0.0
        var maxLineHeight = 0.0
        for raw in lines {
            let line = trimmed(raw)
            guard !line.isEmpty else {
                shaping.lines.append([])
                shaping.lineOffsets.append(0)
                y += lineHeight
                continue
            }
            let maxScale = line.map { $0.image?.sectionScale ?? $0.scale }.max() ?? 1
            var x = 0.0
            // How far an image taller than the line's em pushes the line down (MapLibre's `lineOffset`).
            var lineOffset = 0.0
            var placed: [Positioned] = []
            placed.reserveCapacity(line.count)
            // By index, each field read in place: a copy of a character would retain its glyph's bitmap and
            // its image's texels.
            for k in line.indices {
                let (codePoint, scale, section, vertical) =
                    (line[k].codePoint, line[k].scale, line[k].section, line[k].vertical)
                if let image = line[k].image {
                    // The image's bottom on the baseline.
                    let baseline = (maxScale - 1) * oneEm + oneEm - image.height * scale
                    lineOffset = max(lineOffset, (vertical ? image.width : image.height) * scale - oneEm * maxScale)
                    let stand = SDFGlyph(id: codePoint, width: 0, height: 0, left: 1, top: -3, advance: 0, bitmap: [])
                    var p = Positioned(
                        codePoint: codePoint, glyph: stand, x: x, y: y + baseline + defaultOffset, scale: scale,
                        section: section, vertical: vertical)
                    p.image = image
                    placed.append(p)
                    x += p.advance * scale + spacing
                    continue
                }
                guard let glyph = line[k].glyph else { continue }
                // Sections of a line share the bottom of their ems (MapLibre's baseline alignment).
                let baseline = (maxScale - scale) * oneEm
                let advance = Double(glyph.advance)
                placed.append(
                    Positioned(
                        codePoint: codePoint, glyph: glyph, x: x, y: y + baseline + defaultOffset, scale: scale,
                        section: section, vertical: vertical))
                x += (vertical ? oneEm : advance) * scale + spacing
            }
            if let last = placed.last {
                maxLineLength = max(maxLineLength, x - spacing)
                let indent = (last.x + last.advance * last.scale) * justify
                for k in placed.indices {
                    placed[k].x -= indent
                    placed[k].y += lineOffset
                }
            }
            shaping.lines.append(placed)
            shaping.lineOffsets.append(max(lineOffset, (maxScale - 1) * oneEm))
            let currentLineHeight = lineHeight * maxScale + lineOffset
            y += currentLineHeight
            maxLineHeight = max(maxLineHeight, currentLineHeight)
        }
        // Align the block: MapLibre's `align`.
        let shiftX = (justify - align.x) * maxLineLength
        let shiftY =
            maxLineHeight != lineHeight
            ? -y * align.y - defaultOffset : (-align.y * Double(lines.count) + 0.5) * lineHeight
        for i in shaping.lines.indices {
            for k in shaping.lines[i].indices {
                shaping.lines[i][k].x += shiftX + offset.x
                shaping.lines[i][k].y += shiftY + offset.y
            }
        }
        shaping.top = offset.y - align.y * y
        shaping.bottom = shaping.top + y
        shaping.left = offset.x - align.x * maxLineLength
        shaping.right = shaping.left + maxLineLength
        return shaping
    }

    /// MapLibre's whitespace (tab, line feed, vertical tab, form feed, carriage return, space).
    static func isWhitespace(_ c: UInt32) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }

    private static func trimmed(_ line: ArraySlice<Character>) -> ArraySlice<Character> {
        var line = line
        while let first = line.first, isWhitespace(first.codePoint) { line = line.dropFirst() }
        while let last = line.last, isWhitespace(last.codePoint) { line = line.dropLast() }
        return line
    }

    /// Whether MapLibre may break a line after the character (its `breakable` table).
    static func isBreakable(_ c: UInt32) -> Bool {
        switch c {
        case 0x0A, 0x20, 0x26, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0x2027: return true
        default: return false
        }
    }

    /// Whether MapLibre breaks lines between such characters without a space (CJK, kana, Yi, fullwidth forms).
    static func allowsIdeographicBreaking(_ c: UInt32) -> Bool {
        guard c >= 0x2E80 else { return false }
        let ranges: [ClosedRange<UInt32>] = [
            0x2E80...0x2EFF, 0x2F00...0x2FDF, 0x2FF0...0x2FFF, 0x3000...0x303F, 0x3040...0x309F, 0x30A0...0x30FF,
            0x3100...0x312F, 0x31A0...0x31BF, 0x31C0...0x31EF, 0x31F0...0x31FF, 0x3200...0x32FF, 0x3300...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA48F, 0xA490...0xA4CF, 0xF900...0xFAFF, 0xFE10...0xFE1F,
            0xFE30...0xFE4F, 0xFF00...0xFFEF,
        ]
        return ranges.contains { $0.contains(c) }
    }

    /// The indices where lines start after the first, chosen as MapLibre's `determineLineBreaks` chooses
    /// them: every breakable position scored by the squared difference of its line's width from the average
    /// width (the total over `ceil(total / maxWidth)` lines), plus penalties (line feeds force a break;
    /// parentheses at line ends and ideographic breaks in text with zero-width spaces cost more), the last
    /// line preferred short; the least total badness wins. Breakable positions are limited to 1,000 (work
    /// quadratic in them), beyond which the text is not broken.
    static func lineBreaks(_ text: [Character], spacing: Double, maxWidth: Double) -> [Int] {
        guard !text.isEmpty else { return [] }
        // What the breaking reads of each character, read once in place (a copy of a character retains its
        // glyph's bitmap and its image's texels).
        struct Measured {
            var codePoint: UInt32
            /// Its width plus the letter spacing, 0 when it takes no room (no glyph, no image).
            var advance: Double
            var isImage: Bool
        }
        var measured: [Measured] = []
        measured.reserveCapacity(text.count)
        text.withUnsafeBufferPointer { characters in
            for i in characters.indices {
                let isImage = characters[i].image != nil
                let takesRoom = isImage || characters[i].glyph != nil
                measured.append(
                    Measured(
                        codePoint: characters[i].codePoint, advance: takesRoom ? characters[i].width + spacing : 0,
                        isImage: isImage))
            }
        }
        let total = measured.reduce(0) { $0 + $1.advance }
        // As JavaScript computes it: a zero width makes infinitely many lines, so every break is wanted.
        let ratio = (total / maxWidth).rounded(.up)
        let target = ratio.isNaN ? total : total / max(1, ratio)
        let serverBreaks = measured.contains { $0.codePoint == 0x200B }
        struct Break {
            var index: Int
            var x: Double
            var prior: Int?
            var badness: Double
        }
        func badness(_ width: Double, _ penalty: Double, last: Bool) -> Double {
            let ragged = (width - target) * (width - target)
            if last { return width < target ? ragged / 2 : ragged * 2 }
            return ragged + abs(penalty) * penalty
        }
        var potential: [Break] = []
        func evaluate(_ index: Int, _ x: Double, _ penalty: Double, last: Bool) -> Break {
            var best = Break(index: index, x: x, prior: nil, badness: badness(x, penalty, last: last))
            for (k, candidate) in potential.enumerated() {
                let score = badness(x - candidate.x, penalty, last: last) + candidate.badness
                if score <= best.badness {
                    best.prior = k
                    best.badness = score
                }
            }
            return best
        }
        var x = 0.0
        for i in measured.indices {
            let c = measured[i].codePoint
            if !isWhitespace(c) { x += measured[i].advance }
            guard i < measured.count - 1, potential.count < 1_000 else { continue }
            let ideographic = allowsIdeographicBreaking(c)
            let next = measured[i + 1].codePoint
            if measured[i].isImage || isBreakable(c) || ideographic || (i != measured.count - 2 && next == 0x28) {
                var penalty = 0.0
                if c == 0x0A { penalty -= 10_000 }
                if ideographic && serverBreaks { penalty += 150 }
                if c == 0x28 || c == 0xFF08 { penalty += 50 }
                if next == 0x29 || next == 0xFF09 { penalty += 50 }
                potential.append(evaluate(i + 1, x, penalty, last: false))
            }
        }
        var result: [Int] = []
        var cursor: Break? = evaluate(text.count, x, 0, last: true)
        while let b = cursor {
            result.append(b.index)
            cursor = b.prior.map { potential[$0] }
        }
        return result.reversed()
    }
}
