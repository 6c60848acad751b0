import MapGeometry
import MapGraphics
import MapStyle

/// What every layer renderer needs for one image: the context, the viewport and the style's zoom.
struct LayerFrame {
    let context: GraphicsContext
    let selection: FeatureSelection
    var viewport: MapViewport { selection.viewport }
    var zoom: Double { selection.zoom }
    /// The style's pattern images (`*-pattern`), nil when the style has no sprite.
    let patterns: PatternImages?

    init(context: GraphicsContext, viewport: MapViewport, patterns: PatternImages? = nil) {
        self.context = context
        self.selection = FeatureSelection(viewport: viewport)
        self.patterns = patterns
    }

    /// The pattern image `name` and where one copy of it sits, or nil when the sprite has none.
    func pattern(_ name: String) -> (image: ImageSurface, tile: Rect)? {
        guard !name.isEmpty, let image = patterns?.image(name) else { return nil }
        return (image.surface, PatternImages.tile(for: image, viewport: viewport))
    }

    /// The pattern image `name` as the rasterizer samples it, placed as ``pattern(_:)`` places it, or nil.
    /// Facing north and flat, its lookup counts from the corners of `tile` (a vector tile's square, map
    /// points, `offset` added for its world copy) or, without one, of MapLibre's tiles at the view's zoom
    /// rounded down (512 points, grown with the fractional zoom), as MapLibre's shader does (``PatternPhase``).
    func fillPattern(_ name: String, opacity: Double, tile square: MapRect? = nil, offset: Double = 0)
        -> FillPattern?
    {
        guard !name.isEmpty, let (texture, ratio) = patterns?.texture(name) else { return nil }
        let tile = PatternImages.tile(
            width: texture.width, height: texture.height, pixelRatio: ratio, viewport: viewport)
        // Turned or tilted: the copies lie on the ground, seen through the view's projection.
        let ground = FillExtrusionLayerRenderer.groundPattern(
            width: Double(texture.width) / ratio, height: Double(texture.height) / ratio, viewport: viewport,
            zoom: zoom)
        var grid: Rect?
        if viewport.projection.isNorthUpAndFlat {
            let perPoint = viewport.mapPointsPerPoint
            if let square, perPoint > 0 {
                let origin = viewport.visibleMapRect.origin
                grid = Rect(
                    x: (square.minX + offset - origin.x) / perPoint, y: (square.minY - origin.y) / perPoint,
                    width: square.width / perPoint, height: square.height / perPoint)
            } else {
                // 512 points grown as the copy grows (its width is the image's points times the growth).
                let size = 512 * tile.width * ratio / Double(texture.width)
                grid = Rect(x: tile.minX, y: tile.minY, width: size, height: size)
            }
        }
        return FillPattern(texture: texture, tile: tile, opacity: opacity, homography: ground, grid: grid)
    }

    /// A layer's `*-translate` at this zoom, in points along the image's axes (x right, y down) on the
    /// view's ground plane (``ViewProjection/turned(_:)``): with `*-translate-anchor` `map` (the default) the
    /// offset turns with the map, with `viewport` it keeps to the image's axes. Facing north both agree.
    func translation(_ layer: StyleLayer, _ key: StylePropertyName) -> (x: Double, y: Double) {
        let values = layer.numbers(key, EvaluationContext(zoom: zoom)) ?? []
        guard values.count == 2 else { return (0, 0) }
        let projection = viewport.projection
        guard projection.sinH != 0 || projection.cosH != 1, let anchor = Self.anchor(of: key),
            layer.string(anchor, EvaluationContext(zoom: zoom)) != "viewport"
        else { return (values[0], values[1]) }
        return (
            values[0] * projection.cosH + values[1] * projection.sinH,
            -values[0] * projection.sinH + values[1] * projection.cosH
        )
    }

    /// The `*-translate-anchor` of a `*-translate` property.
    static func anchor(of key: StylePropertyName) -> StylePropertyName? {
        switch key {
        case .fillTranslate: return .fillTranslateAnchor
        case .lineTranslate: return .lineTranslateAnchor
        case .circleTranslate: return .circleTranslateAnchor
        case .fillExtrusionTranslate: return .fillExtrusionTranslateAnchor
        case .textTranslate: return .textTranslateAnchor
        case .iconTranslate: return .iconTranslateAnchor
        default: return nil
        }
    }

    /// The layer-wide evaluation context of this image (see ``FeatureSelection/context(properties:geometryType:)``).
    var constantContext: EvaluationContext { selection.context() }

    /// See ``FeatureSelection/forEachFeature(of:layer:margin:_:)``.
    func forEachFeature(
        of source: FeatureSource, layer: StyleLayer, margin: Double,
        _ body: (FeatureSource.Feature, Double, EvaluationContext) -> Void
    ) {
        selection.forEachFeature(of: source, layer: layer, margin: margin, body)
    }
}

/// The features of a view: those whose bounds meet it, that pass a layer's filter, in drawing order.
struct FeatureSelection {
    let viewport: MapViewport
    /// The zoom level as the style sees it: MapLibre's, one less than ``MapViewport/zoomLevel``
    /// (MapLibre's zoom 0 is one 512-point tile; MapKit-style zoom 0 is one 256-point tile).
    let zoom: Double

    /// The largest width drawn in this image (``StyleLimits/widthCeiling(width:height:)``), given to every
    /// evaluation context so that the layer accessors cap widths in one place.
    let maximumWidth: Double

    /// The filter results of the layers drawn so far (see ``FilterMemo``).
    let filterMemo = FilterMemo()

    init(viewport: MapViewport) {
        self.viewport = viewport
        self.zoom = viewport.zoomLevel - 1
        self.maximumWidth = StyleLimits.widthCeiling(width: viewport.size.width, height: viewport.size.height)
    }

    /// The evaluation context of a feature (or, with the defaults, of the layer as a whole) in this image.
    func context(properties: [String: StyleValue] = [:], geometryType: String = "Point", id: StyleValue = .null)
        -> EvaluationContext
    {
        EvaluationContext(
            zoom: zoom, properties: properties, geometryType: geometryType, id: id, maximumWidth: maximumWidth)
    }

    /// Calls `body` for each feature of `source` passing the layer's filter whose bounds meet the view
    /// grown by `margin` points, once per world copy it appears in, ordered by the layer's sort key
    /// when it has one (then data order). With `wholeTiles`, also the other features of the vector tiles
    /// those features come from that meet the view itself (MapLibre lays out a tile's symbols together: a
    /// road's pieces beyond the margin still join the piece in view, and the joined line's anchors start from
    /// its true start; a tile that only meets the margin is not one MapLibre labels).
    func forEachFeature(
        of source: FeatureSource, layer: StyleLayer, margin: Double, wholeTiles: Bool = false,
        _ body: (FeatureSource.Feature, Double, EvaluationContext) -> Void
    ) {
        select(of: source, layer: layer, margin: margin, wholeTiles: wholeTiles) { _, feature, offset, context in
            body(feature, offset, context)
        }
    }

    /// ``forEachFeature(of:layer:margin:wholeTiles:_:)`` with each feature's index in `source`'s features.
    func forEachFeature(
        of source: FeatureSource, layer: StyleLayer, margin: Double, wholeTiles: Bool = false,
        _ body: (Int, FeatureSource.Feature, Double, EvaluationContext) -> Void
    ) {
        select(of: source, layer: layer, margin: margin, wholeTiles: wholeTiles, body)
    }

    /// The selection of both ``forEachFeature(of:layer:margin:wholeTiles:_:)``, inlined into each so that each
    /// caller's closure is specialized into the loop.
    @inline(__always)
    private func select(
        of source: FeatureSource, layer: StyleLayer, margin: Double, wholeTiles: Bool,
        _ body: (Int, FeatureSource.Feature, Double, EvaluationContext) -> Void
    ) {
        // Features are read in place from the source's array (a copy of each would retain its arrays and
        // dictionary), and without a sort key handed on as they pass the filter.
        let sortKey = layer.type.sortKey.map { ResolvedStyleProperty(layer, $0, at: context()) }
        let readsGeometry = layer.readsGeometry
        let sorted = sortKey?.isSet ?? false
        // Every context here is at `zoom`.
        let filter = layer.filter?.expression.specialized(atZoom: zoom)
        // Per feature: 0 not yet evaluated, 1 passes, 2 fails; shared with the layers of this image that
        // have the same filter over the same features.
        let shared = layer.filter.flatMap { FilterMemo.isShareable($0.expression) ? $0.expression : nil }
        var passes = shared.map { filterMemo.take(source, $0) } ?? []
        // Or those of an earlier image of the same features at the same zoom.
        if passes.isEmpty, let filter { passes = source.keptFilterResults(layer: layer.id, filter: filter, zoom: zoom) }
        defer {
            if let shared { filterMemo.put(source, shared, passes) }
            if let filter { source.keepFilterResults(layer: layer.id, filter: filter, zoom: zoom, passes: passes) }
        }
        for (offset, window) in windows(margin: margin) {
            var candidates = source.query(window)
            // Read only when the query found something: a deferred file is loaded by `features`.
            guard !candidates.isEmpty else { continue }
            let features = source.features
            if filter != nil, passes.count < features.count {
                passes.append(contentsOf: repeatElement(0, count: features.count - passes.count))
            }
            var tiles: Set<TileSquare> = []
            if wholeTiles {
                let pad = margin * viewport.mapPointsPerPoint
                (candidates, tiles) = Self.withWholeTiles(
                    candidates, of: source, features, window, view: window.insetBy(dx: pad, dy: pad))
            }
            var selected: [(index: Int, context: EvaluationContext, key: Double)] = []
            for i in candidates {
                guard
                    contains(window, features[i].bounds)
                        || (!tiles.isEmpty && features[i].tileBounds.map { tiles.contains(TileSquare($0)) } == true)
                else { continue }
                var context = self.context(
                    properties: features[i].properties, geometryType: features[i].geometryType, id: features[i].id)
                if readsGeometry { context.geometry = features[i].shape.featureGeometry }
                if let filter {
                    if passes[i] == 0 { passes[i] = filter.evaluate(context).isTrue ? 1 : 2 }
                    if passes[i] == 2 { continue }
                }
                guard sorted, let sortKey else {
                    body(i, features[i], offset, context)
                    continue
                }
                selected.append((i, context, sortKey.number(context)))
            }
            guard sorted else { continue }
            // By key, then data order (positions sorted, the selection itself not moved).
            let order = selected.indices.sorted { a, b in
                selected[a].key != selected[b].key ? selected[a].key < selected[b].key : a < b
            }
            for k in order { body(selected[k].index, features[selected[k].index], offset, selected[k].context) }
        }
    }

    /// A vector tile's square, as a set member.
    private struct TileSquare: Hashable {
        var x: Double
        var y: Double
        var side: Double
        init(_ rect: MapRect) { (x, y, side) = (rect.minX, rect.minY, rect.width) }
    }

    /// `candidates` (ascending) with the features of the vector tiles that meet `view` (their squares closed)
    /// and that the candidates meeting `window` come from, ascending, and those tiles' squares (none:
    /// `candidates` unchanged). The tiles are those already loaded for the view, so the work is bounded by
    /// their content.
    private static func withWholeTiles(
        _ candidates: [Int], of source: FeatureSource, _ features: [FeatureSource.Feature], _ window: MapRect,
        view: MapRect
    ) -> ([Int], Set<TileSquare>) {
        var tiles: Set<TileSquare> = []
        var union = MapRect.null
        for i in candidates {
            let f = features[i]
            guard let tile = f.tileBounds, f.bounds.minX <= window.maxX, f.bounds.maxX >= window.minX,
                f.bounds.minY <= window.maxY, f.bounds.maxY >= window.minY, tile.minX <= view.maxX,
                tile.maxX >= view.minX, tile.minY <= view.maxY, tile.maxY >= view.minY
            else { continue }
            if tiles.insert(TileSquare(tile)).inserted { union = union.union(tile) }
        }
        guard !tiles.isEmpty, !union.isNull, !window.contains(union) else { return (candidates, []) }
        // A tile's features reach into its buffer: the query is grown by a quarter tile.
        let grow = tiles.map(\.side).max()! / 4
        return (source.query(union.union(window).insetBy(dx: -grow, dy: -grow)), tiles)
    }

    /// Whether ``forEachFeature(of:layer:margin:_:)`` would find any feature (it stops at the first).
    func hasFeature(of source: FeatureSource, layer: StyleLayer, margin: Double) -> Bool {
        let readsGeometry = layer.readsGeometry
        for (_, window) in windows(margin: margin) {
            let candidates = source.query(window)
            guard !candidates.isEmpty else { continue }
            let features = source.features
            for i in candidates {
                guard contains(window, features[i].bounds) else { continue }
                var context = self.context(
                    properties: features[i].properties, geometryType: features[i].geometryType, id: features[i].id)
                if readsGeometry { context.geometry = features[i].shape.featureGeometry }
                if layer.accepts(context) { return true }
            }
        }
        return false
    }

    /// The view grown by `margin` points, once per world copy it meets: the copy's offset and the window
    /// in the world's map-point square.
    private func windows(margin: Double) -> [(offset: Double, window: MapRect)] {
        let visible = viewport.visibleMapRect
        let pad = margin * viewport.mapPointsPerPoint
        return WorldCopies.offsets(meeting: visible.insetBy(dx: -pad, dy: -pad)).map { offset in
            (offset, visible.offsetBy(dx: -offset, dy: 0).insetBy(dx: -pad, dy: -pad))
        }
    }

    /// Bounds test that also accepts degenerate (zero-width or zero-height) bounds such as points.
    private func contains(_ window: MapRect, _ bounds: MapRect) -> Bool {
        bounds.minX <= window.maxX && bounds.maxX >= window.minX && bounds.minY <= window.maxY
            && bounds.maxY >= window.minY
    }
}

/// The filter results of the latest layers drawn in one image, per feature: layers with the same filter
/// over the same features (a road's casing and its fill, drawn one after the other) evaluate it once. The
/// results hold for the image's zoom only; a selection has its own.
final class FilterMemo: Sendable {
    /// At most this many filters are kept.
    static let capacity = 8
    /// Locked: the fill and line buckets of an image are made on a second thread (``BucketPipeline``) while
    /// the drawing thread selects the features of its other layers.
    private let entries = Locked<[(source: FeatureSource, filter: StyleExpression, passes: [UInt8])]>([])

    /// Whether a filter's results may be shared with an equal filter. Equal expressions evaluate alike,
    /// to the same booleans, except where a number's sign of zero shows (`-0` and `0` are equal, `1 / -0`
    /// and `1 / 0` are not; `number-format` may write `-0`): a filter that divides or formats numbers
    /// keeps its own results.
    static func isShareable(_ filter: StyleExpression) -> Bool { !filter.canShowSignOfZero }

    /// The results kept for `filter` over `source` (removed from the memo until ``put(_:_:_:)``), or none.
    func take(_ source: FeatureSource, _ filter: StyleExpression) -> [UInt8] {
        entries.withLock { entries in
            guard let k = entries.firstIndex(where: { $0.source === source && $0.filter == filter }) else {
                return []
            }
            return entries.remove(at: k).passes
        }
    }

    /// Keeps the results of `filter` over `source`, letting the oldest go beyond ``capacity``.
    func put(_ source: FeatureSource, _ filter: StyleExpression, _ passes: [UInt8]) {
        entries.withLock { entries in
            entries.append((source, filter, passes))
            if entries.count > Self.capacity { entries.removeFirst() }
        }
    }
}

extension StyleLayer {
    /// Whether the layer's filter or a property reads the feature's geometry (`within`).
    var readsGeometry: Bool {
        (filter?.expression.readsGeometry ?? false) || properties.values.contains { $0.expression.readsGeometry }
    }
}

extension FeatureSource.Shape {
    /// The geometry as `within` sees it.
    var featureGeometry: FeatureGeometry {
        switch self {
        case .points(let points): return .points(points)
        case .lines(let lines): return .lines(lines)
        case .polygons: return .polygons
        }
    }
}
