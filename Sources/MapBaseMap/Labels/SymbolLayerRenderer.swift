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
    /// SDF glyphs (the style's glyph PBFs); nil to draw every label with the installed fonts.
    var glyphs: SDFGlyphSource?
    /// The deepest zoom the layer's source is tiled at when it is GeoJSON (``StyleSource/geojsonMaxZoom``).
    var geojsonMaxZoom = 18
    /// The layer's properties as placement reads them, dozens per feature and per candidate anchor: the constant
    /// ones evaluated once.
    let properties: ResolvedStyleProperties

    init(
        layer: StyleLayer, source: FeatureSource, selection: FeatureSelection, fonts: FontCatalog = .default,
        icons: IconImages? = nil, layerIndex: Int = 0, glyphs: SDFGlyphSource? = nil
    ) {
        self.layer = layer
        self.source = source
        self.selection = selection
        self.fonts = fonts
        self.icons = icons
        self.layerIndex = layerIndex
        self.glyphs = glyphs
        properties = ResolvedStyleProperties(layer, at: selection.context())
    }

    /// How far outside the image labels are considered, in points.
    static let margin = 128.0

    /// MapLibre's glyph advances (24-pixel sheets, whole pixels) already measured in this layer, by font and
    /// character: line labels repeat the same few characters many times.
    final class Advances {
        var byFont: [ObjectIdentifier: [Character: Double]] = [:]

        func advance(_ character: Character, font: Font) -> Double {
            let key = ObjectIdentifier(font)
            if let known = byFont[key]?[character] { return known }
            let value = font.shape(String(character), size: 24).width.rounded(.down)
            byFont[key, default: [:]][character] = value
            return value
        }
    }
    let advances = Advances()

    /// The edge distances the pole searches of this layer's draw may still cost, all features together
    /// (``PoleOfInaccessibility/layerBudget``): a hostile tile of many polygon features, each within its own
    /// budget, still costs a bounded search.
    final class PoleWork {
        var remaining = PoleOfInaccessibility.layerBudget
    }
    let poleWork = PoleWork()

    func place(into collisions: inout SpatialGrid) throws -> [PlacedLabel] {
        var entries: [Entry] = []
        // By entry: its `symbol-placement`, its feature index and world copy, its tile's corner (world copy
        // added), its label point's y.
        var placements: [String] = []
        var lineEntries: [(index: Int, offset: Double)] = []
        var tiles: [Point?] = []
        var ys: [Double] = []
        // Line labels join a road's pieces across their whole tile, as MapLibre's `mergeLines` does.
        let wholeTiles = properties.string(.symbolPlacement, selection.context()) == "line"
        // MapLibre lays out the symbols of the tiles that cover the view, each tile's own: a vector tile's
        // features are labelled when the tile meets the view (its square closed), not when they only come
        // within the margin of it from a tile beside the view.
        let visible = selection.viewport.visibleMapRect
        // What an earlier image of these features laid out for this layer, when it applies to this one.
        var layout = Layout(
            layer: layer, selection: selection, imageNames: icons?.names, glyphProvider: glyphs?.provider)
        if let kept = source.keptLayout(layer: layer.id), kept.applies(to: layout) { layout = kept }
        selection.forEachFeature(of: source, layer: layer, margin: Self.margin, wholeTiles: wholeTiles) {
            index, feature, offset, context in
            if let tile = feature.tileBounds, !visible.isNull,
                tile.maxX + offset < visible.minX || tile.minX + offset > visible.maxX || tile.maxY < visible.minY
                    || tile.minY > visible.maxY
            {
                return
            }
            let resolved: Layout.Text
            if let known = layout.texts[index] {
                resolved = known
            } else {
                resolved = resolvedText(context)
                layout.keep(resolved, for: index)
            }
            guard !resolved.text.isEmpty || !resolved.iconName.isEmpty else { return }
            // What the layer reads of every entry, taken here: mapping over the entries afterwards would copy
            // each (every field retained and released once more).
            placements.append(properties.string(.symbolPlacement, context))
            lineEntries.append((index, offset))
            tiles.append(feature.tileBounds.map { Point(x: $0.minX + offset, y: $0.minY) })
            ys.append(feature.labelPoint.y)
            entries.append(
                Entry(
                    feature: feature, offset: offset, context: context, text: resolved.text,
                    iconName: resolved.iconName, sections: resolved.sections, index: index))
        }
        // Line labels as MapLibre places them, tile by tile on their lines cut to the tile (GeoJSON lines cut
        // into MapLibre's GeoJSON tiles); the same entries as an earlier image's (same tiles, same margin
        // window) have the same lines.
        let geoJSONTiles = GeoJSONTiles(
            zoom: selection.zoom, maxZoom: geojsonMaxZoom,
            window: selection.viewport.visibleMapRect.insetBy(
                dx: -4 * Self.margin * selection.viewport.mapPointsPerPoint,
                dy: -4 * Self.margin * selection.viewport.mapPointsPerPoint))
        let linesKey = Layout.LinesKey(
            entries: lineEntries,
            placements: placements, tiles: geoJSONTiles.map { ($0.side, $0.window) })
        let tiledLines: [Int: [TileLines]]
        if let kept = layout.lines, kept.key == linesKey {
            tiledLines = kept.lines
        } else {
            tiledLines = Self.tileLabelLines(
                entries.indices.map { (entries[$0].feature, entries[$0].offset, entries[$0].text, placements[$0]) },
                geoJSONTiles: geoJSONTiles)
            layout.keep(lines: tiledLines, for: linesKey)
        }
        // The features beyond the margin that `wholeTiles` brought in are there to join lines: one whose
        // pieces (after the joins) all lie farther than three margins outside the view (two past the margin: see
        // ``textLineAnchors``' reach: a label of up to four margins could still come within it) is passed over
        // before its text is shaped; so is any line-placed entry whose lines went into an earlier entry's.
        let space: AnchorSpace = selection.viewport.projection.isFlat ? .world : .turned
        let anchorArea = wholeTiles ? labelReach(space, margins: 3) : nil
        let pad = Self.margin * selection.viewport.mapPointsPerPoint
        let marginWindow = selection.viewport.visibleMapRect.insetBy(dx: -pad, dy: -pad)
        func hasNoLabel(_ i: Int) -> Bool {
            guard placements[i] == "line", let tiled = tiledLines[i] else { return false }
            if tiled.isEmpty { return true }
            let (b, offset) = (entries[i].feature.bounds, entries[i].offset)
            // The closed test of the selection: a feature it found within the margin keeps its labels.
            let m = marginWindow.offsetBy(dx: -offset, dy: 0)
            guard let area = anchorArea, b.maxX < m.minX || b.minX > m.maxX || b.maxY < m.minY || b.minY > m.maxY
            else { return false }
            let projection = selection.viewport.projection
            for piece in tiled {
                for line in piece.lines {
                    var (x0, y0, x1, y1) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                    for p in line {
                        let q =
                            projection.isFlat
                            ? selection.viewport.worldPoint(p, offset: offset)
                            : projection.turned(MapPoint(x: p.x + offset, y: p.y))
                        (x0, y0, x1, y1) = (min(x0, q.x), min(y0, q.y), max(x1, q.x), max(y1, q.y))
                    }
                    if x0 <= area.maxX, x1 >= area.minX, y0 <= area.maxY, y1 >= area.minY { return false }
                }
            }
            return true
        }
        /// The lines entry `i`'s line labels go along, each with the tile it was cut to (nil: labelled whole).
        func labelLines(_ i: Int, _ feature: FeatureSource.Feature) -> [(line: [MapPoint], tile: MapRect?)] {
            if let tiled = tiledLines[i] { return tiled.flatMap { t in t.lines.map { ($0, t.tile) } } }
            return Self.outlines(of: feature.shape).map { ($0, nil) }
        }
        // MapLibre draws a layer's symbols by their anchors' y (the lowest last) when `symbol-z-order` is
        // `viewport-y`, or `auto` without a sort key and with overlapping symbols; it places them by y (the
        // lowest first) only for `viewport-y` (`auto` places them in data order).
        let constant = selection.context()
        let zOrder = properties.string(.symbolZOrder, constant)
        let byY =
            zOrder == "viewport-y"
            || (zOrder == "auto" && !layer.isSet(.symbolSortKey)
                && (iconAllowsOverlap(constant) || properties.bool(.textAllowOverlap, constant)
                    || properties.bool(.iconIgnorePlacement, constant)
                    || properties.bool(.textIgnorePlacement, constant)))
        // MapLibre places a vector source's symbols tile by tile (tiles by x, then y), each tile's in data
        // order or, by y, bottom first; only a data-driven `symbol-sort-key` orders them across tiles.
        let byTile =
            !layer.isSet(.symbolSortKey)
            || Self.isFeatureConstant(layer.properties[StylePropertyName.symbolSortKey.rawValue]?.json)
        // MapLibre draws a layer with a data-driven key by key across its tiles (`sortFeaturesByKey`).
        let drawsByKey = !byTile && zOrder != "viewport-y"
        let keys = drawsByKey ? entries.indices.map { properties.number(.symbolSortKey, entries[$0].context) } : []
        let order = entries.indices.sorted { a, b in
            if byTile, let ta = tiles[a], let tb = tiles[b], ta != tb {
                return ta.x != tb.x ? ta.x < tb.x : ta.y < tb.y
            }
            if zOrder == "viewport-y", ys[a] != ys[b] { return ys[a] > ys[b] }
            return a < b
        }
        var placed: [(label: PlacedLabel, y: Double, index: Int)] = []
        var repeats = RepeatedAnchors(zoom: selection.zoom)
        var fontsByStack: [[String]: Font] = [:]
        for i in order where !hasNoLabel(i) {
            // Field by field (a copy of the whole entry would retain every field once more).
            let (feature, offset) = (entries[i].feature, entries[i].offset)
            // MapLibre's layout text size: `text-size` at the tile's zoom, read with the context's zoom rounded
            // down for a moment (one copy of the context rather than two).
            var evaluation = entries[i].context
            let zoom = evaluation.zoom
            evaluation.zoom.round(.down)
            let layoutSize = properties.number(.textSize, evaluation)
            evaluation.zoom = zoom
            let context = evaluation
            let text = entries[i].text
            let (formatted, iconName) = (entries[i].sections, entries[i].iconName)
            // Stacks resolve once per layer, not once per feature.
            let stack = fontStack(context)
            // Plain text in a stack the glyph PBFs have is drawn from SDF glyphs, as MapLibre draws it; formatted
            // sections and scripts that need HarfBuzz take the installed fonts.
            let opacity = properties.number(.textOpacity, context)
            let glyphStack = try keptGlyphText(
                text, sections: formatted, stack: stack, opacity: opacity, layoutSize: layoutSize,
                feature: entries[i].index, layout: &layout)
            let font: Font
            if let known = fontsByStack[stack] {
                font = known
            } else if glyphStack != nil {
                font = try (try? fonts.font(stack: stack)) ?? fonts.font(stack: ["DejaVu Sans"])
            } else {
                font = try fonts.font(stack: stack)
            }
            fontsByStack[stack] = font
            let size = properties.number(.textSize, context)
            let hasText = !text.isEmpty && size > 0
            // The same text for a vertical point label (punctuation in vertical forms, characters upright).
            let verticalGlyphs =
                glyphStack != nil && writingModes(context, text: text).contains(true)
                ? try keptGlyphText(
                    text, sections: formatted, stack: stack, opacity: opacity, layoutSize: layoutSize, vertical: true,
                    feature: entries[i].index, layout: &layout)
                : nil
            let icon = iconName.isEmpty ? nil : icons?.icon(iconName)
            guard hasText || icon != nil else { continue }
            let color = properties.color(.textColor, context) ?? .black
            let halo = properties.color(.textHaloColor, context) ?? .clear
            var label = PlacedLabel(
                content: .none, font: font, size: size, color: color.withAlphaComponent(color.alpha * opacity),
                haloColor: halo.withAlphaComponent(halo.alpha * opacity),
                haloWidth: properties.number(.textHaloWidth, context))
            label.layer = layerIndex
            label.tile = tiles[i]
            if drawsByKey { label.sortKey = keys[i] }
            label.haloBlur = properties.number(.textHaloBlur, context)
            let sections =
                glyphStack != nil ? nil : try formatted.map { try textSections($0, context, opacity: opacity) }
            let translate = textTranslation(context)
            let padding = properties.number(.textPadding, context)
            let overlap = textOverlap(context)
            let iconMode = iconOverlap(context)
            let placement = properties.string(.symbolPlacement, context)
            // The symbol at `anchor` (world points) as a point symbol: text at each writing mode and anchor in
            // turn, the icon fitted to it; recorded (true) when it fits.
            func placePoint(_ anchor: Point) -> Bool {
                var label = label
                // A tilted view: text from the installed fonts scaled at its anchor as MapLibre's symbol shader
                // scales text facing the camera (nearer larger); text lying on the ground comes to about the
                // same size once projected. SDF text is scaled where it is projected (SymbolProjection).
                let size = glyphStack == nil ? size * selection.viewport.perspectiveRatio(at: anchor) : size
                label.size = size
                // `text-variable-anchor`: the first anchor whose text fits (else the first).
                var textCandidate: (content: PlacedLabel.Content, box: Rect)?
                var textAlignX = 0.5
                var textVertical = false
                // `text-writing-mode`: each mode in turn (vertical only for CJK text), each anchor in turn.
                let textAt = Point(x: anchor.x + translate.x, y: anchor.y + translate.y)
                let modes = hasText ? writingModes(context, text: text) : []
                let variableAnchors =
                    properties.value(.textVariableAnchor, context).array?.isEmpty == false
                    || properties.value(.textVariableAnchorOffset, context).array?.isEmpty == false
                search: for vertical in modes {
                    let choices =
                        glyphStack != nil ? glyphTextAnchors(context) : textAnchors(context, size: size)
                    for choice in choices {
                        let candidate =
                            if let glyphStack, let glyphs {
                                alignedPointText(
                                    placeGlyphsAtPoint(
                                        textAt, text: vertical ? (verticalGlyphs ?? glyphStack) : glyphStack,
                                        layout: &layout,
                                        glyphs: glyphs, size: size,
                                        context: context, padding: padding, anchorName: choice.name,
                                        offset: choice.offset,
                                        pointPlacement: placement == "point", variable: variableAnchors,
                                        vertical: vertical),
                                    at: textAt, context: context, variable: variableAnchors)
                            } else {
                                placeAtPoint(
                                    textAt, text: text, font: font, size: size, context: context, padding: padding,
                                    anchorName: choice.name, offset: choice.offset, sections: sections,
                                    vertical: vertical)
                            }
                        if textCandidate == nil {
                            (textCandidate, textAlignX) = (candidate, Self.alignment(choice.name).x)
                            textVertical = vertical
                        }
                        // MapLibre tries every anchor without overlap before the first with it; an icon fitted to
                        // variable-anchored text must fit beside it too.
                        let iconFits =
                            glyphStack == nil || !variableAnchors || iconMode != .never
                            || properties.string(.iconTextFit, context) == "none"
                            || icon.map {
                                let box = placeIcon(
                                    $0, at: anchor, angle: 0, context: context,
                                    textBox: candidate.box.insetBy(dx: padding, dy: padding), fitText: nil,
                                    verticalText: vertical && glyphStack != nil
                                ).box
                                return !Self.collides(box, with: collisions) && onGrid(box)
                            } ?? true
                        // The first pass of MapLibre's variable anchors places as `never`, whatever the overlap; an
                        // anchor whose box lies beyond the collision grid is not placeable either (MapLibre's
                        // placeCollisionBox), so the next is tried.
                        if (overlap != .never && glyphStack == nil)
                            || (!Self.collides(candidate.box, with: collisions) && onGrid(candidate.box) && iconFits)
                        {
                            (textCandidate, textAlignX) = (candidate, Self.alignment(choice.name).x)
                            textVertical = vertical
                            break search
                        }
                    }
                }
                let iconCandidate = icon.map {
                    alignedIcon(
                        placeIcon(
                            $0, at: anchor, angle: iconAngle(context, at: anchor), context: context,
                            textBox: textCandidate?.box.insetBy(dx: padding, dy: padding),
                            fitText: textCandidate == nil || glyphStack != nil ? nil : (text, font, size, textAlignX),
                            verticalText: textVertical && glyphStack != nil),
                        at: anchor, context: context)
                }
                // `symbol-avoid-edges`: a symbol of a tile must lie within its tile.
                let edges = avoidEdges(feature, offset: offset, context: context)
                var showText =
                    textCandidate.map {
                        !Self.collides($0.box, with: collisions, overlap) && Self.inside($0.box, edges)
                            && onGrid($0.box)
                    } ?? false
                var showIcon =
                    iconCandidate.map {
                        !Self.collides($0.box, with: collisions, iconMode) && Self.inside($0.box, edges)
                            && onGrid($0.box)
                    } ?? false
                // MapLibre: an icon and its text are shown together, unless the other is optional (or absent).
                let iconWithoutText = properties.bool(.textOptional, context) || textCandidate == nil
                let textWithoutIcon = properties.bool(.iconOptional, context) || iconCandidate == nil
                if !iconWithoutText && !textWithoutIcon {
                    showText = showText && showIcon
                    showIcon = showText
                } else if !textWithoutIcon {
                    showText = showText && showIcon
                } else if !iconWithoutText {
                    showIcon = showIcon && showText
                }
                guard showText || showIcon else { return false }
                if showText, let textCandidate {
                    if !properties.bool(.textIgnorePlacement, context) {
                        collisions.insert(textCandidate.box, soft: overlap != .never)
                    }
                    label.content = textCandidate.content
                }
                if showIcon, let iconCandidate {
                    if !properties.bool(.iconIgnorePlacement, context) {
                        collisions.insert(iconCandidate.box, soft: iconMode != .never)
                    }
                    // With variable anchors, MapLibre redraws icons fitted to text beside their text at each
                    // frame, and only those with text: an icon without text is placed (it collides) but not
                    // drawn (`updateVariableAnchorsForBucket`, JS and Native alike).
                    let undrawn =
                        textCandidate == nil && variableAnchors && properties.string(.iconTextFit, context) != "none"
                    if !undrawn { label.icon = iconCandidate.icon }
                }
                if label.icon == nil, case .none = label.content { return true }
                label.bounds = label.contentBounds()
                placed.append((label, anchor.y, i))
                return true
            }
            let viewportText = properties.string(.textRotationAlignment, context) == "viewport"
            if placement != "point", !hasText, let icon {
                // Icons along lines: anchors as MapLibre's getAnchors / getCenterAnchor put them.
                let own = Self.outlines(of: feature.shape)
                let tile = feature.tileBounds.map { selection.viewport.worldRect($0, offset: offset) }
                // `line` along each piece clipped to the tile; `line-center` at the middle of the tile's whole
                // line (its buffer included), kept when inside the tile.
                let lines = placement == "line-center" ? (feature.bufferedLines ?? own) : own
                let polygon: Bool = if case .polygons = feature.shape { true } else { false }
                for line in lines {
                    let whole = line.map { selection.viewport.worldPoint($0, offset: offset) }
                    // A polygon cut to its tile has edges along the tile's square that MapLibre's outline lacks.
                    for world in polygon ? Self.split(whole, alongEdgesOf: tile) : [whole] {
                        for candidate in iconsAlongLine(
                            world, icon: icon, context: context, center: placement == "line-center", tile: tile)
                        {
                            if Self.collides(candidate.box, with: collisions, iconMode) { continue }
                            if !onGrid(candidate.box) { continue }
                            if !Self.inside(candidate.box, avoidEdges(feature, offset: offset, context: context)) {
                                continue
                            }
                            if !properties.bool(.iconIgnorePlacement, context) {
                                collisions.insert(candidate.box, soft: iconMode != .never)
                            }
                            label.icon = candidate.icon
                            label.bounds = label.contentBounds()
                            placed.append((label, candidate.anchor.y, i))
                        }
                    }
                }
            } else if placement != "point", !viewportText {
                guard hasText else { continue }
                if !selection.viewport.projection.isFlat, let glyphStack, let glyphs {
                    for text in labelLines(i, feature).flatMap({
                        placeGlyphsAlongTiltedLine(
                            $0.line, offset: offset, text: text, glyphText: glyphStack, glyphs: glyphs, size: size,
                            context: context, padding: padding, overlap: overlap, collisions: &collisions,
                            center: placement == "line-center", repeats: &repeats,
                            tileBounds: $0.tile ?? feature.tileBounds, cut: $0.tile)
                    }) {
                        label.content = .sdf(text)
                        label.bounds = label.contentBounds()
                        placed.append((label, 0, i))
                    }
                    continue
                }
                for (line, cut) in labelLines(i, feature) {
                    // The tile the piece was cut to: anchors inside it, a piece from its edge starts half a
                    // spacing in.
                    let lineTile = cut.map {
                        selection.viewport.worldRect($0, offset: offset).offsetBy(dx: translate.x, dy: translate.y)
                    }
                    let world = line.map {
                        let w = selection.viewport.worldPoint($0, offset: offset)
                        return Point(x: w.x + translate.x, y: w.y + translate.y)
                    }
                    if let glyphStack, let glyphs {
                        // The icon with line text: at the text's anchor, turned with the line there.
                        let lineIcon = icon.map { icon in
                            {
                                (anchor: Point, lineAngle: Double, textBox: Rect, collisions: inout SpatialGrid)
                                    -> (fits: Bool, icon: PlacedIcon?) in
                                let (placed, box) = iconWithLineText(
                                    icon, at: anchor, lineAngle: lineAngle, textBox: textBox, context: context)
                                let fits =
                                    !Self.collides(box, with: collisions, iconMode) && onGrid(box)
                                    && Self.inside(box, avoidEdges(feature, offset: offset, context: context))
                                guard fits || properties.bool(.iconOptional, context) else { return (false, nil) }
                                guard fits else { return (true, nil) }
                                if !properties.bool(.iconIgnorePlacement, context) {
                                    collisions.insert(box, soft: iconMode != .never)
                                }
                                return (true, placed)
                            }
                        }
                        for copy in placeGlyphsAlongLine(
                            world, text: text, glyphText: glyphStack, layout: &layout, glyphs: glyphs, size: size,
                            context: context, padding: padding, overlap: overlap, collisions: &collisions,
                            center: placement == "line-center", repeats: &repeats,
                            tileWidth: (cut ?? feature.tileBounds).map {
                                $0.width / selection.viewport.mapPointsPerPoint
                            },
                            tile: placement == "line-center" ? nil : lineTile, icon: lineIcon)
                        {
                            label.content = .sdf(copy.text)
                            label.icon = copy.icon
                            label.bounds = label.contentBounds()
                            placed.append((label, 0, i))
                        }
                        continue
                    }
                    for glyphs in placeAlongLine(
                        world, text: text, font: font, size: size, context: context, padding: padding,
                        overlap: overlap, collisions: &collisions, sections: sections,
                        center: placement == "line-center", repeats: &repeats)
                    {
                        label.content = .glyphs(glyphs)
                        label.bounds = label.contentBounds()
                        placed.append((label, 0, i))
                    }
                }
            } else if placement != "point" {
                // Text turned with the viewport on a line (road shields): upright point symbols at anchors
                // along the line, every `symbol-spacing` points, as MapLibre places viewport-aligned line symbols.
                guard hasText else { continue }
                let width = (sections.map { Font.shape(sections: $0, size: size) } ?? font.shape(text, size: size))
                    .width
                // MapLibre spaces the anchors by the length of the text as its glyphs shape it.
                let shapedWidth = glyphStack.map { glyphTextWidth($0, size: size, context: context) } ?? width
                for (line, cut) in labelLines(i, feature) {
                    let world = line.map { selection.viewport.worldPoint($0, offset: offset) }
                    let spacing = properties.number(.symbolSpacing, context)
                    let anchors =
                        selection.viewport.projection.isFlat
                        ? (glyphStack == nil
                            ? Self.lineAnchors(world, spacing: spacing, width: width, padding: padding)
                            : flatLineAnchors(
                                world, width: shapedWidth, size: size, context: context,
                                center: placement == "line-center", tileBounds: cut ?? feature.tileBounds,
                                tile: placement == "line-center"
                                    ? nil : cut.map { selection.viewport.worldRect($0, offset: offset) }))
                        : tiltedLineAnchors(
                            line, offset: offset, width: shapedWidth, size: size, context: context,
                            tileBounds: cut ?? feature.tileBounds, cut: placement == "line-center" ? nil : cut)
                    let repeatTile =
                        placement == "line-center" ? nil : cut.map { selection.viewport.worldRect($0, offset: offset) }
                    for anchor in anchors where !repeats.tooClose(text, anchor, within: spacing / 2, tile: repeatTile) {
                        _ = placePoint(anchor)
                    }
                }
            } else {
                // One symbol per part (MapLibre: each point of a multipoint, each line's start, each polygon),
                // each at the first of its candidate anchors where it fits.
                for candidates in anchorGroups(for: feature) {
                    for point in candidates
                    where placePoint(selection.viewport.worldPoint(point, offset: offset)) {
                        break
                    }
                }
            }
        }
        // Drawn tile by tile (rows top first, each left to right), each tile's symbols in placement order or,
        // by y, top-most first (MapLibre's order).
        let sequence = Array(placed.indices)
        let drawOrder = sequence.sorted { a, b in
            let (pa, pb) = (placed[a], placed[b])
            if drawsByKey { return keys[pa.index] != keys[pb.index] ? keys[pa.index] < keys[pb.index] : a < b }
            if let ta = tiles[pa.index], let tb = tiles[pb.index], ta != tb {
                return ta.y != tb.y ? ta.y < tb.y : ta.x < tb.x
            }
            if byY { return pa.y != pb.y ? pa.y < pb.y : pa.index != pb.index ? pa.index > pb.index : a < b }
            return a < b
        }
        source.keepLayout(layer: layer.id, layout)
        return drawOrder.map { placed[$0].label }
    }

    /// ``glyphText(_:sections:stack:opacity:glyphs:vertical:layoutSize:)`` of feature `feature`'s text, for plain
    /// text as `layout` kept it (its characters with this draw's glyph stack), else made and, for plain text,
    /// kept.
    func keptGlyphText(
        _ text: String, sections: [FormattedSection]?, stack: [String], opacity: Double, layoutSize: Double,
        vertical: Bool = false, feature: Int, layout: inout Layout
    ) throws -> GlyphText? {
        let key = Layout.GlyphKey(feature: feature, vertical: vertical)
        if sections == nil, let glyphs, let kept = layout.glyphTexts[key] {
            guard let kept else { return nil }
            if let glyphStack = try glyphs.stack(kept.stack) {
                return GlyphText(
                    characters: kept.characters, opacity: kept.opacity, stacks: [glyphStack], colors: [nil], kept: true)
            }
        }
        var made = try glyphText(
            text, sections: sections, stack: stack, opacity: opacity, glyphs: glyphs, vertical: vertical,
            layoutSize: layoutSize)
        // Plain text has one stack, the layer's, and no colour of its own.
        if sections == nil, glyphs != nil, made?.stacks.count ?? 1 == 1 {
            layout.keep(
                made.map { Layout.KeptGlyphText(characters: $0.characters, opacity: $0.opacity, stack: stack) },
                for: key)
            made?.kept = true
        }
        return made
    }

    /// Whether `box` (world points) meets a box placed before: as in MapLibre's collision grid, boxes
    /// that only touch collide (an icon whose padded box ends where another's begins is dropped).
    static func collides(_ box: Rect, with collisions: SpatialGrid) -> Bool {
        collides(box, with: collisions, .never)
    }

    /// Whether a symbol placed with `overlap` is kept out by a box placed before: never with `always`;
    /// with `cooperative` only by a box placed with `never` (MapLibre's collision index).
    static func collides(_ box: Rect, with collisions: SpatialGrid, _ overlap: SymbolOverlap) -> Bool {
        guard overlap != .always else { return false }
        let e = 1e-4  // a ten-thousandth of a point: edges equal up to rounding touch
        return collisions.intersectsAny(box.insetBy(dx: -e, dy: -e), hardOnly: overlap == .cooperative)
    }

    /// A line (world points) cut where it runs along an edge of `tile` (both ends of a segment on the same
    /// edge): the pieces of a tile-clipped polygon outline that are the polygon's own.
    static func split(_ line: [Point], alongEdgesOf tile: Rect?) -> [[Point]] {
        guard let tile, line.count > 1 else { return [line] }
        let e = 1e-6 * tile.width
        func side(_ p: Point) -> Int {
            (abs(p.x - tile.minX) < e ? 1 : 0) | (abs(p.x - tile.maxX) < e ? 2 : 0)
                | (abs(p.y - tile.minY) < e ? 4 : 0) | (abs(p.y - tile.maxY) < e ? 8 : 0)
        }
        return runs(of: line) { side($0) & side($1) != 0 }
    }

    /// The lines a line symbol follows on a shape: its lines, or every ring of its polygons closed (as
    /// MapLibre places line symbols along polygon outlines); none for points.
    static func outlines(of shape: FeatureSource.Shape) -> [[MapPoint]] {
        switch shape {
        case .lines(let lines): return lines
        case .polygons(let polygons):
            return polygons.flatMap { $0 }.compactMap { ring in
                guard let first = ring.first, ring.count > 1 else { return nil }
                return ring + [first]
            }
        case .points: return []
        }
    }

    /// Distances along a line `total` points long at which a symbol `width` wide (plus `padding` either
    /// side) is centred: every `symbol-spacing` (at least the symbol's padded width) from half a spacing in,
    /// where the whole symbol fits on the line; the middle of a line shorter than that; none when the
    /// symbol does not fit at all.
    static func symbolCenters(total: Double, spacing: Double, width: Double, padding: Double) -> [Double] {
        guard total >= width + 2 * padding else { return [] }
        let step = max(spacing, width + 2 * padding, 1)
        if total < step { return [total / 2] }
        var centers: [Double] = []
        var c = step / 2
        while c + width / 2 <= total {
            if c - width / 2 >= 0 { centers.append(c) }
            c += step
        }
        return centers.isEmpty ? [total / 2] : centers
    }

    /// The points of a line (world points) at ``symbolCenters(total:spacing:width:padding:)``: where
    /// viewport-aligned line symbols (road shields) stand.
    static func lineAnchors(_ line: [Point], spacing: Double, width: Double, padding: Double) -> [Point] {
        guard line.count > 1 else { return [] }
        var distances: [Double] = [0]
        for (a, b) in zip(line, line.dropFirst()) { distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y)) }
        var result: [Point] = []
        var k = 0
        for d in symbolCenters(total: distances.last!, spacing: spacing, width: width, padding: padding) {
            while k + 2 < distances.count, distances[k + 1] < d { k += 1 }
            let (a, b) = (line[k], line[k + 1])
            let segment = distances[k + 1] - distances[k]
            let t = segment > 0 ? (d - distances[k]) / segment : 0
            result.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
        }
        return result
    }

    /// One feature's symbol: its label text and icon name, resolved.
    struct Entry {
        var feature: FeatureSource.Feature
        var offset: Double
        var context: EvaluationContext
        var text: String
        var iconName: String
        /// The `format` sections of `text-field`, when it has sections with their own font, scale or color.
        var sections: [FormattedSection]? = nil
        /// The feature's index in the source's features.
        var index = 0
    }

    /// A feature's text and icon name as the layer resolves them (`text-field` with its tokens, sections and
    /// `text-transform`; `icon-image` with its tokens, among the sprites' images).
    func resolvedText(_ context: EvaluationContext) -> Layout.Text {
        // `text-field` evaluated once for the text and its sections.
        let field = properties.value(.textField, context)
        var text = resolveText(field, context)
        switch properties.string(.textTransform, context) {
        case "uppercase": text = text.uppercased()
        case "lowercase": text = text.lowercased()
        default: break
        }
        var imageContext = context  // `["image", name]` in `coalesce` skips images no sprite has
        imageContext.availableImages = icons?.names ?? []
        let iconName = resolveTokens(properties.string(.iconImage, imageContext), context)
        guard !text.isEmpty || !iconName.isEmpty else { return Layout.Text(text: "", iconName: "", sections: nil) }
        return Layout.Text(text: text, iconName: iconName, sections: resolveSections(field, context))
    }

    /// The part of a layer's placement that depends only on its features, the style and the zoom, kept by the
    /// features' ``FeatureSource`` from image to image (as MapLibre keeps a tile's symbol layout in its
    /// buckets and only places it again): by feature index, each feature's resolved text and icon name and its
    /// plain text's SDF characters, and the lines line labels go along (``tileLabelLines(_:geoJSONTiles:)``) for
    /// the entries last laid out. An image at another zoom or size, with another layer, sprite or glyph provider,
    /// lays out afresh; the results are the same values either way.
    struct Layout: Sendable {
        /// A feature's text (empty: none), icon name (empty: none) and `format` sections.
        struct Text: Sendable {
            var text: String
            var iconName: String
            var sections: [FormattedSection]?
        }

        /// The inputs of ``tileLabelLines(_:geoJSONTiles:)`` beside the texts: each entry's feature and world
        /// copy, its `symbol-placement`, and the GeoJSON tiles' side and window.
        struct LinesKey: Equatable, Sendable {
            var entries: [(index: Int, offset: Double)]
            var placements: [String]
            var tiles: (side: Double, window: MapRect)?

            static func == (a: LinesKey, b: LinesKey) -> Bool {
                a.entries.count == b.entries.count
                    && zip(a.entries, b.entries).allSatisfy { $0.index == $1.index && $0.offset == $1.offset }
                    && a.placements == b.placements && a.tiles?.side == b.tiles?.side
                    && a.tiles?.window == b.tiles?.window
            }
        }

        /// A feature's plain text and writing direction (vertical: a vertical point label's characters).
        struct GlyphKey: Hashable, Sendable {
            var feature: Int
            var vertical: Bool
        }

        /// A plain text's SDF characters (``GlyphText`` without its draw's glyph stack, by the stack's names).
        struct KeptGlyphText: Sendable {
            var characters: [GlyphShaping.Character]
            var opacity: Double
            var stack: [String]
        }

        let layer: StyleLayer
        let zoom: Double
        let maximumWidth: Double
        let imageNames: Set<String>?
        /// The glyph PBFs the characters come from.
        let glyphProvider: (any GlyphRangeProvider)?
        private(set) var texts: [Int: Text] = [:]
        private(set) var lines: (key: LinesKey, lines: [Int: [TileLines]])?
        /// Plain text's characters for SDF glyphs (nil: the installed fonts draw it).
        private(set) var glyphTexts: [GlyphKey: KeptGlyphText?] = [:]
        /// About how many bytes the texts, characters and lines kept take (see ``FeatureSource/keptLayoutBytes``).
        private(set) var bytes = 0
        private var lineBytes = 0

        /// A shaping's inputs: the kept characters (by their array's storage, which the kept shaping holds on
        /// to, so no other array can take its address while it is kept) and the shaping's parameters, bit for bit.
        struct ShapingKey: Hashable, Sendable {
            var characters: Int
            /// maxWidth, lineHeight, align x and y, justify, spacing, offset x and y (no array to allocate per
            /// lookup).
            var parameters: SIMD8<UInt64>
        }

        /// A kept shaping and the characters it was made from.
        struct KeptShaping: Sendable {
            var characters: [GlyphShaping.Character]
            var shaping: GlyphShaping
        }

        /// Shapings of kept characters (``GlyphText/kept``), by their characters and parameters: a label shaped
        /// again at the same zoom, anchor and offsets takes its shaping from an earlier image.
        private(set) var shapings: [ShapingKey: KeptShaping] = [:]

        /// ``GlyphShaping/shape(_:maxWidth:lineHeight:align:justify:spacing:offset:)`` of `characters`, kept
        /// when `kept` (the characters are the layout's own, the same array from image to image).
        mutating func shaping(
            _ characters: [GlyphShaping.Character], kept: Bool, maxWidth: Double, lineHeight: Double,
            align: (x: Double, y: Double), justify: Double, spacing: Double, offset: (x: Double, y: Double)
        ) -> GlyphShaping {
            func shape() -> GlyphShaping {
                GlyphShaping.shape(
                    characters, maxWidth: maxWidth, lineHeight: lineHeight, align: align, justify: justify,
                    spacing: spacing, offset: offset)
            }
            guard kept else { return shape() }
            let address = characters.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
            let key = ShapingKey(
                characters: address,
                parameters: SIMD8(
                    maxWidth.bitPattern, lineHeight.bitPattern, align.x.bitPattern, align.y.bitPattern,
                    justify.bitPattern, spacing.bitPattern, offset.x.bitPattern, offset.y.bitPattern))
            // The kept shaping holds its characters, so a key with their address is theirs.
            if let known = shapings[key] { return known.shaping }
            let kept = KeptShaping(characters: characters, shaping: shape())
            if let old = shapings.updateValue(kept, forKey: key) { bytes -= Self.size(old) }
            bytes += Self.size(kept)
            return kept.shaping
        }

        /// About how many bytes a kept shaping takes.
        static func size(_ kept: KeptShaping) -> Int {
            160 + kept.shaping.lines.reduce(0) { $0 + $1.count } * MemoryLayout<GlyphShaping.Positioned>.stride
                + 8 * kept.shaping.lineOffsets.count
        }

        /// Keeps (or replaces) feature `feature`'s text, its bytes counted once.
        mutating func keep(_ text: Text, for feature: Int) {
            func size(_ t: Text) -> Int { 96 + t.text.utf8.count + t.iconName.utf8.count }
            if let old = texts.updateValue(text, forKey: feature) { bytes -= size(old) }
            bytes += size(text)
        }

        /// Keeps (or replaces) the SDF characters of `key`, their bytes counted once.
        mutating func keep(_ glyphText: KeptGlyphText?, for key: GlyphKey) {
            func size(_ g: KeptGlyphText?) -> Int {
                64 + (g?.characters.count ?? 0) * MemoryLayout<GlyphShaping.Character>.stride
            }
            if let old = glyphTexts.updateValue(glyphText, forKey: key) { bytes -= size(old) }
            bytes += size(glyphText)
        }

        mutating func keep(lines: [Int: [TileLines]], for key: LinesKey) {
            self.lines = (key, lines)
            bytes -= lineBytes
            // The points of joined or cut lines are copies; count every point, and the key.
            lineBytes = 48 * key.entries.count
            for tiles in lines.values {
                for tile in tiles { lineBytes += 64 + tile.lines.reduce(0) { $0 + 32 + 16 * $1.count } }
            }
            bytes += lineBytes
        }

        init(
            layer: StyleLayer, selection: FeatureSelection, imageNames: Set<String>?,
            glyphProvider: (any GlyphRangeProvider)? = nil
        ) {
            self.layer = layer
            zoom = selection.zoom
            maximumWidth = selection.maximumWidth
            self.imageNames = imageNames
            self.glyphProvider = glyphProvider
        }

        /// Whether this layout was made for what `other` is made for.
        func applies(to other: Layout) -> Bool {
            zoom == other.zoom && maximumWidth == other.maximumWidth && imageNames == other.imageNames
                && Self.same(glyphProvider, other.glyphProvider) && layer == other.layer
        }

        /// Whether two glyph providers give the same glyphs: the same template of files, or the same object.
        static func same(_ a: (any GlyphRangeProvider)?, _ b: (any GlyphRangeProvider)?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            if let a = a as? GlyphPBFTemplate, let b = b as? GlyphPBFTemplate { return a == b }
            guard type(of: a) is AnyClass, type(of: b) is AnyClass else { return false }
            return (a as AnyObject) === (b as AnyObject)
        }
    }

    /// The horizontal and vertical alignment (0 left/top, 0.5 center, 1 right/bottom) of an anchor name.
    static func alignment(_ anchor: String) -> (x: Double, y: Double) {
        var x = 0.5
        var y = 0.5
        if anchor.hasSuffix("left") { x = 0 }
        if anchor.hasSuffix("right") { x = 1 }
        if anchor.hasPrefix("top") { y = 0 }
        if anchor.hasPrefix("bottom") { y = 1 }
        return (x, y)
    }
    /// The anchors of a feature's point symbols, one group per symbol (a symbol takes the first anchor of
    /// its group where it fits): as MapLibre, every point of a multipoint, the first point of every line (of a
    /// vector tile's line as the tile holds it, when inside the tile's square; not of a piece that continues a
    /// line from a neighbouring tile), every polygon of a vector tile
    /// at its pole of inaccessibility, and a GeoJSON polygon's pieces as geojson-vt tiles them
    /// (``geojsonPolygonAnchors(_:)``); else ``anchors(for:)``. A layer whose `metadata` has
    /// `"mapraster:polygon-labels": "feature"` gives a GeoJSON polygon feature one label instead (the shipped
    /// styles' country labels: MapLibre would label a country of islands on each of them).
    func anchorGroups(for feature: FeatureSource.Feature) -> [[MapPoint]] {
        let viewport = selection.viewport
        let pad = Self.margin * viewport.mapPointsPerPoint
        let window = viewport.visibleMapRect.insetBy(dx: -pad, dy: -pad)
        let near = { (q: MapPoint) in
            !WorldCopies.offsets(of: MapRect(origin: q, size: MapSize(width: 0, height: 0)), meeting: window).isEmpty
        }
        switch feature.shape {
        case .points(let points) where points.count > 1:
            return points.prefix(10_000).filter(near).map { [$0] }
        case .lines(let lines):
            var starts: [[MapPoint]] = []
            for (n, line) in lines.prefix(10_000).enumerated() {
                guard let first = line.first else { continue }
                if let measures = feature.lineMeasures, n < measures.count, let tile = feature.tileBounds {
                    // A vector tile's line: the first point of the line as the tile holds it (its buffer
                    // included), only when inside the tile's square, its left and top edges in and its right
                    // and bottom out (MapLibre's test on anchors); a piece starting elsewhere begins where the
                    // line was cut.
                    let edge = tile.width * 1e-9
                    guard measures[n].start == 0, first.x >= tile.minX - edge, first.y >= tile.minY - edge,
                        first.x < tile.maxX - edge, first.y < tile.maxY - edge
                    else { continue }
                } else if feature.lineMeasures.flatMap({ n < $0.count ? $0[n].continued : nil }) ?? false {
                    continue
                }
                if near(first) { starts.append([first]) }
            }
            return starts
        case .polygons(let polygons):
            if feature.tileBounds == nil, !labelsWholeFeatures {
                return geojsonPolygonAnchors(polygons).filter(near).map { [$0] }
            }
            guard let tile = feature.tileBounds, tile.width > 0 else { return [anchors(for: feature)] }
            // A vector tile's polygons: MapLibre labels each at its pole of inaccessibility, found in the
            // tile's 8192 units to 16 units, kept as a 32-bit float (the dynamic vertex attribute that places a
            // point label; only the static one is truncated to whole units).
            let unit = tile.width / 8192
            // One search budget for all the feature's polygons: a hostile multipolygon costs a bounded search.
            // The feature's budget, within what the layer's draw has left.
            var budget = PoleOfInaccessibility.Budget(
                limit: min(PoleOfInaccessibility.featureBudget, max(0, poleWork.remaining)))
            defer { poleWork.remaining -= budget.spent }
            return polygons.prefix(10_000).compactMap { rings in
                let local = rings.map { ring in
                    ring.map {
                        Point(x: (($0.x - tile.minX) / unit).rounded(), y: (($0.y - tile.minY) / unit).rounded())
                    }
                }
                guard let pole = PoleOfInaccessibility.find(local, precision: 16, budget: &budget) else { return nil }
                let q = MapPoint(
                    x: tile.minX + Double(Float(pole.x)) * unit, y: tile.minY + Double(Float(pole.y)) * unit)
                return near(q) ? [q] : nil
            }
        default:
            return [anchors(for: feature)]
        }
    }

    /// Whether the layer asks for one label per GeoJSON polygon feature (`metadata` member
    /// `"mapraster:polygon-labels": "feature"`) rather than MapLibre's one per polygon piece.
    var labelsWholeFeatures: Bool { layer.metadata?["mapraster:polygon-labels"]?.string == "feature" }

    /// The anchors MapLibre gives a GeoJSON polygon feature: geojson-vt tiles it at the view's zoom (rounded
    /// down, at most the source's maxzoom) with a buffer of a quarter tile and whole units of 8192 per tile;
    /// each polygon's piece in a tile is labelled at its pole of inaccessibility (16 units, as a vector tile's
    /// polygons are), kept when the pole lies inside the tile. The tiles are those meeting the view grown by
    /// the symbol margin (at most 4096); the pole searches share the layer's budget.
    func geojsonPolygonAnchors(_ polygons: [[[MapPoint]]]) -> [MapPoint] {
        let viewport = selection.viewport
        let zoom = selection.zoom
        guard zoom.isFinite else { return [] }
        let z = Int(max(0, min(Double(max(0, min(24, geojsonMaxZoom))), zoom.rounded(.down))))
        let size = TileID.mapPointSize(atZoom: z)
        let count = 1 << z
        let unit = size / 8192
        let pad = Self.margin * viewport.mapPointsPerPoint
        let window = viewport.visibleMapRect.insetBy(dx: -pad, dy: -pad)
        var result: [MapPoint] = []
        var budget = PoleOfInaccessibility.Budget(
            limit: min(PoleOfInaccessibility.featureBudget, max(0, poleWork.remaining)))
        defer { poleWork.remaining -= budget.spent }
        for rings in polygons.prefix(10_000) {
            guard let outer = rings.first, outer.count > 2 else { continue }
            let bounds = boundingRect(of: outer)
            // The tiles each world copy of the polygon shows, each once.
            var tiles: Set<Int> = []
            for offset in WorldCopies.offsets(of: bounds, meeting: window) {
                let seen = bounds.offsetBy(dx: offset, dy: 0).intersection(window).offsetBy(dx: -offset, dy: 0)
                guard !seen.isNull else { continue }
                guard let xs = TileID.indices(from: seen.minX, through: seen.maxX, zoom: z),
                    let ys = TileID.indices(from: seen.minY, through: seen.maxY, zoom: z),
                    xs.count * ys.count <= 4096
                else { continue }
                for ty in ys {
                    for tx in xs where tiles.insert(ty * count + tx).inserted {
                        let (ox, oy) = (Double(tx) * size, Double(ty) * size)
                        // The tile's buffered square in its units; rings cut to it one by one, as geojson-vt does.
                        let square = Rect(x: -2048, y: -2048, width: 12288, height: 12288)
                        let local = rings.map { ring in
                            PolygonClipper.clip(
                                ring.map {
                                    Point(x: (($0.x - ox) / unit).rounded(), y: (($0.y - oy) / unit).rounded())
                                }, to: square)
                        }
                        guard let first = local.first, first.count > 2 else { continue }
                        guard
                            let pole = PoleOfInaccessibility.find(
                                [first] + local.dropFirst().filter { $0.count > 2 }, precision: 16, budget: &budget)
                        else { continue }
                        // Float32, as the anchor MapLibre places the label at; only poles inside the tile.
                        let (px, py) = (Double(Float(pole.x)), Double(Float(pole.y)))
                        guard px >= 0, px < 8192, py >= 0, py < 8192 else { continue }
                        result.append(MapPoint(x: ox + px * unit, y: oy + py * unit))
                    }
                }
            }
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
}
