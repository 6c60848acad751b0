import Foundation
import MapData
import MapRaster

/// `mapraster diff`: pixelmatch-compatible comparison of two PNG files.
///
/// Exit codes: 0 when the difference is within the allowed amount, 1 when it is not, 2 on any error
/// (unreadable file, different sizes, bad option).
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
                "diff needs two PNG files, EXPECTED and ACTUAL, got \(args.positional.count): "
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

        let rects = try (args.repeated["--ignore"] ?? []).map { text -> IgnoreMask.PixelRect in
            let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            let parts = fields.compactMap { Int($0) }
            guard fields.count == 4, parts.count == 4, parts[2] > 0, parts[3] > 0 else {
                throw CLIError.usage(
                    "--ignore '\(text)' is invalid: expected X,Y,WIDTH,HEIGHT in whole pixels, width and height above 0"
                )
            }
            guard parts.allSatisfy({ $0 >= -maximumIgnoreCoordinate && $0 <= maximumIgnoreCoordinate }) else {
                throw CLIError.usage(
                    "--ignore '\(text)' is invalid: each value must be within -\(maximumIgnoreCoordinate)..."
                        + "\(maximumIgnoreCoordinate) pixels")
            }
            return IgnoreMask.PixelRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
        }
        let expectedPath = args.positional[0]
        let actualPath = args.positional[1]
        let expected = try load(expectedPath)
        let actual = try load(actualPath)
        let maskImage = try args["--mask"].map(load)
        let mask = rects.isEmpty && maskImage == nil ? nil : IgnoreMask(rects: rects, image: maskImage)

        let result: PixelMatch.Result
        var diffImage: RGBAImage?
        do {
            if args["--output"] != nil {
                let drawn = try PixelMatch.diffImage(expected, actual, options: options, mask: mask)
                result = drawn.result
                diffImage = drawn.image
            } else {
                result = try PixelMatch.compare(expected, actual, options: options, mask: mask)
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
                ("width", .number(Double(expected.width))), ("height", .number(Double(expected.height))),
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

    static func load(_ path: String) throws -> RGBAImage {
        let data: Data
        do { data = try FileReader.read(URL(fileURLWithPath: path), limit: pngFileLimit) } catch {
            throw CLIError.failure("cannot read PNG '\(path)': \(error.problem)")
        }
        // The size is read from the header and checked before anything is decoded (decompression bombs).
        if let (width, height) = RGBAImage.pngSize(data) {
            // Sides up to 2^32 - 1 (a hostile header) overflow a 64-bit product: checked multiplication.
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, pixels <= maximumPixels else {
                throw CLIError.failure(
                    "cannot read PNG '\(path)': \(width)x\(height) is \(overflow ? "too many" : "\(pixels)") pixels, more than the "
                        + "\(maximumPixels) (8192x8192) diff compares (limit \(maximumPixels) pixels)")
            }
        }
        do { return try RGBAImage(pngData: data, source: path) } catch { throw CLIError.failure("\(error)") }
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
