import Foundation
import MapData
import MapGeometry
import MapStyle

/// The features of one GeoJSON source, projected to map points once per process and indexed by a grid
/// so that a small view of a large source only touches the features inside it.
final class FeatureSource: Sendable {
    /// A feature's geometry in map points. Polygon rings have no repeated closing point.
    enum Shape: Sendable {
        case points([MapPoint])
        case lines([[MapPoint]])
        case polygons([[[MapPoint]]])
    }

    /// One projected feature.
    struct Feature: Sendable {
        let shape: Shape
        let bounds: MapRect
        let properties: [String: StyleValue]
        /// `Point`, `LineString` or `Polygon`, as filters see it.
        let geometryType: String
        /// Where a point label of the feature goes: the point, the middle of the longest line, or the
        /// centroid of the largest polygon (when inside it). Given when made, or (vector tiles, whose
        /// features mostly never meet a symbol layer) worked out from the shape when asked.
        var labelPoint: MapPoint { givenLabelPoint ?? FeatureSource.labelPoint(of: shape) }
        private let givenLabelPoint: MapPoint?
        /// For a vector-tile feature, its tile's square: polygon edges along it exist only because the
        /// data is cut into tiles, and outlines leave them out.
        var tileBounds: MapRect?
        /// The feature's id (`["id"]`): its GeoJSON or vector-tile id, or its promoted property; null when none.
        var id: StyleValue = .null
        /// For a vector-tile line, per piece of `shape`: where it starts along the tile's whole line (tile
        /// buffer included) and that line's length, in map points, and whether the line begins on the tile's
        /// edge; line symbols are spaced along the whole line as MapLibre spaces them.
        var lineMeasures: [LineMeasure]?
        /// The lines a line layer draws for a vector-tile feature, as the tile holds them (the tile's buffer
        /// included, not cut at the tile's square), drawn as MapLibre draws them (each tile clipped to its
        /// square, dashes measured from the tile's line start): a line that leaves its tile, a line lying
        /// wholly in the buffer (whose shape is then empty), or a polygon's rings when cutting or orienting
        /// changed them (its outline). Nil otherwise.
        var bufferedLines: [[MapPoint]]?

        /// A feature; `labelPoint` nil: worked out from the shape when asked (``FeatureSource/labelPoint(of:)``).
        init(
            shape: Shape, bounds: MapRect, properties: [String: StyleValue], geometryType: String,
            labelPoint: MapPoint?
        ) {
            self.shape = shape
            self.bounds = bounds
            self.properties = properties
            self.geometryType = geometryType
            self.givenLabelPoint = labelPoint
        }
    }

    /// Where a clipped piece of a tile's line lies on the whole line (see ``Feature/lineMeasures``).
    struct LineMeasure: Sendable {
        var start: Double
        var total: Double
        var continued: Bool
    }

    let name: String
    private let content: Content
    /// Filter results kept from image to image for loaded features (which never change; a file read lazily
    /// keeps none): per layer id, its filter as specialized at the image's zoom, that zoom (a filter may still
    /// read it) and one byte per feature (0 not evaluated, 1 passes, 2 fails), as MapLibre keeps a tile's
    /// filtered features in its buckets.
    private let keptFilters = Locked<[String: (filter: StyleExpression, zoom: Double, passes: [UInt8])]>([:])
    /// At most this many layers' results are kept per source.
    static let keptFilterCapacity = 512
    /// What a symbol layer laid out over these features, kept from image to image by layer id (at most
    /// ``keptFilterCapacity`` layers, ``keptLayoutBytes`` in all), as MapLibre keeps a tile's symbol layout in its
    /// buckets: see ``SymbolLayerRenderer/Layout``.
    private let keptLayouts = Locked<[String: SymbolLayerRenderer.Layout]>([:])
    /// At most about this many bytes of symbol layouts are kept per source: a layout that would take more is
    /// not kept (its layer lays out afresh each image, as without it).
    static let keptLayoutBytes = 16 << 20

    private enum Content: Sendable {
        case loaded([Feature], SpatialGrid)
        /// A GeoJSON file with a declared extent, read when a query first meets that extent.
        case deferred(DeferredFile)
        /// A GeoJSON file whose features declare their extents, each decoded when a query first meets it, with
        /// the decoding errors this source's queries met (one view's: see ``forOneView()``).
        case lazy(LazyFile, LazyFile.Failures)
    }

    init(name: String, features: [Feature]) {
        self.name = name
        self.content = .loaded(
            features, SpatialGrid(mapRects: features.map(\.bounds), cellSize: WebMercator.worldSize / 256))
    }

    private init(name: String, content: Content) {
        self.name = name
        self.content = content
    }

    /// A GeoJSON file whose every feature lies in `extent` (its `bbox` member, see ``declaredExtent(_:)``),
    /// loaded by the first query that meets `extent`: a view away from it never reads the file, and the
    /// features a view selects are the same as the loaded file's.
    init(deferred url: URL, promoteID: String?, extent: MapRect, lenientAs sourceID: String? = nil) {
        self.name = url.lastPathComponent
        self.content = .deferred(DeferredFile(url: url, promoteID: promoteID, extent: extent, lenientAs: sourceID))
    }

    /// The features (of a deferred file: once a query has met its extent, none before; of a lazy file: the
    /// features decoded so far, a placeholder at the others), indexed as ``query(_:)`` returns them.
    var features: [Feature] {
        switch content {
        case .loaded(let features, _): return features
        case .deferred(let file): return file.source?.features ?? []
        case .lazy(let file, _): return file.features
        }
    }

    /// The results kept for `filter` of layer `id` at `zoom` (see ``keptFilters``), or none.
    func keptFilterResults(layer id: String, filter: StyleExpression, zoom: Double) -> [UInt8] {
        guard case .loaded = content else { return [] }
        return keptFilters.withLock { kept in
            guard let entry = kept[id], entry.zoom == zoom, entry.filter == filter else { return [] }
            return entry.passes
        }
    }

    /// Keeps `passes` for `filter` of layer `id` at `zoom` (replacing what was kept for the layer), while
    /// fewer than ``keptFilterCapacity`` layers are kept.
    func keepFilterResults(layer id: String, filter: StyleExpression, zoom: Double, passes: [UInt8]) {
        guard case .loaded(let features, _) = content, passes.count <= features.count else { return }
        keptFilters.withLock { kept in
            guard kept[id] != nil || kept.count < Self.keptFilterCapacity else { return }
            kept[id] = (filter, zoom, passes)
        }
    }

    /// The symbol layout kept for layer `id` (see ``keptLayouts``), or nil (none kept, or a file read lazily).
    func keptLayout(layer id: String) -> SymbolLayerRenderer.Layout? {
        guard case .loaded = content else { return nil }
        return keptLayouts.withLock { $0[id] }
    }

    /// Keeps `layout` for layer `id` (replacing what was kept for it), while fewer than
    /// ``keptFilterCapacity`` layers are kept and all of them take at most ``keptLayoutBytes``; else drops what
    /// was kept for the layer.
    func keepLayout(layer id: String, _ layout: SymbolLayerRenderer.Layout) {
        guard case .loaded = content else { return }
        keptLayouts.withLock { kept in
            let others = kept.reduce(0) { $0 + ($1.key == id ? 0 : $1.value.bytes) }
            guard (kept[id] != nil || kept.count < Self.keptFilterCapacity),
                others + layout.bytes <= Self.keptLayoutBytes
            else {
                kept[id] = nil
                return
            }
            kept[id] = layout
        }
    }

    /// Indices of (at least) the features whose bounds meet `rect` (in the world's map-point square),
    /// ascending: the candidates of a grid, to be tested against each feature's bounds.
    func query(_ rect: MapRect) -> [Int] {
        guard !rect.isNull else { return [] }
        switch content {
        case .loaded(_, let grid):
            return grid.query(Rect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height))
        case .deferred(let file):
            let e = file.extent
            // The closed test of `FeatureSelection`: no feature's bounds can meet `rect` when this fails.
            guard e.minX <= rect.maxX, e.maxX >= rect.minX, e.minY <= rect.maxY, e.maxY >= rect.minY else { return [] }
            return file.source?.query(rect) ?? []
        case .lazy(let file, let failures):
            return file.query(rect, failures: failures)
        }
    }

    /// Throws the error of loading a deferred file (or of decoding a lazy file's feature) when a query of
    /// this source needed it and it failed (a query cannot throw: it found nothing); call after drawing or
    /// placing a layer. Of a lazy file, only the errors of the features this source's own queries met count
    /// (the lowest feature index first): a view that never meets a broken feature draws.
    func checkDeferredLoad() throws {
        switch content {
        case .loaded: return
        case .deferred(let file): try file.checkLoad()
        case .lazy(_, let failures): try failures.check()
        }
    }

    /// This source for one view: a lazy file (shared by every view of the process) with a record of its own
    /// of the broken features its queries meet, so that ``checkDeferredLoad()`` fails the views that met one
    /// and no other; any other source itself.
    private func forOneView() -> FeatureSource {
        guard case .lazy(let file, _) = content else { return self }
        return FeatureSource(name: name, content: .lazy(file, LazyFile.Failures()))
    }

    /// A deferred file's state; the loaded source itself is ``FeatureSource/load(_:promoteID:)``'s, cached
    /// once per process.
    private final class DeferredFile: @unchecked Sendable {
        let url: URL
        let promoteID: String?
        let extent: MapRect
        let sourceID: String?
        private let loaded = Locked<Result<FeatureSource, any Error>?>(nil)

        init(url: URL, promoteID: String?, extent: MapRect, lenientAs sourceID: String?) {
            self.url = url
            self.promoteID = promoteID
            self.extent = extent
            self.sourceID = sourceID
        }

        /// The loaded file, loading it on first use; nil when it failed (see ``checkLoad()``).
        var source: FeatureSource? {
            loaded.withLock { loaded in
                if loaded == nil {
                    loaded = Result { try FeatureSource.load(url, promoteID: promoteID, lenientAs: sourceID) }
                }
                return try? loaded?.get()
            }
        }

        func checkLoad() throws {
            let loaded = self.loaded.withLock { $0 }
            _ = try loaded?.get()
            if case .success(let source) = loaded { try source.checkDeferredLoad() }
        }
    }

    /// A GeoJSON file whose features declare their own extents (`bbox` members, see `GeoJSON.featureSlots`):
    /// the grid holds each such feature under its declared extent (grown by one map point against projection
    /// rounding), and a query decodes the candidates it meets for the first time. When every feature lies in
    /// its declared `bbox`, the features a query finally selects (by their bounds) are those of the fully
    /// decoded file, in the same order.
    ///
    /// A feature that leaves its declared `bbox` is found out only by a query that meets that `bbox` (which
    /// decodes it): that view fails, naming the file, the feature and the `bbox`. A view that meets only the
    /// part of the feature outside its `bbox` never decodes it and draws without it, with no error (finding
    /// out would mean decoding every feature the view does not meet).
    ///
    /// A feature that fails to decode (invalid, or outside its own or the file's `bbox`) is decoded once; its
    /// error is kept for it alone and reported (``FeatureSource/checkDeferredLoad()``) to each view whose
    /// queries meet its declared extent, in the ``Failures`` of that view's source. Other views draw.
    private final class LazyFile: @unchecked Sendable {
        let url: URL
        let promoteID: String?
        let data: Data
        let fileBox: GeoBoundingBox?
        /// The style's id of the source when an invalid feature is left out with a warning (a lenient
        /// read); nil: it fails the views that meet it.
        let sourceID: String?
        /// Per feature index: the slot to decode (nil: decoded when the file was opened).
        let slotOf: [(slot: GeoJSON.FeatureSlot, index: Int)?]
        /// Per feature index: its declared extent (grown), or its bounds when decoded at once.
        let rects: [MapRect]
        let grid: SpatialGrid
        /// What queries have decoded so far.
        private struct Decoding {
            /// The decoded features, ``placeholder`` until decoded (or when decoding failed).
            var decoded: [Feature]
            /// Whether a feature was tried (decoded or failed).
            var tried: [Bool]
            /// Whether a feature is decoded.
            var ok: [Bool]
            /// The decoding error of each feature that failed, by feature index.
            var errors: [Int: any Error] = [:]
        }
        private let state: Locked<Decoding>

        init(
            url: URL, promoteID: String?, data: Data, fileBox: GeoBoundingBox?, sourceID: String?,
            entries: [(feature: Feature?, slot: (slot: GeoJSON.FeatureSlot, index: Int)?, rect: MapRect)]
        ) {
            self.url = url
            self.promoteID = promoteID
            self.data = data
            self.fileBox = fileBox
            self.sourceID = sourceID
            self.slotOf = entries.map(\.slot)
            self.state = Locked(
                Decoding(
                    decoded: entries.map { $0.feature ?? Self.placeholder }, tried: entries.map { $0.slot == nil },
                    ok: entries.map { $0.feature != nil }))
            self.rects = entries.map(\.rect)
            // Coarse cells: countries' extents span many cells of the usual size (inserting them cost more
            // than a view's decoding), and candidates are tested against `rects` before being decoded.
            self.grid = SpatialGrid(mapRects: rects, cellSize: WebMercator.worldSize / 32)
        }

        /// What stands for a feature not decoded: never selected (``query(_:)`` does not return it).
        static let placeholder = Feature(
            shape: .points([]), bounds: .null, properties: [:], geometryType: "Point", labelPoint: MapPoint(x: 0, y: 0))

        var features: [Feature] { state.withLock { $0.decoded } }

        /// The decoded features among the candidates meeting `rect` (decoding those met for the first time);
        /// the errors of broken ones go to `failures`.
        func query(_ rect: MapRect, failures: Failures) -> [Int] {
            let candidates = grid.query(Rect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height))
            return state.withLock { state in
                var result: [Int] = []
                for i in candidates {
                    // The closed test of `FeatureSelection`: a feature whose extent misses `rect` is not selected.
                    let r = rects[i]
                    guard r.minX <= rect.maxX, r.maxX >= rect.minX, r.minY <= rect.maxY, r.maxY >= rect.minY else {
                        continue
                    }
                    if !state.tried[i], let (slot, index) = slotOf[i] {
                        state.tried[i] = true
                        do {
                            state.decoded[i] = try FeatureSource.decodeSlot(
                                data, slot: slot, index: index, url: url, fileBox: fileBox, promoteID: promoteID)
                            state.ok[i] = true
                        } catch {
                            if let sourceID {
                                FeatureSource.reportSkipped(sourceID, url: url, count: nil, first: error)
                            } else {
                                state.errors[i] = error
                            }
                        }
                    }
                    if state.ok[i] {
                        result.append(i)
                    } else if let error = state.errors[i] {
                        failures.record(i, error)
                    }
                }
                return result
            }
        }

        /// The decoding errors of the features one view's queries met (see ``FeatureSource/forOneView()``).
        final class Failures: @unchecked Sendable {
            /// The error of the lowest feature index met.
            private let first = Locked<(index: Int, error: any Error)?>(nil)

            func record(_ index: Int, _ error: any Error) {
                first.withLock { first in
                    if first.map({ index < $0.index }) ?? true { first = (index, error) }
                }
            }

            /// Throws the error of the lowest feature index met, if any.
            func check() throws {
                if let first = first.withLock({ $0 }) { throw first.error }
            }
        }
    }

    // MARK: - Loading

    private static let cache = OnceCache<String, FeatureSource>()

    /// Loads (once per process) the GeoJSON file at `url`; call once per view and layer (a lazily decoded
    /// file's source records the broken features its own queries meet, see ``checkDeferredLoad()``).
    ///
    /// - Throws: ``RenderError/missingData(name:reason:)`` naming the file and, for invalid GeoJSON, the
    ///   feature and what is wrong.
    ///
    /// With `sourceID` (a lenient read of the style: MapLibre's way), a file that is not GeoJSON gives an empty
    /// source and an invalid feature is left out, each with a warning naming the source (once per process).
    static func load(_ url: URL, promoteID: String? = nil, lenientAs sourceID: String? = nil) throws -> FeatureSource {
        try loadShared(url, promoteID: promoteID, lenientAs: sourceID).forOneView()
    }

    /// The source of ``load(_:promoteID:lenientAs:)``, shared by every view of the process.
    private static func loadShared(_ url: URL, promoteID: String?, lenientAs sourceID: String?) throws
        -> FeatureSource
    {
        try cache.value(url.path + "|" + (promoteID ?? "") + (sourceID.map { "|lenient " + $0 } ?? "")) {
            let data: Data
            do { data = try FileReader.read(url) } catch {
                throw RenderError.missingData(
                    name: url.path, reason: "cannot read the GeoJSON file (\(error.localizedDescription))")
            }
            let fileBox = GeoJSON.declaredBoundingBox(data)
            if let slots = GeoJSON.featureSlots(data), slots.contains(where: { $0.boundingBox != nil }) {
                return try lazy(
                    url: url, data: data, slots: slots, fileBox: fileBox, promoteID: promoteID, sourceID: sourceID)
            }
            if let sourceID { return lenientFile(data, url: url, fileBox: fileBox, promoteID: promoteID, sourceID) }
            let decoded: [GeoJSONFeature]
            do { decoded = try GeoJSON.decodeFeatures(data, source: url.path) } catch let error as GeoJSONError {
                throw RenderError.missingData(name: url.path, reason: "invalid GeoJSON: \(error.description)")
            }
            // A declared extent lets views away from it skip the file (`declaredExtent`); it must hold.
            if let fileBox {
                for feature in decoded { try check(feature, within: fileBox, what: "its \"bbox\" member", url: url) }
            }
            return make(name: url.lastPathComponent, decoded, promoteID: promoteID)
        }
    }

    /// Refuses a feature with a position outside `box` (a file's or the feature's own `bbox`).
    static func check(_ feature: GeoJSONFeature, within box: GeoBoundingBox, what: String, url: URL) throws {
        guard let geometry = feature.geometry, let c = box.firstPositionOutside(geometry) else { return }
        throw RenderError.missingData(
            name: url.path,
            reason: "\(what) \(box) does not contain \(feature.location) (longitude "
                + "\(c.longitude), latitude \(c.latitude)); every position must lie within the bbox "
                + "(RFC 7946 section 5): correct the bbox or remove it")
    }

    /// A file whose features (some of them) declare their extents: those are decoded when a query meets
    /// them, the others now. Any error decoding a feature is reported as decoding the whole file reports it.
    private static func lazy(
        url: URL, data: Data, slots: [GeoJSON.FeatureSlot], fileBox: GeoBoundingBox?, promoteID: String?,
        sourceID: String?
    ) throws -> FeatureSource {
        var entries: [(feature: Feature?, slot: (slot: GeoJSON.FeatureSlot, index: Int)?, rect: MapRect)] = []
        entries.reserveCapacity(slots.count)
        for (index, slot) in slots.enumerated() {
            if let box = slot.boundingBox {
                let rect = box.mapRect.insetBy(dx: -1, dy: -1)
                if rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite {
                    entries.append((nil, (slot, index), rect))
                    continue
                }
            }
            let feature: GeoJSONFeature
            do {
                feature = try GeoJSON.decodeFeature(data, slot: slot, index: index, source: url.path)
                if let fileBox { try check(feature, within: fileBox, what: "its \"bbox\" member", url: url) }
            } catch {
                let whole = wholeFileError(data, url: url, otherwise: error)
                guard let sourceID, whole is RenderError || whole is GeoJSONError else { throw whole }
                reportSkipped(sourceID, url: url, count: nil, first: error)
                continue
            }
            for projected in features(of: feature, promoteID: promoteID) {
                entries.append((projected, nil, projected.bounds))
            }
        }
        return FeatureSource(
            name: url.lastPathComponent,
            content: .lazy(
                LazyFile(
                    url: url, promoteID: promoteID, data: data, fileBox: fileBox, sourceID: sourceID, entries: entries),
                LazyFile.Failures()))
    }

    /// The one feature a declared slot holds, checked against its own and the file's `bbox`.
    private static func decodeSlot(
        _ data: Data, slot: GeoJSON.FeatureSlot, index: Int, url: URL, fileBox: GeoBoundingBox?, promoteID: String?
    ) throws -> Feature {
        let feature: GeoJSONFeature
        do { feature = try GeoJSON.decodeFeature(data, slot: slot, index: index, source: url.path) } catch {
            throw wholeFileError(data, url: url, otherwise: error)
        }
        if let fileBox { try check(feature, within: fileBox, what: "its \"bbox\" member", url: url) }
        if let box = slot.boundingBox {
            try check(feature, within: box, what: "the \"bbox\" member of \(feature.location)", url: url)
        }
        // A slot with a bbox has one geometry of a type other than GeometryCollection: one feature.
        guard let projected = features(of: feature, promoteID: promoteID).first else {
            throw RenderError.missingData(name: url.path, reason: "\(feature.location) has no geometry")
        }
        return projected
    }

    /// The error decoding the whole file gives (its line and column, its wording), for an error found
    /// decoding one feature; `otherwise` if the whole file decodes.
    private static func wholeFileError(_ data: Data, url: URL, otherwise: any Error) -> any Error {
        do { _ = try GeoJSON.decodeFeatures(data, source: url.path) } catch let error as GeoJSONError {
            return RenderError.missingData(name: url.path, reason: "invalid GeoJSON: \(error.description)")
        } catch { return error }
        if let error = otherwise as? GeoJSONError {
            return RenderError.missingData(name: url.path, reason: "invalid GeoJSON: \(error.description)")
        }
        return otherwise
    }

    private static let extents = OnceCache<String, MapRect?>()

    /// The extent a GeoJSON file declares (its `bbox` member before its features, see
    /// `GeoJSON.declaredBoundingBox`) in map points, read (once per process) from the first 64 KiB of the
    /// file without parsing the rest; nil when it declares none or cannot be read (loading it then says why).
    /// Grown by one map point, so that rounding in the projection never puts a feature outside it.
    static func declaredExtent(_ url: URL) -> MapRect? {
        let extent = try? extents.value(url.path) { () -> MapRect? in
            guard let file = try? FileReader.checkedRegularFile(url), let handle = try? FileHandle(forReadingFrom: file)
            else { return nil }
            defer { try? handle.close() }
            guard let prefix = try? handle.read(upToCount: 1 << 16), let box = GeoJSON.declaredBoundingBox(prefix)
            else { return nil }
            let rect = box.mapRect
            guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return nil }
            return rect.insetBy(dx: -1, dy: -1)
        }
        return extent ?? nil
    }

    /// Decodes inline GeoJSON of a style; `lenient` as ``load(_:promoteID:lenientAs:)`` (`name` names the
    /// source).
    static func inline(_ json: JSONValue, name: String, promoteID: String? = nil, lenient: Bool = false) throws
        -> FeatureSource
    {
        if lenient {
            let decoding: GeoJSON.LenientDecoding
            do { decoding = try GeoJSON.decodeFeaturesSkippingInvalid(json, source: name, path: "data") } catch {
                reportInvalid(name, error)
                return FeatureSource(name: name, features: [])
            }
            if decoding.skipped > 0 {
                SourceWarnings.shared.report(
                    key: "skipped \(name)",
                    "\(name): \(skippedText(decoding.skipped, decoding.firstError.map { "\($0)" }))")
            }
            reportFolded(name, decoding)
            return make(name: name, decoding.features, promoteID: promoteID)
        }
        do {
            return make(name: name, try GeoJSON.decodeFeatures(json, source: name, path: ""), promoteID: promoteID)
        } catch let error as GeoJSONError {
            throw RenderError.missingData(name: name, reason: "invalid GeoJSON: \(error.description)")
        }
    }

    /// Projects decoded GeoJSON features; a feature's id is its `id` member, or its `promoteID` property.
    static func make(name: String, _ decoded: [GeoJSONFeature], promoteID: String? = nil) -> FeatureSource {
        var features: [Feature] = []
        features.reserveCapacity(decoded.count)
        for feature in decoded { features += self.features(of: feature, promoteID: promoteID) }
        return FeatureSource(name: name, features: features)
    }

    /// The projected features of one decoded feature (none without a geometry, one per item of a collection).
    private static func features(of feature: GeoJSONFeature, promoteID: String?) -> [Feature] {
        guard let geometry = feature.geometry else { return [] }
        var properties: [String: StyleValue] = [:]
        for (key, value) in feature.properties.members ?? [] where value != .null {
            properties[key] = StyleValue(value)
        }
        let id = promoteID.map { properties[$0] ?? .null } ?? feature.id.map(StyleValue.init) ?? .null
        return shapes(geometry).map { shape in
            var projected = makeFeature(shape, properties)
            projected.id = id
            return projected
        }
    }

    private static func shapes(_ geometry: GeoJSONGeometry) -> [Shape] {
        func line(_ c: [LocationCoordinate2D]) -> [MapPoint] { c.map(MapPoint.init) }
        func ring(_ c: [LocationCoordinate2D]) -> [MapPoint] {
            var points = c.map(MapPoint.init)
            if points.count > 1, points.first == points.last { points.removeLast() }
            return points
        }
        switch geometry {
        case .point(let c): return [.points([MapPoint(c)])]
        case .multiPoint(let c): return [.points(c.map(MapPoint.init))]
        case .lineString(let c): return [.lines([line(c)])]
        case .multiLineString(let c): return [.lines(c.map(line))]
        case .polygon(let rings): return [.polygons([oriented(rings.map(ring))])]
        case .multiPolygon(let polygons): return [.polygons(polygons.map { oriented($0.map(ring)) })]
        case .geometryCollection(let items): return items.flatMap(shapes)
        }
    }

    /// The exterior ring turning one way and the holes the other, whatever the file's winding, so that
    /// nonzero filling cuts every hole.
    static func oriented(_ rings: [[MapPoint]]) -> [[MapPoint]] {
        rings.enumerated().map { i, ring in
            let positive = signedArea(ring) > 0
            return positive == (i == 0) ? ring : ring.reversed()
        }
    }

    /// A feature of `shape`; its label point is worked out now, or with `lazyLabelPoint` when first asked.
    static func makeFeature(_ shape: Shape, _ properties: [String: StyleValue], lazyLabelPoint: Bool = false)
        -> Feature
    {
        let label = lazyLabelPoint ? nil : labelPoint(of: shape)
        switch shape {
        case .points(let points):
            return Feature(
                shape: shape, bounds: boundingRect(of: points), properties: properties, geometryType: "Point",
                labelPoint: label)
        case .lines(let lines):
            return Feature(
                shape: shape, bounds: boundingRect(ofParts: lines), properties: properties,
                geometryType: "LineString", labelPoint: label)
        case .polygons(let polygons):
            return Feature(
                shape: shape, bounds: boundingRect(ofParts: polygons.compactMap(\.first)), properties: properties,
                geometryType: "Polygon", labelPoint: label)
        }
    }
}
