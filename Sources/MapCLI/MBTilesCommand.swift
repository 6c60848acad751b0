import Foundation
import MapRaster
import MapStorage
import MapTiles

/// `mapraster mbtiles merge OUT IN...`: combines shard files into one MBTiles file.
enum MBTilesCommand {
    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws {
        guard arguments.first == "merge" else {
            throw CLIError.usage("mbtiles needs a subcommand: mapraster mbtiles merge OUT.mbtiles IN.mbtiles...")
        }
        let args = try Arguments(Array(arguments.dropFirst()), valued: [], boolean: ["--force"])
        guard args.positional.count >= 2 else {
            throw CLIError.usage("mbtiles merge needs an output and at least one input: mbtiles merge OUT IN...")
        }
        let named = URL(fileURLWithPath: args.positional[0])
        let inputs = args.positional.dropFirst().map { URL(fileURLWithPath: $0) }
        // The output is checked before anything is read, and replaced only after every input was read and
        // checked: a failing merge leaves an existing output as it was.
        let out = try OutputPath.resolve(named)
        try OutputPath.checkNotSpecial(out, named: named.path)
        if OutputPath.isDirectory(out.path) {
            throw CLIError.failure("'\(named.path)' is a folder; merge writes a file and never removes folders")
        }
        if let outputIdentity = OutputPath.identity(out.path) {
            for input in inputs where OutputPath.identity(input.path) == outputIdentity {
                throw CLIError.failure(
                    "'\(named.path)' is both the output and an input ('\(input.path)'); merge into a new file")
            }
            guard args.flags.contains("--force") else {
                throw CLIError.failure("'\(named.path)' exists; pass --force to replace it")
            }
        }
        let temporary = out.deletingLastPathComponent().appendingPathComponent(
            ".\(out.lastPathComponent).\(getpid()).tmp")
        do {
            let files = try inputs.map { try MBTilesFile.open(at: $0) }
            var metadata = try files[0].metadata()
            let allMetadata = try files.map { try $0.metadata() }
            metadata["minzoom"] = String(allMetadata.compactMap { $0["minzoom"].flatMap(Int.init) }.min() ?? 0)
            metadata["maxzoom"] = String(allMetadata.compactMap { $0["maxzoom"].flatMap(Int.init) }.max() ?? 0)
            // Collect first, so that a conflict leaves no output behind.
            var tiles: [TileID: (Data, String)] = [:]
            for (file, url) in zip(files, inputs) {
                for (tile, data) in try file.allTiles() {
                    if let (other, source) = tiles[tile], other != data {
                        throw TileError.conflictingTile(tile, first: source, second: url.path)
                    }
                    tiles[tile] = (data, url.path)
                }
            }
            defer {
                unlink(temporary.path)
                OutputPath.removeSideFiles(of: temporary.path)
            }
            do {
                let merged = try MBTilesFile.create(at: temporary, metadata: metadata)
                let sorted = tiles.keys.sorted()
                var index = 0
                while index < sorted.count {
                    let batch = sorted[index..<min(index + 2000, sorted.count)].compactMap { tile in
                        tiles[tile].map { (tile, $0.0) }
                    }
                    try merged.write(batch)
                    index += 2000
                }
                try merged.checkpoint()
            } catch {
                // The temporary file is ours, not the user's: name the output.
                throw TileError.output(
                    path: named.path, reason: "\(error)".replacingOccurrences(of: temporary.path, with: named.path))
            }
            guard rename(temporary.path, out.path) == 0 else {
                throw TileError.output(path: named.path, reason: String(cString: strerror(errno)))
            }
            // Side files of the replaced database would be replayed into the new one.
            OutputPath.removeSideFiles(of: out.path)
            streams.standardOutput(
                "merged \(tiles.count) tiles from \(inputs.count) files into \(named.standardizedFileURL.path)\n")
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failure("\(error)")
        }
    }
}
