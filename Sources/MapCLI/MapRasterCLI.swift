import Foundation
import MapRaster

/// The `mapraster` command line, as a library so that tests can call it.
public enum MapRasterCLI {
    /// Output streams of one run.
    public struct Output: Sendable {
        public var standardOutput: @Sendable (String) -> Void
        public var standardError: @Sendable (String) -> Void

        /// Streams writing to the process's stdout and stderr.
        public static let process = Output(
            standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            standardError: { FileHandle.standardError.write(Data($0.utf8)) })

        /// Creates streams from closures.
        public init(
            standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void
        ) {
            self.standardOutput = standardOutput
            self.standardError = standardError
        }
    }

    /// The version of MapRaster.
    public static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name) and returns the exit code:
    /// 0 success, 1 failure, 64 usage error.
    public static func run(_ arguments: [String], output: Output = .process) -> Int32 {
        do {
            return try dispatch(arguments, output: output)
        } catch let error as CLIError {
            output.standardError("mapraster: error: \(error.description)\n")
            if case .usage = error { output.standardError("Run 'mapraster --help' for usage.\n") }
            return error.exitCode
        } catch {
            output.standardError("mapraster: error: \(error)\n")
            return 1
        }
    }

    static func dispatch(_ arguments: [String], output: Output) throws -> Int32 {
        guard let first = arguments.first else {
            try RenderCommand.run([], output: output)
            return 0
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "render": try RenderCommand.run(rest, output: output)
        case "diff": return try DiffCommand.run(rest, output: output)
        case "tiles": try TilesCommand.run(rest, output: output)
        case "mbtiles": try MBTilesCommand.run(rest, output: output)
        case "geocode": return try GeocodeCommand.run(rest, output: output)
        case "serve": return try ServeCommand.run(rest, output: output)
        case "style": return try StyleCommand.run(rest, output: output)
        case "sprite": return try SpriteCommand.run(rest, output: output)
        case "glyphs": return try GlyphsCommand.run(rest, output: output)
        case "version": try versionCommand(rest, output: output)
        case "--version":
            guard rest.isEmpty else { throw CLIError.usage("--version takes no arguments, got '\(rest[0])'") }
            output.standardOutput("mapraster \(version)\n")
        case "help", "--help", "-h": try helpCommand(first == "help" ? rest : [], output: output)
        case "completions": try completionsCommand(rest, output: output)
        case "man": try manCommand(rest, output: output)
        default:
            if first.hasPrefix("-") {
                try RenderCommand.run(arguments, output: output)
            } else {
                let names = CommandTable.topLevelNames
                let guess = Suggestion.closest(to: first, in: names).map { "did you mean '\($0)'? " } ?? ""
                throw CLIError.usage("unknown command '\(first)'; \(guess)commands: \(names.joined(separator: ", "))")
            }
        }
        return 0
    }

    /// Parses `arguments` for a command that takes no positional arguments; prints its help and returns nil
    /// for `--help`.
    static func parse(_ arguments: [String], _ command: CommandSpec, output: Output) throws -> Arguments? {
        let args = try Arguments(arguments, command: command)
        if args.flags.contains("--help") {
            output.standardOutput(command.helpText)
            return nil
        }
        return args
    }

    static func versionCommand(_ arguments: [String], output: Output) throws {
        guard let args = try parse(arguments, CommandTable.version, output: output) else { return }
        guard args.positional.isEmpty else { throw CLIError.usage("unexpected argument '\(args.positional[0])'") }
        var text = "mapraster \(version)\n"
        if args.flags.contains("--verbose") {
            for library in GraphicsLibraryVersions.all { text += "\(library.name) \(library.version)\n" }
        }
        output.standardOutput(text)
    }

    /// `mapraster help [COMMAND [SUBCOMMAND]]`.
    static func helpCommand(_ arguments: [String], output: Output) throws {
        guard let args = try parse(arguments, CommandTable.help, output: output) else { return }
        guard !args.positional.isEmpty else {
            output.standardOutput(helpText)
            return
        }
        guard let command = CommandTable.command(args.positional) else {
            let name = args.positional.joined(separator: " ")
            let names = CommandTable.all.map(\.name)
            let guess = Suggestion.closest(to: name, in: names).map { "did you mean '\($0)'? " } ?? ""
            throw CLIError.usage(
                "no help for '\(name)': unknown command; \(guess)commands: \(names.joined(separator: ", "))")
        }
        output.standardOutput(command.helpText)
    }

    /// `mapraster completions bash|zsh`.
    static func completionsCommand(_ arguments: [String], output: Output) throws {
        guard let args = try parse(arguments, CommandTable.completions, output: output) else { return }
        guard args.positional.count == 1 else {
            throw CLIError.usage("completions needs one shell: mapraster completions bash|zsh")
        }
        switch args.positional[0] {
        case "bash": output.standardOutput(ShellCompletions.bash())
        case "zsh": output.standardOutput(ShellCompletions.zsh())
        default:
            throw CLIError.usage("completions: unknown shell '\(args.positional[0])': use bash or zsh")
        }
    }

    /// `mapraster man`: the manual page in troff.
    static func manCommand(_ arguments: [String], output: Output) throws {
        guard let args = try parse(arguments, CommandTable.man, output: output) else { return }
        guard args.positional.isEmpty else { throw CLIError.usage("unexpected argument '\(args.positional[0])'") }
        output.standardOutput(ManPage.troff())
    }

    /// The top-level help: the commands, then the options of `render`, the default command.
    static var helpText: String {
        var text = """
            mapraster: render maps to PNG, JPEG or WebP with MapKit's model (regions, annotations, overlays).

            USAGE
              mapraster                     render the default world map to ./mapraster.png
              mapraster [render] [options]  render a map (options below)

            COMMANDS

            """
        for command in CommandTable.all {
            text += CommandSpec.row("mapraster " + command.name, command.summary, column: 30)
        }
        text += "\nRun 'mapraster help COMMAND' or 'mapraster COMMAND --help' for a command's options.\n"
        text += "\nRENDER OPTIONS\n"
        for option in CommandTable.render.parsedOptions {
            text += CommandSpec.row(option.synopsis, option.help + (option.repeatable ? " (repeatable)" : ""))
        }
        text += "  --version               print the version\n"
        return text + "\n" + CommandTable.render.footer + "\n\n"
    }
}
