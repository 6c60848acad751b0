import Foundation
import MapRaster

/// `mapraster sprite ICONS_DIR -o PREFIX [--retina] [--sdf] [--recursive]`: a MapLibre sprite from a folder
/// of SVG icons (``SpriteBuilder``), as spritezero-cli and spreet build it.
///
/// One run writes `PREFIX.json` and `PREFIX.png`, and with `--retina` also `PREFIX@2x.json` and
/// `PREFIX@2x.png`: the whole sprite a style's `"sprite": "PREFIX"` (or `--sprite PREFIX`) reads, where
/// spritezero and spreet need one run per pixel ratio.
enum SpriteCommand {
    /// Warnings about skipped files printed one by one; beyond this, a count.
    static let maximumWarnings = 20

    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws -> Int32 {
        guard let args = try MapRasterCLI.parse(arguments, CommandTable.sprite, output: streams) else { return 0 }
        guard args.positional.count == 1 else {
            throw CLIError.usage(
                args.positional.isEmpty
                    ? "sprite needs the folder of SVG icons: mapraster sprite ICONS_DIR -o PREFIX"
                    : "sprite takes one icon folder, got \(args.positional.count): "
                        + args.positional.joined(separator: " "))
        }
        guard let prefix = args.values["--output"], !prefix.isEmpty else {
            throw CLIError.usage("sprite needs -o PREFIX (writes PREFIX.json and PREFIX.png)")
        }
        for suffix in [".json", ".png"] where prefix.hasSuffix(suffix) {
            let stem = String(prefix.dropLast(suffix.count))
            throw CLIError.usage(
                "-o takes a prefix without extension: -o \(stem) writes \(stem).json and \(stem).png")
        }
        let retina = args.flags.contains("--retina")
        if prefix.hasSuffix("@2x") {
            let stem = String(prefix.dropLast(3))
            throw CLIError.usage(
                "-o \(prefix): give the prefix without @2x; mapraster sprite ICONS_DIR -o \(stem) --retina writes "
                    + "\(stem).json, \(stem).png, \(stem)@2x.json and \(stem)@2x.png in one run")
        }
        let options = SpriteBuilder.Options(
            pixelRatios: retina ? [1, 2] : [1], sdf: args.flags.contains("--sdf"),
            recursive: args.flags.contains("--recursive"))
        let folder = URL(fileURLWithPath: args.positional[0])
        let build: SpriteBuild
        do { build = try SpriteBuilder.build(folder: folder, options: options) } catch {
            if case .noIcons(_, let skipped) = error { report(skipped: skipped, streams: streams) }
            throw CLIError.failure(error.description)
        }
        report(skipped: build.skipped, streams: streams)
        let written: [URL]
        do { written = try build.write(prefix: prefix) } catch { throw CLIError.failure("\(error)") }
        var summary: [String] = []
        for (k, sheet) in build.sheets.enumerated() {
            let names = written[(2 * k)..<(2 * k + 2)].map(\.lastPathComponent).joined(separator: " and ")
            summary.append("\(names) (\(sheet.image.width)x\(sheet.image.height) px)")
        }
        let count = build.sheets.first?.entries.count ?? 0
        let skipped = build.skipped.isEmpty ? "" : ", \(build.skipped.count) skipped"
        streams.standardOutput(
            "wrote \(summary.joined(separator: ", ")): \(count) image\(count == 1 ? "" : "s")"
                + "\(options.sdf ? " (SDF)" : "")\(skipped)\n")
        return 0
    }

    /// The skipped files on standard error, the first ``maximumWarnings`` by name, then how many more.
    static func report(skipped: [SkippedIcon], streams: MapRasterCLI.Output) {
        for icon in skipped.prefix(maximumWarnings) { streams.standardError("mapraster: warning: \(icon)\n") }
        if skipped.count > maximumWarnings {
            streams.standardError(
                "mapraster: warning: \(skipped.count - maximumWarnings) more SVG files skipped (not listed)\n")
        }
    }
}
