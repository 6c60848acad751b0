import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// Places the labels of a `symbol` layer: text from `text-field` (with `{field}` tokens), wrapped at
/// `text-max-width`, anchored and offset around the feature's label point, or laid glyph by glyph along
/// lines (`symbol-placement: line`), upright, not where the line bends more than `text-max-angle`.
///
/// Positions and collision boxes are in world points (map points / map points per point), a frame that
/// does not depend on the image's edges. Labels are tried in the layer's `symbol-sort-key` order (lower
/// first, then data order); one that overlaps an earlier label (grown by `text-padding`) is dropped
/// unless `text-allow-overlap`.
struct SymbolLayerRenderer {
    let layer: StyleLayer
    let source: FeatureSource
    let selection: FeatureSelection
    /// The fonts `text-font` stacks resolve to.
    var fonts: FontCatalog = .default
    /// The sprites' images for `icon-image`; nil when no layer uses icons.
    var icons: IconImages?
    /// The layer's index among the style's symbol layers (bottom first).
    var layerIndex = 0

    /// How far outside the image labels are considered, in points.
    static let margin = 128.0

    func place(into collisions: inout SpatialGrid) throws -> [PlacedLabel] {
        let perPoint = selection.viewport.mapPointsPerPoint
        var entries: [Entry] = []
        selection.forEachFeature(of: source, layer: layer, margin: Self.margin) { feature, offset, context in
            var text = resolveText(context)
            switch layer.string(.textTransform, context) {
            case "uppercase": text = text.uppercased()
            case "lowercase": text = text.lowercased()
            default: break
            }
            let iconName = resolveTokens(layer.string(.iconImage, context), context)
            guard !text.isEmpty || !iconName.isEmpty else { return }
            entries.append(Entry(feature: feature, offset: offset, context: context, text: text, iconName: iconName))
        }
        let merged = Self.mergedTileLines(
            entries.map { ($0.feature, $0.offset, $0.text, layer.string(.symbolPlacement, $0.context) != "point") })
        // MapLibre orders a layer's symbols by their anchors' y (placing the lowest first, drawing it last)
        // when `symbol-z-order` is `viewport-y`, or `auto` without a sort key and with overlapping symbols.
        let constant = selection.context()
        let zOrder = layer.string(.symbolZOrder, constant)
        let byY =
            zOrder == "viewport-y"
            || (zOrder == "auto" && !layer.isSet(.symbolSortKey)
                && (iconAllowsOverlap(constant) || layer.bool(.textAllowOverlap, constant)
                    || layer.bool(.iconIgnorePlacement, constant) || layer.bool(.textIgnorePlacement, constant)))
        var order = Array(entries.indices)
        if byY {
            let ys = entries.map { $0.feature.labelPoint.y }
            order.sort { ys[$0] != ys[$1] ? ys[$0] > ys[$1] : $0 < $1 }
        }
        var placed: [(label: PlacedLabel, y: Double, index: Int)] = []
        for i in order {
            let entry = entries[i]
            let (feature, offset, context, text) = (entry.feature, entry.offset, entry.context, entry.text)
            let font = try self.font(for: text.isEmpty ? "a" : text, context)
            let size = layer.number(.textSize, context)
            let hasText = !text.isEmpty && size > 0
            let icon = entry.iconName.isEmpty ? nil : icons?.icon(entry.iconName)
            guard hasText || icon != nil else { continue }
            let opacity = layer.number(.textOpacity, context)
            let color = layer.color(.textColor, context) ?? .black
            let halo = layer.color(.textHaloColor, context) ?? .clear
            var label = PlacedLabel(
                content: .none, font: font, size: size, color: color.withAlphaComponent(color.alpha * opacity),
                haloColor: halo.withAlphaComponent(halo.alpha * opacity),
                haloWidth: layer.number(.textHaloWidth, context))
            label.layer = layerIndex
            let padding = layer.number(.textPadding, context)
            let allowOverlap = layer.bool(.textAllowOverlap, context)
            let placement = layer.string(.symbolPlacement, context)
            if placement != "point", !hasText, let icon {
                // Icons along lines: each tile's own piece, anchors as MapLibre's getAnchors puts them.
                guard case .lines(let own) = feature.shape else { continue }
                let tile = feature.tileBounds.map {
                    Rect(
                        x: ($0.minX + offset) / perPoint, y: $0.minY / perPoint, width: $0.width / perPoint,
                        height: $0.height / perPoint)
                }
                for (n, line) in own.enumerated() {
                    let world = line.map { Point(x: ($0.x + offset) / perPoint, y: $0.y / perPoint) }
                    let measure = feature.lineMeasures.flatMap { n < $0.count ? $0[n] : nil }.map {
                        FeatureSource.LineMeasure(
                            start: $0.start / perPoint, total: $0.total / perPoint, continued: $0.continued)
                    }
                    for candidate in iconsAlongLine(
                        world, icon: icon, context: context, center: placement == "line-center", tile: tile,
                        measure: measure)
                    {
                        let allow = iconAllowsOverlap(context)
                        if !allow, collisions.intersectsAny(candidate.box) { continue }
                        if !Self.inside(candidate.box, avoidEdges(feature, offset: offset, context: context)) {
                            continue
                        }
                        if !layer.bool(.iconIgnorePlacement, context) { collisions.insert(candidate.box) }
                        label.icon = candidate.icon
                        label.bounds = label.contentBounds()
                        placed.append((label, 0, i))
                    }
                }
            } else if placement != "point" {
                guard hasText else { continue }
                let lines: [[MapPoint]]
                switch merged[i] {
                case .some(.some(let group)): lines = group
                case .some(.none): continue  // placed with the first piece of its merged line
                case .none:
                    guard case .lines(let own) = feature.shape else { continue }
                    lines = own
                }
                for line in lines {
                    let world = line.map { Point(x: ($0.x + offset) / perPoint, y: $0.y / perPoint) }
                    for glyphs in placeAlongLine(
                        world, text: text, font: font, size: size, context: context, padding: padding,
                        allowOverlap: allowOverlap, collisions: &collisions)
                    {
                        label.content = .glyphs(glyphs)
                        label.bounds = label.contentBounds()
                        placed.append((label, 0, i))
                    }
                }
            } else {
                for point in anchors(for: feature) {
                    let anchor = Point(x: (point.x + offset) / perPoint, y: point.y / perPoint)
                    // `text-variable-anchor`: the first anchor whose text fits (else the first).
                    var textCandidate: (content: PlacedLabel.Content, box: Rect)?
                    if hasText {
                        for (n, choice) in textAnchors(context, size: size).enumerated() {
                            let candidate = placeAtPoint(
                                anchor, text: text, font: font, size: size, context: context, padding: padding,
                                anchorName: choice.name, offset: choice.offset)
                            if n == 0 { textCandidate = candidate }
                            if allowOverlap || !collisions.intersectsAny(candidate.box) {
                                textCandidate = candidate
                                break
                            }
                        }
                    }
                    let iconCandidate = icon.map {
                        placeIcon(
                            $0, at: anchor, angle: 0, context: context,
                            textBox: textCandidate?.box.insetBy(dx: padding, dy: padding))
                    }
                    // `symbol-avoid-edges`: a symbol of a tile must lie within its tile.
                    let edges = avoidEdges(feature, offset: offset, context: context)
                    var showText =
                        textCandidate.map {
                            (allowOverlap || !collisions.intersectsAny($0.box)) && Self.inside($0.box, edges)
                        } ?? false
                    var showIcon =
                        iconCandidate.map {
                            (iconAllowsOverlap(context) || !collisions.intersectsAny($0.box))
                                && Self.inside($0.box, edges)
                        } ?? false
                    // MapLibre: an icon and its text are shown together, unless the other is optional (or absent).
                    let iconWithoutText = layer.bool(.textOptional, context) || textCandidate == nil
                    let textWithoutIcon = layer.bool(.iconOptional, context) || iconCandidate == nil
                    if !iconWithoutText && !textWithoutIcon {
                        showText = showText && showIcon
                        showIcon = showText
                    } else if !textWithoutIcon {
                        showText = showText && showIcon
                    } else if !iconWithoutText {
                        showIcon = showIcon && showText
                    }
                    guard showText || showIcon else { continue }
                    if showText, let textCandidate {
                        if !layer.bool(.textIgnorePlacement, context) { collisions.insert(textCandidate.box) }
                        label.content = textCandidate.content
                    }
                    if showIcon, let iconCandidate {
                        if !layer.bool(.iconIgnorePlacement, context) { collisions.insert(iconCandidate.box) }
                        label.icon = iconCandidate.icon
                    }
                    label.bounds = label.contentBounds()
                    placed.append((label, anchor.y, i))
                    break
                }
            }
        }
        if byY {
            placed.sort { $0.y != $1.y ? $0.y < $1.y : $0.index > $1.index }
        }
        return placed.map(\.label)
    }

    /// One feature's symbol: its label text and icon name, resolved.
    struct Entry {
        var feature: FeatureSource.Feature
        var offset: Double
        var context: EvaluationContext
        var text: String
        var iconName: String
    }

    /// The horizontal and vertical alignment (0 left/top, 0.5 center, 1 right/bottom) of an anchor name.
    static func alignment(_ anchor: String) -> (x: Double, y: Double) {
        var x = 0.5
        var y = 0.5
        if anchor.contains("left") { x = 0 }
        if anchor.contains("right") { x = 1 }
        if anchor.hasPrefix("top") { y = 0 }
        if anchor.hasPrefix("bottom") { y = 1 }
        return (x, y)
    }

    /// An icon placed at `anchor` (world points), turned by `angle` radians plus `icon-rotate`, as MapLibre
    /// lays it out: the image's size in points (pixels / pixelRatio) times `icon-size`, aligned by
    /// `icon-anchor`, moved by `icon-offset` (times `icon-size`, turned with the icon), with a one-texel
    /// border; its collision box is the unpadded image's box (around the turned box) grown by `icon-padding`.
    func placeIcon(
        _ icon: IconImages.Icon, at anchor: Point, angle: Double, context: EvaluationContext, textBox: Rect? = nil
    ) -> (icon: PlacedIcon, box: Rect) {
        let entry = icon.entry
        let scale = layer.number(.iconSize, context)
        let ratio = entry.pixelRatio
        let width = Double(entry.width) / ratio
        let height = Double(entry.height) / ratio
        let align = Self.alignment(layer.string(.iconAnchor, context))
        let offset = layer.numbers(.iconOffset, context) ?? [0, 0]
        let left = (offset.first ?? 0) - width * align.x
        let top = (offset.count > 1 ? offset[1] : 0) - height * align.y
        let rotateDegrees = layer.number(.iconRotate, context)
        let theta = angle + rotateDegrees * .pi / 180
        let cosT = cos(theta)
        let sinT = sin(theta)
        // Texel (u, v) -> anchor + R * scale * (left + u / ratio, top + v / ratio).
        let k = scale / ratio
        let translate = layer.numbers(.iconTranslate, context) ?? [0, 0]
        let tx = anchor.x + scale * (cosT * left - sinT * top) + (translate.first ?? 0)
        let ty = anchor.y + scale * (sinT * left + cosT * top) + (translate.count > 1 ? translate[1] : 0)
        let transform = Transform(a: k * cosT, b: k * sinT, c: -k * sinT, d: k * cosT, tx: tx, ty: ty)
        let source = Rect(x: -1, y: -1, width: Double(entry.width) + 2, height: Double(entry.height) + 2)
        let deviceScale = selection.viewport.scale
        let sizeIsConstant = Self.isFeatureConstant(layer.properties[StylePropertyName.iconSize.rawValue]?.json)
        let rotateIsConstant = Self.isFeatureConstant(layer.properties[StylePropertyName.iconRotate.rawValue]?.json)
        let linear =
            entry.sdf || scale != 1 || !sizeIsConstant || angle != 0 || rotateDegrees != 0 || !rotateIsConstant
            || ratio != deviceScale
        var passes: [QuadShading] = []
        let opacity = layer.number(.iconOpacity, context)
        if entry.sdf {
            let fontScale = max(scale, 1e-6)
            let edgeGamma = 0.105 / deviceScale
            let haloWidth = layer.number(.iconHaloWidth, context)
            if haloWidth > 0, let halo = layer.color(.iconHaloColor, context), halo.alpha > 0 {
                let blur = layer.number(.iconHaloBlur, context)
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
                    color: layer.color(.iconColor, context) ?? .black, opacity: opacity, buffer: 0.75,
                    gamma: edgeGamma / fontScale))
        } else {
            passes.append(.plain(opacity: opacity))
        }
        var placed = PlacedIcon(
            image: icon.image, quads: [.init(source: source, transform: transform)], linear: linear, passes: passes)
        if let textBox, layer.string(.iconTextFit, context) != "none" {
            return fitIconToText(icon, placed: &placed, anchor: anchor, textBox: textBox, context: context)
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
        let fit = layer.string(.iconTextFit, context)
        let pad = layer.numbers(.iconTextFitPadding, context) ?? [0, 0, 0, 0]
        func padding(_ i: Int) -> Double { i < pad.count ? pad[i] : 0 }
        let offset = layer.numbers(.iconOffset, context) ?? [0, 0]
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
        let scale = layer.number(.iconSize, context)
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
        placed.linear = true
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

    /// With `symbol-avoid-edges`, the world-point square of the feature's tile (its symbols must lie
    /// inside it, as MapLibre keeps them off tile edges); nil otherwise or for features not from tiles.
    func avoidEdges(_ feature: FeatureSource.Feature, offset: Double, context: EvaluationContext) -> Rect? {
        guard layer.bool(.symbolAvoidEdges, context), let tile = feature.tileBounds else { return nil }
        let perPoint = selection.viewport.mapPointsPerPoint
        return Rect(
            x: (tile.minX + offset) / perPoint, y: tile.minY / perPoint, width: tile.width / perPoint,
            height: tile.height / perPoint)
    }

    /// Whether `box` lies within `edges` (true when there are no edges).
    static func inside(_ box: Rect, _ edges: Rect?) -> Bool {
        guard let edges else { return true }
        return box.minX >= edges.minX && box.maxX <= edges.maxX && box.minY >= edges.minY && box.maxY <= edges.maxY
    }

    /// `icon-padding` as top, right, bottom, left: one number for all sides, or 1 to 4 numbers in CSS order.
    func iconPadding(_ context: EvaluationContext) -> (top: Double, right: Double, bottom: Double, left: Double) {
        if let n = layer.numbers(.iconPadding, context), !n.isEmpty {
            switch n.count {
            case 1: return (n[0], n[0], n[0], n[0])
            case 2: return (n[0], n[1], n[0], n[1])
            case 3: return (n[0], n[1], n[2], n[1])
            default: return (n[0], n[1], n[2], n[3])
            }
        }
        let p = layer.number(.iconPadding, context)
        return (p, p, p, p)
    }

    /// Whether icons may overlap earlier symbols: `icon-overlap` when set (`always`, or `cooperative`,
    /// which here also always overlaps), else `icon-allow-overlap`.
    func iconAllowsOverlap(_ context: EvaluationContext) -> Bool {
        switch layer.string(.iconOverlap, context) {
        case "always", "cooperative": return true
        case "never": return false
        default: return layer.bool(.iconAllowOverlap, context)
        }
    }

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

    /// Icons along a line (world points), at MapLibre's anchors (`getAnchors`/`resample`): every
    /// `symbol-spacing` points (at least the icon's length plus a quarter spacing) from an offset of half the
    /// icon plus two ems (24-point em), modulo the spacing (half a spacing when the line continues from a
    /// neighbouring tile), only where the icon fits on the line and the anchor is inside the line's tile;
    /// else at the middle. `line-center`: at the middle. Turned with the line's segment unless
    /// `icon-rotation-alignment` is `viewport`.
    func iconsAlongLine(
        _ line: [Point], icon: IconImages.Icon, context: EvaluationContext, center: Bool, tile: Rect?,
        measure: FeatureSource.LineMeasure? = nil
    ) -> [(icon: PlacedIcon, box: Rect)] {
        guard line.count > 1 else { return [] }
        // Distances along the whole line (a clipped tile piece starts `measure.start` into it).
        let base = measure?.start ?? 0
        var distances: [Double] = [base]
        for (a, b) in zip(line, line.dropFirst()) { distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y)) }
        let total = measure?.total ?? distances.last!
        guard total > 0, total.isFinite else { return [] }
        let labelLength = Double(icon.entry.width) / icon.entry.pixelRatio
        let overscaling = tile.map { max(1, $0.width / 512) } ?? 1
        var spacing = layer.number(.symbolSpacing, context)
        if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
        func onEdge(_ p: Point) -> Bool {
            guard let tile else { return false }
            let e = 1e-6 * tile.width
            return abs(p.x - tile.minX) < e || abs(p.x - tile.maxX) < e || abs(p.y - tile.minY) < e
                || abs(p.y - tile.maxY) < e
        }
        let continued = measure?.continued ?? onEdge(line[0])
        func inTile(_ p: Point) -> Bool {
            guard let tile else { return true }
            return p.x >= tile.minX && p.x < tile.maxX && p.y >= tile.minY && p.y < tile.maxY
        }
        func resample(offset: Double, middle: Bool) -> [(Point, Double)] {
            var found: [(Point, Double)] = []
            var marked = offset - spacing
            if base > offset, spacing > 0 {
                marked += ((base - offset) / spacing).rounded(.down) * spacing
            }
            for i in 0..<(line.count - 1) {
                let a = line[i]
                let b = line[i + 1]
                let segment = distances[i + 1] - distances[i]
                let angle = atan2(b.y - a.y, b.x - a.x)
                var guardCount = 0
                while marked + spacing < distances[i] + segment, guardCount < 100_000 {
                    guardCount += 1
                    marked += spacing
                    let t = (marked - distances[i]) / segment
                    let p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                    if t >= 0, inTile(p), marked - labelLength / 2 >= 0, marked + labelLength / 2 <= total {
                        found.append((p, angle))
                    }
                }
            }
            if !middle, found.isEmpty, !continued { return resample(offset: total / 2, middle: true) }
            return found
        }
        let anchors: [(Point, Double)]
        if center {
            anchors = resample(offset: total / 2, middle: true).prefix(1).map { $0 }
        } else {
            let offset =
                continued
                ? (spacing / 2 * overscaling).truncatingRemainder(dividingBy: spacing)
                : ((labelLength / 2 + 48) * overscaling).truncatingRemainder(dividingBy: spacing)
            anchors = resample(offset: offset, middle: false)
        }
        let alignment = layer.string(.iconRotationAlignment, context)
        let keepUpright = layer.bool(.iconKeepUpright, context)
        return anchors.map { p, lineAngle in
            var angle = alignment == "viewport" ? 0 : lineAngle
            if keepUpright, alignment != "viewport", abs(angle) > .pi / 2 { angle += .pi }
            return placeIcon(icon, at: p, angle: angle, context: context)
        }
    }

    /// Lines cut at vector-tile edges joined again before line labels are placed, so that a road split
    /// across tiles gets its label where one whole feature would have it. As MapLibre's `mergeLines` joins
    /// the features of one tile, pieces with the same label text (and the same id, when they have one)
    /// whose ends meet are chained, here across tiles. Returns, by entry index, the merged lines for the
    /// first entry of each chain and nil for the entries folded into it; entries not from tiles are absent.
    static func mergedTileLines(_ entries: [(FeatureSource.Feature, Double, String, Bool)]) -> [Int: [[MapPoint]]?] {
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for (i, (feature, offset, text, isLine)) in entries.enumerated() where isLine && feature.tileBounds != nil {
            guard case .lines = feature.shape else { continue }
            let key = "\(offset)|\(feature.id)|\(text)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }
        var result: [Int: [[MapPoint]]?] = [:]
        for key in order {
            guard let members = groups[key] else { continue }
            var pieces: [[MapPoint]] = []
            var tileSide = 0.0
            for i in members {
                if case .lines(let lines) = entries[i].0.shape { pieces += lines.filter { $0.count > 1 } }
                tileSide = max(tileSide, entries[i].0.tileBounds?.width ?? 0)
            }
            // Each tile rounds the points where it cut the road to its own grid, so the ends of two pieces
            // meet within a few grid units, not exactly: within 4 units of a 4096-unit tile (half a point at most).
            result[members[0]] = LineMerger.merge(pieces, tolerance: max(tileSide / 1024, 1.0 / 64))
            for i in members.dropFirst() { result[i] = .some(nil) }
        }
        return result
    }

    /// Where point labels of a feature go, in map points: its label point; for a polygon whose label point
    /// is outside the image, the label points of its largest part cut to each 256-point world tile of
    /// the view (a grid fixed to the world) where enough of it is inside, nearest the image center first.
    /// The first anchor where the label fits wins.
    func anchors(for feature: FeatureSource.Feature) -> [MapPoint] {
        let viewport = selection.viewport
        let pad = Self.margin * viewport.mapPointsPerPoint
        let window = viewport.visibleMapRect.insetBy(dx: -pad, dy: -pad)
        let p = feature.labelPoint
        let visible = viewport.visibleMapRect
        let shown = { (q: MapPoint) in
            q.x >= visible.minX && q.x <= visible.maxX && q.y >= visible.minY && q.y <= visible.maxY
        }
        // Also accept the label point in a neighbouring world copy.
        let point = MapRect(origin: p, size: MapSize(width: 0, height: 0))
        guard case .polygons(let polygons) = feature.shape, WorldCopies.offsets(of: point, meeting: visible).isEmpty
        else {
            return WorldCopies.offsets(of: point, meeting: window).isEmpty ? [] : [p]
        }
        guard
            let ring = polygons.compactMap(\.first).max(by: {
                abs(FeatureSource.signedArea($0)) < abs(FeatureSource.signedArea($1))
            })
        else { return [] }
        let tile = 256 * viewport.mapPointsPerPoint
        let area = boundingRect(of: ring).intersection(
            MapRect(
                x: WorldCopies.wrap(window.minX), y: window.minY, width: window.width,
                height: window.height))
        guard !area.isNull, !area.isEmpty else { return [] }
        var result: [MapPoint] = []
        var ty = (area.minY / tile).rounded(.down)
        while ty * tile < area.maxY {
            var tx = (area.minX / tile).rounded(.down)
            while tx * tile < area.maxX {
                let cell = MapRect(x: tx * tile, y: ty * tile, width: tile, height: tile)
                let piece = PolygonClipper.clip(
                    ring.map { Point(x: $0.x, y: $0.y) },
                    to: Rect(x: cell.minX, y: cell.minY, width: cell.width, height: cell.height)
                ).map { MapPoint(x: $0.x, y: $0.y) }
                if piece.count > 2, abs(FeatureSource.signedArea(piece)) > 0.25 * tile * tile {
                    let q = FeatureSource.labelPoint(piece)
                    if shown(q) { result.append(q) }
                }
                tx += 1
            }
            ty += 1
        }
        // One label per feature: the candidate nearest the image center is tried first.
        let center = MapPoint(x: visible.midX, y: visible.midY)
        return result.sorted { hypot($0.x - center.x, $0.y - center.y) < hypot($1.x - center.x, $1.y - center.y) }
    }

    /// `text-field` evaluated, with `{field}` tokens replaced by the feature's values.
    func resolveText(_ context: EvaluationContext) -> String {
        resolveTokens(layer.string(.textField, context), context)
    }

    /// `raw` with `{field}` tokens replaced by the feature's values, trimmed.
    func resolveTokens(_ raw: String, _ context: EvaluationContext) -> String {
        guard raw.contains("{") else { return raw.trimmingCharacters(in: .whitespaces) }
        var out = ""
        var rest = Substring(raw)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let key = String(rest[rest.index(after: open)..<close])
            out += context.properties[key]?.text ?? ""
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out.trimmingCharacters(in: .whitespaces)
    }

    /// The font stack `text-font` names, from the catalog (per character the first face that has it,
    /// then the fallback chain).
    func font(for text: String, _ context: EvaluationContext) throws -> Font {
        let names = layer.value(.textFont, context).array?.compactMap(\.string) ?? ["DejaVu Sans"]
        return try fonts.font(stack: names)
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
        let offset = layer.numbers(.textOffset, context) ?? [0, 0]
        let ox = offset.first ?? 0
        let oy = offset.count > 1 ? offset[1] : 0
        let names =
            layer.value(.textVariableAnchor, context).array?.compactMap(\.string).filter {
                Self.anchorNames.contains($0)
            } ?? []
        guard !names.isEmpty else {
            return [(layer.string(.textAnchor, context), Point(x: ox * size, y: oy * size))]
        }
        let radial = layer.isSet(.textRadialOffset) ? max(0, layer.number(.textRadialOffset, context)) : nil
        return names.prefix(9).map { name in
            var x = 0.0
            var y = 0.0
            if let r = radial {
                let h = r / 2.squareRoot()
                switch name {
                case "top-right", "top-left": y = h
                case "bottom-right", "bottom-left": y = -h
                case "bottom": y = -r
                case "top": y = r
                default: break
                }
                switch name {
                case "top-right", "bottom-right": x = -h
                case "top-left", "bottom-left": x = h
                case "left": x = r
                case "right": x = -r
                default: break
                }
            } else {
                if name.hasPrefix("top") { y = abs(oy) }
                if name.hasPrefix("bottom") { y = -abs(oy) }
                if name.hasSuffix("right") { x = -abs(ox) }
                if name.hasSuffix("left") { x = abs(ox) }
            }
            return (name, Point(x: x * size, y: y * size))
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
        anchorName: String, offset: Point
    ) -> (content: PlacedLabel.Content, box: Rect) {
        let spacing = layer.number(.textLetterSpacing, context) * size
        let lines = Self.wrap(
            text, font: font, size: size, maxWidth: layer.number(.textMaxWidth, context) * size)
        let lineHeight = layer.number(.textLineHeight, context) * size
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
        var justify = layer.string(.textJustify, context)
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
        let rotate = layer.number(.textRotate, context) * .pi / 180
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
                glyphs.append(PlacedGlyph(index: g.index, origin: p.applying(turn), angle: rotate))
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
        allowOverlap: Bool, collisions: inout SpatialGrid
    ) -> [[PlacedGlyph]] {
        guard line.count > 1 else { return [] }
        let shaped = font.shape(text, size: size)
        guard !shaped.glyphs.isEmpty else { return [] }
        var distances: [Double] = [0]
        for (a, b) in zip(line, line.dropFirst()) { distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y)) }
        let total = distances.last!
        let width = shaped.width
        guard total >= width + 2 * padding else { return [] }
        let spacing = max(layer.number(.symbolSpacing, context), width + 2 * padding)
        var centers: [Double] = []
        if total < spacing {
            centers = [total / 2]
        } else {
            var c = spacing / 2
            while c + width / 2 <= total {
                if c - width / 2 >= 0 { centers.append(c) }
                c += spacing
            }
            if centers.isEmpty { centers = [total / 2] }
        }
        let maxAngle = layer.number(.textMaxAngle, context) * .pi / 180
        func at(_ d: Double) -> (Point, Double) {
            var i = 0
            while i + 2 < distances.count, distances[i + 1] < d { i += 1 }
            let a = line[i]
            let b = line[i + 1]
            let seg = distances[i + 1] - distances[i]
            let t = seg > 0 ? (d - distances[i]) / seg : 0
            return (Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), atan2(b.y - a.y, b.x - a.x))
        }
        var results: [[PlacedGlyph]] = []
        for center in centers {
            let start = center - width / 2
            let (p0, _) = at(start)
            let (p1, _) = at(start + width)
            // Upright: read left to right; walk the line backwards when it runs right to left.
            let reversed = p1.x < p0.x
            var glyphs: [PlacedGlyph] = []
            var boxes: [Rect] = []
            var previousAngle: Double?
            var ok = true
            for g in shaped.glyphs {
                let along = g.x + g.advance / 2
                let d = reversed ? start + width - along : start + along
                var (p, angle) = at(d)
                if reversed { angle += .pi }
                if let previous = previousAngle {
                    var delta = angle - previous
                    while delta > .pi { delta -= 2 * .pi }
                    while delta < -.pi { delta += 2 * .pi }
                    if abs(delta) > maxAngle {
                        ok = false
                        break
                    }
                }
                previousAngle = angle
                let dir = Point(x: cos(angle), y: sin(angle))
                let down = Point(x: -dir.y, y: dir.x)
                let shift = 0.35 * size
                let origin = Point(
                    x: p.x - dir.x * g.advance / 2 + down.x * shift, y: p.y - dir.y * g.advance / 2 + down.y * shift)
                glyphs.append(PlacedGlyph(index: g.index, origin: origin, angle: angle, face: g.face, scale: g.scale))
                let half = size / 2 + padding
                boxes.append(Rect(x: p.x - half, y: p.y - half, width: 2 * half, height: 2 * half))
            }
            guard ok else { continue }
            if !allowOverlap, boxes.contains(where: { collisions.intersectsAny($0) }) { continue }
            for box in boxes { collisions.insert(box) }
            results.append(glyphs)
        }
        return results
    }
}
