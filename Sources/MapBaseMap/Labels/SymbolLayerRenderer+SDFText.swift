import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// Text drawn from SDF glyphs (glyph PBFs) as MapLibre lays it out: shaped by ``GlyphShaping``, turned
/// into glyph quads as MapLibre's `getGlyphQuads` makes them, at points or glyph by glyph along lines.
extension SymbolLayerRenderer {
    /// A label's text for SDF glyphs: plain `text` in the layer's `stack`, or `format` sections each in its
    /// own stack (the layer's when it names none), `font-scale` and colour (times `opacity`). Nil when a
    /// stack has no glyph PBFs or the text needs HarfBuzz (``SDFGlyphSource/needsComplexShaping(_:)``).
    ///
    /// Code points past U+FFFF have no glyph (MapLibre reads text as UTF-16 and finds none for either
    /// half of a surrogate pair); at most 65,536 characters are shaped.
    ///
    /// With `vertical` (a vertical point label), punctuation takes its vertical forms where MapLibre's
    /// `verticalizePunctuation` puts them, and every character but whitespace stands upright.
    ///
    /// An image section is one character of its sprite image (``InlineImage``), scaled by
    /// 24 / `layoutSize` (`text-size` at the tile's zoom); an image no sprite has takes no room.
    func glyphText(
        _ text: String, sections: [FormattedSection]?, stack: [String], opacity: Double, glyphs: SDFGlyphSource?,
        vertical: Bool = false, layoutSize: Double = GlyphShaping.oneEm
    ) throws -> GlyphText? {
        guard let glyphs, !text.isEmpty, !SDFGlyphSource.needsComplexShaping(text) else { return nil }
        let parts = sections ?? [FormattedSection(text: text)]
        let hasRightToLeft = parts.contains {
            $0.text.unicodeScalars.contains { BidirectionalText.isRightToLeft($0.value) }
        }
        var result = GlyphText()
        result.opacity = opacity
        for (index, part) in parts.enumerated() {
            if let name = part.image {
                result.stacks.append(GlyphStack(names: stack, provider: glyphs.provider))  // not read for images
                result.colors.append(nil)
                if let icon = icons?.icon(name), result.characters.count < 1 << 16 {
                    let sectionScale = part.scale ?? 1
                    let image = InlineImage(
                        texture: icon.image, pixelWidth: icon.entry.width, pixelHeight: icon.entry.height,
                        pixelRatio: icon.entry.pixelRatio, sectionScale: sectionScale)
                    result.characters.append(
                        GlyphShaping.Character(
                            codePoint: 0xFFFC, glyph: nil,
                            scale: InlineImage.layoutScale(sectionScale: sectionScale, layoutSize: layoutSize),
                            section: index, vertical: vertical, image: image))
                }
                continue
            }
            guard let glyphStack = try glyphs.stack(part.fontStack ?? stack),
                !SDFGlyphSource.needsComplexShaping(part.text)
            else { return nil }
            result.stacks.append(glyphStack)
            result.colors.append(part.color.map { $0.withAlphaComponent($0.alpha * opacity) })
            // At most 65,536 characters a label: the shaping below stays proportional to what is drawn.
            let room = (1 << 16) - result.characters.count
            guard room > 0 else { break }
            let kept = part.text.unicodeScalars.count > room ? String(part.text.unicodeScalars.prefix(room)) : part.text
            // Arabic letters in their presentation forms, per section (MapLibre's `applyArabicShaping`).
            let partText = BidirectionalText.applyArabicShaping(
                vertical ? VerticalText.verticalizingPunctuation(kept) : kept)
            // At most one character per UTF-8 byte, and at most the room left.
            result.characters.reserveCapacity(result.characters.count + min(room, partText.utf8.count))
            for scalar in partText.unicodeScalars where result.characters.count < 1 << 16 {
                let value = scalar.value
                let glyph = try glyphStack.glyph(value)
                // Right-to-left text the glyphs cannot draw whole is shaped from the installed fonts.
                if glyph == nil, BidirectionalText.isRightToLeft(value) { return nil }
                var mirrored: (codePoint: UInt32, glyph: SDFGlyph)?
                if hasRightToLeft {
                    let mirror = BidirectionalText.mirror(value)
                    if mirror != value, let mirrorGlyph = try glyphStack.glyph(mirror) {
                        mirrored = (mirror, mirrorGlyph)
                    }
                }
                result.characters.append(
                    GlyphShaping.Character(
                        codePoint: value, glyph: glyph, scale: part.scale ?? 1,
                        section: index,
                        // Whitespace and Arabic lie along a vertical line, on their side (MapLibre's shapeLines).
                        vertical: vertical && !GlyphShaping.isWhitespace(value)
                            && !BidirectionalText.isArabicJoining(value),
                        mirror: mirrored))
            }
        }
        return result
    }

    /// The anchors a point label tries, with MapLibre's offsets in ems: `text-variable-anchor-offset` as
    /// given (moved by the baseline correction below); for `text-variable-anchor`, `text-radial-offset` (when set) or `text-offset` pointed away
    /// from each anchor (`evaluateVariableOffset`, with its baseline correction of 7/24 em upward or
    /// downward); otherwise `text-anchor` with `text-radial-offset` (when non-zero) or `text-offset`.
    func glyphTextAnchors(_ context: EvaluationContext) -> [(name: String, offset: Point)] {
        if let pairs = properties.value(.textVariableAnchorOffset, context).array, !pairs.isEmpty {
            // The offsets as given, with the same baseline correction (seen in MapLibre's expected images).
            let chosen = textAnchors(context, size: 1).map { choice in
                var offset = choice.offset
                if choice.name.hasPrefix("top") { offset.y -= Self.baselineOffset }
                if choice.name.hasPrefix("bottom") { offset.y += Self.baselineOffset }
                return (choice.name, offset)
            }
            if !chosen.isEmpty { return chosen }
        }
        let offset = properties.numbers(.textOffset, context) ?? [0, 0]
        let ox = offset.first ?? 0
        let oy = offset.count > 1 ? offset[1] : 0
        let names =
            properties.value(.textVariableAnchor, context).array?.compactMap(\.string).filter {
                Self.anchorNames.contains($0)
            } ?? []
        let radial = layer.isSet(.textRadialOffset) ? properties.number(.textRadialOffset, context) : nil
        guard !names.isEmpty else {
            let name = properties.string(.textAnchor, context)
            if let radial, radial != 0 { return [(name, Self.variableOffset(name, radial: radial))] }
            return [(name, Point(x: ox, y: oy))]
        }
        return names.prefix(9).map { name in
            if let radial { return (name, Self.variableOffset(name, radial: radial)) }
            return (name, Self.variableOffset(name, x: ox, y: oy))
        }
    }

    /// MapLibre's assumed baseline: 7 layout pixels (of 24) below the text box's top.
    static let baselineOffset = 7.0 / 24

    /// MapLibre's `fromRadialOffset`, in ems; `baseline` is the baseline correction of glyph PBF text
    /// (``baselineOffset``; 0 for text shaped from font outlines, whose origin is its baseline).
    static func variableOffset(_ anchor: String, radial: Double, baseline: Double = baselineOffset) -> Point {
        let r = max(0, radial)
        let h = r / 2.squareRoot()
        var x = 0.0
        var y = 0.0
        switch anchor {
        case "top-right", "top-left": y = h - baseline
        case "bottom-right", "bottom-left": y = -h + baseline
        case "bottom": y = -r + baseline
        case "top": y = r - baseline
        default: break
        }
        switch anchor {
        case "top-right", "bottom-right": x = -h
        case "top-left", "bottom-left": x = h
        case "left": x = r
        case "right": x = -r
        default: break
        }
        return Point(x: x, y: y)
    }

    /// MapLibre's `fromTextOffset`, in ems: the offset's magnitudes pointed away from the anchor (`baseline` as
    /// for the radial offset).
    static func variableOffset(_ anchor: String, x ox: Double, y oy: Double, baseline: Double = baselineOffset)
        -> Point
    {
        var x = 0.0
        var y = 0.0
        if anchor.hasPrefix("top") { y = abs(oy) - baseline }
        if anchor.hasPrefix("bottom") { y = -abs(oy) + baseline }
        if anchor.hasSuffix("right") { x = -abs(ox) }
        if anchor.hasSuffix("left") { x = abs(ox) }
        return Point(x: x, y: y)
    }

    /// A point label of SDF glyphs at `anchor` (world points): shaped with the anchor's alignment,
    /// `text-justify` (`auto`: by the anchor's side), `text-max-width` (point placement only),
    /// `text-line-height`, `text-letter-spacing` and `offset` (ems), scaled by `text-size` / 24 and turned
    /// by `text-rotate` about the anchor. Returns the content and the collision box (MapLibre's box of the
    /// shaped text, its envelope when turned, grown by `padding`).
    func placeGlyphsAtPoint(
        _ anchor: Point, text: GlyphText, layout: inout Layout, glyphs: SDFGlyphSource, size: Double,
        context: EvaluationContext,
        padding: Double, anchorName: String, offset: Point,
        pointPlacement: Bool, variable: Bool = false, vertical: Bool = false
    ) -> (content: PlacedLabel.Content, box: Rect) {
        let em = GlyphShaping.oneEm
        let align = Self.alignment(anchorName)
        // MapLibre lays text out at the tile's integer zoom (zoom-dependent layout properties step).
        var context = context
        context.zoom = context.zoom.rounded(.down)
        // A variable anchor of a vertical label places its turned box: shaped centred, then moved.
        let screenShift = vertical && variable
        var justify = properties.string(.textJustify, context)
        if justify == "auto" { justify = align.x == 0 ? "left" : align.x == 1 ? "right" : "center" }
        let shaping = layout.shaping(
            text.characters, kept: text.kept,
            maxWidth: pointPlacement ? properties.number(.textMaxWidth, context) * em : .infinity,
            lineHeight: properties.number(.textLineHeight, context) * em, align: screenShift ? (0.5, 0.5) : align,
            justify: vertical || justify == "left" ? 0 : justify == "right" ? 1 : 0.5,
            spacing: properties.number(.textLetterSpacing, context) * em,
            offset: screenShift ? (0, 0) : (offset.x * em, offset.y * em))
        let fontScale = size / em
        // A vertical label is shaped as a line and turned a quarter clockwise (its glyphs a quarter back).
        let rotate = properties.number(.textRotate, context) * .pi / 180 + (vertical ? .pi / 2 : 0)
        let turn = Transform(rotationAngle: rotate)
        let corners = [
            Point(x: shaping.left, y: shaping.top), Point(x: shaping.right, y: shaping.top),
            Point(x: shaping.right, y: shaping.bottom), Point(x: shaping.left, y: shaping.bottom),
        ].map { $0.applying(rotate != 0 ? turn : .identity) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let (minX, maxX) = (xs.min() ?? 0, xs.max() ?? 0)
        let (minY, maxY) = (ys.min() ?? 0, ys.max() ?? 0)
        // A variable anchor moves the text by half its box, padding included (MapLibre's
        // `calculateVariableLayoutShift` takes the padded collision box's size).
        var anchor = anchor
        if screenShift {
            anchor.x += -(align.x - 0.5) * ((maxX - minX) * fontScale + 2 * padding) + offset.x * size
            anchor.y += -(align.y - 0.5) * ((maxY - minY) * fontScale + 2 * padding) + offset.y * size
        } else if variable {
            anchor.x -= (align.x - 0.5) * 2 * padding
            anchor.y -= (align.y - 0.5) * 2 * padding
        }
        let place = turn.concatenating(Transform(scaleX: fontScale, y: fontScale))
            .concatenating(Transform(translationX: anchor.x, y: anchor.y))
        var quads: [SDFGlyphQuad] = []
        let linear = inlineImagesLinear(context)
        for (lineIndex, line) in shaping.lines.enumerated() {
            for g in line where g.glyph.hasBitmap || g.image != nil {
                // A vertical label centres images and scaled glyphs on its line (MapLibre's `lineOffset` of
                // `getGlyphQuads`): up by half the line's offset, less half what an image is narrower than an
                // em, or plus what a glyph's scale adds.
                var y = g.y
                if vertical {
                    let centring = g.image.map { -(GlyphShaping.oneEm - $0.width * g.scale) / 2 } ?? (g.scale - 1) * em
                    y -= shaping.lineOffsets[lineIndex] / 2 - centring
                }
                if let image = g.image, !g.vertical {
                    quads.append(
                        image.quad(
                            origin: Point(x: g.x, y: y), scale: g.scale, place: place, opacity: text.opacity,
                            linear: linear))
                    continue
                }
                let texture = g.image == nil ? glyphs.texture(g.glyph, stack: text.stacks[g.section]) : nil
                guard g.image != nil || texture != nil else { continue }
                var quad: SDFGlyphQuad
                if g.vertical {
                    // MapLibre's `rotateVerticalGlyph`: the quad turned a quarter counter-clockwise about
                    // (-half advance, half advance + 17), moved right by 10 + half advance (an image also up
                    // by what its half advance is short of half an em), then to the pen.
                    let half = g.advance * g.scale / 2
                    let imageCorrection = g.image != nil ? -(GlyphShaping.oneEm / 2 - half) : 0
                    let upright = Transform(translationX: half, y: -(half - GlyphShaping.defaultOffset))
                        .concatenating(Transform(rotationAngle: -.pi / 2))
                        .concatenating(Transform(translationX: -half, y: half - GlyphShaping.defaultOffset))
                        .concatenating(Transform(translationX: 10 + half + g.x + half, y: y + imageCorrection))
                    if let image = g.image {
                        quads.append(
                            image.quad(
                                origin: Point(x: -half, y: 0), scale: g.scale, place: upright.concatenating(place),
                                opacity: text.opacity, linear: linear))
                        continue
                    }
                    guard let texture else { continue }
                    quad = SDFText.quad(
                        g.glyph, texture: texture, origin: Point(x: -half, y: 0), scale: g.scale,
                        place: upright.concatenating(place))
                } else {
                    guard let texture else { continue }
                    quad = SDFText.quad(
                        g.glyph, texture: texture, origin: Point(x: g.x, y: y), scale: g.scale, place: place)
                }
                quad.color = text.colors[g.section]
                quads.append(quad)
            }
        }
        let box = Rect(
            x: anchor.x + minX * fontScale, y: anchor.y + minY * fontScale, width: (maxX - minX) * fontScale,
            height: (maxY - minY) * fontScale)
        let drawn = SDFText(quads: quads, fontScale: fontScale, pixelRatio: selection.viewport.scale)
        return (.sdf(drawn), box.insetBy(dx: -padding, dy: -padding))
    }

    /// A line label of SDF glyphs along `line` (world points), each copy as its glyph quads: shaped on one
    /// line (aligned on the anchor by `text-anchor`, justified centre, `text-letter-spacing`), each glyph turned
    /// with the line under its centre and moved `text-offset` y ems off the line (see ``glyphsAlongLine``).
    ///
    /// With an `icon` (a symbol with an icon too), each copy whose text fits asks it for the icon at the
    /// anchor (its point, the line's angle there as MapLibre turns an icon by it:
    /// ``textLineAnchorsWithIconAngles(_:shapedLength:context:center:tileWidth:tile:reach:)``, and the text's
    /// box there as shaped on one line, unturned, `text-offset` included, for `icon-text-fit`);
    /// a copy whose icon does not fit is dropped.
    func placeGlyphsAlongLine(
        _ line: [Point], text: String, glyphText: GlyphText, layout: inout Layout, glyphs: SDFGlyphSource,
        size: Double,
        context: EvaluationContext, padding: Double, overlap: SymbolOverlap,
        collisions: inout SpatialGrid, center: Bool, repeats: inout RepeatedAnchors, tileWidth: Double?,
        tile: Rect? = nil,
        icon: (
            (_ anchor: Point, _ lineAngle: Double, _ textBox: Rect, _ collisions: inout SpatialGrid) -> (
                fits: Bool, icon: PlacedIcon?
            )
        )? = nil
    ) -> [(text: SDFText, icon: PlacedIcon?)] {
        let em = GlyphShaping.oneEm
        let align = Self.alignment(properties.string(.textAnchor, context))
        let fontScale = size / em
        // One shaping on one line, its glyphs' pens and advances from the label's start (points).
        func shape(_ characters: [GlyphShaping.Character], kept: Bool) -> (
            placed: [GlyphShaping.Positioned], pens: [Double], advances: [Double], length: Double,
            top: Double, bottom: Double
        ) {
            let shaping = layout.shaping(
                characters, kept: kept, maxWidth: .infinity,
                lineHeight: properties.number(.textLineHeight, context) * em,
                align: align, justify: 0.5, spacing: properties.number(.textLetterSpacing, context) * em,
                offset: (0, 0))
            let placed = shaping.isEmpty ? [] : shaping.lines.flatMap { $0 }
            return (
                placed, placed.map { ($0.x - shaping.left) * fontScale },
                placed.map { $0.advance * $0.scale * fontScale }, shaping.right - shaping.left, shaping.top,
                shaping.bottom
            )
        }
        let horizontal = shape(glyphText.characters, kept: glyphText.kept)
        guard !horizontal.placed.isEmpty else { return [] }
        let width = horizontal.length * fontScale
        let across = (properties.numbers(.textOffset, context).map { $0.count > 1 ? $0[1] : 0 } ?? 0) * size
        // Text that may be written vertically takes its vertical shaping where the label runs up and down.
        let verticalText = properties.bool(.textKeepUpright, context) ? verticalLineText(glyphText) : nil
        let verticalShaping = verticalText.map { shape($0.characters, kept: false) }
        // MapLibre spaces the anchors by the vertical shaping's length when the text has one (`getAnchors` is
        // given `shapedTextOrientations.vertical || horizontal`): vertical punctuation forms are an em each.
        let anchorsAndAngles = textLineAnchorsWithIconAngles(
            line, shapedLength: verticalShaping?.length ?? horizontal.length, context: context, center: center,
            tileWidth: tileWidth, tile: tile, reach: labelReach(.world))
        let anchors = anchorsAndAngles.map(\.along)
        // `viewport-glyph`: each glyph stands upright on the image at its place on the line.
        let uprightGlyphs = properties.string(.textRotationAlignment, context) == "viewport-glyph"
        var horizontalAnchors = anchorsAndAngles
        var verticalAnchors: [Double] = []
        if verticalText != nil, let firstPen = horizontal.pens.first, let lastPen = horizontal.pens.last {
            var distances: [Double] = [0]
            for (a, b) in zip(line, line.dropFirst()) {
                distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y))
            }
            let first = firstPen + horizontal.advances[0] / 2
            let last = lastPen + horizontal.advances[horizontal.advances.count - 1] / 2
            let along = (properties.numbers(.textOffset, context)?.first ?? 0) * size
            let steep = anchors.map {
                Self.runsVertically(
                    line, distances: distances, middle: $0 + along, width: width, first: first, last: last,
                    alignX: align.x)
            }
            horizontalAnchors = zip(anchorsAndAngles, steep).filter { !$0.1 }.map(\.0)
            verticalAnchors = zip(anchors, steep).filter { $0.1 }.map(\.0)
        }
        var labels: [(frames: [(index: Int, point: Point, angle: Double)], vertical: Bool)] = []
        // The icons of the copies kept, in order (the companion is asked once per copy kept, just before).
        var icons: [PlacedIcon?] = []
        let companion = icon.map { icon in
            { (anchor: Point, index: Int, collisions: inout SpatialGrid) -> Bool in
                let along = (self.properties.numbers(.textOffset, context)?.first ?? 0) * size
                let angle = horizontalAnchors[index].iconAngle
                let box = Rect(
                    x: anchor.x - width * align.x + along, y: anchor.y + horizontal.top * fontScale + across,
                    width: width,
                    height: (horizontal.bottom - horizontal.top) * fontScale)
                let fitted = icon(anchor, angle, box, &collisions)
                if fitted.fits { icons.append(fitted.icon) }
                return fitted.fits
            }
        }
        if !horizontalAnchors.isEmpty {
            labels += glyphsAlongLine(
                line, text: text, pens: horizontal.pens, advances: horizontal.advances, width: width, context: context,
                padding: padding, overlap: overlap, collisions: &collisions, center: center,
                repeats: &repeats, anchors: horizontalAnchors.map(\.along), across: across, repeatTile: tile,
                alignX: align.x,
                companion: companion
            ).map { ($0, false) }
        }
        let vertical = verticalShaping ?? horizontal
        if verticalText != nil, !verticalAnchors.isEmpty {
            labels += glyphsAlongLine(
                line, text: text, pens: vertical.pens, advances: vertical.advances, width: vertical.length * fontScale,
                context: context, padding: padding, overlap: overlap, collisions: &collisions,
                center: center, repeats: &repeats, anchors: verticalAnchors, vertical: true,
                across: across, repeatTile: tile, alignX: align.x
            ).map { ($0, true) }
        }
        return labels.enumerated().map { k, copy in
            let placed = copy.vertical ? vertical.placed : horizontal.placed
            var quads: [SDFGlyphQuad] = []
            for frame in copy.frames {
                let g = placed[frame.index]
                let texture = g.image == nil ? glyphs.texture(g.glyph, stack: glyphText.stacks[g.section]) : nil
                guard g.image != nil || (g.glyph.hasBitmap && texture != nil) else { continue }
                // `frame.point` is on the line offset by `text-offset` y already.
                var place = Transform(scaleX: fontScale, y: fontScale)
                    .concatenating(Transform(rotationAngle: uprightGlyphs ? 0 : frame.angle))
                    .concatenating(Transform(translationX: frame.point.x, y: frame.point.y))
                let half = g.advance * g.scale / 2
                // A glyph stood up in a vertical label: turned before it is placed, its y applied after.
                var origin = Point(x: -half, y: g.y)
                if g.vertical {
                    place = Self.uprightAlongLine(half: half, y: g.y).concatenating(place)
                    origin.y = 0
                }
                if let image = g.image {
                    quads.append(
                        image.quad(
                            origin: origin, scale: g.scale, place: place, opacity: glyphText.opacity,
                            linear: inlineImagesLinear(context)))
                    continue
                }
                guard let texture else { continue }
                var quad = SDFText.quad(g.glyph, texture: texture, origin: origin, scale: g.scale, place: place)
                quad.color = glyphText.colors[g.section]
                quads.append(quad)
            }
            return (
                SDFText(quads: quads, fontScale: fontScale, pixelRatio: selection.viewport.scale),
                !copy.vertical && k < icons.count ? icons[k] : nil
            )
        }
    }
}

/// A label's characters for SDF glyphs with each section's glyph stack and colour (nil: the layer's).
struct GlyphText {
    var characters: [GlyphShaping.Character] = []
    /// `text-opacity` (inline images are drawn with it).
    var opacity = 1.0
    var stacks: [GlyphStack] = []
    var colors: [Color?] = []
    /// Whether ``characters`` are a kept layout's (``SymbolLayerRenderer/Layout``): the same array from image to
    /// image, so their shapings are kept too.
    var kept = false
}
