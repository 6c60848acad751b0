import Foundation
import MapRaster

/// `mapraster render`: one static map.
enum RenderCommand {
    static let valued: Set<String> = [
        "--center", "--span", "--meters", "--zoom", "--bbox", "--size", "--scale", "--scene", "--output", "--metadata",
        "--map-type",
    ]
    static let boolean: Set<String> = ["--help", "--no-attribution"]

    static func run(_ arguments: [String], output: MapRasterCLI.Output) throws {
        let args = try Arguments(
            arguments, valued: valued, boolean: boolean, aliases: ["-o": "--output", "-h": "--help"])
        if args.flags.contains("--help") {
            output.standardOutput(MapRasterCLI.helpText)
            return
        }
        guard args.positional.isEmpty else {
            throw CLIError.usage("unexpected argument '\(args.positional[0])'; options start with --")
        }

        // Scene file first; command-line options override it.
        var scene = Scene()
        if let path = args["--scene"] {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw CLIError.failure("cannot read scene file '\(path)': \(reason(error))")
            }
            do { scene = try Scene.decode(data, source: path) } catch {
                throw CLIError.failure("\(error)")
            }
        }
        var defaults = MapSnapshotter.Options(size: Size(width: 512, height: 512), scale: 1)
        if let size = args["--size"] {
            defaults.size = try parseSize(size)
        } else if let size = scene.size {
            defaults.size = size
        }
        scene.size = nil
        if let scale = try args.number("--scale") {
            guard [1.0, 2, 3].contains(scale) else {
                throw CLIError.usage("--scale '\(args["--scale"]!)' is invalid: use 1, 2 or 3")
            }
            defaults.scale = scale
        } else if let scale = scene.scale {
            defaults.scale = scale
        }
        scene.scale = nil
        if let type = args["--map-type"] {
            guard let mapType = MapType(rawValue: type) else {
                throw CLIError.usage("--map-type '\(type)' is invalid: use standard, satellite or hybrid")
            }
            scene.mapType = mapType
        }
        if args.flags.contains("--no-attribution") { scene.showsAttribution = false }
        if let area = try parseArea(args) { scene.area = area }

        let options: MapSnapshotter.Options
        let snapshotter: MapSnapshotter
        do {
            try PixelSizeCheck.check(defaults)
            options = try scene.options(defaults: defaults)
            snapshotter = try MapSnapshotter(options: options)
        } catch let error as GeometryError {
            throw args["--scene"] != nil && !hasAreaFlags(args)
                ? CLIError.failure("\(args["--scene"]!): \(error)") : CLIError.usage(error.description)
        } catch let error as RenderError {
            throw CLIError.usage(error.description)
        }
        scene.populate(snapshotter)

        let outputURL = URL(fileURLWithPath: args["--output"] ?? "mapraster.png")
        let metadataURL = args["--metadata"].map { URL(fileURLWithPath: $0) }
        for url in [outputURL] + (metadataURL.map { [$0] } ?? []) { try checkWritable(url) }

        let snapshot: Snapshot
        let png: Data
        do {
            snapshot = try snapshotter.snapshot()
            png = try snapshot.image.pngData()
        } catch {
            throw CLIError.failure("rendering failed: \(error)")
        }
        var files: [(Data, URL)] = [(png, outputURL)]
        if let metadataURL { files.append((Data(snapshot.metadata().serialized().utf8), metadataURL)) }
        do { try FileSet.writeAll(files) } catch { throw CLIError.failure("\(error)") }

        let v = snapshot.viewport
        var line =
            "wrote \(outputURL.standardizedFileURL.path) (\(v.pixelSize.width)x\(v.pixelSize.height) px, zoom "
            + String(format: "%.2f", v.zoomLevel) + ")\n"
        if let metadataURL { line += "wrote \(metadataURL.standardizedFileURL.path)\n" }
        output.standardOutput(line)
    }

    static func hasAreaFlags(_ args: Arguments) -> Bool {
        ["--center", "--span", "--meters", "--zoom", "--bbox"].contains { args[$0] != nil }
    }

    static func parseSize(_ text: String) throws -> Size {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite, w > 0,
            h > 0,
            w == w.rounded(), h == h.rounded()
        else {
            throw CLIError.usage("--size '\(text)' is invalid: expected WIDTHxHEIGHT in whole points, such as 800x600")
        }
        return Size(width: w, height: h)
    }

    static func parseArea(_ args: Arguments) throws -> MapArea? {
        do {
            if let bbox = try args.numbers("--bbox", count: 4, form: "WEST,SOUTH,EAST,NORTH") {
                for other in ["--center", "--span", "--meters", "--zoom"] where args[other] != nil {
                    throw CLIError.usage("--bbox cannot be combined with \(other)")
                }
                return .boundingBox(
                    try GeoBoundingBox(validatingWest: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3]))
            }
            let sizing = ["--span", "--meters", "--zoom"].filter { args[$0] != nil }
            guard let center = try args.numbers("--center", count: 2, form: "LAT,LON") else {
                if let first = sizing.first { throw CLIError.usage("\(first) needs --center LAT,LON") }
                return nil
            }
            let coordinate = try LocationCoordinate2D(validatingLatitude: center[0], longitude: center[1])
            guard sizing.count == 1 else {
                throw CLIError.usage(
                    "--center needs exactly one of --span, --meters or --zoom"
                        + (sizing.isEmpty ? "" : ", got \(sizing.joined(separator: " and "))"))
            }
            if let span = try args.numbers("--span", count: 2, form: "DLAT,DLON") {
                return .region(
                    CoordinateRegion(
                        center: coordinate,
                        span: try CoordinateSpan(validatingLatitudeDelta: span[0], longitudeDelta: span[1])))
            }
            if let meters = try args.number("--meters") {
                guard meters > 0 else { throw GeometryError.invalidDistance(meters: meters) }
                return .region(
                    CoordinateRegion(center: coordinate, latitudinalMeters: meters, longitudinalMeters: meters))
            }
            let zoom = try args.number("--zoom") ?? 0
            guard zoom >= 0, zoom <= 22 else { throw GeometryError.invalidZoom(zoom) }
            return .centerZoom(coordinate, zoomLevel: zoom)
        } catch let error as GeometryError {
            throw CLIError.usage(error.description)
        }
    }

    /// Fails early, before rendering, when an output cannot be written.
    static func checkWritable(_ url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError.failure("cannot write '\(url.path)': folder '\(directory)' does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw CLIError.failure("cannot write '\(url.path)': folder '\(directory)' is not writable")
        }
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CLIError.failure("cannot write '\(url.path)': it is a folder")
        }
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return ns.localizedDescription
    }
}

/// Validates the pixel size before a scene can change the area, so that a too-large image is a usage
/// error naming the size.
enum PixelSizeCheck {
    static func check(_ options: MapSnapshotter.Options) throws {
        _ = try PixelSize(points: options.size, scale: options.scale)
    }
}

/// Writes several files so that either all of them appear or none does.
enum FileSet {
    static func writeAll(_ files: [(Data, URL)]) throws {
        var written: [URL] = []
        do {
            for (data, url) in files {
                try AtomicFile.write(data, to: url)
                written.append(url)
            }
        } catch {
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }
}
