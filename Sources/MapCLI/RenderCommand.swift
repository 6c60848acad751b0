import Foundation
import MapData
import MapRaster

/// `mapraster render`: one static map.
enum RenderCommand {
    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws {
        guard let args = try MapRasterCLI.parse(arguments, CommandTable.render, output: streams) else { return }
        guard args.positional.isEmpty else {
            throw CLIError.usage("unexpected argument '\(args.positional[0])'; options start with --")
        }
        let encoding = try OutputEncoding(args, outputPath: args["--output"] ?? "mapraster.png")

        // Scene file first; command-line options override it.
        var scene = Scene()
        if let path = args["--scene"] {
            let data: Data
            if path == "-" {
                data = try readStandardInput(limit: sceneFileLimit)
            } else {
                do { data = try FileReader.read(URL(fileURLWithPath: path), limit: sceneFileLimit) } catch {
                    throw CLIError.failure("cannot read scene file '\(path)': \(error.problem)")
                }
            }
            do { scene = try Scene.decode(data, source: path, resolvePlace: GeocodeCommand.placeResolver) } catch {
                throw CLIError.failure("\(error)")
            }
        }
        // Size and scale: the command line's are checked as usage errors, the scene's were checked when
        // it was decoded; a mix of both is checked again below.
        let cliSize = try args["--size"].map(parseSize)
        var cliScale: Double?
        if let scale = try args.number("--scale") {
            guard MapViewport.isValidScale(scale) else {
                throw CLIError.usage("--scale '\(args["--scale"]!)' is invalid: use \(MapViewport.validScalesText)")
            }
            cliScale = scale
        }
        var defaults = MapSnapshotter.Options(size: Size(width: 512, height: 512), scale: 1)
        defaults.size = cliSize ?? scene.size ?? defaults.size
        defaults.scale = cliScale ?? scene.scale ?? defaults.scale
        scene.size = nil
        scene.scale = nil
        do { _ = try PixelSize(points: defaults.size, scale: defaults.scale) } catch let error as GeometryError {
            throw CLIError.usage("--size/--scale: \(error.description)")
        }
        if let type = args["--map-type"] {
            guard let mapType = MapType(rawValue: type) else {
                throw CLIError.usage("--map-type '\(type)' is invalid: use standard, satellite or hybrid")
            }
            scene.mapType = mapType
        }
        if args.flags.contains("--no-attribution") { scene.showsAttribution = false }
        try applyMapContent(args, to: &scene)
        let cliArea = try parseArea(args)
        if let cliArea {
            scene.area = cliArea
            scene.fitAnnotations = nil  // an area on the command line wins over the scene's fitting
        }
        try addStaticMapParameters(args, to: &scene)
        let padding = try contentPadding(args, scene: &scene)

        let style = try loadStyle(
            args, mapType: scene.mapType ?? .standard, appearance: scene.userInterfaceStyle, output: streams)
        try applyCamera(args, style: style, to: &scene)
        let snapshotter: MapSnapshotter
        do {
            var options = try scene.options(defaults: defaults)
            options.style = style
            options.fonts = try FontsOption.catalog(args, output: streams)
            options.glyphs = try GlyphsOption.provider(args)
            snapshotter = try MapSnapshotter(options: options)
            // The style's missing files and fonts are reported before anything else; no base map is built
            // for --no-base-map.
            if args.flags.contains("--no-base-map") { snapshotter.baseMap = nil } else { try snapshotter.loadBaseMap() }
        } catch let error as GeometryError {
            throw blame(error.description, args: args, areaFromCommandLine: cliArea != nil)
        } catch let error as RenderError {
            // A style's missing file or font is not a usage mistake.
            if case .missingData = error { throw CLIError.failure(error.description) }
            throw blame(error.description, args: args, areaFromCommandLine: cliArea != nil)
        }
        scene.populate(snapshotter)
        try position(scene, snapshotter, padding: padding, args: args)

        let output = try outputTarget(args["--output"] ?? "mapraster.png", flag: "--output")
        let metadata = try args["--metadata"].map { try outputTarget($0, flag: "--metadata") }
        if let metadata, let a = output.url?.standardizedFileURL.path, a == metadata.url?.standardizedFileURL.path {
            throw CLIError.usage("--output and --metadata name the same file '\(a)'; give them different names")
        }
        if case .standardOutput = output, case .standardOutput? = metadata {
            throw CLIError.usage("--output and --metadata cannot both be '-' (standard output)")
        }
        for case let url? in [output.url, metadata?.url] { try checkWritable(url) }

        let snapshot: Snapshot
        let png: Data
        do {
            snapshot = try snapshotter.snapshot()
            png = try snapshot.image.encoded(
                as: encoding.format, quality: encoding.quality, compressionLevel: encoding.compressionLevel)
        } catch {
            throw CLIError.failure("rendering failed: \(error)")
        }
        var files: [(Data, URL)] = []
        if let url = output.url { files.append((png, url)) }
        let metadataData = Data(snapshot.metadata().serialized().utf8)
        if let url = metadata?.url { files.append((metadataData, url)) }
        do { try FileSet.writeAll(files) } catch { throw CLIError.failure("\(error)") }
        if case .standardOutput = output { FileHandle.standardOutput.write(png) }
        if case .standardOutput? = metadata { FileHandle.standardOutput.write(metadataData) }

        let v = snapshot.viewport
        let described =
            "(\(v.pixelSize.width)x\(v.pixelSize.height) px, zoom " + String(format: "%.2f", v.zoomLevel) + ")"
        var line = ""
        if let url = output.url {
            line += "wrote \(url.standardizedFileURL.path) \(described)\n"
        } else {
            line += "wrote the \(encoding.format.displayName) to standard output \(described)\n"
        }
        if let url = metadata?.url { line += "wrote \(url.standardizedFileURL.path)\n" }
        // With '-o -' standard output carries the PNG, so the report goes to standard error.
        if output == .standardOutput {
            streams.standardError(line)
        } else {
            streams.standardOutput(line)
        }
    }

    /// `--style FILE` read with `--strict`, every `--source NAME=PATH` and `--sprite [ID=]PATH` (paths
    /// relative to the working directory), its warnings written to standard error (at most
    /// ``warningLimit`` lines); sources given without a style replace those of the map type's shipped style.
    /// A shipped style named by `--style` is taken in `appearance` when given (`--style streets` with the
    /// dark appearance is `streets-dark`).
    static func loadStyle(
        _ args: Arguments, mapType: MapType, appearance: UserInterfaceStyle? = nil,
        output streams: MapRasterCLI.Output
    ) throws -> Style? {
        var options = try styleOptions(args)
        if let path = args["--style"] {
            options.allowsNothingToDraw = true  // the warnings first, then the error
            let style = try loadStyle(path, options: options, appearance: appearance)
            for line in style.warnings.lines(limit: warningLimit) {
                streams.standardError("mapraster: warning: \(path): \(line)\n")
            }
            if let message = style.nothingToDraw { throw CLIError.failure("\(path): sources: \(message)") }
            return style
        }
        guard !options.sprites.isEmpty || !options.sources.isEmpty else { return nil }
        guard options.sprites.isEmpty else { throw CLIError.usage("--sprite needs --style FILE") }
        var result: Style
        do { result = try ShippedStyle(mapType).variant(for: appearance ?? .light).style() } catch {
            throw CLIError.failure("\(error)")
        }
        for name in options.sources.keys.sorted() {
            do {
                result = try result.replacingSource(name, with: options.sources[name] ?? "", relativeTo: options.base)
            } catch let error as StyleError {
                throw CLIError.usage("--source '\(name)=\(options.sources[name] ?? "")': \(error.description)")
            }
        }
        return result
    }

    /// At most this many warnings about a style are written, then one line counting the rest.
    static let warningLimit = 20

    /// `--strict`, `--source NAME=PATH` and `--sprite [ID=]PATH` as style load options.
    static func styleOptions(_ args: Arguments) throws -> StyleLoadOptions {
        var options = StyleLoadOptions(strict: args.flags.contains("--strict"))
        for item in args.repeated["--source"] ?? [] {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw CLIError.usage(
                    "--source '\(item)' is invalid: expected NAME=PATH, a source id of the style and a file")
            }
            options.sources[String(item[..<eq])] = String(item[item.index(after: eq)...])
        }
        for item in args.repeated["--sprite"] ?? [] {
            // ID=PATH names a sprite of the array form; a plain PATH is the default (one-string) sprite.
            if let eq = item.firstIndex(of: "="), eq != item.startIndex, !item[..<eq].contains("/") {
                options.sprites[String(item[..<eq])] = String(item[item.index(after: eq)...])
            } else {
                options.sprites["default"] = item
            }
        }
        return options
    }

    /// Adds `--marker`, `--path` and `--visible` (Google's or tileserver-gl's grammar, detected per value).
    static func addStaticMapParameters(_ args: Arguments, to scene: inout Scene) throws {
        let parameters: StaticMapParameters
        do {
            parameters = try StaticMapParameters(
                markers: args.repeated["--marker"] ?? [], paths: args.repeated["--path"] ?? [],
                visible: args.repeated["--visible"] ?? [])
        } catch let error as StaticMapParameterError {
            let flag = ["markers": "--marker", "marker": "--marker", "path": "--path"][error.parameter] ?? "--visible"
            throw CLIError.usage("\(flag) \(error.description)")
        }
        // Marker icons (tileserver-gl's ICON part) are PNG files on this machine.
        do { try parameters.add(to: &scene, loadIcon: AnnotationView.loadImage(path:)) } catch {
            throw CLIError.failure("--marker \(error)")
        }
    }

    /// `--heading`/`--bearing` and `--pitch` over the scene's `camera`, then the style's root `bearing` and
    /// `pitch` for what neither gives. Leaves the scene without a camera when nothing turns or tilts the map.
    static func applyCamera(_ args: Arguments, style: Style?, to scene: inout Scene) throws {
        var camera = scene.camera ?? SceneCamera()
        if let heading = try args.number("--heading") {
            guard heading.isFinite else {
                throw CLIError.usage(
                    "--heading '\(args["--heading"] ?? "")': "
                        + GeometryError.invalidCamera(heading: heading, pitch: 0, distance: 1).description)
            }
            camera.heading = heading
        }
        if let pitch = try args.number("--pitch") {
            guard MapCamera.pitchRange.contains(pitch) else {
                throw CLIError.usage(
                    "--pitch '\(args["--pitch"] ?? "")': "
                        + GeometryError.invalidCamera(heading: 0, pitch: pitch, distance: 1).description)
            }
            camera.pitch = pitch
        }
        camera = camera.filled(from: (style?.bearing, style?.pitch))
        if let pitch = camera.pitch, !MapCamera.pitchRange.contains(pitch) {
            throw CLIError.failure(
                "the style's root pitch \(pitch) is outside \(MapCamera.pitchRangeText): give --pitch")
        }
        if camera.heading == 0, camera.pitch == 0, camera.altitude == nil {
            scene.camera = nil
        } else {
            scene.camera = camera
        }
    }

    /// `--padding PX`: the free points at the edges when the map fits its content (no area given); it also
    /// replaces the padding of a scene's `fitAnnotations`.
    static func contentPadding(_ args: Arguments, scene: inout Scene) throws -> EdgeInsets {
        guard let value = try args.number("--padding") else { return Scene.defaultContentPadding }
        guard value >= 0, value <= 10_000 else {
            throw CLIError.usage("--padding '\(args["--padding"] ?? "")' is invalid: use points in 0...10000")
        }
        guard scene.area == nil else {
            throw CLIError.usage(
                "--padding applies when the map fits its content; leave out --center, --bbox and the scene's area")
        }
        let padding = EdgeInsets(top: value, left: value, bottom: value, right: value)
        if scene.fitAnnotations != nil { scene.fitAnnotations = padding }
        return padding
    }

    /// Implicit positioning (no area: fit everything drawn, with padding), then the `--visible` check.
    static func position(_ scene: Scene, _ snapshotter: MapSnapshotter, padding: EdgeInsets, args: Arguments) throws {
        do {
            if scene.positionsFromContent { try scene.showContent(in: snapshotter, edgePadding: padding) }
        } catch {
            throw CLIError.failure("cannot fit the map to its content: \(error)")
        }
        do { try scene.checkVisibleCoordinates(in: snapshotter) } catch let error as SceneVisibilityError {
            throw CLIError.usage("--visible: \(error.description)")
        }
    }

    /// Reads a scene from standard input (`--scene -`), at most `limit` bytes.
    static func readStandardInput(limit: Int) throws -> Data {
        var data = Data()
        while true {
            let chunk: Data?
            do { chunk = try FileHandle.standardInput.read(upToCount: 1 << 20) } catch {
                throw CLIError.failure("cannot read the scene from standard input: \(error)")
            }
            guard let chunk, !chunk.isEmpty else { return data }
            guard data.count <= limit - chunk.count else {
                throw CLIError.failure("the scene on standard input is larger than \(limit >> 20) MiB")
            }
            data.append(chunk)
        }
    }

    /// The image format and quality of an output: `--format`, else the output's extension, else PNG;
    /// `--quality` 1...100 for JPEG and WebP; `--compression` 0...9, the zlib level of PNG (6 by default).
    struct OutputEncoding {
        var format: ImageFormat
        var quality: Int
        var compressionLevel: Int

        /// Reads `--format` and `--quality`; `outputPath` is the output file (its extension is checked
        /// against `--format`), or nil for outputs without one (a tile folder, an MBTiles file, '-').
        ///
        /// - Throws: ``CLIError/usage(_:)`` for an unknown format, a quality outside 1...100 or a compression
        ///   level outside 0...9 or not a whole number, or an extension that names another format than `--format`.
        init(_ args: Arguments, outputPath: String?) throws {
            let fromExtension = outputPath.flatMap { $0 == "-" ? nil : ImageFormat(pathExtension: $0) }
            if let name = args["--format"] {
                guard let format = ImageFormat(name: name) else {
                    throw CLIError.usage("--format '\(name)' is invalid: use png, png8, jpg or webp")
                }
                if let fromExtension, fromExtension.fileExtension != format.fileExtension, let outputPath {
                    throw CLIError.usage(
                        "--format \(name) contradicts the output '\(outputPath)', whose extension means "
                            + "\(fromExtension.rawValue); name the file .\(format.fileExtension) or leave out --format")
                }
                self.format = format
            } else {
                self.format = fromExtension ?? .png
            }
            if let text = args["--quality"] {
                guard let value = Int(text), ImageFormat.qualityRange.contains(value) else {
                    throw CLIError.usage("--quality '\(text)' is invalid: use a whole number 1...100")
                }
                quality = value
            } else {
                quality = ImageFormat.defaultQuality
            }
            if let text = args["--compression"] {
                guard let value = Int(text), (0...9).contains(value) else {
                    throw CLIError.usage("--compression '\(text)' is invalid: use a whole number 0...9 (zlib's levels)")
                }
                compressionLevel = value
            } else {
                compressionLevel = 6
            }
        }
    }

    /// Loads `--style FILE`, or a shipped style by name (`--style streets`, in `appearance` when given) when no
    /// such file exists.
    static func loadStyle(_ path: String, options: StyleLoadOptions, appearance: UserInterfaceStyle? = nil) throws
        -> Style
    {
        guard !path.isEmpty else { throw CLIError.usage("--style needs a style file name, got an empty string") }
        if let named = ShippedStyle(rawValue: path), !FileManager.default.fileExists(atPath: path) {
            let shipped = appearance.map { named.variant(for: $0) } ?? named
            do {
                // A missing file: style() throws naming every place looked at.
                guard let url = shipped.url else { return try shipped.style() }
                return try Style.load(contentsOf: url, options: options)
            } catch { throw CLIError.failure("\(error)") }
        }
        do { return try Style.load(contentsOf: URL(fileURLWithPath: path), options: options) } catch {
            // A bad --source or --sprite (no such source, a file that does not suit it) is a usage mistake.
            if case StyleError.invalid(let source, _, _) = error,
                source.hasPrefix("--source") || source.hasPrefix("--sprite")
            {
                throw CLIError.usage("\(error)")
            }
            throw CLIError.failure("\(error)")
        }
    }

    /// Where an output goes: a file, or standard output for '-'.
    enum OutputTarget: Equatable {
        case file(URL)
        case standardOutput

        var url: URL? {
            if case .file(let url) = self { return url }
            return nil
        }
    }

    static func outputTarget(_ path: String, flag: String) throws -> OutputTarget {
        // `/dev/stdout` is standard output whatever it is (a terminal, a pipe, a file the shell opened).
        if path == "-" || path == "/dev/stdout" { return .standardOutput }
        guard !path.isEmpty else { throw CLIError.usage("\(flag) needs a file name, got an empty string") }
        guard !path.hasSuffix("/") else {
            throw CLIError.failure(
                "cannot write '\(path)': the name ends in '/', so it names a folder; give a file name")
        }
        // A link is written through to its target (also a dangling one), never replaced by the new file.
        return .file(try OutputPath.resolve(URL(fileURLWithPath: path)))
    }

    /// An error found when the scene and the command line are combined: a usage error when the
    /// command line gave the area, otherwise a failure naming the scene file.
    static func blame(_ message: String, args: Arguments, areaFromCommandLine: Bool) -> CLIError {
        if let scene = args["--scene"], !areaFromCommandLine { return .failure("\(scene): \(message)") }
        // Name the value the user gave, not only the span or zoom derived from it.
        if let flag = ["--meters", "--span", "--zoom", "--bbox"].first(where: { args[$0] != nil }),
            let value = args[flag]
        {
            return .usage("\(flag) '\(value)': \(message)")
        }
        return .usage(message)
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
        var flag = "--center"
        do {
            if let bbox = try args.numbers("--bbox", count: 4, form: "WEST,SOUTH,EAST,NORTH") {
                flag = "--bbox"
                for other in ["--center", "--span", "--meters", "--zoom"] where args[other] != nil {
                    throw CLIError.usage("--bbox cannot be combined with \(other)")
                }
                return .boundingBox(
                    try GeoBoundingBox(validatingWest: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3]))
            }
            let sizing = ["--span", "--meters", "--zoom"].filter { args[$0] != nil }
            guard let center = try GeocodeCommand.center(args) else {
                if let first = sizing.first { throw CLIError.usage("\(first) needs --center LAT,LON") }
                return nil
            }
            let coordinate = try LocationCoordinate2D(validatingLatitude: center[0], longitude: center[1])
            guard sizing.count == 1 else {
                throw CLIError.usage(
                    "--center needs exactly one of --span, --meters or --zoom"
                        + (sizing.isEmpty ? "" : ", got \(sizing.joined(separator: " and "))"))
            }
            flag = sizing[0]
            if let span = try args.numbers("--span", count: 2, form: "DLAT,DLON") {
                try checkMinimumSpan(span, text: args["--span"] ?? "")
                return .region(
                    CoordinateRegion(
                        center: coordinate,
                        span: try CoordinateSpan(validatingLatitudeDelta: span[0], longitudeDelta: span[1])))
            }
            if let meters = try args.number("--meters") {
                guard meters > 0 else { throw GeometryError.invalidDistance(meters: meters) }
                guard meters >= minimumMeters else {
                    throw CLIError.usage(
                        "--meters '\(args["--meters"] ?? "")' is too small: use at least 0.000001 m (zoom "
                            + "\(Int(MapViewport.maximumZoomLevel)), the "
                            + "most detailed, shows about 20 m across 512 points)")
                }
                return .region(
                    CoordinateRegion(center: coordinate, latitudinalMeters: meters, longitudinalMeters: meters))
            }
            let zoom = try args.number("--zoom") ?? 0
            guard MapViewport.isValidZoomLevel(zoom) else { throw GeometryError.invalidZoom(zoom) }
            return .centerZoom(coordinate, zoomLevel: zoom)
        } catch let error as GeometryError {
            throw CLIError.usage("\(flag): \(error.description)")
        }
    }

    /// The smallest `--span` delta accepted, in degrees (about 0.1 m): smaller spans (down to 5e-324) are
    /// refused instead of being rounded to nothing.
    static let minimumSpanDegrees = CoordinateSpan.minimumDrawableDelta
    /// The smallest `--meters` accepted (1 micrometer): smaller distances underflow to an empty span.
    /// Distances that need more detail than ``MapViewport/maximumZoomLevel`` are refused later, naming the zoom
    /// they need.
    static let minimumMeters = 0.000001

    /// Refuses a `--span` whose deltas are positive but below ``minimumSpanDegrees``.
    static func checkMinimumSpan(_ span: [Double], text: String) throws {
        guard span.allSatisfy({ $0 <= 0 || $0 >= minimumSpanDegrees }) else {
            throw CLIError.usage(
                "--span '\(text)' is too small: each delta must be at least 0.000001 degrees (about 0.1 m)")
        }
    }

    /// Fails early, before rendering, when an output cannot be written (a folder, a missing or read-only
    /// folder, a block device or socket); a character device such as `/dev/null` or a FIFO is accepted.
    static func checkWritable(_ url: URL) throws {
        do { try AtomicFile.checkWritable(url) } catch { throw CLIError.failure(error.description) }
    }

    /// The largest scene file read: 256 MiB (scenes carry GeoJSON overlays).
    static let sceneFileLimit = 256 << 20
}

/// Writes several files so that either all of them appear or none does. A device or FIFO written before
/// a later failure is left alone: what went into it cannot be taken back, and removing it would remove the
/// device.
enum FileSet {
    static func writeAll(_ files: [(Data, URL)]) throws {
        var replaced: [URL] = []
        do {
            for (data, url) in files where try AtomicFile.write(data, to: url) == .replaced {
                replaced.append(url)
            }
        } catch {
            for url in replaced { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }
}
