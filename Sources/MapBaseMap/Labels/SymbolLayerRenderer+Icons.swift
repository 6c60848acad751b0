import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// Icons of a `symbol` layer: laid out from the sprite's image, fitted to text, along lines.
extension SymbolLayerRenderer {
    /// An icon placed at `anchor` (world points), turned by `angle` radians plus `icon-rotate`, as MapLibre
    /// lays it out: the image's size in points (pixels / pixelRatio) times `icon-size`, aligned by
    /// `icon-anchor`, moved by `icon-offset` (times `icon-size`, turned with the icon), with a one-texel
    /// border; its collision box is the unpadded image's box (around the turned box) grown by `icon-padding`.
    ///
    /// With `icon-text-fit`, `textBox` is the text's unpadded box and `fitText` the text, its font, size and
    /// horizontal alignment (0 left, 0.5 center, 1 right), from which the box is given MapLibre's width
    /// (``mapLibreTextWidth(_:font:size:context:)``).
    func placeIcon(
        _ icon: IconImages.Icon, at anchor: Point, angle: Double, context: EvaluationContext, textBox: Rect? = nil,
        fitText: (text: String, font: Font, size: Double, alignX: Double)? = nil, alongLine: Bool = false,
        verticalText: Bool = false
    ) -> (icon: PlacedIcon, box: Rect) {
        let entry = icon.entry
        // A tilted view: nearer icons larger, as MapLibre's symbol shader scales them.
        let scale = properties.number(.iconSize, context) * selection.viewport.perspectiveRatio(at: anchor)
        let ratio = entry.pixelRatio
        let width = Double(entry.width) / ratio
        let height = Double(entry.height) / ratio
        let align = Self.alignment(properties.string(.iconAnchor, context))
        let offset = properties.numbers(.iconOffset, context) ?? [0, 0]
        let left = (offset.first ?? 0) - width * align.x
        let top = (offset.count > 1 ? offset[1] : 0) - height * align.y
        let rotateDegrees = properties.number(.iconRotate, context)
        let theta = angle + rotateDegrees * .pi / 180
        let cosT = cos(theta)
        let sinT = sin(theta)
        // Texel (u, v) -> anchor + R * scale * (left + u / ratio, top + v / ratio).
        let k = scale / ratio
        let given = properties.numbers(.iconTranslate, context) ?? [0, 0]
        var translate = Point(x: given.first ?? 0, y: given.count > 1 ? given[1] : 0)
        if properties.string(.iconTranslateAnchor, context) != "viewport" {
            translate = selection.viewport.turnedVector(translate)
        }
        let tx = anchor.x + scale * (cosT * left - sinT * top) + translate.x
        let ty = anchor.y + scale * (sinT * left + cosT * top) + translate.y
        let transform = Transform(a: k * cosT, b: k * sinT, c: -k * sinT, d: k * cosT, tx: tx, ty: ty)
        let source = Rect(x: -1, y: -1, width: Double(entry.width) + 2, height: Double(entry.height) + 2)
        let deviceScale = selection.viewport.scale
        let sizeIsConstant = Self.isFeatureConstant(layer.properties[StylePropertyName.iconSize.rawValue]?.json)
        let rotateIsConstant = Self.isFeatureConstant(layer.properties[StylePropertyName.iconRotate.rawValue]?.json)
        let linear =
            entry.sdf || scale != 1 || !sizeIsConstant || alongLine || angle != 0 || rotateDegrees != 0
            || !rotateIsConstant
            || ratio != deviceScale
        var passes: [QuadShading] = []
        let opacity = properties.number(.iconOpacity, context)
        if entry.sdf {
            let fontScale = max(scale, 1e-6)
            let edgeGamma = 0.105 / deviceScale
            let haloWidth = properties.number(.iconHaloWidth, context)
            if haloWidth > 0, let halo = properties.color(.iconHaloColor, context), halo.alpha > 0 {
                let blur = properties.number(.iconHaloBlur, context)
                // MapLibre leaves the inside of the halo empty (so a translucent fill does not show it), from
                // the fill's edge moved out by the halo's gamma.
                let gamma = (blur * 1.19 / 8 + edgeGamma) / fontScale
                passes.append(
                    .signedDistanceHalo(
                        color: halo, opacity: opacity, buffer: (6 - haloWidth / fontScale) / 8, gamma: gamma,
                        inner: 0.75 + gamma, innerGamma: gamma))
            }
            passes.append(
                .signedDistance(
                    color: properties.color(.iconColor, context) ?? .black, opacity: opacity, buffer: 0.75,
                    gamma: edgeGamma / fontScale))
        } else {
            passes.append(.plain(opacity: opacity))
        }
        var placed = PlacedIcon(
            image: icon.image, quads: [.init(source: source, transform: transform)], linear: linear, passes: passes)
        if var textBox, properties.string(.iconTextFit, context) != "none" {
            if let fitText, properties.number(.textRotate, context) == 0 {
                // MapLibre's text box is as wide as its glyph metrics say (see `mapLibreTextWidth`), placed by
                // the same anchor: its aligned edge (or center) stays where MapRaster's box has it.
                let width = mapLibreTextWidth(fitText.text, font: fitText.font, size: fitText.size, context: context)
                if width.isFinite, width >= 0 {
                    textBox = Rect(
                        x: textBox.minX + (textBox.width - width) * fitText.alignX, y: textBox.minY, width: width,
                        height: textBox.height)
                }
            }
            guard verticalText else {
                return fitIconToText(icon, placed: &placed, anchor: anchor, textBox: textBox, context: context)
            }
            // Vertical text is shaped as a line and turned a quarter clockwise: the icon is fitted to that line
            // and turned with it (MapLibre's vertical icon quads), not stretched to the tall box.
            let line = Rect(
                x: anchor.x + (textBox.minY - anchor.y), y: anchor.y - (textBox.maxX - anchor.x),
                width: textBox.height, height: textBox.width)
            var (fitted, box) = fitIconToText(icon, placed: &placed, anchor: anchor, textBox: line, context: context)
            let turn = Transform(a: 0, b: 1, c: -1, d: 0, tx: anchor.x + anchor.y, ty: anchor.y - anchor.x)
            fitted.quads = fitted.quads.map { .init(source: $0.source, transform: $0.transform.concatenating(turn)) }
            box = Rect(
                x: anchor.x - (box.maxY - anchor.y), y: anchor.y + (box.minX - anchor.x), width: box.height,
                height: box.width)
            return (fitted, box)
        }
        // Collision box: the image's box (no border) turned by `icon-rotate` only (not by the line, as
        // MapLibre's icon boxes), grown by the padding.
        let r = rotateDegrees * .pi / 180
        let (cosR, sinR) = (cos(r), sin(r))
        let corners: [Point] = [
            Point(x: 0, y: 0), Point(x: Double(entry.width), y: 0),
            Point(x: Double(entry.width), y: Double(entry.height)), Point(x: 0, y: Double(entry.height)),
        ].map {
            Point(x: $0.x, y: $0.y).applying(
                Transform(
                    a: k * cosR, b: k * sinR, c: -k * sinR, d: k * cosR,
                    tx: anchor.x + scale * (cosR * left - sinR * top), ty: anchor.y + scale * (sinR * left + cosR * top)
                ))
        }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let p = iconPadding(context)
        let box = Rect(
            x: xs.min()! - p.left, y: ys.min()! - p.top, width: xs.max()! - xs.min()! + p.left + p.right,
            height: ys.max()! - ys.min()! + p.top + p.bottom)
        return (placed, box)
    }

    /// The angle an icon on a line is turned by, from the line's angle at its anchor as MapLibre draws it
    /// (``iconLineAnchors``): that angle, half a turn more where `icon-keep-upright` keeps the icon upright, 0
    /// when `icon-rotation-alignment` is `viewport`.
    func lineIconTurn(_ lineAngle: Double, context: EvaluationContext) -> Double {
        if properties.string(.iconRotationAlignment, context) == "viewport" { return 0 }
        if properties.bool(.iconKeepUpright, context), abs(lineAngle) > .pi / 2 { return lineAngle + .pi }
        return lineAngle
    }

    /// The icon of a symbol whose text runs along a line, as MapLibre draws it: at the text's `anchor` (world
    /// points), fitted to `textBox` (the text as shaped on one line, unturned) when `icon-text-fit` says so, the
    /// whole turned about the anchor by ``lineIconTurn(_:context:)`` of `lineAngle` (the line's angle there as
    /// ``iconLineAnchors`` gives it). Its collision box is not turned (MapLibre's icon box).
    func iconWithLineText(
        _ icon: IconImages.Icon, at anchor: Point, lineAngle: Double, textBox: Rect, context: EvaluationContext
    ) -> (icon: PlacedIcon, box: Rect) {
        var (placed, box) = placeIcon(icon, at: anchor, angle: 0, context: context, textBox: textBox, alongLine: true)
        let turn = lineIconTurn(lineAngle, context: context)
        guard turn != 0 else { return (placed, box) }
        let about = Transform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(Transform(rotationAngle: turn))
            .concatenating(Transform(translationX: anchor.x, y: anchor.y))
        placed.quads = placed.quads.map { .init(source: $0.source, transform: $0.transform.concatenating(about)) }
        return (placed, box)
    }

    /// `icon-text-fit`: the icon centered on the text box (world points) and stretched to it in `width`,
    /// `height` or `both` (grown by `icon-text-fit-padding`, moved by `icon-offset`), as MapLibre's
    /// `fitIconToText`; the image cut into pieces at its `stretchX` / `stretchY` zones, fixed parts
    /// keeping their size, stretchable parts sharing the rest, with `content` mapped onto the text box
    /// (MapLibre's `getIconQuads`). The collision box is the fitted box grown by the part outside `content`.
    func fitIconToText(
        _ icon: IconImages.Icon, placed: inout PlacedIcon, anchor: Point, textBox: Rect, context: EvaluationContext
    ) -> (icon: PlacedIcon, box: Rect) {
        let entry = icon.entry
        let ratio = entry.pixelRatio
        let fit = properties.string(.iconTextFit, context)
        let pad = properties.numbers(.iconTextFitPadding, context) ?? [0, 0, 0, 0]
        func padding(_ i: Int) -> Double { i < pad.count ? pad[i] : 0 }
        let offset = properties.numbers(.iconOffset, context) ?? [0, 0]
        let ox = offset.first ?? 0
        let oy = offset.count > 1 ? offset[1] : 0
        let displayW = Double(entry.width) / ratio
        let displayH = Double(entry.height) / ratio
        let textLeft = textBox.minX - anchor.x
        let textRight = textBox.maxX - anchor.x
        let textTop = textBox.minY - anchor.y
        let textBottom = textBox.maxY - anchor.y
        var left: Double, right: Double, top: Double, bottom: Double
        if fit == "width" || fit == "both" {
            left = ox + textLeft - padding(3)
            right = ox + textRight + padding(1)
        } else {
            left = ox + (textLeft + textRight - displayW) / 2
            right = left + displayW
        }
        if fit == "height" || fit == "both" {
            top = oy + textTop - padding(0)
            bottom = oy + textBottom + padding(2)
        } else {
            top = oy + (textTop + textBottom - displayH) / 2
            bottom = top + displayH
        }
        let iconWidth = right - left
        let iconHeight = bottom - top
        let imageWidth = Double(entry.width)
        let imageHeight = Double(entry.height)
        let stretchX = entry.stretchX ?? [0...imageWidth]
        let stretchY = entry.stretchY ?? [0...imageHeight]
        let stretchWidth = stretchX.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let stretchHeight = stretchY.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let fixedWidth = imageWidth - stretchWidth
        let fixedHeight = imageHeight - stretchHeight
        func within(_ ranges: [ClosedRange<Double>], _ lo: Double, _ hi: Double) -> Double {
            ranges.reduce(0) { $0 + max(lo, min(hi, $1.upperBound)) - max(lo, min(hi, $1.lowerBound)) }
        }
        var stretchOffsetX = 0.0, stretchContentWidth = stretchWidth, stretchOffsetY = 0.0
        var stretchContentHeight = stretchHeight
        var fixedOffsetX = 0.0, fixedContentWidth = fixedWidth, fixedOffsetY = 0.0, fixedContentHeight = fixedHeight
        if let c = entry.content {
            stretchOffsetX = within(stretchX, 0, c[0])
            stretchOffsetY = within(stretchY, 0, c[1])
            stretchContentWidth = within(stretchX, c[0], c[2])
            stretchContentHeight = within(stretchY, c[1], c[3])
            fixedOffsetX = c[0] - stretchOffsetX
            fixedOffsetY = c[1] - stretchOffsetY
            fixedContentWidth = c[2] - c[0] - stretchContentWidth
            fixedContentHeight = c[3] - c[1] - stretchContentHeight
        }
        typealias Cut = (fixed: Double, stretch: Double)
        func cuts(_ zones: [ClosedRange<Double>], fixed: Double, stretch: Double) -> [Cut] {
            var result: [Cut] = [(-1, 0)]
            for zone in zones {
                let last = result[result.count - 1]
                result.append((zone.lowerBound - last.stretch, last.stretch))
                result.append((zone.lowerBound - last.stretch, last.stretch + zone.upperBound - zone.lowerBound))
            }
            result.append((fixed + 1, stretch))
            return result
        }
        let xCuts: [Cut]
        let yCuts: [Cut]
        if entry.stretchX == nil && entry.stretchY == nil {
            xCuts = [(0, -1), (0, imageWidth + 1)]
            yCuts = [(0, -1), (0, imageHeight + 1)]
        } else {
            xCuts = cuts(stretchX, fixed: fixedWidth, stretch: stretchWidth)
            yCuts = cuts(stretchY, fixed: fixedHeight, stretch: stretchHeight)
        }
        let scale = properties.number(.iconSize, context)
        let minScaleX = iconWidth > 0 ? fixedContentWidth / ratio / iconWidth : 0
        let minScaleY = iconHeight > 0 ? fixedContentHeight / ratio / iconHeight : 0
        let sx = max(minScaleX, scale)
        let sy = max(minScaleY, scale)
        func em(_ stretch: Double, _ size: Double, _ icon: Double, _ origin: Double) -> Double {
            size > 0 ? stretch / size * icon + origin : origin
        }
        func px(_ fixed: Double, _ fixedSize: Double, _ stretch: Double, _ stretchSize: Double) -> Double {
            stretchSize > 0 ? fixed - fixedSize * stretch / stretchSize : fixed
        }
        var quads: [PlacedIcon.Quad] = []
        for xi in 0..<(xCuts.count - 1) {
            let (l, r) = (xCuts[xi], xCuts[xi + 1])
            for yi in 0..<(yCuts.count - 1) {
                let (t, b) = (yCuts[yi], yCuts[yi + 1])
                let x0 =
                    em(l.stretch - stretchOffsetX, stretchContentWidth, iconWidth, left) * sx
                    + px(l.fixed - fixedOffsetX, fixedContentWidth, l.stretch, stretchWidth) / ratio
                let x1 =
                    em(r.stretch - stretchOffsetX, stretchContentWidth, iconWidth, left) * sx
                    + px(r.fixed - fixedOffsetX, fixedContentWidth, r.stretch, stretchWidth) / ratio
                let y0 =
                    em(t.stretch - stretchOffsetY, stretchContentHeight, iconHeight, top) * sy
                    + px(t.fixed - fixedOffsetY, fixedContentHeight, t.stretch, stretchHeight) / ratio
                let y1 =
                    em(b.stretch - stretchOffsetY, stretchContentHeight, iconHeight, top) * sy
                    + px(b.fixed - fixedOffsetY, fixedContentHeight, b.stretch, stretchHeight) / ratio
                let u0 = l.stretch + l.fixed
                let u1 = r.stretch + r.fixed
                let v0 = t.stretch + t.fixed
                let v1 = b.stretch + b.fixed
                guard u1 > u0, v1 > v0 else { continue }
                let a = (x1 - x0) / (u1 - u0)
                let d = (y1 - y0) / (v1 - v0)
                quads.append(
                    .init(
                        source: Rect(x: u0, y: v0, width: u1 - u0, height: v1 - v0),
                        transform: Transform(
                            a: a, b: 0, c: 0, d: d, tx: anchor.x + x0 - a * u0, ty: anchor.y + y0 - d * v0)))
            }
        }
        placed.quads = quads
        // Sampled as any icon (nearest unless scaled, turned, SDF or of another pixel ratio): MapLibre does not
        // switch to linear filtering for stretched icons.
        var box = Rect(
            x: anchor.x + left * scale, y: anchor.y + top * scale, width: iconWidth * scale, height: iconHeight * scale)
        if let c = entry.content {
            box = Rect(
                x: box.minX - c[0] / ratio, y: box.minY - c[1] / ratio,
                width: box.width + c[0] / ratio + (displayW - c[2] / ratio),
                height: box.height + c[1] / ratio + (displayH - c[3] / ratio))
        }
        let p = iconPadding(context)
        box = Rect(
            x: box.minX - p.left, y: box.minY - p.top, width: box.width + p.left + p.right,
            height: box.height + p.top + p.bottom)
        return (placed, box)
    }

    /// The width in points of a point label's text box as MapLibre measures it: its glyph metrics come from
    /// glyph sheets made at 24 pixels with whole-pixel advances (fractions dropped), scaled by
    /// `size / 24`, without kerning; per line the advances plus `text-letter-spacing` between glyphs; the
    /// widest line. `icon-text-fit` frames this box (e.g. "ASDF" in Open Sans Semibold at 20: advances
    /// 15 + 13 + 17 + 12 = 57 at 24, 47.5 points, where the font's own advances give 49.5).
    func mapLibreTextWidth(_ text: String, font: Font, size: Double, context: EvaluationContext) -> Double {
        let lines = Self.wrap(text, font: font, size: size, maxWidth: properties.number(.textMaxWidth, context) * size)
        let spacing = properties.number(.textLetterSpacing, context) * size
        var widest = 0.0
        for line in lines {
            var advances = 0.0
            var count = 0
            for character in line {
                advances += font.shape(String(character), size: 24).width.rounded(.down)
                count += 1
            }
            widest = max(widest, advances * size / 24 + spacing * Double(max(0, count - 1)))
        }
        return widest
    }

    /// With `symbol-avoid-edges`, the world-point square of the feature's tile (its symbols must lie
    /// inside it, as MapLibre keeps them off tile edges); nil otherwise or for features not from tiles.
    func avoidEdges(_ feature: FeatureSource.Feature, offset: Double, context: EvaluationContext) -> Rect? {
        guard properties.bool(.symbolAvoidEdges, context), let tile = feature.tileBounds else { return nil }
        return selection.viewport.worldRect(tile, offset: offset)
    }

    /// Whether `box` lies within `edges` (true when there are no edges).
    static func inside(_ box: Rect, _ edges: Rect?) -> Bool {
        guard let edges else { return true }
        return box.minX >= edges.minX && box.maxX <= edges.maxX && box.minY >= edges.minY && box.maxY <= edges.maxY
    }

    /// `icon-padding` as top, right, bottom, left: one number for all sides, or 1 to 4 numbers in CSS order.
    func iconPadding(_ context: EvaluationContext) -> (top: Double, right: Double, bottom: Double, left: Double) {
        if let n = properties.numbers(.iconPadding, context), !n.isEmpty {
            switch n.count {
            case 1: return (n[0], n[0], n[0], n[0])
            case 2: return (n[0], n[1], n[0], n[1])
            case 3: return (n[0], n[1], n[2], n[1])
            default: return (n[0], n[1], n[2], n[3])
            }
        }
        let p = properties.number(.iconPadding, context)
        return (p, p, p, p)
    }

    /// How icons treat earlier symbols: `icon-overlap` when set, else `icon-allow-overlap` (`always` when
    /// true).
    func iconOverlap(_ context: EvaluationContext) -> SymbolOverlap {
        SymbolOverlap(rawValue: properties.string(.iconOverlap, context))
            ?? (properties.bool(.iconAllowOverlap, context) ? .always : .never)
    }

    /// Whether icons may overlap earlier symbols at all (`icon-overlap` `always` or `cooperative`).
    func iconAllowsOverlap(_ context: EvaluationContext) -> Bool { iconOverlap(context) != .never }

    /// Whether a property's JSON reads no feature data (no `get`, `has`, `properties`, `id`, `geometry-type`,
    /// no legacy `property` function): MapLibre's "constant" sizes, drawn without filtering when 1.
    static func isFeatureConstant(_ json: JSONValue?) -> Bool {
        guard let json else { return true }
        switch json {
        case .array(let items):
            if case .string(let op) = items.first, ["get", "has", "properties", "id", "geometry-type"].contains(op) {
                return false
            }
            return items.allSatisfy { isFeatureConstant($0) }
        case .object(let members):
            if members.contains(where: { $0.0 == "property" }) { return false }
            return members.allSatisfy { isFeatureConstant($0.1) }
        default: return true
        }
    }

    /// Icons along a line (world points), at MapLibre's anchors (`getAnchors`/`resample`).
    ///
    /// MapLibre lays symbols out per tile, along each piece of the line clipped to the tile's square, in the
    /// pixels of the tile it draws (its integer zoom, `overscaling` times the data tile's zoom when the data
    /// stops below it). A piece starting on the tile's edge continues from a neighbour: its first anchor is
    /// half a spacing in, else half the label plus two ems (24-pixel em); then every `symbol-spacing` (at
    /// least the label's length plus a quarter spacing), both in the tile's pixels, keeping anchors inside
    /// the tile where the whole label fits on the piece; when none and the piece does not continue, its
    /// middle. Without text the label's length is the icon's width times `text-size` at zoom 18 / 24
    /// (MapLibre scales an icon-only line label by the text's box scale). Anchors are rounded to the
    /// tile's 8192-unit grid. `line-center`: the middle of the whole line. Turned with the line's segment
    /// unless `icon-rotation-alignment` is `viewport`.
    func iconsAlongLine(
        _ line: [Point], icon: IconImages.Icon, context: EvaluationContext, center: Bool, tile: Rect?
    ) -> [(icon: PlacedIcon, box: Rect, anchor: Point)] {
        let scaling = Self.tileScaling(tileWidth: tile?.width)
        let boxScale = textMaxSize(context) / 24
        let iconWidth = Double(icon.entry.width) / icon.entry.pixelRatio
        let anchors = Self.iconLineAnchors(
            line, tile: tile, spacing: properties.number(.symbolSpacing, context), shapedLength: iconWidth,
            boxScale: boxScale, scaling: scaling, center: center)
        let alongLine = properties.string(.iconRotationAlignment, context) != "viewport"
        return anchors.map { p, lineAngle in
            let (placed, box) = placeIcon(
                icon, at: p, angle: lineIconTurn(lineAngle, context: context), context: context, alongLine: alongLine)
            return (placed, box, p)
        }
    }

    /// How MapLibre's tile pixels relate to world points for a vector tile `tileWidth` world points wide
    /// (512 pixels at the data's zoom): MapLibre draws the tile at the view's integer zoom, `overscaling`
    /// (a power of two) times the data's zoom when the data stops below it, and `pixel` world points per
    /// pixel of that tile (1 at integer zooms). Not from a tile: 1 and 1.
    static func tileScaling(tileWidth: Double?) -> (overscaling: Double, pixel: Double) {
        guard let tileWidth, tileWidth.isFinite, tileWidth > 0 else { return (1, 1) }
        let k = tileWidth / 512
        guard k >= 1 else { return (1, k) }
        let overscaling = exp2(min((log2(k) + 1e-9).rounded(.down), 24))
        return (overscaling, k / overscaling)
    }

    /// MapLibre's line anchors (`getAnchors` / `resample` / `getCenterAnchor`) on one piece of a line
    /// (world points) clipped to its `tile` (nil: not from a tile, never continued, no tile test):
    /// `spacing` and `shapedLength` (the unscaled label length) in the tile's pixels, `boxScale` the
    /// label's scale, `scaling` as ``tileScaling(tileWidth:)``. Returns each anchor (world points) with
    /// the angle MapLibre draws its icon at (see `drawnAngle`); `accept` is asked of each with its segment
    /// and that angle. With a `window` (the line's coordinates), a segment with more than a thousand
    /// anchors (a line across the world seen close up) only walks its anchors near the window, at the
    /// same distances along the line: the work stays proportional to what the view can show.
    static func iconLineAnchors(
        _ line: [Point], tile: Rect?, spacing requested: Double, shapedLength: Double, boxScale: Double,
        scaling: (overscaling: Double, pixel: Double), center: Bool, window: Rect? = nil,
        accept: ((Point, Int, Double) -> Bool)? = nil
    ) -> [(Point, Double)] {
        guard line.count > 1, requested.isFinite, shapedLength.isFinite, boxScale.isFinite else { return [] }
        let (overscaling, pixel) = scaling
        var distances: [Double] = [0]
        for (a, b) in zip(line, line.dropFirst()) { distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y)) }
        let total = distances.last!
        guard total > 0, total.isFinite else { return [] }
        let labelLength = shapedLength * boxScale * pixel
        var spacing = requested * pixel
        if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
        guard spacing > 0 else { return [] }
        // Anchors on MapLibre's tile grid (8192 units a tile).
        let unit = tile.map { $0.width / 8192 } ?? 0
        func rounded(_ p: Point) -> Point {
            guard let tile, unit > 0 else { return p }
            return Point(
                x: tile.minX + ((p.x - tile.minX) / unit).rounded() * unit,
                y: tile.minY + ((p.y - tile.minY) / unit).rounded() * unit)
        }
        func onEdge(_ p: Point) -> Bool {
            guard let tile else { return false }
            let e = 1e-6 * tile.width
            return abs(p.x - tile.minX) < e || abs(p.x - tile.maxX) < e || abs(p.y - tile.minY) < e
                || abs(p.y - tile.maxY) < e
        }
        func inTile(_ p: Point) -> Bool {
            guard let tile else { return true }
            return p.x >= tile.minX && p.x < tile.maxX && p.y >= tile.minY && p.y < tile.maxY
        }
        // MapLibre turns a line icon as the line runs from the start of the anchor's segment to the anchor
        // as placed (on the tile grid), so an anchor rounded across a vertex takes the turn of the line
        // there; an anchor on the vertex itself takes the previous segment's direction.
        func drawnAngle(_ q: Point, segment i: Int, fallback: Double) -> Double {
            let tiny = max(unit, 1e-9) * 1e-3
            var k = i
            while k >= 0 {
                let from = line[k]
                if hypot(q.x - from.x, q.y - from.y) > tiny { return atan2(q.y - from.y, q.x - from.x) }
                k -= 1
            }
            return fallback
        }
        if center {
            // The middle of the line, whatever fits (`getCenterAnchor`).
            for i in 0..<(line.count - 1) where distances[i + 1] > total / 2 {
                let (a, b) = (line[i], line[i + 1])
                let t = (total / 2 - distances[i]) / (distances[i + 1] - distances[i])
                let p = rounded(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                return inTile(p) ? [(p, drawnAngle(p, segment: i, fallback: atan2(b.y - a.y, b.x - a.x)))] : []
            }
            return []
        }
        let continued = onEdge(line[0])
        func resample(offset: Double, middle: Bool) -> [(Point, Double)] {
            var found: [(Point, Double)] = []
            var marked = offset - spacing
            for i in 0..<(line.count - 1) {
                let (a, b) = (line[i], line[i + 1])
                let segment = distances[i + 1] - distances[i]
                let angle = atan2(b.y - a.y, b.x - a.x)
                var end = distances[i + 1]
                if let window, segment > 0, (distances[i + 1] - marked) / spacing > 1000 {
                    // Straight to the anchors near the window (a label's length and a spacing either side),
                    // whole spacings at a time, and past the rest.
                    let (t0, t1) = Self.clip(a, b, to: window) ?? (1, 1)
                    let first = distances[i] + t0 * segment - labelLength - spacing
                    if first > marked { marked += ((first - marked) / spacing).rounded(.down) * spacing }
                    end = min(end, distances[i] + t1 * segment + labelLength + spacing)
                }
                var count = 0
                while marked + spacing < end, count < 100_000 {
                    count += 1
                    marked += spacing
                    let t = (marked - distances[i]) / segment
                    let p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                    if inTile(p), marked - labelLength / 2 >= 0, marked + labelLength / 2 <= total {
                        let q = rounded(p)
                        let drawn = drawnAngle(q, segment: i, fallback: angle)
                        if accept?(q, i, drawn) ?? true { found.append((q, drawn)) }
                    }
                }
                if end < distances[i + 1], marked + spacing < distances[i + 1] {
                    // The last anchor position of the segment, as walking on would reach it.
                    marked += ((distances[i + 1] - marked) / spacing).rounded(.up) * spacing - spacing
                }
            }
            if !middle, found.isEmpty, !continued { return resample(offset: total / 2, middle: true) }
            return found
        }
        let offset =
            continued
            ? (spacing / 2 * overscaling).truncatingRemainder(dividingBy: spacing)
            : ((shapedLength / 2 + 48) * boxScale * pixel * overscaling).truncatingRemainder(dividingBy: spacing)
        return resample(offset: offset, middle: false)
    }

    /// The part of segment `a`-`b` inside `rect`, as fractions of the segment (Liang-Barsky); nil when none.
    static func clip(_ a: Point, _ b: Point, to rect: Rect) -> (Double, Double)? {
        var t0 = 0.0
        var t1 = 1.0
        let dx = b.x - a.x
        let dy = b.y - a.y
        for (p, q) in [(-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let r = q / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            if t0 > t1 { return nil }
        }
        return t0.isFinite && t1.isFinite ? (t0, t1) : nil
    }
}
