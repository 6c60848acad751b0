import Foundation
import MapGeometry

/// Tiles stored as files named by a path template with `{z}`, `{x}` and `{y}` (a folder such as
/// `tiles/{z}/{x}/{y}.pbf`, as `mapraster tiles` and tippecanoe's `-e` write). A missing file is a missing
/// tile (nil), not an error; an empty file is an empty tile (no data). A template without any placeholder names one file that is
/// every tile.
///
/// ```swift
/// let source = try TileTemplateSource(template: "tiles/{z}/{x}/{y}.pbf", format: .mvt)
/// ```
public final class TileTemplateSource: TileSource {
    /// The template, as given.
    public let template: String
    /// Whether `{y}` counts rows from the north (xyz) or the south (tms).
    public let scheme: TileScheme
    public let info: TileSourceInfo
    public var location: String { template }

    /// A source reading files named by `template`.
    ///
    /// - Parameters:
    ///   - template: a path with `{z}`, `{x}` and `{y}` (each at least once), or with none (one file for all).
    ///   - scheme: how `{y}` counts rows.
    ///   - format: the tiles' format; by default guessed from the template's extension.
    ///   - minZoom: the lowest zoom with tiles.
    ///   - maxZoom: the highest zoom with tiles.
    /// - Throws: ``StorageError/badTemplate(template:reason:)`` when a placeholder is missing.
    public init(
        template: String, scheme: TileScheme = .xyz, format: TileDataFormat? = nil, minZoom: Int = 0, maxZoom: Int = 14
    ) throws {
        // No placeholder at all: every tile is that one file (as MapLibre requests the same URL for every
        // tile of a `tiles` template without placeholders). Some but not all is a mistake.
        let placeholders = ["{z}", "{x}", "{y}"].filter(template.contains)
        for placeholder in ["{z}", "{x}", "{y}"] where !placeholders.isEmpty && !template.contains(placeholder) {
            throw StorageError.badTemplate(
                template: template, reason: "it has no \(placeholder); write it like tiles/{z}/{x}/{y}.pbf")
        }
        guard (0...TileID.maximumZoom).contains(minZoom), (minZoom...TileID.maximumZoom).contains(maxZoom) else {
            throw StorageError.badTemplate(
                template: template, reason: "zooms \(minZoom)...\(maxZoom) are not within 0...\(TileID.maximumZoom)")
        }
        self.template = template
        self.scheme = scheme
        let guessed: TileDataFormat
        switch (template as NSString).pathExtension.lowercased() {
        case "pbf", "mvt": guessed = .mvt
        case "png": guessed = .png
        case "jpg", "jpeg": guessed = .jpeg
        case "webp": guessed = .webp
        default: guessed = .unknown
        }
        info = TileSourceInfo(format: format ?? guessed, minZoom: minZoom, maxZoom: maxZoom)
    }

    /// The file path of a tile.
    public func path(of id: TileID) -> String {
        template.replacingOccurrences(of: "{z}", with: "\(id.z)")
            .replacingOccurrences(of: "{x}", with: "\(id.x)")
            .replacingOccurrences(of: "{y}", with: "\(scheme == .tms ? id.tmsY : id.y)")
    }

    public func tile(_ id: TileID) throws -> Data? {
        let path = path(of: id)
        let reader: RangeReader
        do {
            reader = try RangeReader(path: path)
        } catch {
            if !FileManager.default.fileExists(atPath: path) { return nil }
            throw error
        }
        // An empty file is an empty tile (a server's 204 No Content), unlike a missing one.
        guard reader.size > 0 else { return Data() }
        guard reader.size <= TileSourceLimits.inflatedTileBytes else {
            throw StorageError.badTile(
                path: path, tile: "\(id)",
                reason:
                    "the file has \(reader.size) bytes, more than the \(TileSourceLimits.inflatedTileBytes)-byte tile limit"
            )
        }
        return try inflatedTile(try reader.read(offset: 0, count: reader.size), path: path, tile: id)
    }
}
