import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// A base map drawn from a ``Style``: every layer below the symbol layers by ``draw(in:viewport:)``,
/// the symbol layers' labels by ``drawLabels(in:viewport:)``, the layers after the last symbol layer by
/// ``drawAboveLabels(in:viewport:)``.
///
/// ```swift
/// let map = try StyledBaseMap(style: try Style.load(contentsOf: URL(fileURLWithPath: "styles/muted.json")))
/// snapshotter.baseMap = map
/// ```
public struct StyledBaseMap: BaseMap {
    /// The style.
    public let style: Style
    /// The fonts `text-font` stacks resolve to.
    public let fonts: FontCatalog
    /// The SDF glyphs labels are drawn with (MapLibre's way): glyph PBFs, or distance fields made from
    /// ``fonts`` (``InstalledGlyphs``) when the style has no local `glyphs`.
    public let glyphs: (any GlyphRangeProvider)?
    /// Whether labels of different sources keep out of each other (MapLibre's map option
    /// `crossSourceCollisions`, default true). False gives each source its own collision index: a source's
    /// labels collide only with its own and with the boxes placed around (annotations), as MapLibre's
    /// collision groups do.
    public var crossSourceCollisions = true
    private let inlineSources: [String: FeatureSource]

    /// Prepares a style for drawing: checks that its files and fonts exist and decodes inline sources
    /// (file sources are loaded when first drawn, once per process).
    ///
    /// - Parameters:
    ///   - fonts: the fonts `text-font` stacks resolve to (by default Debian's font packages,
    ///     ``FontCatalog/default``), for stacks `glyphs` does not have and for scripts that need HarfBuzz.
    ///   - glyphs: glyph PBFs to draw labels from; nil for the style's own `glyphs` when it is local
    ///     (``Style/glyphs``), else fields made from `fonts` (the process's ``InstalledGlyphs``). Labels in a
    ///     stack the PBFs do not have, and scripts that need HarfBuzz, are shaped with `fonts`.
    /// - Throws: ``RenderError/missingData(name:reason:)`` naming the missing file or font stack; the glyph
    ///   source's error when a glyph PBF of a stack the style names cannot be read.
    public init(style: Style, fonts: FontCatalog = .default, glyphs: (any GlyphRangeProvider)? = nil) throws {
        self.style = style
        self.fonts = fonts
        self.glyphs = try glyphs ?? style.glyphs.map { try GlyphPBFTemplate($0) } ?? InstalledGlyphs.shared(for: fonts)
        var inline: [String: FeatureSource] = [:]
        for (id, source) in style.sources {
            switch source.kind {
            case .geojsonFile(let url), .raster(let url), .image(let url, _):
                guard FileManager.default.isReadableFile(atPath: url.path) else {
                    throw RenderError.missingData(
                        name: url.path, reason: "source \"\(id)\" of the style: no such readable file")
                }
            case .geojsonInline(let json):
                inline[id] = try FeatureSource.inline(
                    json, name: "source \"\(id)\"", promoteID: source.promoteID?.property(forSourceLayer: nil),
                    lenient: !style.isStrict)
            case .vector(let spec):
                _ = try VectorSource.open(id: id, spec: spec, promoteID: source.promoteID)
            case .rasterTiles(let spec):
                _ = try RasterTileSource.open(id: id, spec: spec)
            }
        }
        for layer in style.layers where layer.type == .symbol {
            // Fonts written as a constant are checked now; fonts chosen by an expression when drawn.
            var names = ["DejaVu Sans"]
            if let property = layer.properties["text-font"] {
                guard case .literal(.array(let items)) = property.expression else { continue }
                names = items.compactMap(\.string)
            }
            if let provider = self.glyphs, try GlyphStack(names: names, provider: provider).isAvailable() { continue }
            do { try fonts.check(stack: names) } catch let error as GraphicsError {
                throw RenderError.missingData(name: "text-font", reason: "layer \"\(layer.id)\": \(error.description)")
            }
        }
        inlineSources = inline
    }

    /// Every source's attribution.
    public var attribution: [String] { style.attribution }

    /// The attribution of the sources that layers visible at the viewport's zoom draw, GeoJSON sources
    /// only when they have features in view.
    public func attribution(for viewport: MapViewport) -> [String] {
        let frame = FeatureSelection(viewport: viewport)
        var result: [String] = []
        for layer in style.layers where layer.isVisible(atZoom: frame.zoom) {
            guard let id = layer.source, let source = style.sources[id], let text = source.attribution,
                !text.isEmpty, !result.contains(text)
            else { continue }
            switch source.kind {
            case .raster, .rasterTiles, .image:
                result.append(text)
                continue
            default: break
            }
            guard let features = try? featureSource(for: layer, viewport: viewport) else {
                result.append(text)
                continue
            }
            if frame.hasFeature(of: features, layer: layer, margin: 0) { result.append(text) }
        }
        return result
    }

    func featureSource(for layer: StyleLayer, viewport: MapViewport) throws -> FeatureSource? {
        guard let id = layer.source, let source = style.sources[id] else { return nil }
        switch source.kind {
        case .geojsonFile(let url):
            let promoteID = source.promoteID?.property(forSourceLayer: nil)
            // A file declaring an extent away from the view is read only if a layer's selection meets it.
            if let extent = FeatureSource.declaredExtent(url), !Self.isNear(extent, viewport) {
                return FeatureSource(
                    deferred: url, promoteID: promoteID, extent: extent, lenientAs: style.isStrict ? nil : id)
            }
            return try FeatureSource.load(url, promoteID: promoteID, lenientAs: style.isStrict ? nil : id)
        case .geojsonInline: return inlineSources[id]
        case .raster, .rasterTiles, .image: return nil
        case .vector(let spec):
            guard let sourceLayer = layer.sourceLayer else { return nil }
            return try VectorSource.open(id: id, spec: spec, promoteID: source.promoteID)
                .features(of: sourceLayer, viewport: viewport)
        }
    }

    /// Whether `extent` meets the view grown by its size on every side (any world copy counts as near):
    /// a file that near is loaded at once rather than deferred.
    private static func isNear(_ extent: MapRect, _ viewport: MapViewport) -> Bool {
        let visible = viewport.visibleMapRect
        let pad = max(visible.width, visible.height)
        let window = visible.insetBy(dx: -pad, dy: -pad)
        return !WorldCopies.offsets(of: extent, meeting: window).isEmpty
    }

    public func draw(in context: GraphicsContext, viewport: MapViewport) throws {
        try drawLayers(style.layers[..<labelsEnd], in: context, viewport: viewport)
    }

    public func drawAboveLabels(in context: GraphicsContext, viewport: MapViewport) throws {
        try drawLayers(style.layers[labelsEnd...], in: context, viewport: viewport)
    }

    /// Where the layers drawn above the labels start: after the last symbol layer (all layers are below
    /// the labels when there is none). Layers between symbol layers are drawn below all labels.
    private var labelsEnd: Int {
        style.layers.lastIndex { $0.type == .symbol }.map { $0 + 1 } ?? style.layers.count
    }

    private func drawLayers(_ layers: ArraySlice<StyleLayer>, in context: GraphicsContext, viewport: MapViewport)
        throws
    {
        guard !layers.isEmpty else { return }
        let usesPatterns = layers.contains {
            [.backgroundPattern, .fillPattern, .linePattern, .fillExtrusionPattern].contains(where: $0.isSet)
        }
        let patterns =
            usesPatterns && !style.sprites.isEmpty
            ? PatternImages(images: try Sprite.load(style.sprites, scale: viewport.scale)) : nil
        let frame = LayerFrame(context: context, viewport: viewport, patterns: patterns)
        let depth = FillExtrusionLayerRenderer.SharedDepth()
        // Fill and line buckets are made on a second thread, ahead of the layer being drawn (not those that
        // read the sprite's pattern images, whose cache is the drawing thread's).
        let imagePixels = context.makeRasterizer().clipArea
        let ahead = Set(
            layers.indices.filter { i in
                let layer = layers[i]
                let reads: StylePropertyName = layer.type == .fill ? .fillPattern : .linePattern
                return (layer.type == .fill || layer.type == .line) && !layer.isSet(reads)
                    && layer.isVisible(atZoom: frame.zoom)
            })
        // (A render with one such layer or none has nothing to overlap, and is not counted.)
        let counted = ahead.count > 1
        let helper = counted && DrawingThreads.enter()
        let pipeline =
            helper
            ? BucketPipeline(
                indices: ahead.sorted(),
                make: { i in try makeBucket(layers[i], viewport: viewport, frame: frame, imagePixels: imagePixels) },
                weigh: \.bytes) : nil
        defer {
            pipeline?.finish()
            if counted { DrawingThreads.leave(helper: helper) }
        }
        for i in layers.indices {
            let layer = layers[i]
            guard layer.type != .symbol && layer.isVisible(atZoom: frame.zoom) else { continue }
            try context.withSavedState {
                switch layer.type {
                case .background: BackgroundLayerRenderer.draw(layer, in: frame)
                case .fill, .line:
                    let made =
                        if let pipeline, ahead.contains(i) {
                            try pipeline.take(i)
                        } else {
                            try makeBucket(layer, viewport: viewport, frame: frame, imagePixels: imagePixels)
                        }
                    switch made {
                    case .fill(let source, let bucket):
                        FillLayerRenderer.draw(bucket, layer: layer, in: frame)
                        try source.checkDeferredLoad()
                    case .line(let source, let prepared):
                        LineLayerRenderer.draw(prepared, layer: layer, in: frame)
                        try source.checkDeferredLoad()
                    case .none: break
                    }
                case .circle:
                    if let source = try featureSource(for: layer, viewport: viewport) {
                        CircleLayerRenderer.draw(layer, source: source, in: frame)
                        try source.checkDeferredLoad()
                    }
                case .fillExtrusion:
                    if let source = try featureSource(for: layer, viewport: viewport) {
                        FillExtrusionLayerRenderer.draw(
                            layer, source: source, light: style.light, in: frame, sharing: depth)
                        try source.checkDeferredLoad()
                    }
                case .raster:
                    guard let id = layer.source, let source = style.sources[id] else { break }
                    if case .image(let url, let corners) = source.kind {
                        try ImageSourceRenderer.draw(
                            layer, image: try RasterImages.load(url), corners: corners, in: frame)
                    } else if case .raster(let url) = source.kind {
                        try RasterLayerRenderer.draw(layer, image: try RasterImages.load(url), in: frame)
                    } else if case .rasterTiles(let spec) = source.kind {
                        try RasterTileLayerRenderer.draw(
                            layer, source: try RasterTileSource.open(id: id, spec: spec), in: frame)
                    }
                case .symbol: break
                }
            }
            try context.checkStatus("drawing style layer \"\(layer.id)\"")
        }
    }

    /// A fill or line layer's bucket and the source it was made from (``BucketPipeline``).
    private enum MadeBucket {
        case fill(FeatureSource, FillLayerRenderer.Bucket)
        case line(FeatureSource, LineLayerRenderer.Prepared)
        /// The layer has no source to draw.
        case none

        /// About how many bytes the bucket holds (its meshes' vertices and indices, its paths' points).
        var bytes: Int {
            switch self {
            case .fill(_, let bucket): return bucket.bytes
            case .line(_, let prepared): return prepared.bytes
            case .none: return 0
            }
        }
    }

    /// The bucket of a fill or line layer in `frame`'s view (``imagePixels``: the clip's area, device pixels).
    private func makeBucket(_ layer: StyleLayer, viewport: MapViewport, frame: LayerFrame, imagePixels: Double)
        throws -> MadeBucket
    {
        guard let source = try featureSource(for: layer, viewport: viewport) else { return .none }
        if layer.type == .fill { return .fill(source, FillLayerRenderer.bucket(layer, source: source, in: frame)) }
        let spec = layer.source.flatMap { style.sources[$0] }
        return .line(
            source,
            LineLayerRenderer.prepare(
                layer, source: source, geojsonMaxZoom: spec?.geojsonMaxZoom ?? 18, in: frame,
                imagePixels: imagePixels))
    }

    public func drawLabels(in context: GraphicsContext, viewport: MapViewport) throws {
        try drawLabels(in: context, viewport: viewport, avoiding: [])
    }

    public func drawLabels(in context: GraphicsContext, viewport: MapViewport, avoiding reserved: [Rect]) throws {
        _ = try drawLabelsReturningBoxes(in: context, viewport: viewport, avoiding: reserved)
    }

    public func drawLabelsReturningBoxes(
        in context: GraphicsContext, viewport: MapViewport, avoiding reserved: [Rect]
    ) throws -> [Rect] {
        let shift = viewport.worldOrigin
        let placed = try place(
            viewport: viewport,
            reserved: reserved.map {
                Rect(x: $0.minX + shift.x, y: $0.minY + shift.y, width: $0.width, height: $0.height)
            })
        PlacedLabel.draw(placed.flatMap { $0 }.map { ($0, shift) }, in: context)
        try context.checkStatus("drawing labels")
        return placed.flatMap { $0 }.map { label in
            let box = label.contentBounds()
            return Rect(x: box.minX - shift.x, y: box.minY - shift.y, width: box.width, height: box.height)
        }
    }

    public func placeLabels(for layoutViewport: MapViewport) throws -> PlacedBaseMapLabels? {
        PlacedBaseMapLabels(layers: try place(viewport: layoutViewport))
    }

    /// Places as ``placeLabels(for:)`` with everything of the layout area outside `region` reserved (collision
    /// boxes placed first), so that a label at the region's edge tries its other anchors or gives way rather
    /// than crossing it; labels that ignore collisions and still cross are left out.
    public func placeLabels(for layoutViewport: MapViewport, within region: Rect) throws -> PlacedBaseMapLabels? {
        let origin = layoutViewport.visibleMapRect.origin
        let area = Rect(
            origin: Point(
                x: origin.x / layoutViewport.mapPointsPerPoint, y: origin.y / layoutViewport.mapPointsPerPoint),
            size: layoutViewport.size
        ).insetBy(dx: -1, dy: -1)
        // Four slabs around the region: left and right of it full height, above and below it between them.
        let slabs = [
            Rect(x: area.minX, y: area.minY, width: region.minX - area.minX, height: area.height),
            Rect(x: region.maxX, y: area.minY, width: area.maxX - region.maxX, height: area.height),
            Rect(x: region.minX, y: area.minY, width: region.width, height: region.minY - area.minY),
            Rect(x: region.minX, y: region.maxY, width: region.width, height: area.maxY - region.maxY),
        ].filter { $0.width > 0 && $0.height > 0 }
        return PlacedBaseMapLabels(layers: try place(viewport: layoutViewport, reserved: slabs)).keeping(within: region)
    }

    /// Places the labels of every visible symbol layer; returns them bottom layer first.
    private func place(viewport: MapViewport, reserved: [Rect] = []) throws -> [[PlacedLabel]] {
        let frame = FeatureSelection(viewport: viewport)
        var collisions = SpatialGrid(cellSize: 64)
        for box in reserved { collisions.insert(box) }
        // Without cross-source collisions each source places into its own copy of the reserved boxes.
        var collisionsBySource: [String: SpatialGrid] = [:]
        var placedByLayer: [[PlacedLabel]] = []
        // Without sprites (none, or a network one, warned about once when the style was read) icons draw
        // nothing, and each missing image is not reported again.
        let usesIcons =
            style.layers.contains {
                $0.type == .symbol && ($0.isSet(.iconImage) || SymbolLayerRenderer.hasInlineImages($0))
            } && !style.sprites.isEmpty
        let icons = usesIcons ? IconImages(images: try Sprite.load(style.sprites, scale: viewport.scale)) : nil
        // The top layer places first (its labels win), the bottom layer's labels are drawn first.
        let symbolLayers = style.layers.filter { $0.type == .symbol }
        let sdfGlyphs = glyphs.map { SDFGlyphSource(provider: $0) }
        for (index, layer) in symbolLayers.enumerated().reversed() where layer.isVisible(atZoom: frame.zoom) {
            guard let source = try featureSource(for: layer, viewport: viewport) else { continue }
            var renderer = SymbolLayerRenderer(
                layer: layer, source: source, selection: frame, fonts: fonts, icons: icons, layerIndex: index,
                glyphs: sdfGlyphs)
            if let id = layer.source, let spec = style.sources[id] { renderer.geojsonMaxZoom = spec.geojsonMaxZoom }
            if crossSourceCollisions {
                placedByLayer.append(try renderer.place(into: &collisions))
            } else {
                let id = layer.source ?? ""
                var own = collisionsBySource[id] ?? collisions
                placedByLayer.append(try renderer.place(into: &own))
                collisionsBySource[id] = own
            }
            try source.checkDeferredLoad()
        }
        return placedByLayer.reversed()
    }
}
