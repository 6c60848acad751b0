import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// Text of a `symbol` layer: resolved, shaped, wrapped and placed at points or along lines.
extension SymbolLayerRenderer {
    /// The feature's `text-field` value `field` as text, with `{field}` tokens replaced by the feature's values.
    func resolveText(_ field: StyleValue, _ context: EvaluationContext) -> String {
        if case .null = field { return "" }
        return resolveTokens(field.text, context)
    }

    /// `raw` with `{field}` tokens replaced by the feature's values, trimmed.
    func resolveTokens(_ raw: String, _ context: EvaluationContext) -> String {
        guard raw.utf8.contains(UInt8(ascii: "{")) else { return Self.trimmingSpaces(raw) }
        // ASCII text (field names such as `{name:latin}` and sprite names): each byte is a character, so the
        // braces are found among the bytes, with the same result as among the characters below.
        if raw.utf8.allSatisfy({ $0 < 0x80 }) {
            return Self.trimmingSpaces(Self.replacingTokens(ascii: raw, context.properties))
        }
        var out = ""
        var rest = Substring(raw)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let key = String(rest[rest.index(after: open)..<close])
            out += context.properties[key]?.text ?? ""
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return Self.trimmingSpaces(out)
    }

    /// ASCII `raw` with each `{field}` (the first `}` after a `{`) replaced by the field's value as text, or by
    /// nothing when the feature has no such field.
    static func replacingTokens(ascii raw: String, _ properties: [String: StyleValue]) -> String {
        var out = ""
        var rest = raw.utf8[...]
        while let open = rest.firstIndex(of: UInt8(ascii: "{")),
            let close = rest[open...].firstIndex(of: UInt8(ascii: "}"))
        {
            out += String(Substring(rest[..<open]))
            out += properties[String(Substring(rest[rest.index(after: open)..<close]))]?.text ?? ""
            rest = rest[rest.index(after: close)...]
        }
        out += String(Substring(rest))
        return out
    }

    /// `text` without its leading and trailing tabs and space separators (Unicode Zs): what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes, without its cost on every label of every layer.
    static func trimmingSpaces(_ text: String) -> String {
        @inline(__always) func isSpace(_ s: Unicode.Scalar) -> Bool {
            s == " " || s == "\t" || (s.value > 0x7F && s.properties.generalCategory == .spaceSeparator)
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last, isSpace(first) || isSpace(last) else { return text }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
            let end = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[start...end])
    }

    /// The `text-font` stack of a feature (DejaVu Sans when the layer names none).
    func fontStack(_ context: EvaluationContext) -> [String] {
        properties.value(.textFont, context).array?.compactMap(\.string) ?? ["DejaVu Sans"]
    }

    /// Greedy word wrap at `maxWidth` points.
    static func wrap(_ text: String, font: Font, size: Double, maxWidth: Double) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count > 1 else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in words {
            let candidate = current.isEmpty ? word : current + " " + word
            if !current.isEmpty, font.measure(candidate, size: size).width > maxWidth {
                lines.append(current)
                current = word
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The anchors a point label tries, with the offset (points) of each: `text-anchor` and `text-offset`,
    /// or each of `text-variable-anchor` with `text-radial-offset` (or `text-offset`'s magnitudes) pointing
    /// away from the anchor, as MapLibre's `fromRadialOffset` / `fromTextOffset`.
    func textAnchors(_ context: EvaluationContext, size: Double) -> [(name: String, offset: Point)] {
        // `text-variable-anchor-offset`: each anchor with its own offset in ems, taken as it is.
        if let pairs = properties.value(.textVariableAnchorOffset, context).array, !pairs.isEmpty {
            let limit = StyleLimits.maximumOffset
            var result: [(name: String, offset: Point)] = []
            for i in stride(from: 0, to: pairs.count - 1, by: 2) {
                guard let name = pairs[i].string, Self.anchorNames.contains(name),
                    let xy = pairs[i + 1].array?.compactMap(\.number), xy.count == 2, xy.allSatisfy(\.isFinite)
                else { continue }
                let x = min(max(xy[0], -limit), limit)
                let y = min(max(xy[1], -limit), limit)
                result.append((name, Point(x: x * size, y: y * size)))
            }
            if !result.isEmpty { return Array(result.prefix(9)) }
        }
        let offset = properties.numbers(.textOffset, context) ?? [0, 0]
        let ox = offset.first ?? 0
        let oy = offset.count > 1 ? offset[1] : 0
        let names =
            properties.value(.textVariableAnchor, context).array?.compactMap(\.string).filter {
                Self.anchorNames.contains($0)
            } ?? []
        guard !names.isEmpty else {
            return [(properties.string(.textAnchor, context), Point(x: ox * size, y: oy * size))]
        }
        let radial = layer.isSet(.textRadialOffset) ? max(0, properties.number(.textRadialOffset, context)) : nil
        return names.prefix(9).map { name in
            // Text shaped from font outlines has its origin on the baseline: no baseline correction.
            let offset =
                radial.map { Self.variableOffset(name, radial: $0, baseline: 0) }
                ?? Self.variableOffset(name, x: ox, y: oy, baseline: 0)
            return (name, Point(x: offset.x * size, y: offset.y * size))
        }
    }

    static let anchorNames: Set<String> = [
        "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right",
    ]

    /// A point label's lines at `anchor` (world points): wrapped at `text-max-width`, `text-line-height`
    /// apart, the block placed by `anchorName` and moved by `offset` (points), lines justified by
    /// `text-justify` (`auto`: by the anchor's side), letters `text-letter-spacing` ems apart, the whole
    /// turned by `text-rotate` around the anchor. Returns the content and its box grown by `padding`
    /// (around the turned block when rotated).
    func placeAtPoint(
        _ anchor: Point, text: String, font: Font, size: Double, context: EvaluationContext, padding: Double,
        anchorName: String, offset: Point, sections: [TextSection]? = nil, vertical: Bool = false
    ) -> (content: PlacedLabel.Content, box: Rect) {
        if sections != nil || vertical || text.utf8.contains(UInt8(ascii: "\n")) {
            return placeBlock(
                anchor, sections: sections ?? [TextSection(text: text, font: font)], size: size, context: context,
                padding: padding, anchorName: anchorName, offset: offset, vertical: vertical)
        }
        let spacing = properties.number(.textLetterSpacing, context) * size
        let lines = Self.wrap(
            text, font: font, size: size, maxWidth: properties.number(.textMaxWidth, context) * size)
        let lineHeight = properties.number(.textLineHeight, context) * size
        let shaped = spacing != 0 ? lines.map { font.shape($0, size: size) } : []
        let widths =
            spacing != 0
            ? shaped.map { max(0, $0.width + spacing * Double(max(0, $0.glyphs.count - 1))) }
            : lines.map { font.measure($0, size: size).width }
        let width = widths.max() ?? 0
        let height = Double(lines.count) * lineHeight
        let align = Self.alignment(anchorName)
        var x = anchor.x - width * align.x + offset.x
        var y = anchor.y - height * align.y + offset.y
        x = x.isFinite ? x : anchor.x
        y = y.isFinite ? y : anchor.y
        var justify = properties.string(.textJustify, context)
        if justify == "auto" { justify = align.x == 0 ? "left" : align.x == 1 ? "right" : "center" }
        let share = justify == "left" ? 0 : justify == "right" ? 1 : 0.5
        let metrics = font.verticalMetrics
        let ascent = metrics.ascender * size
        let glyphHeight = (metrics.ascender + metrics.descender) * size
        let origins = lines.indices.map { i in
            Point(
                x: x + (width - widths[i]) * share,
                y: y + Double(i) * lineHeight + (lineHeight - glyphHeight) / 2 + ascent)
        }
        let rotate = properties.number(.textRotate, context) * .pi / 180 + mapAlignedAngle(context)
        var box = Rect(x: x, y: y, width: width, height: height)
        guard spacing != 0 || rotate != 0 else {
            return (.lines(lines.indices.map { (lines[$0], origins[$0]) }), box.insetBy(dx: -padding, dy: -padding))
        }
        let turn = Transform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(Transform(rotationAngle: rotate))
            .concatenating(Transform(translationX: anchor.x, y: anchor.y))
        var glyphs: [PlacedGlyph] = []
        for (i, line) in lines.enumerated() {
            let run = spacing != 0 ? shaped[i] : font.shape(line, size: size)
            for (k, g) in run.glyphs.enumerated() {
                let p = Point(x: origins[i].x + g.x + spacing * Double(k), y: origins[i].y + g.y)
                glyphs.append(
                    PlacedGlyph(index: g.index, origin: p.applying(turn), angle: rotate, face: g.face, scale: g.scale))
            }
        }
        if rotate != 0 {
            let corners = [
                Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY), Point(x: box.maxX, y: box.maxY),
                Point(x: box.minX, y: box.maxY),
            ].map { $0.applying(turn) }
            let xs = corners.map(\.x)
            let ys = corners.map(\.y)
            box = Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        }
        return (.glyphs(glyphs), box.insetBy(dx: -padding, dy: -padding))
    }

    func placeAlongLine(
        _ line: [Point], text: String, font: Font, size: Double, context: EvaluationContext, padding: Double,
        overlap: SymbolOverlap, collisions: inout SpatialGrid, sections: [TextSection]? = nil, center: Bool = false,
        repeats: inout RepeatedAnchors
    ) -> [[PlacedGlyph]] {
        guard line.count > 1 else { return [] }
        // `format` sections along a line: one line, each section in its own font, scale and color.
        let shaped =
            sections.map { list in
                Font.shape(
                    sections: list.map {
                        var section = $0
                        section.text = section.text.replacingOccurrences(of: "\n", with: " ")
                        return section
                    }, size: size)
            } ?? font.shape(text, size: size)
        guard !shaped.glyphs.isEmpty else { return [] }
        // `text-letter-spacing` (ems) between glyphs; `text-offset` x moves the label along the line (in the
        // line's direction, as MapLibre's line offset), y away from it.
        let letterSpacing = properties.number(.textLetterSpacing, context) * size
        // Pen positions as MapLibre lays them out: each glyph's advance from its 24-pixel glyph sheet,
        // fractions dropped, times size / 24, no kerning, plus the letter spacing (plain text whose glyphs
        // are its characters; otherwise the font's own positions plus the spacing).
        let characters = Array(text)
        var pens = shaped.glyphs.enumerated().map { $0.element.x + letterSpacing * Double($0.offset) }
        var glyphAdvances = shaped.glyphs.map(\.advance)
        // Only where glyph k is character k: glyphs in logical order (no right-to-left run, which shaping
        // puts in visual order) and advancing left to right.
        let logicalOrder =
            !text.unicodeScalars.contains {
                (0x0590...0x08FF).contains($0.value) || (0xFB1D...0xFEFF).contains($0.value)
            }
            && zip(shaped.glyphs, shaped.glyphs.dropFirst()).allSatisfy { $0.x <= $1.x }
        if sections == nil, logicalOrder, characters.count == shaped.glyphs.count, characters.count <= 1_000 {
            var pen = 0.0
            for (k, character) in characters.enumerated() {
                let advance = advances.advance(character, font: font) * size / 24
                pens[k] = pen
                glyphAdvances[k] = advance
                pen += advance + letterSpacing
            }
        }
        let width = (pens.last ?? 0) + (glyphAdvances.last ?? 0)
        let across = properties.numbers(.textOffset, context).map { $0.count > 1 ? $0[1] : 0 } ?? 0
        return glyphsAlongLine(
            line, text: text, pens: pens, advances: glyphAdvances, width: width, context: context, padding: padding,
            overlap: overlap, collisions: &collisions, center: center, repeats: &repeats,
            alignX: Self.alignment(properties.string(.textAnchor, context)).x
        ).map { frames in
            frames.map { frame in
                let g = shaped.glyphs[frame.index]
                let dir = Point(x: cos(frame.angle), y: sin(frame.angle))
                let down = Point(x: -dir.y, y: dir.x)
                let shift = 0.35 * size + across * size
                let p = frame.point
                let origin = Point(
                    x: p.x - dir.x * g.advance / 2 + down.x * shift, y: p.y - dir.y * g.advance / 2 + down.y * shift)
                return PlacedGlyph(
                    index: g.index, origin: origin, angle: frame.angle, face: g.face, scale: g.scale, color: g.color)
            }
        }
    }
}

/// A label's text laid out as a block: glyphs with origins relative to the block's top-left corner.
struct TextBlock {
    var glyphs: [PlacedGlyph]
    var width: Double
    var height: Double

    /// Lays out `sections` (a `format` value, or one plain section): a line feed starts a new line;
    /// horizontal lines are `lineHeight` points times the line's largest `font-scale` apart, sections
    /// of a line sharing one baseline (MapLibre's rule), each line placed by `share` (0 left, 0.5 center,
    /// 1 right) in the block's width. Vertical text (see ``Font/layOutColumn(_:size:)``) puts each line in
    /// a column, the first on the right, columns `lineHeight` times their largest scale apart.
    ///
    /// Horizontal lines longer than `maxWidth` points are broken at spaces, greedily (words of any section).
    static func layOut(
        _ sections: [TextSection], size: Double, lineHeight: Double, share: Double, vertical: Bool,
        maxWidth: Double = .infinity
    ) -> TextBlock {
        var split: [[TextSection]] = [[]]
        for section in sections {
            for (i, part) in section.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if i > 0 { split.append([]) }
                if !part.isEmpty {
                    var piece = section
                    piece.text = String(part)
                    split[split.count - 1].append(piece)
                }
            }
        }
        let lines = vertical ? split : split.flatMap { wrap($0, size: size, maxWidth: maxWidth) }
        let scales = lines.map { line in line.map(\.scale).max() ?? 1 }
        if vertical {
            let columns = lines.map { Font.layOutColumn($0, size: size, standingLatin: true) }
            let pitches = scales.map { lineHeight * $0 }
            let width = pitches.reduce(0, +)
            let height = columns.map(\.length).max() ?? 0
            var right = width
            var glyphs: [PlacedGlyph] = []
            for (i, column) in columns.enumerated() {
                let cx = right - pitches[i] / 2
                let dy = (height - column.length) * share
                glyphs += column.glyphs.map {
                    var g = $0
                    g.origin = Point(x: g.origin.x + cx, y: g.origin.y + dy)
                    return g
                }
                right -= pitches[i]
            }
            return TextBlock(glyphs: glyphs, width: width, height: height)
        }
        let shaped = lines.map { Font.shape(sections: $0, size: size) }
        let width = shaped.map(\.width).max() ?? 0
        var glyphs: [PlacedGlyph] = []
        var top = 0.0
        for (i, line) in shaped.enumerated() {
            let scale = scales[i]
            let step = lineHeight * scale
            let metrics =
                (lines[i].first?.font ?? sections.first?.font)?.verticalMetrics ?? (ascender: 0.8, descender: 0.2)
            let ascent: Double = metrics.ascender * size * scale
            let glyphHeight: Double = (metrics.ascender + metrics.descender) * size * scale
            let baseline: Double = top + (step - glyphHeight) / 2 + ascent
            let dx = (width - line.width) * share
            glyphs += line.glyphs.map {
                PlacedGlyph(
                    index: $0.index, origin: Point(x: $0.x + dx, y: $0.y + baseline), angle: 0, face: $0.face,
                    scale: $0.scale, color: $0.color)
            }
            top += step
        }
        return TextBlock(glyphs: glyphs, width: width, height: top)
    }
}

extension TextBlock {
    /// One line of sections broken at spaces where it is wider than `maxWidth` points: words are added
    /// while the line fits (a word wider than the width gets a line of its own). Lines of more than 64
    /// words are not broken (the work stays proportional to the label).
    static func wrap(_ line: [TextSection], size: Double, maxWidth: Double) -> [[TextSection]] {
        guard maxWidth.isFinite, maxWidth > 0, Font.shape(sections: line, size: size).width > maxWidth else {
            return [line]
        }
        // Words with the section they belong to; a word keeps the space before it.
        var words: [TextSection] = []
        for section in line {
            var current = ""
            for character in section.text {
                if character == " ", !current.isEmpty, current.contains(where: { $0 != " " }) {
                    var word = section
                    word.text = current
                    words.append(word)
                    current = ""
                }
                current.append(character)
            }
            if !current.isEmpty {
                var word = section
                word.text = current
                words.append(word)
            }
        }
        guard words.count > 1, words.count <= 64 else { return [line] }
        var result: [[TextSection]] = []
        var current: [TextSection] = []
        for word in words {
            let candidate = current + [word]
            if !current.isEmpty, word.text.first == " ", Font.shape(sections: candidate, size: size).width > maxWidth {
                result.append(current)
                var first = word
                first.text = String(word.text.drop { $0 == " " })
                current = first.text.isEmpty ? [] : [first]
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { result.append(current) }
        // Trailing spaces do not count towards a line's width.
        return result.map { line in
            var line = line
            if var last = line.popLast() {
                while last.text.hasSuffix(" ") { last.text.removeLast() }
                if !last.text.isEmpty { line.append(last) }
            }
            return line
        }
    }
}

extension SymbolLayerRenderer {
    /// The feature's `text-field` value `field` as `format` sections (with `text-transform` applied), or nil when it
    /// is plain text (one section without its own font, scale or color, or not a `format` value).
    func resolveSections(_ field: StyleValue, _ context: EvaluationContext) -> [FormattedSection]? {
        guard case .formatted(let parts) = field,
            parts.contains(where: { $0.scale != nil || $0.fontStack != nil || $0.color != nil || $0.image != nil })
        else { return nil }
        let transform = properties.string(.textTransform, context)
        return parts.map {
            var part = $0
            if transform == "uppercase" { part.text = part.text.uppercased() }
            if transform == "lowercase" { part.text = part.text.lowercased() }
            return part
        }
    }

    /// The sections resolved to fonts (the layer's `text-font` where a section names none), colors
    /// multiplied by `opacity`.
    ///
    /// - Throws: ``RenderError`` naming the layer when a section's stack names no installed font.
    func textSections(_ sections: [FormattedSection], _ context: EvaluationContext, opacity: Double) throws
        -> [TextSection]
    {
        let names = properties.value(.textFont, context).array?.compactMap(\.string) ?? ["DejaVu Sans"]
        do {
            return try fonts.textSections(sections, stack: names).map {
                var section = $0
                section.color = $0.color.map { $0.withAlphaComponent($0.alpha * opacity) }
                return section
            }
        } catch let error as GraphicsError {
            throw RenderError.invalidOptions(
                "style layer \"\(layer.id)\": a format section's text-font: \(error.description)")
        }
    }

    /// The writing modes a point label tries, in order (false: horizontal, true: vertical): those of
    /// `text-writing-mode`, vertical only for text that has upright (CJK) characters; else horizontal.
    func writingModes(_ context: EvaluationContext, text: String) -> [Bool] {
        let modes = properties.value(.textWritingMode, context).array?.compactMap(\.string) ?? []
        guard modes.contains("vertical"), VerticalText.allowsVertical(text) else { return [false] }
        var result: [Bool] = []
        for mode in modes where mode == "vertical" || mode == "horizontal" {
            if !result.contains(mode == "vertical") { result.append(mode == "vertical") }
        }
        return result
    }

    /// How text treats earlier symbols: `text-overlap` when set, else `text-allow-overlap` (`always` when
    /// true).
    func textOverlap(_ context: EvaluationContext) -> SymbolOverlap {
        if layer.isSet(.textOverlap), let mode = SymbolOverlap(rawValue: properties.string(.textOverlap, context)) {
            return mode
        }
        return properties.bool(.textAllowOverlap, context) ? .always : .never
    }

    /// `text-translate` in points (x right, y down).
    /// For point text aligned to the map (`text-rotation-alignment: map`), the angle the map is turned by
    /// on the image; else 0.
    func mapAlignedAngle(_ context: EvaluationContext) -> Double {
        guard selection.viewport.heading != 0, properties.string(.textRotationAlignment, context) == "map" else {
            return 0
        }
        return selection.viewport.mapAngle
    }

    func textTranslation(_ context: EvaluationContext) -> Point {
        let t = properties.numbers(.textTranslate, context) ?? [0, 0]
        let x = t.first ?? 0
        let y = t.count > 1 ? t[1] : 0
        let v = Point(x: x.isFinite ? x : 0, y: y.isFinite ? y : 0)
        return properties.string(.textTranslateAnchor, context) == "viewport" ? v : selection.viewport.turnedVector(v)
    }

    /// A block label (formatted, multi-line or vertical text) at `anchor`: laid out by ``TextBlock``, placed
    /// by `anchorName` and `offset`, justified by `text-justify`, turned by `text-rotate`.
    func placeBlock(
        _ anchor: Point, sections: [TextSection], size: Double, context: EvaluationContext, padding: Double,
        anchorName: String, offset: Point, vertical: Bool
    ) -> (content: PlacedLabel.Content, box: Rect) {
        let align = Self.alignment(anchorName)
        var justify = properties.string(.textJustify, context)
        if justify == "auto" { justify = align.x == 0 ? "left" : align.x == 1 ? "right" : "center" }
        let share = justify == "left" ? 0 : justify == "right" ? 1 : 0.5
        let block = TextBlock.layOut(
            sections, size: size, lineHeight: properties.number(.textLineHeight, context) * size,
            share: vertical ? 0 : share, vertical: vertical, maxWidth: properties.number(.textMaxWidth, context) * size)
        var x = anchor.x - block.width * align.x + offset.x
        var y = anchor.y - block.height * align.y + offset.y
        x = x.isFinite ? x : anchor.x
        y = y.isFinite ? y : anchor.y
        let rotate = properties.number(.textRotate, context) * .pi / 180 + mapAlignedAngle(context)
        let turn = Transform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(Transform(rotationAngle: rotate))
            .concatenating(Transform(translationX: anchor.x, y: anchor.y))
        let glyphs = block.glyphs.map {
            var g = $0
            g.origin = Point(x: g.origin.x + x, y: g.origin.y + y).applying(turn)
            g.angle += rotate
            return g
        }
        let corners = [
            Point(x: x, y: y), Point(x: x + block.width, y: y), Point(x: x + block.width, y: y + block.height),
            Point(x: x, y: y + block.height),
        ].map { $0.applying(turn) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let box = Rect(
            x: xs.min() ?? x, y: ys.min() ?? y, width: (xs.max() ?? x) - (xs.min() ?? x),
            height: (ys.max() ?? y) - (ys.min() ?? y))
        return (.glyphs(glyphs), box.insetBy(dx: -padding, dy: -padding))
    }
}
