import Foundation
import MapAnnotations
import MapBaseMap
import MapData
import MapGeometry
import MapGraphics
import MapOverlays
import MapStorage

/// Where tiles go.
public protocol TileSink: AnyObject {
    /// Tiles already present (for resuming).
    func existingTiles() throws -> Set<TileID>
    /// Stores a batch of tiles.
    func write(_ tiles: [(TileID, Data)]) throws
    /// Completes the output.
    func finish() throws
}

/// A `z/x/y.png` folder (`y@2x.png` for scale 2; `.jpg` or `.webp` for those formats), rows XYZ or TMS.
/// Each file is written atomically.
public final class DirectoryTileSink: TileSink {
    /// The folder.
    public let root: URL
    /// Whether rows count from the south (TMS).
    public let tms: Bool
    let suffix: String
    /// The tiles' file extension without the dot: `png`, `jpg` or `webp`.
    public let fileExtension: String

    /// Creates a sink writing under `root` (created when missing) files ending in `.fileExtension`.
    ///
    /// - Throws: ``TileError/output(path:reason:)`` when the folder cannot be created.
    public init(root: URL, tms: Bool, scale: Int, fileExtension: String = "png") throws {
        self.root = root
        self.tms = tms
        self.suffix = scale == 2 ? "@2x" : ""
        self.fileExtension = fileExtension
        do { try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true) } catch {
            throw TileError.output(path: root.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
    }

    /// The file of one tile.
    public func url(for tile: TileID) -> URL {
        root.appendingPathComponent("\(tile.z)/\(tile.x)/\(tms ? tile.tmsY : tile.y)\(suffix).\(fileExtension)")
    }

    public func existingTiles() throws -> Set<TileID> {
        var found = Set<TileID>()
        let fm = FileManager.default
        guard let zooms = try? fm.contentsOfDirectory(atPath: root.path) else { return found }
        for zText in zooms {
            guard let z = Int(zText),
                let columns = try? fm.contentsOfDirectory(atPath: root.appendingPathComponent(zText).path)
            else { continue }
            for xText in columns {
                guard let x = Int(xText),
                    let files = try? fm.contentsOfDirectory(
                        atPath: root.appendingPathComponent("\(zText)/\(xText)").path)
                else { continue }
                for file in files where file.hasSuffix("\(suffix).\(fileExtension)") && !file.hasPrefix(".") {
                    guard let row = Int(file.dropLast(1 + fileExtension.count + suffix.count)) else { continue }
                    let tile = tms ? try? TileID(z: z, x: x, tmsY: row) : try? TileID(z: z, x: x, y: row)
                    if let tile { found.insert(tile) }
                }
            }
        }
        return found
    }

    public func write(_ tiles: [(TileID, Data)]) throws {
        for (tile, data) in tiles {
            let url = url(for: tile)
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(data, to: url)
            } catch let error as FileWriteError {
                throw TileError.output(path: url.path, reason: error.problem.description)
            } catch {
                throw TileError.output(path: url.path, reason: "\(error)")
            }
        }
    }

    public func finish() throws {}
}

/// An MBTiles file.
public final class MBTilesTileSink: TileSink {
    /// The file.
    public let file: MBTilesFile

    /// Creates a new file, or opens one to resume.
    ///
    /// A file that cannot be resumed (another pyramid, not MBTiles) is checked read-only and refused before
    /// it is opened for writing, so that a refusal leaves it byte-identical.
    public init(url: URL, metadata: [String: String], resume: Bool) throws {
        if resume && FileManager.default.fileExists(atPath: url.path) {
            let existing = try MBTilesFile.open(at: url, readOnly: true).metadata()
            for key in ["format", "minzoom", "maxzoom", "bounds"] where existing[key] != metadata[key] {
                throw TileError.output(
                    path: url.path,
                    reason:
                        "cannot resume: its \(key) is '\(existing[key] ?? "")' but this run makes '\(metadata[key] ?? "")'"
                )
            }
            file = try MBTilesFile.open(at: url, readOnly: false)
        } else {
            file = try MBTilesFile.create(at: url, metadata: metadata)
        }
    }

    public func existingTiles() throws -> Set<TileID> { try file.tileIDs() }
    public func write(_ tiles: [(TileID, Data)]) throws { try file.write(tiles) }
    public func finish() throws { try file.checkpoint() }
}
