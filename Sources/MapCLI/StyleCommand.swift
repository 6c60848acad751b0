import Foundation
import MapRaster

/// `mapraster style check STYLE`: what a render of the style would warn about, refuse or leave out, in the
/// spirit of MapLibre's `gl-style-validate`.
enum StyleCommand {
    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws -> Int32 {
        guard arguments.first == "check" else {
            if let first = arguments.first, first == "--help" || first == "-h" {
                streams.standardOutput(CommandTable.style.helpText)
                return 0
            }
            let guess = arguments.first.flatMap { Suggestion.closest(to: $0, in: ["check"]) }
            throw CLIError.usage(
                "style needs a subcommand: mapraster style check STYLE.json"
                    + (guess != nil ? " (did you mean 'check'?)" : ""))
        }
        guard let args = try MapRasterCLI.parse(Array(arguments.dropFirst()), CommandTable.styleCheck, output: streams)
        else { return 0 }
        guard args.positional.count == 1 else {
            throw CLIError.usage("style check needs one style file: mapraster style check STYLE.json")
        }
        let path = args.positional[0]
        var options = try RenderCommand.styleOptions(args)
        let strict = options.strict
        options.strict = false  // every warning is listed; --strict only decides the exit code
        options.allowsNothingToDraw = true
        var report = ""
        var errors = 0
        var warnings = 0
        do {
            let style = try RenderCommand.loadStyle(path, options: options)
            warnings = style.warnings.count
            for line in style.warnings.lines(limit: StyleWarnings.maximumKept) { report += "warning: \(line)\n" }
            for line in fontFallbacks(style) {
                report += "warning: \(line)\n"
                warnings += 1
            }
            if let message = style.nothingToDraw {
                report += "error: sources: \(message)\n"
                errors += 1
            } else {
                // The files the style reads (sources, fonts) exist and open.
                do { _ = try StyledBaseMap(style: style) } catch {
                    report += "error: \(error)\n"
                    errors += 1
                }
            }
        } catch let error as CLIError {
            report += "error: \(error.description)\n"
            errors += 1
        }
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        report += "\(path): \(plural(errors, "error")), \(plural(warnings, "warning"))"
        report += errors == 0 && warnings == 0 ? " (renders as written)\n" : "\n"
        streams.standardOutput(report)
        return errors > 0 || (strict && warnings > 0) ? 1 : 0
    }

    /// The `text-font` stacks written as constants that name no installed face, with the face drawn instead.
    static func fontFallbacks(_ style: Style) -> [String] {
        var result: [String] = []
        var seen = Set<[String]>()
        for layer in style.layers where layer.type == .symbol {
            guard case .literal(.array(let items))? = layer.properties["text-font"]?.expression else { continue }
            let stack = items.compactMap(\.string)
            guard seen.insert(stack).inserted, let fallback = FontCatalog.default.fallback(for: stack) else {
                continue
            }
            result.append("layer \"\(layer.id)\": \(fallback.description)")
        }
        return result
    }
}
