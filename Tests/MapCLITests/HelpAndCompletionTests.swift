import Foundation
import MapTestSupport
import Testing

@testable import MapCLI

/// `help COMMAND`, `--help`/`-h` on every command, `--version`, "did you mean", the completion scripts and the
/// man page. The parser's own list of known options (from its unknown-option message) is the truth the
/// help, the completions and the man page are checked against.
@Suite("mapraster help, completions and man page")
struct HelpAndCompletionTests {
    static let commands: [[String]] = [
        ["render"], ["tiles"], ["diff"], ["mbtiles"], ["mbtiles", "merge"], ["geocode"], ["style"], ["style", "check"],
        ["sprite"],
        ["version"], ["help"], ["completions"], ["man"],
    ]

    @Test("help COMMAND, COMMAND --help and COMMAND -h print the same help of that command", arguments: commands)
    func helpOfCommand(_ command: [String]) throws {
        try withTemporaryDirectory { dir in
            let results = try [["help"] + command, command + ["--help"], command + ["-h"]].map {
                try CLI.run($0, in: dir.url)
            }
            for result in results {
                #expect(result.exitCode == 0 && result.standardError.isEmpty, "\(result)")
                #expect(result.standardOutput.hasPrefix("mapraster \(command.joined(separator: " ")): "), "\(result)")
                #expect(result.standardOutput.contains("USAGE"), "\(result)")
            }
            #expect(Set(results.map(\.standardOutput)).count == 1, "the three spellings differ")
            #expect(try dir.listing().isEmpty)
        }
    }

    /// The long options the parser of `command` accepts, from its unknown-option message.
    static func parserOptions(_ command: [String], in dir: URL) throws -> Set<String> {
        let extra = command == ["mbtiles", "merge"] ? ["o.mbtiles", "i.mbtiles"] : []
        let result = try CLI.run(command + extra + ["--zzzz"], in: dir)
        let marker = "known options: "
        let line = result.standardError.split(separator: "\n").first { $0.contains(marker) }
        let list = try #require(line?.components(separatedBy: marker).last, "\(result)")
        return Set(list.split(separator: " ").map(String.init))
    }

    @Test(
        "Every option the parser accepts is in the help, the bash completion, the zsh completion and the man page",
        arguments: commands.filter { $0 != ["mbtiles"] && $0 != ["style"] })
    func generatedFromOneTable(_ command: [String]) throws {
        try withTemporaryDirectory { dir in
            let known = try Self.parserOptions(command, in: dir.url)
            #expect(known.contains("--help"))
            let help = try CLI.run(["help"] + command, in: dir.url).standardOutput
            let bash = try CLI.run(["completions", "bash"], in: dir.url).standardOutput
            let zsh = try CLI.run(["completions", "zsh"], in: dir.url).standardOutput
            let man = try CLI.run(["man"], in: dir.url).standardOutput
            let section = try #require(
                man.components(separatedBy: ".SS \"mapraster \(command.joined(separator: " "))\"").dropFirst().first?
                    .components(separatedBy: ".SS ").first)
            let zshBlock = try #require(
                zsh.components(separatedBy: "        \(command.joined(separator: "_")))\n").dropFirst().first?
                    .components(separatedBy: ";;").first)
            for option in known {
                // A name too long for the column stands on a line of its own.
                #expect(
                    help.contains("  \(option) ") || help.contains(", \(option) ") || help.contains("  \(option)\n"),
                    "help lacks \(option)")
                #expect(
                    bash.contains(" \(option) ") || bash.contains("\"\(option) ") || bash.contains(" \(option)\""),
                    "bash lacks \(option)")
                #expect(zshBlock.contains(option + "[") || zshBlock.contains(option + "}"), "zsh lacks \(option)")
                #expect(
                    section.contains("\\fB\(option.replacingOccurrences(of: "-", with: "\\-"))\\fR"),
                    "man page lacks \(option)")
            }
        }
    }

    @Test(
        "Mistyped commands and options get the closest name",
        arguments: [
            (["rendr"], "did you mean 'render'?"), (["tile"], "did you mean 'tiles'?"),
            (["gecode"], "did you mean 'geocode'?"), (["render", "--centre", "1,2"], "did you mean '--center'?"),
            (["tiles", "--formta", "png"], "did you mean '--format'?"),
            (["diff", "a", "b", "--jsn"], "did you mean '--json'?"),
            (["mbtiles", "merg"], "did you mean 'merge'?"), (["help", "tilse"], "did you mean 'tiles'?"),
            (["version", "--verbos"], "did you mean '--verbose'?"),
        ] as [([String], String)])
    func didYouMean(_ arguments: [String], _ fragment: String) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(arguments, in: dir.url)
            #expect(result.exitCode == (arguments[0] == "diff" ? 2 : 64), "\(result)")
            #expect(result.standardError.contains(fragment), "\(result)")
        }
    }

    @Test("No suggestion for a word far from every name")
    func noSuggestion() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["frobnicate"], in: dir.url)
            #expect(result.exitCode == 64 && !result.standardError.contains("did you mean"), "\(result)")
        }
    }

    @Test(
        "Edit distance (Levenshtein) against hand-counted pairs",
        arguments: [
            ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "abc", 0), ("--centre", "--center", 2),
            ("flaw", "lawn", 2), ("rendr", "render", 1),
        ] as [(String, String, Int)])
    func editDistance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestion.distance(a, b) == expected)
        #expect(Suggestion.distance(b, a) == expected)
    }

    @Test("--version prints the version like the version command")
    func version() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["--version"], in: dir.url)
            #expect(result.exitCode == 0 && result.standardOutput == "mapraster \(MapRasterCLI.version)\n", "\(result)")
            #expect(try CLI.run(["--version", "x"], in: dir.url).exitCode == 64)
        }
    }

    /// Runs bash completion for a command line whose last word is being completed.
    static func complete(_ words: [String], script: URL) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c",
            "source '\(script.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _mapraster; "
                + "printf '%s\\n' \"${COMPREPLY[@]}\"",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(
        "The bash completion is valid bash and completes commands, options and values",
        arguments: [
            (["mapraster", "til"], ["tiles"]),
            (["mapraster", "tiles", "--format", ""], ["png", "png8", "jpg", "webp"]),
            (["mapraster", "--fo"], ["--fonts", "--format"]), (["mapraster", "mbtiles", ""], ["merge"]),
            (["mapraster", "mbtiles", "merge", "--f"], ["--force"]), (["mapraster", "completions", "z"], ["zsh"]),
            (["mapraster", "render", "--map-type", "s"], ["standard", "satellite"]),
            (["mapraster", "geocode", "--lang"], ["--language"]), (["mapraster", "style", ""], ["check"]),
            (["mapraster", "style", "check", "--st"], ["--strict"]), (["mapraster", "--spr"], ["--sprite"]),
        ] as [([String], [String])])
    func bashCompletion(_ words: [String], _ expected: [String]) throws {
        try withTemporaryDirectory { dir in
            let script = try dir.write(
                "mapraster.bash", try CLI.run(["completions", "bash"], in: dir.url).standardOutput)
            let syntax = Process()
            syntax.executableURL = URL(fileURLWithPath: "/bin/bash")
            syntax.arguments = ["-n", script.path]
            try syntax.run()
            syntax.waitUntilExit()
            #expect(syntax.terminationStatus == 0)
            #expect(try Self.complete(words, script: script).sorted() == expected.sorted())
        }
    }

    @Test("completions refuses an unknown shell and a missing one")
    func completionsErrors() throws {
        try withTemporaryDirectory { dir in
            let fish = try CLI.run(["completions", "fish"], in: dir.url)
            #expect(fish.exitCode == 64 && fish.standardError.contains("'fish'"), "\(fish)")
            #expect(try CLI.run(["completions"], in: dir.url).exitCode == 64)
        }
    }

    @Test("The man page is troff with every command's section and no unescaped option dashes")
    func manPage() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["man"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let page = result.standardOutput
            #expect(page.hasPrefix(".TH MAPRASTER 1 "))
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS"] {
                #expect(page.contains(".SH \(section)\n"), "\(section)")
            }
            for command in Self.commands {
                #expect(page.contains(".SS \"mapraster \(command.joined(separator: " "))\""), "\(command)")
            }
            // Every line starting with a dot is a known macro (no text line is read as a request).
            let macros: Set<String> = [".TH", ".SH", ".SS", ".B", ".PP", ".TP", ".nf", ".fi"]
            for line in page.split(separator: "\n") where line.hasPrefix(".") {
                #expect(macros.contains(String(line.split(separator: " ")[0])), "\(line)")
            }
            #expect(!page.contains(" --"), "an option with unescaped dashes")
            // Equal runs give equal bytes (no date).
            #expect(try CLI.run(["man"], in: dir.url).standardOutput == page)
        }
    }
}
