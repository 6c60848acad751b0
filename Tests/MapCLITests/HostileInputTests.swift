import Foundation
import MapRaster
import MapStorage
import MapTestSupport
import Testing

/// The project's own bad-input corpus: every subcommand given numbers at and past each limit, malformed
/// files of every kind, folders, devices, FIFOs, symlinks (dangling too) and outputs that are also inputs.
/// Each case asserts the exit code, a fragment of the message, and that no file in the working folder
/// changed (every entry's kind, link target and bytes are compared before and after).
///
/// The working folder of each case holds the same cast of files (see ``HostileInputTests/populate(_:)``).
@Suite("mapraster hostile input: refused with the right exit code and message, no file changed")
struct HostileInputTests {
    /// One hostile command line.
    struct H: Sendable, CustomTestStringConvertible {
        var id: String
        var arguments: [String]
        var exitCode: Int32
        var fragment: String
        init(_ id: String, _ arguments: [String], _ exitCode: Int32, _ fragment: String) {
            self.id = id
            self.arguments = arguments
            self.exitCode = exitCode
            self.fragment = fragment
        }
        var testDescription: String { id }
    }

    static let cases: [H] = [
        H("unknown-command", ["frobnicate"], 64, "unknown command 'frobnicate'"),
        H("render-unknown-option", ["render", "--bogus"], 64, "unknown option '--bogus'"),
        H("render-positional", ["render", "extra"], 64, "unexpected argument 'extra'"),
        H("render-o-without-value", ["render", "-o"], 64, "-o needs a value"),
        H("render-center-twice", ["--center", "0,0", "--center", "1,1", "--zoom", "1"], 64, "--center is given twice"),
        H("version-argument", ["version", "extra"], 64, "unexpected argument 'extra'"),
        H("version-unknown-option", ["version", "--bogus"], 64, "unknown option '--bogus'"),
        H("mbtiles-no-subcommand", ["mbtiles"], 64, "mbtiles needs a subcommand"),
        H("mbtiles-unknown-subcommand", ["mbtiles", "split"], 64, "mbtiles needs a subcommand"),
        H("center-out-of-range-0", ["--center", "91,0", "--zoom", "2"], 64, "91,0"),
        H("center-out-of-range-1", ["--center", "-91,0", "--zoom", "2"], 64, "-91,0"),
        H("center-out-of-range-2", ["--center", "0,181", "--zoom", "2"], 64, "0,181"),
        H("center-out-of-range-3", ["--center", "0,-181", "--zoom", "2"], 64, "0,-181"),
        H("center-out-of-range-4", ["--center", "1e309,0", "--zoom", "2"], 64, "1e309,0"),
        H("center-out-of-range-5", ["--center", "0,1e309", "--zoom", "2"], 64, "0,1e309"),
        H("center-malformed-0", ["--center", "nan,0", "--zoom", "2"], 64, "--center"),
        H("center-malformed-1", ["--center", "inf,0", "--zoom", "2"], 64, "--center"),
        H("center-malformed-2", ["--center", "0", "--zoom", "2"], 64, "--center"),
        H("center-malformed-3", ["--center", "0,0,0", "--zoom", "2"], 64, "--center"),
        H("center-malformed-4", ["--center", "a,b", "--zoom", "2"], 64, "--center"),
        H("center-malformed-5", ["--center", "", "--zoom", "2"], 64, "--center"),
        H("center-malformed-6", ["--center", ",", "--zoom", "2"], 64, "--center"),
        H("center-malformed-7", ["--center", "0,,", "--zoom", "2"], 64, "--center"),
        H("zoom-out-of-range-0", ["--center", "0,0", "--zoom", "23"], 64, "0...22"),
        H("zoom-out-of-range-1", ["--center", "0,0", "--zoom", "-1"], 64, "0...22"),
        H("zoom-out-of-range-2", ["--center", "0,0", "--zoom", "22.0001"], 64, "0...22"),
        H("zoom-out-of-range-3", ["--center", "0,0", "--zoom", "1e300"], 64, "0...22"),
        H("zoom-out-of-range-4", ["--center", "0,0", "--zoom", "-1e-300"], 64, "0...22"),
        H("zoom-malformed-0", ["--center", "0,0", "--zoom", "inf"], 64, "--zoom"),
        H("zoom-malformed-1", ["--center", "0,0", "--zoom", "nan"], 64, "--zoom"),
        H("zoom-malformed-2", ["--center", "0,0", "--zoom", "abc"], 64, "--zoom"),
        H("zoom-malformed-3", ["--center", "0,0", "--zoom", ""], 64, "--zoom"),
        H("zoom-malformed-4", ["--center", "0,0", "--zoom", "1e309"], 64, "--zoom"),
        H(
            "span-too-small-0", ["--center", "0,0", "--span", "5e-324,5e-324"], 64,
            "--span '5e-324,5e-324' is too small"),
        H("span-too-small-1", ["--center", "0,0", "--span", "1e-7,1"], 64, "--span '1e-7,1' is too small"),
        H("span-too-small-2", ["--center", "0,0", "--span", "1,1e-7"], 64, "--span '1,1e-7' is too small"),
        H("span-too-small-3", ["--center", "0,0", "--span", "5e-324,1"], 64, "--span '5e-324,1' is too small"),
        H(
            "span-too-small-4", ["--center", "0,0", "--span", "1e-300,1e-300"], 64,
            "--span '1e-300,1e-300' is too small"),
        H("span-out-of-range-0", ["--center", "0,0", "--span", "0,10"], 64, "(0, 180]"),
        H("span-out-of-range-1", ["--center", "0,0", "--span", "-1,10"], 64, "(0, 180]"),
        H("span-out-of-range-2", ["--center", "0,0", "--span", "181,10"], 64, "(0, 180]"),
        H("span-out-of-range-3", ["--center", "0,0", "--span", "10,361"], 64, "(0, 180]"),
        H("span-out-of-range-4", ["--center", "0,0", "--span", "1e308,1e308"], 64, "(0, 180]"),
        H("span-out-of-range-5", ["--center", "0,0", "--span", "10,-0"], 64, "(0, 180]"),
        H("span-malformed-0", ["--center", "0,0", "--span", "nan,1"], 64, "DLAT,DLON"),
        H("span-malformed-1", ["--center", "0,0", "--span", "1"], 64, "DLAT,DLON"),
        H("span-malformed-2", ["--center", "0,0", "--span", "1,2,3"], 64, "DLAT,DLON"),
        H("span-malformed-3", ["--center", "0,0", "--span", "a,b"], 64, "DLAT,DLON"),
        H("span-malformed-4", ["--center", "0,0", "--span", "inf,inf"], 64, "DLAT,DLON"),
        H("meters-too-small-0", ["--center", "0,0", "--meters", "5e-324"], 64, "--meters '5e-324' is too small"),
        H("meters-too-small-1", ["--center", "0,0", "--meters", "1e-7"], 64, "--meters '1e-7' is too small"),
        H("meters-too-small-2", ["--center", "0,0", "--meters", "1e-300"], 64, "--meters '1e-300' is too small"),
        H(
            "meters-too-small-3", ["--center", "0,0", "--meters", "0.00000099"], 64,
            "--meters '0.00000099' is too small"),
        H(
            "meters-needs-zoom-above-22-0", ["--center", "0,0", "--meters", "0.05"], 64,
            "--meters '0.05': the area shown needs zoom level"),
        H(
            "meters-needs-zoom-above-22-1", ["--center", "0,0", "--meters", "0.000001"], 64,
            "--meters '0.000001': the area shown needs zoom level"),
        H(
            "meters-needs-zoom-above-22-2", ["--center", "0,0", "--meters", "3"], 64,
            "--meters '3': the area shown needs zoom level"),
        H("meters-not-positive-0", ["--center", "0,0", "--meters", "0"], 64, "greater than 0"),
        H("meters-not-positive-1", ["--center", "0,0", "--meters", "-5"], 64, "greater than 0"),
        H("meters-not-positive-2", ["--center", "0,0", "--meters", "-1e308"], 64, "greater than 0"),
        H("meters-malformed-0", ["--center", "0,0", "--meters", "nan"], 64, "finite"),
        H("meters-malformed-1", ["--center", "0,0", "--meters", "inf"], 64, "finite"),
        H("meters-malformed-2", ["--center", "0,0", "--meters", "abc"], 64, "finite"),
        H("meters-malformed-3", ["--center", "0,0", "--meters", "1e309"], 64, "finite"),
        H("span-without-center", ["--span", "1,1"], 64, "--span needs --center"),
        H("meters-without-center", ["--meters", "100"], 64, "--meters needs --center"),
        H("center-with-span-and-meters", ["--center", "0,0", "--span", "1,1", "--meters", "5"], 64, "exactly one"),
        H("bbox-with-center", ["--bbox", "0,0,1,1", "--center", "0,0"], 64, "--bbox cannot be combined with --center"),
        H("bbox-with-zoom", ["--bbox", "0,0,1,1", "--zoom", "3"], 64, "--bbox cannot be combined with --zoom"),
        H("bbox-invalid-0", ["--bbox", "0,10,1,5"], 64, "bounding box"),
        H("bbox-invalid-1", ["--bbox", "0,0,0,0"], 64, "bounding box"),
        H("bbox-invalid-2", ["--bbox", "-181,0,0,1"], 64, "bounding box"),
        H("bbox-invalid-3", ["--bbox", "0,-91,1,0"], 64, "bounding box"),
        H("bbox-invalid-4", ["--bbox", "0,0,181,1"], 64, "bounding box"),
        H("bbox-invalid-5", ["--bbox", "0,0,1,91"], 64, "bounding box"),
        H("bbox-malformed-0", ["--bbox", "1,2,3"], 64, "WEST,SOUTH,EAST,NORTH"),
        H("bbox-malformed-1", ["--bbox", "a,b,c,d"], 64, "WEST,SOUTH,EAST,NORTH"),
        H("bbox-malformed-2", ["--bbox", "nan,0,1,1"], 64, "WEST,SOUTH,EAST,NORTH"),
        H("bbox-malformed-3", ["--bbox", "0,0,1,inf"], 64, "WEST,SOUTH,EAST,NORTH"),
        H("bbox-malformed-4", ["--bbox", "1,2,3,4,5"], 64, "WEST,SOUTH,EAST,NORTH"),
        H("bbox-malformed-5", ["--bbox", ""], 64, "WEST,SOUTH,EAST,NORTH"),
        H("size-malformed-0", ["--size", "0x100"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-1", ["--size", "100x0"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-2", ["--size", "abc"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-3", ["--size", "100"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-4", ["--size", "1.5x100"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-5", ["--size", "-100x100"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-6", ["--size", "nanxnan"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-7", ["--size", "100x100x100"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-8", ["--size", "infx1"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-9", ["--size", "x"], 64, "WIDTHxHEIGHT"),
        H("size-malformed-10", ["--size", "1e309x1"], 64, "WIDTHxHEIGHT"),
        H("size-too-large-0", ["--size", "20000x100"], 64, "16384"),
        H("size-too-large-1", ["--size", "100x20000"], 64, "16384"),
        H("size-too-large-2", ["--size", "1e300x1e300"], 64, "16384"),
        H("size-too-large-3", ["--size", "9223372036854775807x1"], 64, "16384"),
        H("size-too-large-4", ["--size", "16385x1"], 64, "16384"),
        H("size-too-large-after-scale", ["--size", "9000x100", "--scale", "2"], 64, "after scale"),
        H("size-too-large-after-scale-3", ["--size", "6000x6000", "--scale", "3"], 64, "16384"),
        H("scale-invalid-0", ["--scale", "4.5"], 64, "0.5...4"),
        H("scale-invalid-1", ["--scale", "0"], 64, "0.5...4"),
        H("scale-invalid-2", ["--scale", "0.25"], 64, "0.5...4"),
        H("scale-invalid-3", ["--scale", "-1"], 64, "0.5...4"),
        H("scale-invalid-4", ["--scale", "1e308"], 64, "0.5...4"),
        H("scale-invalid-5", ["--scale", "nan"], 64, "--scale"),
        H("scale-fraction-pixels", ["--size", "101x100", "--scale", "1.5"], 64, "whole number"),
        H("scale-malformed-0", ["--scale", "nan"], 64, "finite"),
        H("scale-malformed-1", ["--scale", "abc"], 64, "finite"),
        H("scale-malformed-2", ["--scale", "inf"], 64, "finite"),
        H("map-type-unknown", ["--map-type", "terrain"], 64, "standard, satellite or hybrid"),
        H("map-type-empty", ["--map-type", ""], 64, "standard, satellite or hybrid"),
        H("output-empty", ["-o", ""], 64, "empty string"),
        H("output-trailing-slash", ["-o", "dir/"], 1, "names a folder"),
        H("output-is-folder", ["-o", "dir"], 1, "it is a folder"),
        H("output-missing-folder", ["-o", "missing/x.png"], 1, "does not exist"),
        H("output-is-fifo", ["--size", "64x64", "-o", "fifo"], 1, "FIFO that no program is reading"),
        H("output-through-link-to-fifo", ["--size", "64x64", "-o", "link-fifo"], 1, "FIFO that no program is reading"),
        H("metadata-is-folder", ["--size", "64x64", "-o", "new.png", "--metadata", "dir"], 1, "it is a folder"),
        H("metadata-same-as-output", ["-o", "x.png", "--metadata", "x.png"], 64, "same file"),
        H("metadata-and-output-stdout", ["-o", "-", "--metadata", "-"], 64, "cannot both be '-'"),
        H("metadata-empty", ["--metadata", ""], 64, "empty string"),
        H("style-empty", ["--style", ""], 64, "empty string"),
        H("style-file-dir", ["--style", "dir"], 1, "is a directory"),
        H("style-file-dev-zero", ["--style", "/dev/zero"], 1, "is not a regular file"),
        H("style-file-fifo", ["--style", "fifo"], 1, "is not a regular file"),
        H("style-file-nope-json", ["--style", "nope.json"], 1, "no such file"),
        H("style-file-big-json", ["--style", "big.json"], 1, "too large"),
        H("style-file-dangling-png", ["--style", "dangling.png"], 1, "no such file"),
        H("style-json-leading-zero", ["--style", "leading-zero.json"], 1, "leading zeros"),
        H("style-json-digits", ["--style", "digits.json"], 1, "digits.json"),
        H("style-json-deep", ["--style", "deep.json"], 1, "deeper than 512"),
        H("style-json-huge-number", ["--style", "huge-number.json"], 1, "out of range"),
        H("style-json-truncated", ["--style", "truncated.json"], 1, "unexpected end of file"),
        H("style-json-binary", ["--style", "binary.json"], 1, "line 1, column 1"),
        H("style-json-empty", ["--style", "empty.json"], 1, "unexpected end of file"),
        H("scene-file-dir", ["--scene", "dir"], 1, "is a directory"),
        H("scene-file-dev-zero", ["--scene", "/dev/zero"], 1, "is not a regular file"),
        H("scene-file-fifo", ["--scene", "fifo"], 1, "is not a regular file"),
        H("scene-file-nope-json", ["--scene", "nope.json"], 1, "no such file"),
        H("scene-file-big-json", ["--scene", "big.json"], 1, "too large (limit"),
        H("scene-file-dangling-png", ["--scene", "dangling.png"], 1, "no such file"),
        H("scene-file-dev-null", ["--scene", "/dev/null"], 1, "is not a regular file"),
        H("scene-json-leading-zero", ["--scene", "leading-zero.json"], 1, "leading zeros"),
        H("scene-json-digits", ["--scene", "digits.json"], 1, "latitude must be within -90...90"),
        H("scene-json-deep", ["--scene", "deep.json"], 1, "deeper than 512"),
        H("scene-json-huge-number", ["--scene", "huge-number.json"], 1, "out of range"),
        H("scene-json-truncated", ["--scene", "truncated.json"], 1, "unexpected end of file"),
        H("scene-json-binary", ["--scene", "binary.json"], 1, "line 1, column 1"),
        H("scene-json-empty", ["--scene", "empty.json"], 1, "unexpected end of file"),
        H("scene-json-array", ["--scene", "array.json"], 1, "expected a JSON object"),
        H("scene-json-unknown-member", ["--scene", "unknown-member.json"], 1, "unknown member"),
        H("scene-json-nested-leading-zero", ["--scene", "nested-leading-zero.json"], 1, "line 3, column 11"),
        H("scene-json-scene-zoom-23", ["--scene", "scene-zoom-23.json"], 1, "0...22"),
        H("scene-json-scene-scale-5", ["--scene", "scene-scale-5.json"], 1, "0.5...4"),
        H("scene-json-scene-size-huge", ["--scene", "scene-size-huge.json"], 1, "16384"),
        H("scene-json-scene-digits-size", ["--scene", "scene-digits-size.json"], 1, "16384"),
        H("scene-tiles-dir", ["tiles", "-o", "t", "--zoom", "0", "--scene", "dir"], 1, "is a directory"),
        H("scene-tiles-fifo", ["tiles", "-o", "t", "--zoom", "0", "--scene", "fifo"], 1, "is not a regular file"),
        H(
            "scene-tiles-leading-zero", ["tiles", "-o", "t", "--zoom", "0", "--scene", "leading-zero.json"], 1,
            "leading zeros"),
        H("diff-one-file", ["diff", "a.png"], 2, "needs two PNG files"),
        H("diff-three-files", ["diff", "a.png", "b.png", "c.png"], 2, "needs two PNG files"),
        H("diff-unknown-option", ["diff", "a.png", "b.png", "--bogus"], 2, "unknown option"),
        H("diff-threshold-range-0", ["diff", "a.png", "b.png", "--threshold", "2"], 2, "0...1"),
        H("diff-threshold-range-1", ["diff", "a.png", "b.png", "--threshold", "-0.1"], 2, "0...1"),
        H("diff-threshold-range-2", ["diff", "a.png", "b.png", "--threshold", "1.0001"], 2, "0...1"),
        H("diff-threshold-malformed-0", ["diff", "a.png", "b.png", "--threshold", "nan"], 2, "finite"),
        H("diff-threshold-malformed-1", ["diff", "a.png", "b.png", "--threshold", "abc"], 2, "finite"),
        H("diff-threshold-malformed-2", ["diff", "a.png", "b.png", "--threshold", "inf"], 2, "finite"),
        H("diff-alpha-range-0", ["diff", "a.png", "b.png", "--alpha", "2"], 2, "0...1"),
        H("diff-alpha-range-1", ["diff", "a.png", "b.png", "--alpha", "-0.1"], 2, "0...1"),
        H("diff-alpha-range-2", ["diff", "a.png", "b.png", "--alpha", "1.0001"], 2, "0...1"),
        H("diff-alpha-malformed-0", ["diff", "a.png", "b.png", "--alpha", "nan"], 2, "finite"),
        H("diff-alpha-malformed-1", ["diff", "a.png", "b.png", "--alpha", "abc"], 2, "finite"),
        H("diff-alpha-malformed-2", ["diff", "a.png", "b.png", "--alpha", "inf"], 2, "finite"),
        H(
            "diff-max-diff-pixels-0", ["diff", "a.png", "b.png", "--max-diff-pixels", "-1"], 2,
            "whole number 0 or greater"),
        H(
            "diff-max-diff-pixels-1", ["diff", "a.png", "b.png", "--max-diff-pixels", "abc"], 2,
            "whole number 0 or greater"),
        H(
            "diff-max-diff-pixels-2", ["diff", "a.png", "b.png", "--max-diff-pixels", "99999999999999999999"], 2,
            "whole number 0 or greater"),
        H(
            "diff-max-diff-pixels-3", ["diff", "a.png", "b.png", "--max-diff-pixels", "1.5"], 2,
            "whole number 0 or greater"),
        H(
            "diff-max-diff-pixels-4", ["diff", "a.png", "b.png", "--max-diff-pixels", ""], 2,
            "whole number 0 or greater"),
        H("diff-max-diff-ratio-0", ["diff", "a.png", "b.png", "--max-diff-ratio", "2"], 2, "fraction 0...1"),
        H("diff-max-diff-ratio-1", ["diff", "a.png", "b.png", "--max-diff-ratio", "-0.1"], 2, "fraction 0...1"),
        H("diff-max-diff-ratio-nan", ["diff", "a.png", "b.png", "--max-diff-ratio", "nan"], 2, "finite"),
        H(
            "diff-ignore-limit-0",
            ["diff", "a.png", "b.png", "--ignore", "2147483647,2147483647,2147483647,2147483647"], 2,
            "within -1073741824...1073741824"),
        H(
            "diff-ignore-limit-1",
            ["diff", "a.png", "b.png", "--ignore", "9223372036854775807,0,9223372036854775807,1"], 2,
            "within -1073741824...1073741824"),
        H(
            "diff-ignore-limit-2", ["diff", "a.png", "b.png", "--ignore", "-9223372036854775808,0,1,1"], 2,
            "within -1073741824...1073741824"),
        H(
            "diff-ignore-limit-3", ["diff", "a.png", "b.png", "--ignore", "0,0,1073741825,1"], 2,
            "within -1073741824...1073741824"),
        H(
            "diff-ignore-limit-4", ["diff", "a.png", "b.png", "--ignore", "-1073741825,0,1,1"], 2,
            "within -1073741824...1073741824"),
        H("diff-ignore-malformed-0", ["diff", "a.png", "b.png", "--ignore", "0,0,0,1"], 2, "X,Y,WIDTH,HEIGHT"),
        H("diff-ignore-malformed-1", ["diff", "a.png", "b.png", "--ignore", "0,0,1,-1"], 2, "X,Y,WIDTH,HEIGHT"),
        H("diff-ignore-malformed-2", ["diff", "a.png", "b.png", "--ignore", "1,2,3"], 2, "X,Y,WIDTH,HEIGHT"),
        H("diff-ignore-malformed-3", ["diff", "a.png", "b.png", "--ignore", "1,2,3,4,5"], 2, "X,Y,WIDTH,HEIGHT"),
        H("diff-ignore-malformed-4", ["diff", "a.png", "b.png", "--ignore", "a,b,c,d"], 2, "X,Y,WIDTH,HEIGHT"),
        H("diff-ignore-malformed-5", ["diff", "a.png", "b.png", "--ignore", "1,,2,3"], 2, "X,Y,WIDTH,HEIGHT"),
        H("diff-ignore-malformed-6", ["diff", "a.png", "b.png", "--ignore", ""], 2, "X,Y,WIDTH,HEIGHT"),
        H("diff-ignore-malformed-7", ["diff", "a.png", "b.png", "--ignore", "1.5,0,1,1"], 2, "X,Y,WIDTH,HEIGHT"),
        H(
            "diff-ignore-malformed-8", ["diff", "a.png", "b.png", "--ignore", "99999999999999999999,0,1,1"], 2,
            "X,Y,WIDTH,HEIGHT"),
        H("diff-aa-color-0", ["diff", "a.png", "b.png", "--aa-color", "zz"], 2, "opaque color"),
        H("diff-aa-color-1", ["diff", "a.png", "b.png", "--aa-color", "#ff000080"], 2, "opaque color"),
        H("diff-aa-color-2", ["diff", "a.png", "b.png", "--aa-color", ""], 2, "opaque color"),
        H("diff-diff-color-0", ["diff", "a.png", "b.png", "--diff-color", "zz"], 2, "opaque color"),
        H("diff-diff-color-1", ["diff", "a.png", "b.png", "--diff-color", "#ff000080"], 2, "opaque color"),
        H("diff-diff-color-2", ["diff", "a.png", "b.png", "--diff-color", ""], 2, "opaque color"),
        H("diff-diff-color-alt-0", ["diff", "a.png", "b.png", "--diff-color-alt", "zz"], 2, "opaque color"),
        H("diff-diff-color-alt-1", ["diff", "a.png", "b.png", "--diff-color-alt", "#ff000080"], 2, "opaque color"),
        H("diff-diff-color-alt-2", ["diff", "a.png", "b.png", "--diff-color-alt", ""], 2, "opaque color"),
        H("diff-expected-dir", ["diff", "dir", "a.png"], 2, "is a directory"),
        H("diff-actual-dir", ["diff", "a.png", "dir"], 2, "is a directory"),
        H("diff-expected-dev-zero", ["diff", "/dev/zero", "a.png"], 2, "is not a regular file"),
        H("diff-actual-dev-zero", ["diff", "a.png", "/dev/zero"], 2, "is not a regular file"),
        H("diff-expected-fifo", ["diff", "fifo", "a.png"], 2, "is not a regular file"),
        H("diff-actual-fifo", ["diff", "a.png", "fifo"], 2, "is not a regular file"),
        H("diff-expected-nope-png", ["diff", "nope.png", "a.png"], 2, "no such file"),
        H("diff-actual-nope-png", ["diff", "a.png", "nope.png"], 2, "no such file"),
        H("diff-expected-dangling-png", ["diff", "dangling.png", "a.png"], 2, "no such file"),
        H("diff-actual-dangling-png", ["diff", "a.png", "dangling.png"], 2, "no such file"),
        H("diff-expected-text-png", ["diff", "text.png", "a.png"], 2, "no PNG signature"),
        H("diff-actual-text-png", ["diff", "a.png", "text.png"], 2, "no PNG signature"),
        H("diff-expected-empty-png", ["diff", "empty.png", "a.png"], 2, "no PNG signature"),
        H("diff-actual-empty-png", ["diff", "a.png", "empty.png"], 2, "no PNG signature"),
        H("diff-expected-crc-png", ["diff", "crc.png", "a.png"], 2, "checksum"),
        H("diff-actual-crc-png", ["diff", "a.png", "crc.png"], 2, "checksum"),
        H("diff-expected-truncated-png", ["diff", "truncated.png", "a.png"], 2, "cannot read PNG"),
        H("diff-actual-truncated-png", ["diff", "a.png", "truncated.png"], 2, "cannot read PNG"),
        H("diff-expected-bomb-png", ["diff", "bomb.png", "a.png"], 2, "limit 67108864 pixels"),
        H("diff-actual-bomb-png", ["diff", "a.png", "bomb.png"], 2, "limit 67108864 pixels"),
        H("diff-expected-wide-png", ["diff", "wide.png", "a.png"], 2, "limit"),
        H("diff-actual-wide-png", ["diff", "a.png", "wide.png"], 2, "limit"),
        H("diff-expected-huge-header-png", ["diff", "huge-header.png", "a.png"], 2, "limit"),
        H("diff-actual-huge-header-png", ["diff", "a.png", "huge-header.png"], 2, "limit"),
        H("diff-expected-big-json", ["diff", "big.json", "a.png"], 2, "too large"),
        H("diff-actual-big-json", ["diff", "a.png", "big.json"], 2, "too large"),
        H("diff-mask-dir", ["diff", "a.png", "b.png", "--mask", "dir"], 2, "is a directory"),
        H("diff-mask-crc", ["diff", "a.png", "b.png", "--mask", "crc.png"], 2, "checksum"),
        H("diff-mask-size", ["diff", "a.png", "b.png", "--mask", "big8.png"], 2, "mask"),
        H("diff-size-mismatch", ["diff", "a.png", "big8.png"], 2, "size"),
        H("diff-output-folder", ["diff", "a.png", "b.png", "-o", "dir"], 2, "it is a folder"),
        H("diff-output-fifo", ["diff", "a.png", "b.png", "-o", "fifo"], 2, "FIFO that no program is reading"),
        H("diff-output-empty", ["diff", "a.png", "b.png", "-o", ""], 2, "needs a file name"),
        H("tiles-no-output", ["tiles", "--zoom", "0"], 64, "tiles needs -o OUTPUT"),
        H("tiles-positional", ["tiles", "-o", "t", "extra"], 64, "unexpected argument"),
        H("tiles-zoom-invalid-0", ["tiles", "-o", "t", "--zoom", "23"], 64, "zoom"),
        H("tiles-zoom-invalid-1", ["tiles", "-o", "t", "--zoom", "0-23"], 64, "zoom"),
        H("tiles-zoom-invalid-2", ["tiles", "-o", "t", "--zoom", "5-3"], 64, "zoom"),
        H("tiles-zoom-invalid-3", ["tiles", "-o", "t", "--zoom", "-1"], 64, "zoom"),
        H("tiles-zoom-invalid-4", ["tiles", "-o", "t", "--zoom", "a"], 64, "zoom"),
        H("tiles-zoom-invalid-5", ["tiles", "-o", "t", "--zoom", "1-"], 64, "zoom"),
        H("tiles-zoom-invalid-6", ["tiles", "-o", "t", "--zoom", "-"], 64, "zoom"),
        H("tiles-zoom-invalid-7", ["tiles", "-o", "t", "--zoom", "0-5-7"], 64, "zoom"),
        H("tiles-zoom-invalid-8", ["tiles", "-o", "t", "--zoom", "99999999999999999999"], 64, "zoom"),
        H("tiles-count-needs-yes-0", ["tiles", "-o", "t", "--zoom", "0-22"], 64, "23456248059221 tiles"),
        H("tiles-count-needs-yes-1", ["tiles", "-o", "t", "--zoom", "22"], 64, "17592186044416 tiles"),
        H("tiles-count-needs-yes-2", ["tiles", "-o", "t", "--zoom", "0-12"], 64, "22369621 tiles"),
        H("tiles-count-needs-yes-3", ["tiles", "-o", "t", "--zoom", "0-9"], 64, "349525 tiles"),
        H("tiles-count-needs-yes-4", ["tiles", "-o", "t", "--zoom", "9"], 64, "262144 tiles"),
        H("tiles-count-needs-yes-5", ["tiles", "-o", "t", "--zoom", "14"], 64, "268435456 tiles"),
        H(
            "tiles-count-shard-needs-yes", ["tiles", "-o", "t", "--zoom", "0-12", "--shard", "1/4"], 64,
            "about 5592405 tiles"),
        H("tiles-count-512-needs-yes", ["tiles", "-o", "t", "--zoom", "0-21", "--tile-size", "512"], 64, "--yes"),
        H("tiles-tile-size-0", ["tiles", "-o", "t", "--zoom", "0", "--tile-size", "300"], 64, "256 or 512"),
        H("tiles-tile-size-1", ["tiles", "-o", "t", "--zoom", "0", "--tile-size", "0"], 64, "256 or 512"),
        H("tiles-tile-size-2", ["tiles", "-o", "t", "--zoom", "0", "--tile-size", "-256"], 64, "256 or 512"),
        H(
            "tiles-tile-size-3", ["tiles", "-o", "t", "--zoom", "0", "--tile-size", "99999999999999999999"], 64,
            "--tile-size"),
        H("tiles-tile-size-4", ["tiles", "-o", "t", "--zoom", "0", "--tile-size", "abc"], 64, "--tile-size"),
        H("tiles-scale-0", ["tiles", "-o", "t", "--zoom", "0", "--scale", "3"], 64, "1 or 2"),
        H("tiles-scale-1", ["tiles", "-o", "t", "--zoom", "0", "--scale", "0"], 64, "1 or 2"),
        H("tiles-metatile-0", ["tiles", "-o", "t", "--zoom", "0", "--metatile", "0"], 64, "1...64"),
        H("tiles-metatile-1", ["tiles", "-o", "t", "--zoom", "0", "--metatile", "65"], 64, "1...64"),
        H("tiles-metatile-2", ["tiles", "-o", "t", "--zoom", "0", "--metatile", "-1"], 64, "1...64"),
        H(
            "tiles-metatile-too-many-pixels",
            ["tiles", "-o", "t", "--zoom", "0", "--metatile", "64", "--tile-size", "512"], 64, "16384"),
        H("tiles-compression-0", ["tiles", "-o", "t", "--zoom", "0", "--compression", "10"], 64, "0...9"),
        H("tiles-compression-1", ["tiles", "-o", "t", "--zoom", "0", "--compression", "-1"], 64, "0...9"),
        H("tiles-threads-negative", ["tiles", "-o", "t", "--zoom", "0", "--threads", "-1"], 64, "use 1 or more"),
        H(
            "tiles-threads-malformed", ["tiles", "-o", "t", "--zoom", "0", "--threads", "abc"], 64, "not a whole number"
        ),
        H("tiles-shard-0", ["tiles", "-o", "t", "--zoom", "0", "--shard", "3/2"], 64, "shard"),
        H("tiles-shard-1", ["tiles", "-o", "t", "--zoom", "0", "--shard", "0/2"], 64, "shard"),
        H("tiles-shard-2", ["tiles", "-o", "t", "--zoom", "0", "--shard", "1/0"], 64, "shard"),
        H("tiles-shard-3", ["tiles", "-o", "t", "--zoom", "0", "--shard", "a/b"], 64, "shard"),
        H("tiles-shard-4", ["tiles", "-o", "t", "--zoom", "0", "--shard", "1"], 64, "shard"),
        H("tiles-shard-5", ["tiles", "-o", "t", "--zoom", "0", "--shard", "-1/2"], 64, "shard"),
        H(
            "tiles-resume-and-force", ["tiles", "-o", "t", "--zoom", "0", "--resume", "--force"], 64,
            "cannot be combined"),
        H("tiles-format", ["tiles", "-o", "t", "--zoom", "0", "--format", "gif"], 64, "use png, png8, jpg or webp"),
        H(
            "tiles-map-type", ["tiles", "-o", "t", "--zoom", "0", "--map-type", "terrain"], 64,
            "standard, satellite or hybrid"),
        H("tiles-bbox-invalid", ["tiles", "-o", "t", "--zoom", "0", "--bbox", "0,10,1,5"], 64, "bounding box"),
        H(
            "tiles-bbox-with-center", ["tiles", "-o", "t", "--zoom", "0", "--bbox", "0,0,1,1", "--center", "0,0"], 64,
            "cannot be combined"),
        H("tiles-center-without-span", ["tiles", "-o", "t", "--zoom", "0", "--center", "0,0"], 64, "needs both"),
        H(
            "tiles-span-tiny", ["tiles", "-o", "t", "--zoom", "0", "--center", "0,0", "--span", "5e-324,5e-324"], 64,
            "is too small"),
        H(
            "tiles-span-invalid", ["tiles", "-o", "t", "--zoom", "0", "--center", "0,0", "--span", "0,1"], 64,
            "(0, 180]"),
        H("tiles-exists-no-force", ["tiles", "-o", "a.mbtiles", "--zoom", "0"], 1, "exists; pass --force"),
        H("tiles-folder-exists-no-force", ["tiles", "-o", "dir", "--zoom", "0"], 1, "exists; pass --force"),
        H(
            "tiles-mbtiles-folder-force", ["tiles", "-o", "dir.mbtiles", "--zoom", "0", "--force"], 1,
            "never removes folders"),
        H(
            "tiles-mbtiles-folder-resume", ["tiles", "-o", "dir.mbtiles", "--zoom", "0", "--resume"], 1,
            "never removes folders"),
        H(
            "tiles-folder-output-is-file", ["tiles", "-o", "file.txt", "--zoom", "0", "--force"], 1,
            "is a file, not a folder"),
        H("tiles-output-fifo", ["tiles", "-o", "fifo.mbtiles", "--zoom", "0", "--force"], 1, "not a regular file"),
        H("tiles-output-missing-folder", ["tiles", "-o", "missing/t.mbtiles", "--zoom", "0"], 1, "does not exist"),
        H("tiles-resume-other-pyramid", ["tiles", "-o", "a.mbtiles", "--zoom", "3", "--resume"], 1, "cannot resume"),
        H(
            "tiles-resume-link-other-pyramid", ["tiles", "-o", "link.mbtiles", "--zoom", "0-1", "--resume"], 1,
            "cannot resume"),
        H(
            "tiles-resume-corrupt", ["tiles", "-o", "corrupt.mbtiles", "--zoom", "0", "--resume"], 1,
            "not a usable MBTiles"),
        H("tiles-resume-png", ["tiles", "-o", "a-png.mbtiles", "--zoom", "0", "--resume"], 1, "not a usable MBTiles"),
        H("tiles-style-missing", ["tiles", "-o", "t", "--zoom", "0", "--style", "nope.json"], 1, "no such file"),
        H("tiles-style-dir", ["tiles", "-o", "t", "--zoom", "0", "--style", "dir"], 1, "is a directory"),
        H(
            "tiles-style-source-dir", ["tiles", "-o", "new.mbtiles", "--zoom", "0", "--style", "source-dir.json"], 1,
            "is a directory"),
        H(
            "tiles-style-source-dir-folder", ["tiles", "-o", "t", "--zoom", "0", "--style", "source-dir.json"], 1,
            "is a directory"),
        H("merge-no-inputs", ["mbtiles", "merge", "out.mbtiles"], 64, "at least one input"),
        H("merge-nothing", ["mbtiles", "merge"], 64, "at least one input"),
        H("merge-unknown-option", ["mbtiles", "merge", "out.mbtiles", "a.mbtiles", "--bogus"], 64, "unknown option"),
        H(
            "merge-output-is-input", ["mbtiles", "merge", "a.mbtiles", "a.mbtiles", "--force"], 1,
            "both the output and an input"),
        H(
            "merge-output-is-second-input", ["mbtiles", "merge", "a.mbtiles", "b.mbtiles", "a.mbtiles", "--force"], 1,
            "both the output and an input"),
        H(
            "merge-output-is-input-dot-path",
            ["mbtiles", "merge", "./a.mbtiles", "b.mbtiles", "../WORK/a.mbtiles", "--force"], 1,
            "both the output and an input"),
        H(
            "merge-output-link-to-input", ["mbtiles", "merge", "link.mbtiles", "a.mbtiles", "--force"], 1,
            "both the output and an input"),
        H(
            "merge-input-link-to-output", ["mbtiles", "merge", "a.mbtiles", "link.mbtiles", "--force"], 1,
            "both the output and an input"),
        H(
            "merge-output-hardlink-to-input", ["mbtiles", "merge", "hard.mbtiles", "a.mbtiles", "--force"], 1,
            "both the output and an input"),
        H(
            "merge-output-is-input-no-force", ["mbtiles", "merge", "a.mbtiles", "a.mbtiles"], 1,
            "both the output and an input"),
        H("merge-exists-no-force", ["mbtiles", "merge", "b.mbtiles", "a.mbtiles"], 1, "exists; pass --force"),
        H(
            "merge-force-corrupt-input", ["mbtiles", "merge", "b.mbtiles", "a.mbtiles", "corrupt.mbtiles", "--force"],
            1, "not an SQLite database"),
        H(
            "merge-force-missing-input", ["mbtiles", "merge", "b.mbtiles", "a.mbtiles", "nope.mbtiles", "--force"], 1,
            "no such file"),
        H("merge-force-png-input", ["mbtiles", "merge", "b.mbtiles", "a.png", "--force"], 1, "not a usable MBTiles"),
        H(
            "merge-force-empty-input", ["mbtiles", "merge", "b.mbtiles", "empty.png", "--force"], 1,
            "not a usable MBTiles"),
        H("merge-input-dir", ["mbtiles", "merge", "new.mbtiles", "dir"], 1, "is a directory"),
        H("merge-input-fifo", ["mbtiles", "merge", "new.mbtiles", "fifo"], 1, "is not a regular file"),
        H("merge-input-dev-zero", ["mbtiles", "merge", "new.mbtiles", "/dev/zero"], 1, "is not a regular file"),
        H("merge-input-dangling", ["mbtiles", "merge", "new.mbtiles", "dangling.mbtiles"], 1, "no such file"),
        H(
            "merge-output-folder-force", ["mbtiles", "merge", "dir.mbtiles", "a.mbtiles", "--force"], 1,
            "never removes folders"),
        H("merge-output-folder", ["mbtiles", "merge", "dir.mbtiles", "a.mbtiles"], 1, "never removes folders"),
        H(
            "merge-output-fifo-force", ["mbtiles", "merge", "fifo.mbtiles", "a.mbtiles", "--force"], 1,
            "not a regular file"),
        H(
            "merge-output-dev-null-force", ["mbtiles", "merge", "/dev/null", "a.mbtiles", "--force"], 1,
            "not a regular file"),
        H("merge-conflict", ["mbtiles", "merge", "new.mbtiles", "a.mbtiles", "changed.mbtiles"], 1, "differs between"),
        H(
            "merge-force-conflict", ["mbtiles", "merge", "b.mbtiles", "a.mbtiles", "changed.mbtiles", "--force"], 1,
            "differs between"),
        H("scene-marker-image-fifo", ["--scene", "icon-fifo.json"], 1, "is not a regular file"),
        H("scene-marker-image-dir", ["--scene", "icon-dir.json"], 1, "it is a folder"),
        H("scene-marker-image-dev-zero", ["--scene", "icon-zero.json"], 1, "is not a regular file"),
        H("scene-marker-image-missing", ["--scene", "icon-missing.json"], 1, "no such file"),
        H(
            "tiles-scene-marker-image-fifo", ["tiles", "-o", "t", "--zoom", "0", "--scene", "icon-fifo.json"], 1,
            "is not a regular file"),
        H("diff-expected-max-header-png", ["diff", "max-header.png", "a.png"], 2, "limit 67108864 pixels"),
        H("diff-actual-max-header-png", ["diff", "a.png", "max-header.png"], 2, "limit 67108864 pixels"),
        H(
            "diff-mask-max-header-png", ["diff", "a.png", "b.png", "--mask", "max-header.png"], 2,
            "limit 67108864 pixels"),
        H("style-geojson-source-dev-zero", ["--style", "source-zero.json"], 1, "is not a regular file"),
        H("style-geojson-source-dir", ["--style", "source-dir.json", "-o", "new.png"], 1, "is a directory"),
        H(
            "tiles-zoom-22-failure-leaves-nothing",
            [
                "tiles", "-o", "new.mbtiles", "--zoom", "22", "--bbox", "24.95,60.17,24.9501,60.1701", "--yes",
                "--style", "source-dir.json",
            ], 1, "is a directory"),
        H(
            "tiles-zoom-0-22-failure-leaves-nothing",
            ["tiles", "-o", "new.mbtiles", "--zoom", "0-22", "--yes", "--style", "source-zero.json"],
            1, "is not a regular file"),
        // geocode: files checked before the geocoding data is loaded; outputs never folders, devices or the input.
        H("geocode-no-mode", ["geocode"], 64, "geocode needs exactly one of"),
        H("geocode-two-modes", ["geocode", "--input", "points.csv", "--reverse", "0,0"], 64, "exactly one of"),
        H("geocode-reverse-malformed", ["geocode", "--reverse", "abc"], 64, "--reverse 'abc' is invalid"),
        H("geocode-reverse-huge", ["geocode", "--reverse", "1e309,0"], 64, "--reverse '1e309,0' is invalid"),
        H("geocode-near-out-of-range", ["geocode", "--near", "91,0", "Helsinki"], 64, "out of range"),
        H("geocode-limit-0", ["geocode", "--limit", "0", "Helsinki"], 64, "1...1000"),
        H("geocode-limit-digits", ["geocode", "--limit", "99999999999999999999", "Helsinki"], 64, "1...1000"),
        H("geocode-language", ["geocode", "--language", "xx", "Helsinki"], 64, "is not supported"),
        H("geocode-input-dir", ["geocode", "--input", "dir"], 1, "is a directory"),
        H("geocode-input-fifo", ["geocode", "--input", "fifo"], 1, "is not a regular file"),
        H("geocode-input-dev-zero", ["geocode", "--input", "/dev/zero"], 1, "is not a regular file"),
        H("geocode-input-missing", ["geocode", "--input", "nothere.csv"], 1, "no such file"),
        H("geocode-geojson-input-fifo", ["geocode", "--input", "fifo.geojson"], 1, "is not a regular file"),
        H("geocode-input-no-columns", ["geocode", "--input", "file.txt"], 1, "the header needs a 'lat'"),
        H(
            "geocode-output-is-input", ["geocode", "--input", "points.csv", "-o", "points.csv"], 1,
            "both the output and the input"),
        H(
            "geocode-output-hard-link-of-input", ["geocode", "--input", "points.csv", "-o", "points-hard.csv"], 1,
            "both the output and the input"),
        H(
            "geocode-output-link-to-input", ["geocode", "--input", "points.csv", "-o", "points-link.csv"], 1,
            "both the output and the input"),
        H("geocode-output-dir", ["geocode", "--input", "points.csv", "-o", "dir"], 1, "it is a folder"),
        H("geocode-output-fifo", ["geocode", "--input", "points.csv", "-o", "fifo"], 1, "not a regular file"),
        H("geocode-output-dev-null", ["geocode", "--input", "points.csv", "-o", "/dev/null"], 1, "not a regular file"),
    ]

    @Test("hostile command line", arguments: cases)
    func refused(_ c: H) throws {
        try withTemporaryDirectory { dir in
            try Self.populate(dir.url)
            let before = try Self.snapshot(dir.url)
            let arguments = c.arguments.map { $0.replacingOccurrences(of: "WORK", with: dir.url.lastPathComponent) }
            let result = try CLI.run(arguments, in: dir.url)
            #expect(result.exitCode == c.exitCode, "\(c.id): \(result)")
            #expect(result.standardError.contains(c.fragment), "\(c.id): \(result)")
            #expect(result.standardError.hasPrefix("mapraster: error: "), "\(c.id): \(result)")
            for bad in ["NSCocoaErrorDomain", "Fatal error", "crashed", ".tmp", "permission"] {
                #expect(!result.standardError.contains(bad), "\(c.id): \(result)")
            }
            let after = try Self.snapshot(dir.url)
            #expect(after == before, "\(c.id): files changed: \(Self.difference(before, after))")
        }
    }

    @Test("the table has at least 200 cases with distinct ids, across every subcommand")
    func coverage() {
        #expect(Self.cases.count >= 200)
        #expect(Set(Self.cases.map(\.id)).count == Self.cases.count)
        let commands = Set(
            Self.cases.map {
                ["diff", "tiles", "mbtiles", "version", "geocode"].contains($0.arguments.first ?? "")
                    ? $0.arguments[0] : "render"
            })
        #expect(commands == ["render", "diff", "tiles", "mbtiles", "version", "geocode"])
    }
}
