import Foundation
import MapRaster
import MapStorage
import MapTiles

/// `mapraster tiles`: an XYZ pyramid into a folder or an MBTiles file.
enum TilesCommand {
    /// The most tiles a run makes without `--yes`.
    static let tileLimit = 100_000
    /// Tiles per second per core used for the time estimate of a large run (a debug build on a shared
    /// machine makes about 60, a release build several hundred).
    static let estimatedTilesPerSecondPerCore = 100.0

    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws {
        guard let args = try MapRasterCLI.parse(arguments, CommandTable.tiles, output: streams) else { return }
        guard args.positional.isEmpty else { throw CLIError.usage("unexpected argument '\(args.positional[0])'") }
        guard let outputPath = args["--output"], !outputPath.isEmpty else {
            throw CLIError.usage("tiles needs -o OUTPUT: a folder, or a file ending in .mbtiles")
        }
        var area = TilePyramid.world
        if let bbox = try args.numbers("--bbox", count: 4, form: "WEST,SOUTH,EAST,NORTH") {
            guard args["--center"] == nil, args["--span"] == nil else {
                throw CLIError.usage("--bbox cannot be combined with --center/--span")
            }
            do {
                area = try GeoBoundingBox(validatingWest: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3])
            } catch {
                throw CLIError.usage("--bbox: \(error)")
            }
        } else if args["--center"] != nil || args["--span"] != nil {
            guard let c = try args.numbers("--center", count: 2, form: "LAT,LON"),
                let d = try args.numbers("--span", count: 2, form: "DLAT,DLON")
            else { throw CLIError.usage("a region needs both --center LAT,LON and --span DLAT,DLON") }
            try RenderCommand.checkMinimumSpan(d, text: args["--span"] ?? "")
            do {
                let region = CoordinateRegion(
                    center: try LocationCoordinate2D(validatingLatitude: c[0], longitude: c[1]),
                    span: try CoordinateSpan(validatingLatitudeDelta: d[0], longitudeDelta: d[1]))
                area = TilePyramid.boundingBox(of: region)
            } catch {
                throw CLIError.usage("--center/--span: \(error)")
            }
        }
        let (minZoom, maxZoom) = try zoomRange(args["--zoom"] ?? "0-5")
        // A folder or an MBTiles file has no image extension to check against --format.
        let encoding = try RenderCommand.OutputEncoding(args, outputPath: nil)
        let pyramid: TilePyramid
        do {
            pyramid = try TilePyramid(
                area: area, minZoom: minZoom, maxZoom: maxZoom, tileSize: try integer(args, "--tile-size") ?? 256,
                scale: try integer(args, "--scale") ?? 1, metatileSize: try integer(args, "--metatile") ?? 8,
                format: encoding.format, compressionLevel: encoding.compressionLevel,
                quality: encoding.quality)
        } catch let error as TileError {
            throw CLIError.usage(error.description)
        }
        let shard: Shard
        do { shard = try args["--shard"].map(Shard.init(parsing:)) ?? .all } catch {
            throw CLIError.usage("--shard: \(error)")
        }
        let threads = try integer(args, "--threads") ?? 0
        guard threads >= 0 else {
            throw CLIError.usage("--threads \(threads) is invalid: use 1 or more (0 = one per core)")
        }
        // --threads counts every drawing thread: a metatile takes a bucket helper only within it.
        DrawingThreads.limit(to: threads)
        let resume = args.flags.contains("--resume")
        let force = args.flags.contains("--force")
        guard !(resume && force) else { throw CLIError.usage("--resume and --force cannot be combined") }
        try checkSize(pyramid, shard: shard, threads: threads, confirmed: args.flags.contains("--yes"))

        // The scene is parsed and checked once (marker images decoded once); each metatile's snapshotter
        // gets fresh objects made from it, since snapshotters and their content are not shared between threads.
        let scene = try args["--scene"].map { path in
            let data: Data
            do { data = try FileReader.read(URL(fileURLWithPath: path), limit: RenderCommand.sceneFileLimit) } catch let
                error as FileReadError
            {
                throw CLIError.failure("cannot read scene file '\(path)': \(error.problem)")
            }
            do {
                return try PreparedScene(data: data, source: path, resolvePlace: GeocodeCommand.placeResolver)
            } catch { throw CLIError.failure("\(error)") }
        }
        var chosenType = MapType.standard
        if let type = args["--map-type"] {
            guard let value = MapType(rawValue: type) else {
                throw CLIError.usage("--map-type '\(type)' is invalid: use standard, satellite or hybrid")
            }
            chosenType = value
        }
        let mapType = chosenType
        let style = try RenderCommand.loadStyle(args, mapType: mapType, output: streams)
        if let scene, try scene.makeScene().camera != nil {
            streams.standardError(
                "mapraster: note: tiles are drawn north up and looking straight down; the scene's camera is not used\n")
        }
        if let style, (style.bearing ?? 0) != 0 || (style.pitch ?? 0) != 0 {
            streams.standardError(
                "mapraster: note: tiles are drawn north up and looking straight down; the style's root bearing "
                    + "\(style.bearing ?? 0) and pitch \(style.pitch ?? 0) are not used\n")
        }
        let fonts = try FontsOption.catalog(args, output: streams)
        let glyphs = try GlyphsOption.provider(args)
        let renderer = TileRenderer(pyramid: pyramid) { options in
            var options = options
            options.style = style
            options.fonts = fonts
            options.glyphs = glyphs
            options.mapType = mapType
            let snapshotter = try MapSnapshotter(options: options)
            if let scene { try scene.makeScene().populate(snapshotter) }
            return snapshotter
        }

        // The output: links are written through; an MBTiles file given --force is replaced only when the run
        // succeeds (it is built beside it first); a folder is never removed, only the tiles written go over
        // the ones there; a file this run created is removed again if the run fails before any tile is in it.
        let named = URL(fileURLWithPath: outputPath)
        let url = try OutputPath.resolve(named)
        let isMBTiles = outputPath.hasSuffix(".mbtiles")
        let exists = FileManager.default.fileExists(atPath: url.path)
        try OutputPath.checkNotSpecial(
            url, named: outputPath, because: "tiles go into an MBTiles database or a folder")
        if isMBTiles && OutputPath.isDirectory(url.path) {
            throw CLIError.failure(
                "'\(outputPath)' is a folder, not an MBTiles file; tiles never removes folders: give another name")
        }
        if !isMBTiles && exists && !OutputPath.isDirectory(url.path) {
            throw CLIError.failure(
                "'\(outputPath)' is a file, not a folder; tiles writes z/x/y.\(encoding.format.fileExtension) files "
                    + "into a folder")
        }
        if exists && !resume && !force {
            throw CLIError.failure("'\(outputPath)' exists; pass --force to replace it or --resume to finish it")
        }
        let parent = url.deletingLastPathComponent().path
        guard OutputPath.isDirectory(parent) else {
            throw CLIError.failure("cannot write '\(outputPath)': folder '\(parent)' does not exist")
        }
        guard access(parent, W_OK) == 0 else {
            throw CLIError.failure("cannot write '\(outputPath)': folder '\(parent)' is not writable")
        }

        // The credits of the base map's data go into the MBTiles metadata.
        var probe = MapSnapshotter.Options(size: Size(width: 256, height: 256))
        probe.style = style
        probe.mapType = mapType
        let credits: [String]
        do { credits = try MapSnapshotter(options: probe).loadBaseMap()?.attribution ?? [] } catch {
            throw CLIError.failure("\(error)")
        }
        let replacing = isMBTiles && exists && force
        let target =
            replacing
            ? url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp") : url
        let created = isMBTiles && (replacing || !exists)
        let reporter = ProgressReporter(quiet: args.flags.contains("--quiet"), output: streams)
        let summary: TileJob.Summary
        do {
            summary = try render(
                renderer, into: target, isMBTiles: isMBTiles, args: args, pyramid: pyramid, credits: credits,
                shard: shard, threads: threads, resume: resume, reporter: reporter)
        } catch {
            var message = "\(error)".replacingOccurrences(of: target.path, with: outputPath)
            if !isMBTiles && !exists { OutputPath.removeEmptyFolders(at: target.path) }
            // Another process created the file between the check above and this run's creation: it is theirs.
            let lostRace = (error as? StorageError).map { $0 == .outputExists(path: target.path) } ?? false
            if lostRace {
                message =
                    "'\(outputPath)' was created by another process while this run started; "
                    + "it is left as it is (pass --resume to finish it after that run, or --force to replace it)"
            }
            if created && !lostRace {
                let kept = replacing ? 0 : ((try? MBTilesFile.open(at: target).tileIDs().count) ?? 0)
                if kept == 0 {
                    unlink(target.path)
                    OutputPath.removeSideFiles(of: target.path)
                } else {
                    message += "; the \(kept) tiles written are kept in '\(outputPath)': --resume finishes it"
                }
            }
            throw CLIError.failure(message)
        }
        if replacing {
            guard rename(target.path, url.path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(target.path)
                OutputPath.removeSideFiles(of: target.path)
                throw CLIError.failure("cannot replace '\(outputPath)': \(reason)")
            }
            OutputPath.removeSideFiles(of: url.path)
        }
        reporter.finish()
        if !args.flags.contains("--quiet") {
            streams.standardOutput(
                "wrote \(summary.tilesWritten) tiles (\(summary.uniqueTiles) unique, \(summary.bytes) bytes"
                    + (summary.tilesSkipped > 0 ? ", \(summary.tilesSkipped) already there" : "")
                    + ") to \(named.standardizedFileURL.path) in " + String(format: "%.2f s", summary.seconds) + "\n")
        }
    }

    /// Renders into a sink at `target`; the sink (and its database connection) is gone when this returns.
    static func render(
        _ renderer: TileRenderer, into target: URL, isMBTiles: Bool, args: Arguments, pyramid: TilePyramid,
        credits: [String], shard: Shard, threads: Int, resume: Bool, reporter: ProgressReporter
    ) throws -> TileJob.Summary {
        let sink: TileSink
        var values = metadata(pyramid, args: args)
        values["attribution"] = credits.joined(separator: " · ")
        let tms = args.flags.contains("--tms")
        if isMBTiles {
            sink = try MBTilesTileSink(url: target, metadata: values, resume: resume)
        } else {
            sink = try DirectoryTileSink(
                root: target, tms: tms, scale: pyramid.scale, fileExtension: pyramid.format.fileExtension)
        }
        let summary: TileJob.Summary
        do {
            summary = try TileJob(renderer: renderer, shard: shard, threads: threads)
                .run(into: sink, resume: resume) { reporter.report($0) }
        } catch {
            throw CLIError.failure("rendering tiles failed: \(error)")
        }
        if !isMBTiles {
            // The folder's metadata: MBTiles' fields, and a TileJSON 3.0 document for map libraries.
            let files = [
                (Data(TileFolderMetadata.metadataJSON(values).utf8), target.appendingPathComponent("metadata.json")),
                (
                    Data(TileFolderMetadata.tileJSON(values, pyramid: pyramid, tms: tms).utf8),
                    target.appendingPathComponent("tiles.json")
                ),
            ]
            do { try FileSet.writeAll(files) } catch { throw CLIError.failure("\(error)") }
        }
        return summary
    }

    /// Refuses a run of more than ``tileLimit`` tiles unless `--yes` was given, saying how many tiles and
    /// about how long they take.
    static func checkSize(_ pyramid: TilePyramid, shard: Shard, threads: Int, confirmed: Bool) throws {
        let all = pyramid.tileCount
        let count = shard.count > 1 ? all / shard.count : all
        guard count > tileLimit, !confirmed else { return }
        let cores = threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount
        let rate = estimatedTilesPerSecondPerCore * Double(max(1, cores))
        let seconds = Double(count) / rate
        let time =
            seconds < 3600
            ? String(format: "%.0f minutes", seconds / 60)
            : seconds < 3600 * 48
                ? String(format: "%.1f hours", seconds / 3600) : String(format: "%.0f days", seconds / 86400)
        let zooms = pyramid.minZoom == pyramid.maxZoom ? "\(pyramid.minZoom)" : "\(pyramid.minZoom)-\(pyramid.maxZoom)"
        throw CLIError.usage(
            "this run makes \(shard.count > 1 ? "about " : "")\(count) tiles (zoom \(zooms)), more than the "
                + "\(tileLimit) allowed without --yes; at about \(Int(rate)) tiles/s on \(cores) cores that takes about "
                + "\(time). Pass --yes to run it anyway, or narrow --zoom or the area (--bbox, --center/--span)")
    }

    static func integer(_ args: Arguments, _ flag: String) throws -> Int? {
        guard let text = args[flag] else { return nil }
        guard let value = Int(text) else { throw CLIError.usage("\(flag) '\(text)' is not a whole number") }
        return value
    }

    static func zoomRange(_ text: String) throws -> (Int, Int) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let values: [Int]
        if parts.count == 1, let z = parts[0] {
            values = [z, z]
        } else if parts.count == 2, let a = parts[0], let b = parts[1] {
            values = [a, b]
        } else {
            throw CLIError.usage(
                "--zoom '\(text)' is invalid: use Z or MIN-MAX within \(MapViewport.zoomRangeText), such as 0-5")
        }
        guard (0...22).contains(values[0]), (0...22).contains(values[1]), values[0] <= values[1] else {
            throw CLIError.usage(TileError.invalidZoomRange(values[0], values[1]).description)
        }
        return (values[0], values[1])
    }

    static func metadata(_ pyramid: TilePyramid, args: Arguments) -> [String: String] {
        let a = pyramid.area
        func f(_ v: Double) -> String { String(format: "%.6f", v) }
        let centerLon =
            a.west <= a.east
            ? (a.west + a.east) / 2 : ((a.west + a.east + 360) / 2).truncatingRemainder(dividingBy: 360)
        return [
            "name": args["--name"] ?? "MapRaster tiles",
            "format": pyramid.format.fileExtension,
            "bounds": [a.west, a.south, a.east, a.north].map(f).joined(separator: ","),
            "center": "\(f(centerLon)),\(f((a.south + a.north) / 2)),\(pyramid.minZoom)",
            "minzoom": "\(pyramid.minZoom)",
            "maxzoom": "\(pyramid.maxZoom)",
            "type": "baselayer",
            "version": "1.0",
            "attribution": "Made with Natural Earth",
            "description": args["--description"] ?? "Rendered by MapRaster \(MapRasterCLI.version)",
        ]
    }
}
