import Foundation
import MapData
import MapGeometry
import MapRaster

/// `mapraster diff`: pixelmatch-compatible comparison of two PNG files, or of two folders of PNGs.
///
/// Exit codes: 0 when the difference is within the allowed amount (every image's, for folders), 1 when it
/// is not (or, for folders, an image is new, missing or unreadable), 2 on any other error (unreadable
/// file, different sizes, bad option).
enum DiffCommand {
    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws -> Int32 {
        do {
            return try compare(arguments, streams: streams)
        } catch let error as CLIError {
            throw CLIError.diff(error.description)
        }
    }

    private static func compare(_ arguments: [String], streams: MapRasterCLI.Output) throws -> Int32 {
        guard let args = try MapRasterCLI.parse(arguments, CommandTable.diff, output: streams) else { return 0 }
        guard args.positional.count == 2 else {
            throw CLIError.usage(
                "diff needs two PNG files or two folders, EXPECTED and ACTUAL, got \(args.positional.count): "
                    + "mapraster diff EXPECTED.png ACTUAL.png [options]")
        }
        var options = PixelMatch.Options()
        if let t = try args.number("--threshold") {
            guard (0...1).contains(t) else { throw CLIError.usage("--threshold \(fmt(t)) is invalid: use 0...1") }
            options.threshold = t
        }
        if let a = try args.number("--alpha") {
            guard (0...1).contains(a) else { throw CLIError.usage("--alpha \(fmt(a)) is invalid: use 0...1") }
            options.alpha = a
        }
        options.includeAA = args.flags.contains("--include-aa")
        options.diffMask = args.flags.contains("--diff-mask")
        if let c = try color(args, "--aa-color") { options.aaColor = c }
        if let c = try color(args, "--diff-color") { options.diffColor = c }
        options.diffColorAlt = try color(args, "--diff-color-alt")

        var maxPixels: Int?
        if let text = args["--max-diff-pixels"] {
            guard let n = Int(text), n >= 0 else {
                throw CLIError.usage("--max-diff-pixels '\(text)' is invalid: use a whole number 0 or greater")
            }
            maxPixels = n
        }
        let maxRatio = try args.number("--max-diff-ratio")
        if let maxRatio, !(0...1).contains(maxRatio) {
            throw CLIError.usage("--max-diff-ratio \(fmt(maxRatio)) is invalid: use a fraction 0...1 (0.001 is 0.1 %)")
        }
        var threads = 0
        if let text = args["--threads"] {
            guard let n = Int(text), (1...1024).contains(n) else {
                throw CLIError.usage("--threads '\(text)' is invalid: use a whole number 1...1024")
            }
            threads = n
        }
        var rects: [IgnoreMask.PixelRect] = []
        var ignoredParts = Set<MapMask.Part>()
        for text in args.repeated["--ignore"] ?? [] {
            if let parts = MapMask.Part.parse(list: text) {
                ignoredParts.formUnion(parts)
                continue
            }
            rects.append(try rect(text))
        }
        let metadataFiles = args.repeated["--mask-metadata"] ?? []
        if !ignoredParts.isEmpty && metadataFiles.isEmpty {
            throw CLIError.usage(
                "--ignore \(ignoredParts.map(\.rawValue).sorted().joined(separator: ",")) needs --mask-metadata "
                    + "FILE.json (the file `mapraster render --metadata` writes)")
        }
        for path in metadataFiles {
            guard !ignoredParts.isEmpty else {
                throw CLIError.usage(
                    "--mask-metadata needs --ignore with what to leave out: attribution, annotations and/or labels")
            }
            let mask: MapMask
            do { mask = try MapMask(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw CLIError.failure("\(error)")
            }
            if ignoredParts.contains(.labels) && !mask.lists(.labels) {
                streams.standardError(
                    "mapraster: warning: \(path) lists no label boxes (no labels drawn, or an older render)\n")
            }
            rects += mask.rects(ignoring: ignoredParts)
        }
        let tolerance = Tolerance(
            threshold: options.threshold, includeAA: options.includeAA, maxDiffPixels: maxPixels,
            maxDiffRatio: maxRatio)
        if isFolder(args.positional[0]) || isFolder(args.positional[1]) {
            return try DiffFolders(
                args: args, options: options, tolerance: tolerance, rects: rects, threads: threads, streams: streams
            ).run()
        }
        for flag in ["--report", "--junit", "--thresholds"] where args[flag] != nil {
            throw CLIError.usage("\(flag) compares folders: give two folders, EXPECTED_DIR and ACTUAL_DIR")
        }
        let expectedPath = args.positional[0]
        let actualPath = args.positional[1]
        let maskImage = try args["--mask"].map(load)
        let mask = rects.isEmpty && maskImage == nil ? nil : IgnoreMask(rects: rects, image: maskImage)
        let (expectedFile, actualFile) = try (read(expectedPath), read(actualPath))
        let result: PixelMatch.Result
        var diffImage: RGBAImage?
        var size = (width: 0, height: 0)
        do {
            if expectedFile == actualFile, args["--output"] == nil, maskImage == nil,
                let header = RGBAImage.pngSize(expectedFile)
            {
                // Equal files hold equal images: a compare of the bytes, nothing decoded (the header is checked).
                _ = try checkedSize(expectedFile, expectedPath)
                size = header
                let ignored = try mask?.pixels(width: header.width, height: header.height).lazy.filter { $0 }.count
                result = PixelMatch.Result(
                    differentPixels: 0, antialiasedPixels: 0, ignoredPixels: ignored ?? 0,
                    totalPixels: header.width * header.height)
            } else {
                let (expected, actual) = try decodeConcurrently(
                    (expectedFile, expectedPath), (actualFile, actualPath), threads: threads)
                size = (expected.width, expected.height)
                if args["--output"] != nil {
                    let drawn = try PixelMatch.diffImage(
                        expected, actual, options: options, mask: mask, threads: threads)
                    result = drawn.result
                    diffImage = drawn.image
                } else {
                    result = try PixelMatch.compare(expected, actual, options: options, mask: mask, threads: threads)
                }
            }
        } catch let error as DiffError {
            throw CLIError.failure("\(expectedPath) and \(actualPath): \(error.description)")
        }
        if let path = args["--output"], let diffImage {
            guard !path.isEmpty else { throw CLIError.usage("--output needs a file name") }
            let target = try OutputPath.resolve(URL(fileURLWithPath: path))
            do {
                try AtomicFile.checkWritable(target)
                try diffImage.writePNG(to: target)
            } catch { throw CLIError.failure("\(error)") }
        }

        var pass = true
        if let maxPixels { pass = pass && result.differentPixels <= maxPixels }
        if let maxRatio { pass = pass && result.differentRatio <= maxRatio }
        if maxPixels == nil && maxRatio == nil { pass = result.differentPixels == 0 }

        if args.flags.contains("--json") {
            let json = JSONValue.object([
                ("expected", .string(expectedPath)), ("actual", .string(actualPath)),
                ("width", .number(Double(size.width))), ("height", .number(Double(size.height))),
                ("totalPixels", .number(Double(result.totalPixels))),
                ("differentPixels", .number(Double(result.differentPixels))),
                ("differentRatio", .number(result.differentRatio)),
                ("antialiasedPixels", .number(Double(result.antialiasedPixels))),
                ("ignoredPixels", .number(Double(result.ignoredPixels))),
                ("threshold", .number(options.threshold)), ("includeAA", .bool(options.includeAA)),
                ("maxDiffPixels", maxPixels.map { .number(Double($0)) } ?? .null),
                ("maxDiffRatio", maxRatio.map(JSONValue.number) ?? .null),
                ("diffImage", args["--output"].map(JSONValue.string) ?? .null),
                ("pass", .bool(pass)),
            ])
            streams.standardOutput(json.serialized())
        } else {
            let percent = String(format: "%.4f", result.differentRatio * 100)
            var text =
                "\(result.differentPixels) of \(result.totalPixels) pixels differ (\(percent) %) at threshold "
                + "\(fmt(options.threshold))"
            if !options.includeAA { text += "; \(result.antialiasedPixels) anti-aliased pixels not counted" }
            if result.ignoredPixels > 0 { text += "; \(result.ignoredPixels) pixels ignored" }
            var allowed: [String] = []
            if let maxPixels { allowed.append("at most \(maxPixels) pixels") }
            if let maxRatio { allowed.append("at most \(fmt(maxRatio * 100)) %") }
            text +=
                "\n" + (pass ? "PASS" : "FAIL") + " (allowed: "
                + (allowed.isEmpty ? "none" : allowed.joined(separator: " and "))
                + ")\n"
            if let path = args["--output"] { text += "wrote \(URL(fileURLWithPath: path).standardizedFileURL.path)\n" }
            streams.standardOutput(text)
        }
        return pass ? 0 : 1
    }

    /// The most pixels an image given to diff may have: 8192x8192. Memory is about 13 bytes per pixel
    /// (two images, a diff image and the ignore flags), under 1 GB at the limit.
    static let maximumPixels = 1 << 26

    /// The largest absolute value of an `--ignore` coordinate or size (2^30 pixels, far beyond any image).
    static let maximumIgnoreCoordinate = 1 << 30

    /// The largest PNG file read: 256 MiB (the decoded size has its own limit, checked before decoding).
    static let pngFileLimit = 256 << 20

    static func load(_ path: String) throws -> RGBAImage { try decode(try read(path), path) }

    /// The bytes of a PNG file given to diff.
    static func read(_ path: String) throws -> Data {
        do { return try FileReader.read(URL(fileURLWithPath: path), limit: pngFileLimit) } catch {
            throw CLIError.failure("cannot read PNG '\(path)': \(error.problem)")
        }
    }

    /// The size from the header, checked before anything is decoded (decompression bombs).
    @discardableResult
    static func checkedSize(_ data: Data, _ path: String) throws -> (width: Int, height: Int)? {
        guard let (width, height) = RGBAImage.pngSize(data) else { return nil }
        // Sides up to 2^32 - 1 (a hostile header) overflow a 64-bit product: checked multiplication.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixels else {
            throw CLIError.failure(
                "cannot read PNG '\(path)': \(width)x\(height) is \(overflow ? "too many" : "\(pixels)") pixels, more than the "
                    + "\(maximumPixels) (8192x8192) diff compares (limit \(maximumPixels) pixels)")
        }
        return (width, height)
    }

    static func decode(_ data: Data, _ path: String) throws -> RGBAImage {
        try checkedSize(data, path)
        do { return try RGBAImage(pngData: data, source: path) } catch { throw CLIError.failure("\(error)") }
    }

    /// Decodes both files at once (one after the other with one thread).
    static func decodeConcurrently(_ a: (Data, String), _ b: (Data, String), threads: Int) throws -> (
        RGBAImage, RGBAImage
    ) {
        if threads == 1 { return (try decode(a.0, a.1), try decode(b.0, b.1)) }
        let results = Locked([Result<RGBAImage, any Error>?](repeating: nil, count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let (data, path) = i == 0 ? a : b
            let image = Result { try decode(data, path) }
            results.withLock { $0[i] = image }
        }
        let both = results.withLock { $0 }
        return (try both[0]!.get(), try both[1]!.get())
    }

    /// `--ignore X,Y,W,H`.
    static func rect(_ text: String) throws -> IgnoreMask.PixelRect {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        let parts = fields.compactMap { Int($0) }
        guard fields.count == 4, parts.count == 4, parts[2] > 0, parts[3] > 0 else {
            throw CLIError.usage(
                "--ignore '\(text)' is invalid: expected X,Y,WIDTH,HEIGHT in whole pixels, width and height above 0, "
                    + "or a list of attribution, annotations, labels (with --mask-metadata)")
        }
        guard parts.allSatisfy({ $0 >= -maximumIgnoreCoordinate && $0 <= maximumIgnoreCoordinate }) else {
            throw CLIError.usage(
                "--ignore '\(text)' is invalid: each value must be within -\(maximumIgnoreCoordinate)..."
                    + "\(maximumIgnoreCoordinate) pixels")
        }
        return IgnoreMask.PixelRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func color(_ args: Arguments, _ flag: String) throws -> PixelMatch.RGB? {
        guard let text = args[flag] else { return nil }
        let normalized = text.count == 6 && text.allSatisfy(\.isHexDigit) ? "#" + text : text
        guard let c = try? Color(parsing: normalized), c.alpha == 1 else {
            throw CLIError.usage("\(flag) '\(text)' is invalid: use an opaque color such as ff0000, #ff0000 or red")
        }
        func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
        return PixelMatch.RGB(byte(c.red), byte(c.green), byte(c.blue))
    }

    static func fmt(_ v: Double) -> String { Int(exactly: v).map(String.init) ?? "\(v)" }
}

/// `mapraster diff EXPECTED_DIR ACTUAL_DIR`: every PNG of two folders, matched by relative path.
struct DiffFolders {
    var args: Arguments
    var options: PixelMatch.Options
    var tolerance: Tolerance
    var rects: [IgnoreMask.PixelRect]
    var threads: Int
    var streams: MapRasterCLI.Output

    func run() throws -> Int32 {
        let expected = URL(fileURLWithPath: args.positional[0])
        let actual = URL(fileURLWithPath: args.positional[1])
        for (url, other) in [(expected, actual), (actual, expected)] where !DiffCommand.isFolder(url.path) {
            throw CLIError.usage(
                "'\(other.path)' is a directory but '\(url.path)' is not: give two folders (EXPECTED_DIR "
                    + "ACTUAL_DIR) or two PNG files")
        }
        if args["--output"] != nil || args["--mask"] != nil {
            throw CLIError.usage("--output and --mask compare two files; for folders use --report and --ignore")
        }
        // Overrides: --thresholds FILE, else EXPECTED_DIR/thresholds.json when present.
        let overridesURL =
            args["--thresholds"].map { URL(fileURLWithPath: $0) }
            ?? expected.appendingPathComponent("thresholds.json")
        var overrides = ToleranceOverrides.none
        if args["--thresholds"] != nil || FileManager.default.fileExists(atPath: overridesURL.path) {
            do { overrides = try ToleranceOverrides(contentsOf: overridesURL) } catch {
                throw CLIError.failure("\(error)")
            }
        }
        let junitURL = try args["--junit"].map { try checkedOutput($0, flag: "--junit") }
        let report: DiffReport?
        do { report = try args["--report"].map { try DiffReport(folder: URL(fileURLWithPath: $0)) } } catch {
            throw CLIError.failure("\(error)")
        }
        let diff = FolderDiff(
            expected: expected, actual: actual, tolerance: tolerance, overrides: overrides,
            mask: rects.isEmpty ? nil : IgnoreMask(rects: rects), threads: threads, drawing: options)
        let run: FolderDiff.Run
        let changed: @Sendable (FolderDiff.Entry, FolderDiff.Images) -> Void = { entry, images in
            report?.add(entry, images)
        }
        do { run = try diff.run(changed: changed) } catch { throw CLIError.failure("\(error)") }
        var pageURL: URL?
        do {
            pageURL = try report?.finish(run, expected: expected.path, actual: actual.path)
            if let junitURL {
                try AtomicFile.write(
                    Data(DiffReport.junit(run, suite: expected.standardizedFileURL.path).utf8), to: junitURL)
            }
        } catch { throw CLIError.failure("\(error)") }
        if args.flags.contains("--json") {
            let json = DiffReport.json(
                run, expected: expected.path, actual: actual.path, report: pageURL?.standardizedFileURL.path)
            streams.standardOutput(json.serialized())
        } else {
            var text = ""
            for entry in DiffReport.worstFirst(run.entries) where !entry.passed {
                text += "\(entry.path): \(DiffReport.summary(entry))\n"
            }
            let counts = FolderDiff.Entry.Status.allCases.map { "\(run.count($0)) \($0.rawValue)" }
            text += "\(run.entries.count) images: " + counts.joined(separator: ", ") + "\n"
            text += (run.passed ? "PASS" : "FAIL") + " (allowed per image: \(tolerance.allowedText)"
            text += overrides.count > 0 ? "; \(overrides.count) overrides in \(overridesURL.path))\n" : ")\n"
            if let pageURL { text += "report: \(pageURL.standardizedFileURL.path)\n" }
            if let junitURL { text += "wrote \(junitURL.standardizedFileURL.path)\n" }
            streams.standardOutput(text)
        }
        return run.passed ? 0 : 1
    }

    private func checkedOutput(_ path: String, flag: String) throws -> URL {
        guard !path.isEmpty else { throw CLIError.usage("\(flag) needs a file name") }
        let url = try OutputPath.resolve(URL(fileURLWithPath: path))
        do { try AtomicFile.checkWritable(url) } catch { throw CLIError.failure("\(error)") }
        return url
    }
}
