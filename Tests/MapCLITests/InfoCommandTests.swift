import Foundation
import MapCLI
import MapTestSupport
import Testing

/// `mapraster version` and `mapraster help`.
@Suite("mapraster version and help")
struct InfoCommandTests {
    @Test("version prints 'mapraster <version>'")
    func version() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["version"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardOutput == "mapraster \(MapRasterCLI.version)\n", "\(result)")
            #expect(result.standardError == "")
            #expect(MapRasterCLI.version.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(MapRasterCLI.version)")
            #expect(try dir.listing().isEmpty)
        }
    }

    @Test("version --verbose also prints the versions of cairo, freetype and harfbuzz")
    func versionVerbose() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["version", "--verbose"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError == "")
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first == "mapraster \(MapRasterCLI.version)", "\(result)")
            for library in ["cairo", "freetype", "harfbuzz"] {
                let line = lines.first { $0.hasPrefix(library + " ") }
                #expect(line?.wholeMatch(of: /[a-z]+ \d+\.\d+\.\d+/) != nil, "no '\(library) X.Y.Z' line\n\(result)")
            }
            #expect(try dir.listing().isEmpty)
        }
    }

    @Test("version refuses other arguments", arguments: [["version", "--bogus"], ["version", "extra"]])
    func versionBadArguments(_ arguments: [String]) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(arguments, in: dir.url)
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.standardError.hasPrefix("mapraster: error: "), "\(result)")
            #expect(result.standardError.contains(arguments[1]), "\(result)")
        }
    }

    /// Every option of `render`, as the help must list it.
    static let renderOptions = [
        "--center", "--span", "--meters", "--zoom", "--bbox", "--heading", "--bearing", "--pitch", "--size", "--scale",
        "--map-type", "--style", "--poi", "--no-buildings", "--no-cross-source-collisions", "--appearance", "--scene",
        "--no-attribution", "--no-base-map", "-o", "--output", "--format", "--quality", "--compression", "--metadata",
        "-h", "--help",
        "--marker", "--path", "--visible", "--padding", "--source", "--fonts", "--glyphs", "--sprite", "--strict",
    ]

    @Test(
        "help, --help and -h print the commands and every render option; render --help the render options",
        arguments: [
            ["help"], ["--help"], ["-h"], ["render", "--help"], ["render", "--center", "0,0", "--help"],
            ["help", "render"],
            ["render", "-h"],
        ])
    func help(_ arguments: [String]) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(arguments, in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError == "", "\(result)")
            let help = result.standardOutput
            #expect(help.contains("USAGE"))
            let commands = arguments.contains("render") ? ["render"] : ["render", "tiles", "diff", "version", "help"]
            for command in commands {
                #expect(help.contains("mapraster \(command)"), "help should show 'mapraster \(command)'")
            }
            for option in Self.renderOptions {
                #expect(
                    help.contains(option + " ") || help.contains(option + ",") || help.contains(option + "\n"),
                    "help should list \(option)")
            }
            // No rendering happens for help.
            #expect(try dir.listing().isEmpty)
        }
    }

    @Test("Every option the parser knows is in the help")
    func helpListsParserOptions() throws {
        try withTemporaryDirectory { dir in
            // The unknown-option message lists the options the parser accepts.
            let bogus = try CLI.run(["render", "--bogus"], in: dir.url)
            let marker = "known options: "
            let line = bogus.standardError.split(separator: "\n").first { $0.contains(marker) }
            let known = try #require(line?.components(separatedBy: marker).last?.split(separator: " ").map(String.init))
            #expect(known.count >= 10, "\(bogus)")
            let help = try CLI.run(["help"], in: dir.url).standardOutput
            for option in known {
                #expect(
                    help.contains(option + " ") || help.contains(option + "\n"),
                    "the parser accepts \(option) but the help does not list it")
            }
            #expect(
                Set(known).isSubset(of: Set(Self.renderOptions)),
                "options not covered by these tests: \(Set(known).subtracting(Self.renderOptions))")
        }
    }
}
