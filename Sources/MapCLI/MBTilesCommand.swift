import Foundation
import MapRaster
import MapStorage
import MapTiles

/// `mapraster mbtiles merge OUT IN...`: combines shard files into one MBTiles file.
enum MBTilesCommand {
    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws {
        guard arguments.first == "merge" else {
            if let first = arguments.first, first == "--help" || first == "-h" {
                streams.standardOutput(CommandTable.mbtiles.helpText)
                return
            }
            let guess = arguments.first.flatMap { Suggestion.closest(to: $0, in: ["merge"]) }
            throw CLIError.usage(
                "mbtiles needs a subcommand: mapraster mbtiles merge OUT.mbtiles IN.mbtiles..."
                    + (guess != nil ? " (did you mean 'merge'?)" : ""))
        }
        guard
            let args = try MapRasterCLI.parse(Array(arguments.dropFirst()), CommandTable.mbtilesMerge, output: streams)
        else { return }
        guard args.positional.count >= 2 else {
            throw CLIError.usage("mbtiles merge needs an output and at least one input: mbtiles merge OUT IN...")
        }
        let named = URL(fileURLWithPath: args.positional[0])
        let inputs = args.positional.dropFirst().map { URL(fileURLWithPath: $0) }
        // The output is checked before anything is read, and replaced only after every input was read and
        // checked: a failing merge leaves an existing output as it was.
        let out = try OutputPath.resolve(named)
        try OutputPath.checkNotSpecial(out, named: named.path, because: "an MBTiles file is an SQLite database")
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
            // Tiles stream from the inputs into a temporary file in batches (memory does not grow with the
            // inputs); a tile already there must have the same image. The output is replaced only at the end.
            defer {
                unlink(temporary.path)
                OutputPath.removeSideFiles(of: temporary.path)
            }
            let merged = try MBTilesFile.create(at: temporary, metadata: metadata)
            var count = 0
            for (index, file) in files.enumerated() {
                var batch: [TileID: Data] = [:]
                func flush() throws {
                    var fresh: [(TileID, Data)] = []
                    for (tile, data) in batch.sorted(by: { $0.key < $1.key }) {
                        if let other = try merged.tile(tile) {
                            guard other == data else {
                                let first = try inputs[..<index].indices.first { try files[$0].tile(tile) != nil }
                                throw TileError.conflictingTile(
                                    tile, first: first.map { inputs[$0].path } ?? "?", second: inputs[index].path)
                            }
                        } else {
                            fresh.append((tile, data))
                        }
                    }
                    try merged.write(fresh)
                    count += fresh.count
                    batch.removeAll(keepingCapacity: true)
                }
                try file.forEachTile { tile, data in
                    if let other = batch[tile], other != data {
                        throw TileError.conflictingTile(tile, first: inputs[index].path, second: inputs[index].path)
                    }
                    batch[tile] = data
                    if batch.count >= 2000 { try flush() }
                }
                try flush()
            }
            try merged.checkpoint()
            if args.flags.contains("--force") {
                guard rename(temporary.path, out.path) == 0 else {
                    throw TileError.output(path: named.path, reason: String(cString: strerror(errno)))
                }
            } else {
                // link(2) never replaces: a file another process made at the output meanwhile is kept.
                // Filesystems without hard links (EPERM, EOPNOTSUPP) get a rename after a last check.
                var linked = link(temporary.path, out.path) == 0
                if !linked, errno == EPERM || errno == EOPNOTSUPP, !FileManager.default.fileExists(atPath: out.path) {
                    linked = rename(temporary.path, out.path) == 0
                }
                guard linked else {
                    if errno == EEXIST || FileManager.default.fileExists(atPath: out.path) {
                        throw CLIError.failure(
                            "'\(named.path)' was created by another process during the merge; it is left as it is "
                                + "(pass --force to replace it)")
                    }
                    throw TileError.output(path: named.path, reason: String(cString: strerror(errno)))
                }
            }
            // Side files of the replaced database would be replayed into the new one.
            OutputPath.removeSideFiles(of: out.path)
            streams.standardOutput(
                "merged \(count) tiles from \(inputs.count) files into \(named.standardizedFileURL.path)\n")
        } catch let error as CLIError {
            throw error
        } catch {
            // The temporary file is ours, not the user's: name the output.
            throw CLIError.failure("\(error)".replacingOccurrences(of: temporary.path, with: named.path))
        }
    }
}
