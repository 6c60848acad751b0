import Foundation
import MapData
import MapGeometry
import MapStorage
import MapStyle

/// A vector tile source of a style (MBTiles, PMTiles or a `{z}/{x}/{y}` folder), opened once per
/// process. For a view it gives the features of one source layer as a ``FeatureSource``: from the tiles
/// covering the view at its tile zoom (views deeper than the source's maxzoom draw from the maxzoom
/// tiles), each tile's geometry clipped to its own square so that neighbouring tiles abut without
/// overlap, and polygon edges along a tile's square marked so that outlines leave them out.
final class VectorSource: Sendable {
    let tiles: any TileSource
    let minZoom: Int
    let maxZoom: Int
    /// The area the source has tiles for, in map points; tiles outside it are not read.
    let bounds: MapRect?
    /// Which property becomes a feature's id (`promoteId`).
    let promoteID: StyleSource.PromoteID?
    /// A name for error messages.
    let name: String

    private init(name: String, spec: StyleSource.TileSet, promoteID: StyleSource.PromoteID?) throws {
        self.name = name
        self.promoteID = promoteID
        bounds = spec.bounds?.mapRect
        do {
            tiles = try openTileSource(at: spec.location, scheme: spec.scheme == "tms" ? .tms : .xyz)
        } catch {
            throw RenderError.missingData(name: spec.location, reason: "vector source \"\(name)\": \(error)")
        }
        minZoom = spec.minZoom ?? tiles.info.minZoom
        maxZoom = max(minZoom, spec.maxZoom ?? tiles.info.maxZoom)
    }

    private static let opened = OnceCache<String, VectorSource>()
    /// Decoded tiles by source, layer and tile id, shared by every render of the process: the most recent
    /// ones whose estimated sizes add up to at most ``VectorTileCache/byteLimit`` (memory stays bounded in
    /// long runs). Decoding runs outside the cache's lock (one once-cell per key), so threads decode
    /// different tiles at the same time.
    static let decoded = OnceCache<String, [FeatureSource.Feature]>(
        costLimit: VectorTileCache.defaultByteLimit, cost: VectorSource.estimatedBytes)
    /// The latest tiles read and inflated (each tile's layer names indexed), so that the source layers of
    /// one tile (a style draws a dozen) read and inflate it once: at most 32 MiB of inflated bytes.
    private static let raw = OnceCache<String, RawTile>(costLimit: 32 << 20, cost: { $0.bytes + 256 })

    /// A tile as read: nil when the source has no such tile.
    struct RawTile: Sendable {
        let tile: VectorTile?
        let bytes: Int
    }

    /// The indexed features of the latest views, so that the layers of a style that share a source layer
    /// (and the labels and attribution of the same image) decode and index them once.
    private static let assembled = OnceCache<String, FeatureSource>(capacity: 16)

    /// The source, opened once per process.
    static func open(id: String, spec: StyleSource.TileSet, promoteID: StyleSource.PromoteID? = nil) throws
        -> VectorSource
    {
        // The zooms, scheme, bounds and ids are part of the key: two styles may read one file differently.
        let key =
            "\(spec.location)|\(spec.minZoom ?? -1)|\(spec.maxZoom ?? -1)|\(spec.scheme)|"
            + "\(spec.bounds.map { "\($0)" } ?? "")|\(promoteID.map { "\($0)" } ?? "")"
        return try opened.value(key) { try VectorSource(name: id, spec: spec, promoteID: promoteID) }
    }

    /// The tile zoom for a view: MapLibre's zoom (MapRaster's minus 1, tiles of 512 points) rounded
    /// down, within the source's zooms.
    func tileZoom(for viewport: MapViewport) -> Int? {
        let z = Int(max(0, min(24, (viewport.zoomLevel - 1).rounded(.down))))
        return z < minZoom ? nil : min(z, maxZoom)
    }

    /// The features of `sourceLayer` in the tiles covering the view grown by `margin` points.
    func features(of sourceLayer: String, viewport: MapViewport, margin: Double = 256) throws -> FeatureSource {
        guard let z = tileZoom(for: viewport) else { return FeatureSource(name: name, features: []) }
        let pad = margin * viewport.mapPointsPerPoint
        let area = viewport.visibleMapRect.insetBy(dx: -pad, dy: -pad)
        // The tiles of every world copy the view reaches (a view wider than the world wraps into the same
        // tiles): as many as the image's size calls for, at most about (16,384 / 512 + 3)^2.
        var tileList: [TileID] = []
        var seen = Set<TileID>()
        for offset in WorldCopies.offsets(meeting: area) {
            let part = area.offsetBy(dx: -offset, dy: 0).intersection(MapRect.world)
            guard !part.isNull, !part.isEmpty else { continue }
            for tile in TileID.tiles(covering: part, zoom: z) where seen.insert(tile).inserted {
                if let bounds, !Self.meets(bounds, tile) { continue }
                tileList.append(tile)
            }
        }
        let key =
            "\(ObjectIdentifier(self))|\(sourceLayer)|"
            + tileList.map { "\($0.z)/\($0.x)/\($0.y)" }.joined(separator: ",")
        return try Self.assembled.value(key) {
            let tiles = try tileList.map { try self.features(of: sourceLayer, tile: $0) }
            // Lines wholly in a tile's buffer come last: they draw only with line layers, and after every
            // feature with a piece in its tile, a layer's labels (merged along roads by the first piece
            // of each name) are placed as they would be without them. Each feature is copied once.
            func bufferOnly(_ f: FeatureSource.Feature) -> Bool {
                if case .lines(let lines) = f.shape { return lines.isEmpty }
                return false
            }
            var features: [FeatureSource.Feature] = []
            features.reserveCapacity(tiles.reduce(0) { $0 + $1.count })
            for tile in tiles {
                for i in tile.indices where !bufferOnly(tile[i]) { features.append(tile[i]) }
            }
            for tile in tiles {
                for i in tile.indices where bufferOnly(tile[i]) { features.append(tile[i]) }
            }
            return FeatureSource(name: name, features: features)
        }
    }

    private func features(of sourceLayer: String, tile: TileID) throws -> [FeatureSource.Feature] {
        try Self.decoded.value("\(ObjectIdentifier(self))|\(sourceLayer)|\(tile.z)/\(tile.x)/\(tile.y)") {
            let layer: VectorTileLayer?
            do {
                let raw = try Self.raw.value("\(tiles.location)|\(tile.z)/\(tile.x)/\(tile.y)") {
                    guard let data = try tiles.tile(tile) else { return RawTile(tile: nil, bytes: 0) }
                    return RawTile(tile: try VectorTile(data: data), bytes: data.count)
                }
                layer = try raw.tile?.layer(named: sourceLayer)
            } catch {
                throw RenderError.missingData(
                    name: tiles.location,
                    reason: "vector source \"\(name)\" tile \(tile.z)/\(tile.x)/\(tile.y): \(error)")
            }
            guard let layer else { return [] }
            let idProperty = promoteID?.property(forSourceLayer: sourceLayer)
            return layer.features.compactMap {
                Self.feature($0, tile: tile, extent: Double(layer.extent), idProperty: idProperty)
            }
        }
    }

    /// Whether a tile shares area with a source's bounds (which may extend east of the world).
    static func meets(_ bounds: MapRect, _ tile: TileID) -> Bool {
        bounds.intersects(tile.mapRect) || bounds.offsetBy(dx: -WebMercator.worldSize, dy: 0).intersects(tile.mapRect)
    }

    /// An estimate of the memory a decoded tile-layer holds: its points (16 bytes each), its properties
    /// (keys, values and the dictionary's slots) and each feature's and array's fixed overhead. Used to
    /// bound the decoded-tile cache in bytes; errs on the high side.
    static func estimatedBytes(_ features: [FeatureSource.Feature]) -> Int {
        var total = 256  // the key, the cache's entry and the array itself
        for feature in features {
            total += 160  // shape, bounds, label point, geometry type, tile bounds
            switch feature.shape {
            case .points(let points): total += 32 + points.count * 16
            case .lines(let lines): total += 32 + lines.reduce(0) { $0 + 32 + $1.count * 16 }
            case .polygons(let polygons):
                total += 32 + polygons.reduce(0) { $0 + 32 + $1.reduce(0) { $0 + 32 + $1.count * 16 } }
            }
            if let buffered = feature.bufferedLines { total += 32 + buffered.reduce(0) { $0 + 32 + $1.count * 16 } }
            total += 64 + feature.properties.count * 48
            for (key, value) in feature.properties {
                total += key.utf8.count
                if case .string(let text) = value { total += text.utf8.count }
            }
        }
        return total
    }

    /// A tile feature in map points, clipped to the tile's square; its id is its own, or the value of
    /// `idProperty` when the source promotes one.
    static func feature(_ f: VectorTileFeature, tile: TileID, extent: Double, idProperty: String? = nil)
        -> FeatureSource.Feature?
    {
        let size = TileID.mapPointSize(atZoom: tile.z)
        let scale = size / extent
        let ox = Double(tile.x) * size
        let oy = Double(tile.y) * size
        let square = Rect(x: 0, y: 0, width: extent, height: extent)
        func point(_ p: VectorTilePoint) -> Point { Point(x: Double(p.x), y: Double(p.y)) }
        func mapPoint(_ p: VectorTilePoint) -> MapPoint {
            MapPoint(x: ox + Double(p.x) * scale, y: oy + Double(p.y) * scale)
        }
        func map(_ p: [Point]) -> [MapPoint] { p.map { MapPoint(x: ox + $0.x * scale, y: oy + $0.y * scale) } }
        // Whether a tile point lies on or inside the tile's square (where clipping keeps it as it is).
        func within(_ p: VectorTilePoint) -> Bool {
            p.x >= 0 && p.y >= 0 && Double(p.x) <= extent && Double(p.y) <= extent
        }
        // `mapValues` keeps the decoded dictionary's table: no key is hashed again.
        func properties(of f: VectorTileFeature) -> [String: StyleValue] {
            f.properties.mapValues { value in
                if let n = value.number { return .number(n) }
                if let b = value.bool { return .bool(b) }
                return .string(value.description)
            }
        }
        func identify(_ feature: inout FeatureSource.Feature) {
            if let idProperty {
                feature.id = feature.properties[idProperty] ?? .null
            } else if let id = f.id {
                feature.id = .number(Double(id))
            }
        }
        let shape: FeatureSource.Shape
        var measures: [FeatureSource.LineMeasure] = []
        var kept: [[VectorTilePoint]] = []
        var leaves = false
        switch f.geometry {
        case .points(let p):
            let inside = p.filter { $0.x >= 0 && $0.y >= 0 && Double($0.x) < extent && Double($0.y) < extent }
            guard !inside.isEmpty else { return nil }
            shape = .points(inside.map(mapPoint))
        case .lines(let lines):
            var pieces: [[MapPoint]] = []
            for line in lines {
                guard line.count > 1 else { continue }
                // Clipped straight from tile points (the same doubles as through a [Point] copy).
                let clipped = LineClipper.clip(line, project: point, to: square, tolerance: 0)
                // Every line is kept as the tile holds it, even one wholly in the tile's buffer: MapLibre
                // draws it too, clipped to the tile's square (seen when line-translate moves it in).
                kept.append(line)
                if !leaves,
                    clipped.pieces.count != 1 || clipped.pieces[0].points.count != line.count
                        || !line.allSatisfy(within)
                {
                    leaves = true
                }
                let continued =
                    line.first.map { $0.x == 0 || $0.y == 0 || Double($0.x) == extent || Double($0.y) == extent }
                    ?? false
                for piece in clipped.pieces {
                    pieces.append(map(piece.points))
                    measures.append(
                        .init(start: piece.startLength * scale, total: clipped.length * scale, continued: continued))
                }
            }
            guard !kept.isEmpty else { return nil }
            if pieces.isEmpty {
                // Wholly in the buffer: a feature for line layers only (no piece of it is in the tile, so
                // labels, circles and queries see an empty line).
                let buffered = kept.map { $0.map(mapPoint) }
                var feature = FeatureSource.Feature(
                    shape: .lines([]), bounds: boundingRect(of: buffered.flatMap { $0 }),
                    properties: properties(of: f), geometryType: "LineString",
                    labelPoint: MapPoint(x: ox + extent / 2 * scale, y: oy + extent / 2 * scale))
                identify(&feature)
                feature.tileBounds = MapRect(x: ox, y: oy, width: size, height: size)
                feature.bufferedLines = buffered
                return feature
            }
            shape = .lines(pieces)
        case .polygons(let polygons):
            // A ring with every point on or inside the square comes out of the clipper unchanged: it is
            // converted straight to map points.
            func ring(_ r: [VectorTilePoint]) -> [MapPoint] {
                r.allSatisfy(within) ? r.map(mapPoint) : map(PolygonClipper.clip(r.map(point), to: square))
            }
            // Whether `rings` are `raw` in map points (compared point by point, without converting `raw`).
            func same(_ rings: [[MapPoint]], _ raw: [[VectorTilePoint]]) -> Bool {
                guard rings.count == raw.count else { return false }
                for (ring, r) in zip(rings, raw) {
                    guard ring.count == r.count else { return false }
                    for (p, q) in zip(ring, r) where p != mapPoint(q) { return false }
                }
                return true
            }
            // The rings as the tile holds them (MapLibre strokes these, clipped to the tile's square) are
            // kept when cutting or orienting changed any: line layers draw polygon outlines from them.
            var changed = false
            let clipped: [[[MapPoint]]] = polygons.compactMap { polygon in
                let raw = [polygon.exterior] + polygon.holes
                let rings = raw.map(ring)
                guard rings[0].count > 2 else { return nil }
                let oriented = FeatureSource.oriented(rings.filter { $0.count > 2 })
                kept += raw
                if !changed, !same(oriented, raw) { changed = true }
                return oriented
            }
            guard !clipped.isEmpty else { return nil }
            shape = .polygons(clipped)
            leaves = changed
        }
        var feature = FeatureSource.makeFeature(shape, properties(of: f), lazyLabelPoint: true)
        identify(&feature)
        feature.tileBounds = MapRect(x: ox, y: oy, width: size, height: size)
        if !measures.isEmpty { feature.lineMeasures = measures }
        if leaves { feature.bufferedLines = kept.map { $0.map(mapPoint) } }
        return feature
    }
}

/// The process-wide cache of decoded vector tiles, shared by every render and every vector source.
///
/// Decoded tile layers are kept so that neighbouring views, the layers of one style and the metatiles of a
/// pyramid decode each tile once. The cache holds the most recently decoded tiles up to ``byteLimit``
/// bytes (an estimate of their points and properties; ``defaultByteLimit``, 256 MiB, unless changed) and
/// lets the oldest go first.
///
/// ```swift
/// VectorTileCache.byteLimit = 64 << 20  // a small server: keep at most about 64 MiB of decoded tiles
/// ```
public enum VectorTileCache {
    /// The default limit: 256 MiB.
    public static let defaultByteLimit = 256 << 20

    /// The most bytes the decoded tiles may hold (estimated). Lowering it evicts the oldest tiles at once;
    /// 0 keeps only the tile being used. Values below 0 are taken as 0.
    public static var byteLimit: Int {
        get { VectorSource.decoded.costLimit }
        set { VectorSource.decoded.setCostLimit(max(0, newValue)) }
    }

    /// The estimated bytes held now.
    public static var bytesInUse: Int { VectorSource.decoded.totalCost }
}
