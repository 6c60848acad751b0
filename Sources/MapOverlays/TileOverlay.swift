import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStorage

/// Raster tiles from a local folder laid out as `z/x/y.png` (rows from the north, or from the south
/// when ``isGeometryFlipped``) or from an MBTiles file, drawn over the map by a ``TileOverlayRenderer``.
/// Mirrors MapKit's `MKTileOverlay` with a `file:` URL template.
public final class TileOverlay: Overlay {
    /// Where the tiles come from.
    public enum Source {
        /// Files named by a path template with `{z}`, `{x}` and `{y}`, such as `/tiles/{z}/{x}/{y}.png`.
        case template(String)
        /// An MBTiles file (PNG tiles, TMS rows).
        case mbtiles(MBTilesFile)
    }

    /// Where the tiles come from.
    public let source: Source
    /// The tiles' size in points at their own zoom level. Mirrors `tileSize`.
    public var tileSize = 256.0
    /// The least detailed zoom level with tiles. Mirrors `minimumZ`.
    public var minimumZ = 0
    /// The most detailed zoom level with tiles; more detailed views enlarge its tiles. Mirrors `maximumZ`.
    public var maximumZ = 21
    /// Whether rows are counted from the south (TMS, as in MBTiles) rather than from the north (XYZ).
    /// Mirrors `geometryFlipped`.
    public var isGeometryFlipped = false
    /// Whether the tiles are opaque and replace the base map, which is then not drawn.
    /// Mirrors `canReplaceMapContent`.
    public var canReplaceMapContent = false

    public let boundingMapRect = MapRect.world
    public var coordinate: LocationCoordinate2D { LocationCoordinate2D(latitude: 0, longitude: 0) }

    /// Creates a tile overlay for a folder of `z/x/y.png` tiles.
    ///
    /// - Throws: ``OverlayError/unreadableTileFolder(path:reason:)`` when `folder` is not a readable folder.
    public convenience init(folder: URL, fileExtension: String = "png") throws {
        try self.init(pathTemplate: folder.path + "/{z}/{x}/{y}." + fileExtension)
    }

    /// Creates a tile overlay for files named by a template with `{z}`, `{x}` and `{y}` (a path, or a
    /// `file://` URL), such as `/srv/tiles/{z}/{x}/{y}.png`. Mirrors `initWithURLTemplate:`.
    ///
    /// - Throws: ``OverlayError/unreadableTileFolder(path:reason:)`` when the template lacks one of the
    ///   placeholders or the folder before the first placeholder is not a readable folder.
    public init(pathTemplate: String) throws {
        let template =
            pathTemplate.hasPrefix("file://") ? String(pathTemplate.dropFirst("file://".count)) : pathTemplate
        for key in ["{z}", "{x}", "{y}"] where !template.contains(key) {
            throw OverlayError.unreadableTileFolder(
                path: pathTemplate, reason: "the template has no \(key); expected a path such as /tiles/{z}/{x}/{y}.png"
            )
        }
        let prefix = template[..<template.range(of: "{")!.lowerBound]
        var folder = prefix.hasSuffix("/") ? String(prefix) : (String(prefix) as NSString).deletingLastPathComponent
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        let folderPath = folder.isEmpty ? "." : folder
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folderPath, isDirectory: &isDirectory) else {
            throw OverlayError.unreadableTileFolder(path: folderPath, reason: "it does not exist")
        }
        guard isDirectory.boolValue else {
            throw OverlayError.unreadableTileFolder(path: folderPath, reason: "it is a file, not a folder")
        }
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: folderPath)
        } catch {
            throw OverlayError.unreadableTileFolder(path: folderPath, reason: "its contents cannot be listed")
        }
        source = .template(template)
    }

    /// Creates a tile overlay for an MBTiles file; its rows are TMS rows, so ``isGeometryFlipped`` is
    /// true, and its `minzoom`/`maxzoom` metadata set the zoom limits.
    ///
    /// - Throws: ``OverlayError/unreadableTileFolder(path:reason:)`` when the file cannot be opened as
    ///   MBTiles.
    public init(mbtilesPath path: String) throws {
        let file: MBTilesFile
        let metadata: [String: String]
        do {
            file = try MBTilesFile.open(at: URL(fileURLWithPath: path))
            metadata = try file.metadata()
        } catch let error as StorageError {
            throw OverlayError.unreadableTileFolder(path: path, reason: error.description)
        }
        source = .mbtiles(file)
        isGeometryFlipped = true
        if let z = metadata["minzoom"].flatMap(Int.init) {
            minimumZ = max(0, min(Int(MapViewport.maximumZoomLevel), z))
        }
        if let z = metadata["maxzoom"].flatMap(Int.init) {
            maximumZ = max(minimumZ, min(Int(MapViewport.maximumZoomLevel), z))
        }
    }

    /// A name for messages: the path template or the MBTiles file's path.
    public var path: String {
        switch source {
        case .template(let template): return template
        case .mbtiles(let file): return file.path
        }
    }

    /// The file of a tile from the path template (row flipped for TMS), nil for MBTiles. Mirrors
    /// `URLForTilePath:`.
    public func url(forTile tile: TileID) -> URL? {
        guard case .template(let template) = source else { return nil }
        let row = isGeometryFlipped ? tile.tmsY : tile.y
        return URL(
            fileURLWithPath: template.replacingOccurrences(of: "{z}", with: "\(tile.z)")
                .replacingOccurrences(of: "{x}", with: "\(tile.x)").replacingOccurrences(of: "{y}", with: "\(row)"))
    }

    /// The image of a tile, or nil when the source has none. Mirrors `loadTileAtPath:result:`.
    ///
    /// - Throws: ``OverlayError/unreadableTile(path:reason:)`` for a tile that exists but is not a PNG.
    public func loadTile(_ tile: TileID) throws -> ImageSurface? {
        switch source {
        case .template:
            guard let url = url(forTile: tile), FileManager.default.fileExists(atPath: url.path) else { return nil }
            do { return try ImageSurface(contentsOfPNG: FileReader.checkedRegularFile(url)) } catch {
                throw OverlayError.unreadableTile(path: url.path, reason: "\(error)")
            }
        case .mbtiles(let file):
            let row = isGeometryFlipped ? tile.tmsY : tile.y
            let name = "\(file.path) tile \(tile.z)/\(tile.x)/\(row)"
            let data: Data?
            do { data = try file.tileData(zoom: tile.z, column: tile.x, tmsRow: row) } catch {
                throw OverlayError.unreadableTile(path: name, reason: "\(error)")
            }
            guard let data else { return nil }
            do { return try ImageSurface(pngData: data, source: name) } catch {
                throw OverlayError.unreadableTile(path: name, reason: "not a PNG image (\(data.count) bytes)")
            }
        }
    }

    /// - Throws: ``OverlayError/invalidShape(overlay:problem:)`` for zoom limits outside 0...22 or
    ///   reversed, or a tile size that is not positive.
    public func validate() throws {
        guard minimumZ >= 0, maximumZ <= 22, minimumZ <= maximumZ, tileSize.isFinite, tileSize > 0 else {
            throw OverlayError.invalidShape(
                overlay: "TileOverlay '\(path)'",
                problem: "zoom range \(minimumZ)...\(maximumZ) or tile size \(tileSize) is not valid; "
                    + "zooms must be within 0...\(Int(MapViewport.maximumZoomLevel)) with minimumZ <= maximumZ, the tile size positive"
            )
        }
    }
}
