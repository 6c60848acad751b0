import Foundation
import MapData
import MapGeometry

/// An MBTiles file read as a ``TileSource``: tiles from its `tiles` table or view, information from its
/// `metadata` table (`format`, `minzoom`, `maxzoom`, `bounds`, `attribution`, `name`, and `vector_layers`
/// from the `json` row).
///
/// One SQLite connection is shared behind a lock: reads from several threads take turns.
///
/// ```swift
/// let source = try MBTilesTileSource(path: "osm.mbtiles")
/// let bytes = try source.tile(TileID(z: 14, x: 8529, y: 5974))
/// ```
public final class MBTilesTileSource: TileSource, @unchecked Sendable {
    /// The one SQLite connection, reached only under its lock. (A lock guarding the file itself, not a
    /// lock beside it: the thread sanitizer reports a lock of an empty value as racing.)
    private let connection: Locked<MBTilesFile>
    private let path: String
    public let info: TileSourceInfo
    public var location: String { path }

    /// Opens the file read-only.
    ///
    /// - Throws: ``StorageError/notMBTiles(path:reason:)`` when it is missing, not SQLite, or has no
    ///   `tiles` table.
    public init(path: String) throws {
        let file = try MBTilesFile.open(at: URL(fileURLWithPath: path), readOnly: true)
        let metadata = try file.metadata()
        var info = TileSourceInfo(format: TileDataFormat(mbtilesFormat: metadata["format"]))
        if let value = metadata["minzoom"].flatMap({ Int($0) }), (0...TileID.maximumZoom).contains(value) {
            info.minZoom = value
        }
        if let value = metadata["maxzoom"].flatMap({ Int($0) }), (0...TileID.maximumZoom).contains(value) {
            info.maxZoom = value
        }
        let bounds = (metadata["bounds"] ?? "").split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        if bounds.count == 4, bounds.allSatisfy(\.isFinite) { info.bounds = bounds }
        info.attribution = metadata["attribution"]
        info.name = metadata["name"]
        if let json = metadata["json"], let parsed = try? JSONValue.parse(Data(json.utf8)) {
            info.vectorLayers = vectorLayerIDs(parsed)
        }
        self.info = info
        self.path = file.path
        self.connection = Locked(file)
    }

    public func tile(_ id: TileID) throws -> Data? {
        let data = try connection.withLock { file in try file.tile(id) }
        return try data.map { try inflatedTile($0, path: path, tile: id) }
    }
}

/// The `id`s of a TileJSON-style `vector_layers` array, at the top level or inside a `json` member holding
/// JSON text (as MBTiles metadata copied into PMTiles by `pmtiles convert` has it).
func vectorLayerIDs(_ json: JSONValue) -> [String] {
    if let layers = json["vector_layers"]?.array { return layers.compactMap { $0["id"]?.string } }
    if let text = json["json"]?.string, let nested = try? JSONValue.parse(Data(text.utf8)) {
        return (nested["vector_layers"]?.array ?? []).compactMap { $0["id"]?.string }
    }
    return []
}
