import Foundation
import MapCompression
import MapData
import MapGeometry

/// The kind of data a tile source holds.
public enum TileDataFormat: String, Sendable, Equatable {
    /// Mapbox Vector Tiles (MBTiles says `pbf`, PMTiles says MVT).
    case mvt
    case png
    case jpeg
    case webp
    case avif
    /// A format the source does not name or MapRaster does not know.
    case unknown

    /// The format named by MBTiles' `format` metadata value (`pbf`, `png`, `jpg`, `webp`, ...).
    public init(mbtilesFormat: String?) {
        switch mbtilesFormat?.lowercased() {
        case "pbf", "mvt": self = .mvt
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "avif": self = .avif
        default: self = .unknown
        }
    }
}

/// What a tile source says about itself (MBTiles metadata, the PMTiles header and metadata, or defaults).
public struct TileSourceInfo: Sendable, Equatable {
    /// The tiles' format.
    public var format: TileDataFormat
    /// The lowest zoom with tiles.
    public var minZoom: Int
    /// The highest zoom with tiles: deeper views draw from tiles of this zoom (overzoom).
    public var maxZoom: Int
    /// The area covered, [west, south, east, north] in degrees, when the source says.
    public var bounds: [Double]?
    /// The attribution text (HTML as the source gives it), when the source has one.
    public var attribution: String?
    /// The source's name, when it has one.
    public var name: String?
    /// The ids of the vector layers the source lists in its `vector_layers` metadata.
    public var vectorLayers: [String]

    /// Information with the given values.
    public init(
        format: TileDataFormat, minZoom: Int = 0, maxZoom: Int = 14, bounds: [Double]? = nil,
        attribution: String? = nil,
        name: String? = nil, vectorLayers: [String] = []
    ) {
        self.format = format
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.attribution = attribution
        self.name = name
        self.vectorLayers = vectorLayers
    }
}

/// A read-only store of map tiles addressed by XYZ ``TileID``: an MBTiles file (``MBTilesTileSource``), a
/// PMTiles v3 archive (``PMTilesFile``) or a `{z}/{x}/{y}` path template (``TileTemplateSource``).
///
/// Sources are safe to share between threads. ``tile(_:)`` returns the tile's bytes ready to decode:
/// gzip-compressed tiles (as tippecanoe and planetiler write vector tiles) are inflated, refusing
/// anything that would inflate past ``TileSourceLimits/inflatedTileBytes``.
///
/// ```swift
/// let source = try openTileSource(at: "tiles/osm.pmtiles")
/// if let bytes = try source.tile(TileID(z: 14, x: 8529, y: 5974)) {
///     let tile = try VectorTile(data: bytes)
/// }
/// ```
public protocol TileSource: AnyObject, Sendable {
    /// What the source says about itself.
    var info: TileSourceInfo { get }
    /// A description of where the tiles come from, for error messages: a path or template.
    var location: String { get }
    /// The tile's bytes (inflated if they were gzip-compressed), or nil when the source has no such tile:
    /// a missing tile is empty map, not an error.
    ///
    /// - Throws: ``StorageError`` when the source cannot be read or the tile's data is broken.
    func tile(_ id: TileID) throws -> Data?
}

/// Limits that keep hostile tile stores from exhausting memory.
public enum TileSourceLimits {
    /// The largest tile accepted after inflating, and the largest tile file read: 32 MiB (real vector
    /// tiles are under 1 MiB; 500 KiB is the usual encoder limit).
    public static let inflatedTileBytes = 32 << 20
}

/// Opens the tile source at `location`: a path ending in `.mbtiles` or `.pmtiles` (`mbtiles://` and
/// `pmtiles://` prefixes are accepted and dropped), or a path template with `{z}`, `{x}` and `{y}`.
///
/// - Parameters:
///   - location: the file or template.
///   - scheme: for templates, whether rows count from the north (`xyz`, the default) or the south (`tms`).
/// - Throws: ``StorageError`` when the file is missing or is not what its name says.
public func openTileSource(at location: String, scheme: TileScheme = .xyz) throws -> any TileSource {
    var path = location
    for prefix in ["mbtiles://", "pmtiles://"] where path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
    if path.contains("{z}") || path.contains("{x}") || path.contains("{y}") {
        return try TileTemplateSource(template: path, scheme: scheme)
    }
    if location.hasPrefix("pmtiles://") || path.lowercased().hasSuffix(".pmtiles") {
        return try PMTilesFile(path: path)
    }
    // A single tile file (`.mvt`, `.pbf`, an image) rather than an archive: every tile is that file, as MapLibre
    // fetches a `tiles` URL without placeholders for every tile.
    if !location.hasPrefix("mbtiles://"), !path.lowercased().hasSuffix(".mbtiles"), let head = try? fileHead(path, 16),
        head != Array("SQLite format 3\u{0}".utf8)
    {
        return try TileTemplateSource(template: path, scheme: scheme)
    }
    return try MBTilesTileSource(path: path)
}

/// The first `count` bytes of the file at `path` (fewer when it is shorter).
private func fileHead(_ path: String, _ count: Int) throws -> [UInt8] {
    let reader = try RangeReader(path: path)
    return Array(try reader.read(offset: 0, count: min(count, reader.size)))
}

/// How tile rows are counted.
public enum TileScheme: String, Sendable {
    /// Row 0 is the northernmost (XYZ, as web maps count).
    case xyz
    /// Row 0 is the southernmost (TMS).
    case tms
}

/// Inflates `data` if it is gzip-compressed, with the tile limit, naming the tile in errors.
func inflatedTile(_ data: Data, path: String, tile: TileID) throws -> Data {
    guard Deflate.isGzip(data) else { return data }
    do {
        return try Deflate.gunzip(data, limit: TileSourceLimits.inflatedTileBytes)
    } catch {
        throw StorageError.badTile(path: path, tile: "\(tile)", reason: "\(error)")
    }
}
