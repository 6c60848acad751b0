import Foundation
import MapTestSupport
import Testing

/// Bad input is refused with exit 64 (usage) or 1 (other failure), a message on stderr naming the bad value
/// and what is valid, and no file written.
@Suite("mapraster bad input")
struct BadInputTests {
    /// One bad command line.
    struct BadCase: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var exitCode: Int32
        /// Every one of these must appear in stderr.
        var mentions: [String]
        /// Files to create in the working directory first (name: contents).
        var files: [String: String] = [:]
        var testDescription: String { name }
    }

    static let usage: Int32 = 64
    static let failure: Int32 = 1

    static let commandLineCases: [BadCase] = [
        BadCase(
            name: "--center latitude 91", arguments: ["--center", "91,0", "--zoom", "2"], exitCode: usage,
            mentions: ["91,0", "latitude", "-90...90"]),
        BadCase(
            name: "--center latitude -90.5", arguments: ["--center", "-90.5,0", "--zoom", "2"], exitCode: usage,
            mentions: ["-90.5,0", "latitude", "-90...90"]),
        BadCase(
            name: "--center longitude 181", arguments: ["--center", "0,181", "--zoom", "2"], exitCode: usage,
            mentions: ["0,181", "longitude", "-180...180"]),
        BadCase(
            name: "--center nan,0", arguments: ["--center", "nan,0", "--zoom", "2"], exitCode: usage,
            mentions: ["--center", "nan,0", "LAT,LON", "finite"]),
        BadCase(
            name: "--zoom inf", arguments: ["--center", "0,0", "--zoom", "inf"], exitCode: usage,
            mentions: ["--zoom", "'inf'", "finite"]),
        BadCase(
            name: "--span 0,10", arguments: ["--center", "0,0", "--span", "0,10"], exitCode: usage,
            mentions: ["span 0,10", "(0, 180]", "(0, 360]"]),
        BadCase(
            name: "--span -1,10", arguments: ["--center", "0,0", "--span", "-1,10"], exitCode: usage,
            mentions: ["span -1,10", "(0, 180]"]),
        BadCase(
            name: "--span 181,10", arguments: ["--center", "0,0", "--span", "181,10"], exitCode: usage,
            mentions: ["span 181,10", "(0, 180]"]),
        BadCase(
            name: "--span 10,361", arguments: ["--center", "0,0", "--span", "10,361"], exitCode: usage,
            mentions: ["span 10,361", "(0, 360]"]),
        BadCase(
            name: "--meters 0", arguments: ["--center", "0,0", "--meters", "0"], exitCode: usage,
            mentions: ["distance 0 m", "greater than 0"]),
        BadCase(
            name: "--size 0x100", arguments: ["--size", "0x100"], exitCode: usage,
            mentions: ["--size", "0x100", "WIDTHxHEIGHT"]),
        BadCase(
            name: "--size 20000x100", arguments: ["--size", "20000x100"], exitCode: usage,
            mentions: ["20000x100", "16384"]),
        BadCase(
            name: "--size 9000x100 --scale 2 is over 16384 pixels", arguments: ["--size", "9000x100", "--scale", "2"],
            exitCode: usage, mentions: ["16384", "after scale"]),
        BadCase(
            name: "--size abc", arguments: ["--size", "abc"], exitCode: usage,
            mentions: ["--size", "'abc'", "WIDTHxHEIGHT"]),
        BadCase(
            name: "--scale 4.5", arguments: ["--scale", "4.5"], exitCode: usage,
            mentions: ["--scale", "'4.5'", "0.5...4"]),
        BadCase(
            name: "--zoom 23", arguments: ["--center", "0,0", "--zoom", "23"], exitCode: usage,
            mentions: ["zoom 23", "0...22"]),
        BadCase(
            name: "--zoom without --center", arguments: ["--zoom", "3"], exitCode: usage,
            mentions: ["--zoom", "--center"]),
        BadCase(
            name: "--center without --span, --meters or --zoom", arguments: ["--center", "0,0"], exitCode: usage,
            mentions: ["--center", "--span", "--meters", "--zoom"]),
        BadCase(
            name: "--center with both --span and --zoom",
            arguments: ["--center", "0,0", "--span", "1,1", "--zoom", "3"],
            exitCode: usage, mentions: ["--span", "--zoom", "exactly one"]),
        BadCase(
            name: "--bbox with 3 numbers", arguments: ["--bbox", "1,2,3"], exitCode: usage,
            mentions: ["--bbox", "'1,2,3'", "WEST,SOUTH,EAST,NORTH"]),
        BadCase(
            name: "--bbox with south == north", arguments: ["--bbox", "0,10,10,10"], exitCode: usage,
            mentions: ["0,10,10,10", "south < north"]),
        BadCase(
            name: "--bbox with south > north", arguments: ["--bbox", "0,20,10,10"], exitCode: usage,
            mentions: ["0,20,10,10", "south < north"]),
        BadCase(
            name: "--bbox with --zoom", arguments: ["--bbox", "0,0,10,10", "--zoom", "3"], exitCode: usage,
            mentions: ["--bbox", "--zoom"]),
        BadCase(
            name: "unknown flag --bogus", arguments: ["--bogus"], exitCode: usage,
            mentions: ["'--bogus'", "--center", "--output"]),
        BadCase(
            name: "unknown command frobnicate", arguments: ["frobnicate"], exitCode: usage,
            mentions: ["'frobnicate'", "render", "version", "help"]),
        BadCase(
            name: "stray positional argument", arguments: ["render", "extra"], exitCode: usage, mentions: ["'extra'"]),
        BadCase(
            name: "--style file that does not exist", arguments: ["--style", "nope.json"], exitCode: failure,
            mentions: ["nope.json", "cannot read the style file"]),
        BadCase(
            name: "--style malformed JSON", arguments: ["--style", "s.json"], exitCode: failure,
            mentions: ["s.json", "line 2, column"], files: ["s.json": "{\"version\": 8,\n \"layers\": [}"]),
        BadCase(
            name: "--style unknown paint property with --strict", arguments: ["--style", "s.json", "--strict"],
            exitCode: failure,
            mentions: ["layers[0].paint.fill-colour", "fill-color"],
            files: [
                "s.json":
                    #"{"version": 8, "sources": {"a": {"type": "geojson", "data": "a.geojson"}}, "layers": [{"id": "x", "type": "fill", "source": "a", "paint": {"fill-colour": "red"}}]}"#
            ]),
        BadCase(
            name: "--style GeoJSON source file missing", arguments: ["--style", "s.json"], exitCode: failure,
            mentions: ["a.geojson", "no such readable file"],
            files: [
                "s.json":
                    #"{"version": 8, "sources": {"a": {"type": "geojson", "data": "a.geojson"}}, "layers": [{"id": "x", "type": "fill", "source": "a"}]}"#
            ]),
        BadCase(
            name: "--style invalid GeoJSON names the feature with --strict (a warning without)",
            arguments: ["--style", "s.json", "--strict", "-o", "out.png"],
            exitCode: failure, mentions: ["a.geojson", "features[1].geometry.coordinates", "out of range"],
            files: [
                "s.json":
                    #"{"version": 8, "sources": {"a": {"type": "geojson", "data": "a.geojson"}}, "layers": [{"id": "x", "type": "fill", "source": "a"}]}"#,
                "a.geojson":
                    #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 2]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 200]}}]}"#,
            ]),
        BadCase(
            name: "--style missing font file", arguments: ["--style", "s.json"], exitCode: failure,
            mentions: ["/nonexistent/font.ttf", "available families", "DejaVu Sans"],
            files: [
                "s.json":
                    #"{"version": 8, "sources": {"a": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "x", "type": "symbol", "source": "a", "layout": {"text-font": ["/nonexistent/font.ttf"]}}]}"#
            ]),
        BadCase(
            name: "--map-type terrain", arguments: ["--map-type", "terrain"], exitCode: usage,
            mentions: ["'terrain'", "standard"]),
        BadCase(
            name: "-o without a value", arguments: ["render", "--size", "64x64", "-o"], exitCode: usage,
            mentions: ["-o needs a value"]),
        BadCase(
            name: "--output given twice", arguments: ["-o", "a.png", "--output", "b.png"], exitCode: usage,
            mentions: ["--output", "twice"]),
        BadCase(
            name: "output into a folder that does not exist", arguments: ["-o", "missing/out.png"], exitCode: failure,
            mentions: ["missing/out.png", "does not exist"]),
        BadCase(
            name: "metadata into a folder that does not exist",
            arguments: ["-o", "out.png", "--metadata", "missing/m.json"],
            exitCode: failure, mentions: ["missing/m.json", "does not exist"]),
        BadCase(
            name: "output onto an existing folder", arguments: ["-o", "sub"], exitCode: failure,
            mentions: ["sub", "folder"], files: ["sub/keep.txt": "x"]),
    ]

    static let sceneCases: [BadCase] = [
        BadCase(
            name: "scene file that does not exist", arguments: ["--scene", "nope.json"], exitCode: failure,
            mentions: ["nope.json", "no such file"]),
        BadCase(
            name: "malformed scene JSON, error on line 3 column 13", arguments: ["--scene", "bad.json"],
            exitCode: failure,
            mentions: ["bad.json", "line 3, column 13"],
            files: ["bad.json": "{\n  \"center\": [0, 0],\n  \"zoom\": 2 3\n}\n"]),
        BadCase(
            name: "malformed scene JSON, missing value on line 3 column 11", arguments: ["--scene", "bad.json"],
            exitCode: failure, mentions: ["bad.json", "line 3, column 11"],
            files: ["bad.json": "{\n  \"center\": [0, 0],\n  \"zoom\": ,\n  \"size\": [64, 64]\n}\n"]),
        BadCase(
            name: "scene with an unknown top-level member", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "colour", "unknown member", "center"],
            files: ["s.json": #"{ "center": [0, 0], "zoom": 2, "size": [64, 64], "colour": "red" }"#]),
        BadCase(
            name: "scene pin with latitude 100", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "features[0]", "100", "-90...90"],
            files: [
                "s.json": scene(#"{ "type": "Point", "coordinates": [10, 100] }"#, properties: #"{ "title": "x" }"#)
            ]),
        BadCase(
            name: "scene polygon ring with 2 distinct points", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "features[0]", "coordinates[0]", "3 distinct"],
            files: ["s.json": scene(#"{ "type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 0], [1, 1]]] }"#)]),
        BadCase(
            name: "scene polygon hole with 2 distinct points", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "features[0]", "coordinates[1]", "3 distinct"],
            files: [
                "s.json": scene(
                    #"{ "type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 0]], [[1, 1], [2, 2], [1, 1]]] }"#
                )
            ]),
        BadCase(
            name: "scene LineString with 1 point", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "features[0]", "LineString", "2"],
            files: ["s.json": scene(#"{ "type": "LineString", "coordinates": [[0, 0]] }"#)]),
        BadCase(
            name: "scene marker-color notacolor", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "features[0]", "marker-color", "notacolor", "#rrggbb"],
            files: [
                "s.json": scene(
                    #"{ "type": "Point", "coordinates": [0, 0] }"#, properties: #"{ "marker-color": "notacolor" }"#)
            ]),
        BadCase(
            name: "scene stroke-dasharray all zero", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "features[0]", "stroke-dasharray"],
            files: [
                "s.json": scene(
                    #"{ "type": "LineString", "coordinates": [[0, 0], [1, 1]] }"#,
                    properties: #"{ "stroke-dasharray": [0, 0] }"#)
            ]),
        BadCase(
            name: "scene circle radius 0", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "features[0]", "radius"],
            files: ["s.json": scene(#"{ "type": "Point", "coordinates": [0, 0] }"#, properties: #"{ "radius": 0 }"#)]),
        BadCase(
            name: "scene marker-size huge", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "features[0]", "marker-size", "small"],
            files: [
                "s.json": scene(
                    #"{ "type": "Point", "coordinates": [0, 0] }"#, properties: #"{ "marker-size": "huge" }"#)
            ]),
        BadCase(
            name: "scene that is a JSON array", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "object"], files: ["s.json": "[1, 2]"]),
        BadCase(
            name: "scene with scale 5", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "scale", "0.5...4"], files: ["s.json": #"{ "scale": 5 }"#]),
        BadCase(
            name: "scene with size 0x10", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "0x10"], files: ["s.json": #"{ "center": [0, 0], "zoom": 2, "size": [0, 10] }"#]),
    ]

    /// A scene file at 64x64 points around 0,0 with one feature.
    static func scene(_ geometry: String, properties: String = "{}") -> String {
        """
        { "center": [0, 0], "zoom": 3, "size": [64, 64],
          "features": { "type": "FeatureCollection", "features": [
            { "type": "Feature", "geometry": \(geometry), "properties": \(properties) } ] } }
        """
    }

    /// Runs a bad case in a fresh directory and checks the exit code, stderr, stdout and that no file was written.
    static func check(_ bad: BadCase, knownIssue: String? = nil) throws {
        try withTemporaryDirectory { dir in
            for (name, contents) in bad.files {
                let url = dir.file(name)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url)
            }
            let before = try dir.listing()
            let result = try CLI.run(bad.arguments, in: dir.url)

            #expect(result.exitCode == bad.exitCode, "\(result)")
            #expect(result.standardError.hasPrefix("mapraster: error: "), "\(result)")
            for mention in bad.mentions {
                #expect(
                    result.standardError.contains(mention),
                    "stderr should mention \(mention.debugDescription)\n\(result)")
            }
            #expect(result.standardOutput == "", "\(result)")
            // Nothing written: no PNG, no metadata, no temporary '.name.tmp' file.
            #expect(try dir.listing() == before, "the working directory changed\n\(result)")
        }
    }

    @Test("Bad command lines are refused and write nothing", arguments: commandLineCases)
    func badCommandLine(_ bad: BadCase) throws {
        try Self.check(bad)
    }

    @Test("Bad scene files are refused, naming the file and the bad value, and write nothing", arguments: sceneCases)
    func badScene(_ bad: BadCase) throws {
        try Self.check(bad)
    }

    @Test("The malformed-JSON message gives the exact line and column of the error")
    func jsonSyntaxPosition() throws {
        try withTemporaryDirectory { dir in
            // Line 3 is `  "zoom": 2 3`; the unexpected '3' is its 13th character.
            try dir.write("bad.json", "{\n  \"center\": [0, 0],\n  \"zoom\": 2 3\n}\n")
            let result = try CLI.run(["--scene", "bad.json", "-o", "out.png"], in: dir.url)
            #expect(result.exitCode == 1, "\(result)")
            #expect(
                result.standardError.hasPrefix("mapraster: error: bad.json: invalid JSON at line 3, column 13: "),
                "\(result)")
            #expect(try dir.listing() == ["bad.json"])
        }
    }

    /// Runs the CLI as the unprivileged user `nobody` through util-linux's `setpriv`.
    static let setpriv = "/usr/bin/setpriv"

    /// Root may write into a folder with permissions 0o555, so as root the CLI is run as `nobody` with
    /// `setpriv`; without `setpriv` the case cannot be checked as root and is skipped.
    @Test(
        "Output into a read-only folder fails with exit 1 and writes nothing",
        .enabled(
            if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: BadInputTests.setpriv),
            "running as root without /usr/bin/setpriv: root can write into read-only folders"))
    func readOnlyFolder() throws {
        let launcher = getuid() == 0 ? [Self.setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        try withTemporaryDirectory { dir in
            let folder = dir.file("ro")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
            // `nobody` must be able to enter the working directory.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
            let result = try CLI.run(["--size", "64x64", "-o", "ro/out.png"], in: dir.url, launcher: launcher)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.standardError.hasPrefix("mapraster: error: "), "\(result)")
            #expect(
                result.standardError.contains("ro/out.png") && result.standardError.contains("not writable"),
                "\(result)")
            #expect(result.standardOutput == "", "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
            #expect(try dir.listing() == ["ro"])
        }
    }

    // `-o` naming a FIFO that nobody reads, and symlinked outputs: see HostileInputTests; `-o /dev/null` and
    // `-o /dev/stdout`: see OutputTargetTests.

    /// Errors found in a scene's area are `GeometryError`s that `Scene.decode` lets through without the
    /// file name or the member, although its documentation promises errors "each naming the file and the
    /// bad value". `RenderCommand` then prints them as they are.
    static let sceneAreaCases: [BadCase] = [
        BadCase(
            name: "scene zoom 23", arguments: ["--scene", "s.json"], exitCode: failure,
            mentions: ["s.json", "zoom 23", "0...22"],
            files: ["s.json": #"{ "center": [0, 0], "zoom": 23 }"#]),
        BadCase(
            name: "scene center latitude 91", arguments: ["--scene", "s.json"], exitCode: Self.failure,
            mentions: ["s.json", "91", "-90...90"], files: ["s.json": #"{ "center": [91, 0], "zoom": 2 }"#]),
        BadCase(
            name: "scene bbox with south > north", arguments: ["--scene", "s.json"], exitCode: Self.failure,
            mentions: ["s.json", "0,10,10,5", "south < north"], files: ["s.json": #"{ "bbox": [0, 10, 10, 5] }"#]),
        BadCase(
            name: "scene meters -5", arguments: ["--scene", "s.json"], exitCode: Self.failure,
            mentions: ["s.json", "-5"],
            files: ["s.json": #"{ "center": [0, 0], "meters": -5 }"#]),
        BadCase(
            name: "scene span 0,10", arguments: ["--scene", "s.json"], exitCode: Self.failure,
            mentions: ["s.json", "span 0,10"],
            files: ["s.json": #"{ "center": [0, 0], "span": [0, 10] }"#]),
    ]

    @Test("Bad areas in a scene file name the file", arguments: sceneAreaCases)
    func badSceneArea(_ bad: BadCase) throws {
        try Self.check(bad)
    }

    @Test("A too-large --size on the command line is a usage error even with a scene file")
    func commandLineSizeWithScene() throws {
        let bad = BadCase(
            name: "--size 9000x100 --scale 2 --scene ok.json",
            arguments: ["--scene", "ok.json", "--size", "9000x100", "--scale", "2"],
            exitCode: Self.usage, mentions: ["16384"], files: ["ok.json": #"{ "center": [0, 0], "zoom": 2 }"#])
        try Self.check(bad)
    }

    @Test("A size too large after scale quotes the size and scale that were typed")
    func scaledSizeMessage() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["--size", "9000x100", "--scale", "2"], in: dir.url)
            #expect(result.exitCode == 64, "\(result)")
            #expect(try dir.listing().isEmpty)
            #expect(result.standardError.contains("9000x100"), "\(result)")
        }
    }

    @Test("A bad size in a scene file names the file even when the area comes from the command line")
    func sceneSizeWithCommandLineArea() throws {
        let bad = BadCase(
            name: "scene size 0x10 with --center/--zoom",
            arguments: ["--scene", "s.json", "--center", "0,0", "--zoom", "3"],
            exitCode: Self.failure, mentions: ["s.json", "0x10"], files: ["s.json": #"{ "size": [0, 10] }"#])
        try Self.check(bad)
    }

    @Test("--metadata onto the same file as --output is refused instead of overwriting the PNG with JSON")
    func metadataSameAsOutput() throws {
        let bad = BadCase(
            name: "-o same.png --metadata same.png",
            arguments: ["--size", "64x64", "-o", "same.png", "--metadata", "same.png"],
            exitCode: Self.usage, mentions: ["same.png"])
        try Self.check(bad)
    }

    @Test("An empty --output is a usage error, not 'cannot write <cwd>: it is a folder'")
    func emptyOutput() throws {
        let bad = BadCase(
            name: "-o ''", arguments: ["--size", "64x64", "-o", ""], exitCode: Self.usage, mentions: ["--output"])
        try Self.check(bad)
    }

    @Test("An output path ending in '/' names a folder and is refused")
    func outputTrailingSlash() throws {
        let bad = BadCase(
            name: "-o sub/", arguments: ["--size", "64x64", "-o", "sub/"], exitCode: Self.failure, mentions: ["sub"])
        try Self.check(bad)
    }
}
