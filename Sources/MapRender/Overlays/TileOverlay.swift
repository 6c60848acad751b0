import Foundation
import MapGeometry

/// Raster tiles from a local folder laid out as `z/x/y.png` (rows from the north, or from the south
/// when ``isGeometryFlipped``), drawn over the map by a ``TileOverlayRenderer``. Mirrors MapKit's `MKTileOverlay` with a `file:` URL template.
public final class TileOverlay: Overlay {
    /// The folder holding `z/x/y.png`.
    public let folder: URL
    /// The tiles' file extension, `png`.
    public let fileExtension: String
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
    public init(folder: URL, fileExtension: String = "png") throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            throw OverlayError.unreadableTileFolder(path: folder.path, reason: "it does not exist")
        }
        guard isDirectory.boolValue else {
            throw OverlayError.unreadableTileFolder(path: folder.path, reason: "it is a file, not a folder")
        }
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw OverlayError.unreadableTileFolder(path: folder.path, reason: "its contents cannot be listed")
        }
        self.folder = folder
        self.fileExtension = fileExtension
    }

    /// The file of a tile (x wrapped into the world, row flipped for TMS). Mirrors `URLForTilePath:`.
    public func url(forTile tile: TileID) -> URL {
        let row = isGeometryFlipped ? tile.tmsY : tile.y
        return folder.appendingPathComponent("\(tile.z)/\(tile.x)/\(row).\(fileExtension)")
    }

    /// - Throws: ``OverlayError/invalidShape(overlay:problem:)`` for zoom limits outside 0...22 or
    ///   reversed, or a tile size that is not positive.
    public func validate() throws {
        guard minimumZ >= 0, maximumZ <= 22, minimumZ <= maximumZ, tileSize.isFinite, tileSize > 0 else {
            throw OverlayError.invalidShape(
                overlay: "TileOverlay '\(folder.path)'",
                problem: "zoom range \(minimumZ)...\(maximumZ) or tile size \(tileSize) is not valid; "
                    + "zooms must be within 0...22 with minimumZ <= maximumZ, the tile size positive")
        }
    }
}
