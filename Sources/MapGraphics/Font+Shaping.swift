import MapGeometry

extension Font {
    /// Counts the UTF-8 bytes shaped while set (tests bound text work by it, never by the clock).
    package final class ShapingCount: Sendable {
        private let bytes = Locked(0)
        /// An empty count.
        package init() {}
        /// The bytes shaped so far.
        package var value: Int { bytes.withLock { $0 } }
        func add(_ count: Int) { bytes.withLock { $0 += count } }
    }

    /// The count the current task's shaping adds to, if any.
    @TaskLocal package static var shapingCount: ShapingCount?

    /// A run of text one face shapes in one script and direction; `range` is in UTF-8 offsets.
    struct Run: Equatable {
        var range: Range<Int>
        var face: Int
        var script: UInt32
        /// A number inside right-to-left text: shaped left to right (its digits keep their order).
        var isNumber = false
        /// The run's bidi level (0 left to right, 1 right to left, 2 a number or left-to-right text inside it).
        var level = 0
    }

    /// Characters that draw nothing and never decide the face (joiners, variation selectors).
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200F, 0x2060...0x2064, 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0xFEFF: return true
        default: return scalar.value < 0x20
        }
    }

    /// Digits, which keep their left-to-right order inside right-to-left text.
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x660...0x669, 0x6F0...0x6F9: return true
        default: return false
        }
    }

    /// The first face that has every character of the grapheme cluster (else the first with its first
    /// character; else the first face).
    func faceIndex(for scalars: [Unicode.Scalar], preferring previous: Int?) -> Int {
        if let previous, scalars.allSatisfy({ faces[previous].hasGlyph(for: $0) }) { return previous }
        if let i = faces.firstIndex(where: { face in scalars.allSatisfy { face.hasGlyph(for: $0) } }) { return i }
        if let first = scalars.first, let i = faces.firstIndex(where: { $0.hasGlyph(for: first) }) { return i }
        return 0
    }

    /// ``faceIndex(for:preferring:)`` of a cluster of one scalar.
    func faceIndex(for scalar: Unicode.Scalar, preferring previous: Int?) -> Int {
        if let previous, faces[previous].hasGlyph(for: scalar) { return previous }
        return faces.firstIndex { $0.hasGlyph(for: scalar) } ?? 0
    }

    /// Splits text into runs by face and script, in logical order, with bidi levels.
    func itemize(_ text: String) -> [Run] {
        var runs: [Run] = []
        var offset = 0
        var previousFace: Int?
        for character in text {
            let length = character.utf8.count
            defer { offset += length }
            let script: UInt32
            let neutral: Bool
            let face: Int
            let isNumber: Bool
            var iterator = character.unicodeScalars.makeIterator()
            if let only = iterator.next(), iterator.next() == nil, !Self.isIgnorable(only) {
                // One scalar, the most common character: what the general case below gives, without its array.
                script = UnicodeScripts.script(of: only.value)
                neutral = UnicodeScripts.isNeutral(script)
                face = faceIndex(for: only, preferring: neutral ? previousFace : nil)
                isNumber = Self.isDigit(only)
            } else {
                let scalars = Array(character.unicodeScalars.filter { !Self.isIgnorable($0) })
                guard !scalars.isEmpty else {
                    if !runs.isEmpty {
                        runs[runs.count - 1].range = runs[runs.count - 1].range.lowerBound..<offset + length
                    }
                    continue
                }
                script =
                    scalars.lazy.map { UnicodeScripts.script(of: $0.value) }.first { !UnicodeScripts.isNeutral($0) }
                    ?? UnicodeScripts.script(of: scalars[0].value)
                neutral = UnicodeScripts.isNeutral(script)
                face = faceIndex(for: scalars, preferring: neutral ? previousFace : nil)
                isNumber = scalars.allSatisfy(Self.isDigit)
            }
            previousFace = face
            if var last = runs.last, last.face == face, last.isNumber == isNumber,
                last.script == script || neutral || UnicodeScripts.isNeutral(last.script)
            {
                if UnicodeScripts.isNeutral(last.script) { last.script = script }
                last.range = last.range.lowerBound..<offset + length
                runs[runs.count - 1] = last
            } else {
                runs.append(Run(range: offset..<offset + length, face: face, script: script, isNumber: isNumber))
            }
        }
        // Runs of neutral characters only take the script of the run before them, else after them (one pass
        // each way: linear in the runs).
        var before: UInt32?
        for i in runs.indices {
            if !UnicodeScripts.isNeutral(runs[i].script) {
                before = runs[i].script
            } else if let before {
                runs[i].script = before
            }
        }
        var after: UInt32?
        for i in runs.indices.reversed() {
            if !UnicodeScripts.isNeutral(runs[i].script) {
                after = runs[i].script
            } else if let after {
                runs[i].script = after
            }
        }
        // Bidi levels (a subset of the Unicode bidi algorithm: the paragraph direction is that of the first
        // strong run; right-to-left runs are level 1, numbers and left-to-right runs inside them level 2).
        let rtlParagraph =
            runs.first { !$0.isNumber && !UnicodeScripts.isNeutral($0.script) }
            .map { UnicodeScripts.isRightToLeft($0.script) } ?? false
        for i in runs.indices {
            let rtl = UnicodeScripts.isRightToLeft(runs[i].script)
            if runs[i].isNumber {
                let inRTL = rtl || rtlParagraph
                runs[i].level = inRTL ? 2 : 0
            } else if rtl {
                runs[i].level = 1
            } else {
                runs[i].level = rtlParagraph ? 2 : 0
            }
        }
        return runs
    }

    /// Runs in visual order: every maximal sequence at or above each level, from the highest down to 1, reversed.
    static func visualOrder(_ runs: [Run]) -> [Run] {
        var order = runs
        let highest = order.map(\.level).max() ?? 0
        var level = highest
        while level >= 1 {
            var i = 0
            while i < order.count {
                guard order[i].level >= level else {
                    i += 1
                    continue
                }
                var j = i
                while j < order.count, order[j].level >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }

    /// Shapes one line of text at `size` points: runs by face and script, each shaped by HarfBuzz with its
    /// script and direction, in visual order.
    ///
    /// - Parameter vertical: shape top to bottom (`text-writing-mode: vertical`): the glyphs' origin is
    ///   the top of the column on its center line; fonts with vertical forms (the `vert` feature) use them.
    public func shape(_ text: String, size: Double, vertical: Bool = false) -> ShapedText {
        var glyphs: [ShapedText.Glyph] = []
        let end = appendShaped(text, size: size, scale: 1, color: nil, vertical: vertical, at: 0, to: &glyphs)
        return Self.finish(glyphs, end: end, vertical: vertical, size: size)
    }

    /// Shapes `text` and appends its glyphs with the pen starting at `start` (along the writing direction);
    /// returns where the pen ends.
    func appendShaped(
        _ text: String, size: Double, scale: Double, color: Color?, vertical: Bool, at start: Double,
        to glyphs: inout [ShapedText.Glyph]
    ) -> Double {
        // The last guard of bounded text work: callers cut where text enters (``TextLimit``), this cuts anything
        // else that reaches shaping.
        let text = TextLimit.cut(text, what: "text to shape")
        Self.shapingCount?.add(text.utf8.count)
        // Control characters (a line feed in a label drawn as one line) shape as spaces, never as boxes; the
        // byte offsets stay the same.
        let utf8 = text.utf8.map { $0 < 0x20 ? 0x20 : $0 }
        var runs = itemize(text)
        if !vertical { runs = Self.visualOrder(runs) }
        var pen = start
        let runSize = size * scale
        for run in runs {
            let direction: ShapingDirection =
                vertical
                ? .topToBottom : (run.level % 2 == 1 ? .rightToLeft : .leftToRight)
            let face = faces[run.face]
            let shaped = face.harfBuzz.shape(
                utf8: utf8, range: run.range, script: run.script, direction: direction, size: runSize)
            for g in shaped.glyphs {
                glyphs.append(
                    ShapedText.Glyph(
                        index: g.index, x: vertical ? g.x : pen + g.x, y: vertical ? pen + g.y : g.y, advance: 0,
                        face: face, scale: scale, color: color))
            }
            pen += vertical ? shaped.advanceY : shaped.advanceX
        }
        return pen
    }

    /// Fills in each glyph's advance (to the next glyph's pen position) and the text's extent.
    static func finish(_ input: [ShapedText.Glyph], end: Double, vertical: Bool, size: Double) -> ShapedText {
        var glyphs = input
        for i in glyphs.indices {
            if vertical {
                glyphs[i].advance = (i + 1 < glyphs.count ? glyphs[i + 1].y : end) - glyphs[i].y
            } else {
                glyphs[i].advance = (i + 1 < glyphs.count ? glyphs[i + 1].x : end) - glyphs[i].x
            }
        }
        return vertical
            ? ShapedText(glyphs: glyphs, width: size, height: end, isVertical: true)
            : ShapedText(glyphs: glyphs, width: end)
    }

    /// Shapes formatted text (a `format` expression's sections) at `size` points into one ``ShapedText``:
    /// each section with its own font stack, scale and color; a line feed in a section's text starts a
    /// new line. Lines are `lineHeight` points apart (baselines; the first line's baseline at y = 0) and
    /// centered on the widest. Vertical text is one column, sections one after another.
    public static func shape(
        sections: [TextSection], size: Double, lineHeight: Double? = nil, vertical: Bool = false
    ) -> ShapedText {
        if vertical {
            var glyphs: [ShapedText.Glyph] = []
            var pen = 0.0
            var width = 0.0
            for section in sections {
                let text = section.text.replacingOccurrences(of: "\n", with: "")
                pen = section.font.appendShaped(
                    text, size: size, scale: section.scale, color: section.color, vertical: true, at: pen, to: &glyphs)
                width = max(width, size * section.scale)
            }
            var shaped = finish(glyphs, end: pen, vertical: true, size: size)
            shaped.width = width
            return shaped
        }
        // Split sections into lines.
        var lines: [[TextSection]] = [[]]
        for section in sections {
            let parts = section.text.split(separator: "\n", omittingEmptySubsequences: false)
            for (i, part) in parts.enumerated() {
                if i > 0 { lines.append([]) }
                if !part.isEmpty {
                    var piece = section
                    piece.text = String(part)
                    lines[lines.count - 1].append(piece)
                }
            }
        }
        let step = lineHeight ?? size * 1.2
        var shapedLines: [(glyphs: [ShapedText.Glyph], width: Double)] = []
        for line in lines {
            var glyphs: [ShapedText.Glyph] = []
            var pen = 0.0
            for section in line {
                pen = section.font.appendShaped(
                    section.text, size: size, scale: section.scale, color: section.color, vertical: false, at: pen,
                    to: &glyphs)
            }
            shapedLines.append((finish(glyphs, end: pen, vertical: false, size: size).glyphs, pen))
        }
        let width = shapedLines.map(\.width).max() ?? 0
        var all: [ShapedText.Glyph] = []
        for (i, line) in shapedLines.enumerated() {
            let dx = (width - line.width) / 2
            let dy = Double(i) * step
            all += line.glyphs.map {
                var g = $0
                g.x += dx
                g.y += dy
                return g
            }
        }
        return ShapedText(
            glyphs: all, width: width, height: shapedLines.count > 1 ? Double(shapedLines.count) * step : 0)
    }

    /// Whether the stack (with its fallback) has a glyph for every character of `text` (no missing-glyph boxes).
    public func covers(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            Self.isIgnorable(scalar) || faces.contains { $0.hasGlyph(for: scalar) }
        }
    }

    /// Whether the stack's own faces (not the fallback) have a glyph for every character of `text`.
    public func stackCovers(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            Self.isIgnorable(scalar) || faces[..<stackCount].contains { $0.hasGlyph(for: scalar) }
        }
    }

    /// The first face's ascender and descender as fractions of the size (descender positive).
    public var verticalMetrics: (ascender: Double, descender: Double) {
        (faces[0].harfBuzz.ascender, faces[0].harfBuzz.descender)
    }
}
