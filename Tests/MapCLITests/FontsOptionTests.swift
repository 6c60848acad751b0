import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("mapraster --fonts")
struct FontsOptionTests {
    static let style =
        ##"{"version": 8, "glyphs": "https://example.invalid/{fontstack}/{range}.pbf", "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "Tōkyō 東京"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}, {"id": "names", "type": "symbol", "source": "p", "layout": {"text-field": "{name}", "text-font": ["DejaVu Sans Bold"], "text-size": 14}}]}"##

    @Test("--fonts DIR with a non-font file: the label is drawn, the file is named in a warning")
    func warning() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.file("fonts"), withIntermediateDirectories: true)
            try dir.write("fonts/Notes.otf", "not a font")
            try dir.write("s.json", Self.style)
            let result = try CLI.run(
                [
                    "render", "--style", "s.json", "--fonts", "fonts", "--center", "0,0", "--zoom", "2", "--size",
                    "96x48",
                    "-o", "o.png",
                ], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError.contains("warning") && result.standardError.contains("Notes.otf"), "\(result)")
            let image = try ImageSurface(contentsOfPNG: dir.file("o.png"))
            var dark = 0
            for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y).red < 128 { dark += 1 } }
            #expect(dark > 50, "the label draws ink: \(dark) dark pixels")
        }
    }

    @Test("--fonts with a missing directory is a usage error naming it; an unknown stack falls back with a warning")
    func errors() throws {
        try withTemporaryDirectory { dir in
            let missing = try CLI.run(["render", "--fonts", "nope", "--size", "64x64", "-o", "o.png"], in: dir.url)
            #expect(missing.exitCode == 64, "\(missing)")
            #expect(missing.standardError.contains("--fonts") && missing.standardError.contains("nope"), "\(missing)")
            try dir.write("s.json", Self.style.replacingOccurrences(of: "DejaVu Sans Bold", with: "Open Sans Fancy"))
            let unknown = try CLI.run(
                ["render", "--style", "s.json", "--center", "0,0", "--zoom", "2", "--size", "64x64", "-o", "o.png"],
                in: dir.url)
            // Issue 25: never a refusal; one warning naming the stack and the face drawn instead.
            #expect(unknown.exitCode == 0, "\(unknown)")
            let warning = "warning: text-font [\"Open Sans Fancy\"]: no font of the stack is installed; drawn with"
            #expect(unknown.standardError.components(separatedBy: warning).count == 2, "\(unknown)")
            for command in ["render", "tiles", "serve"] {
                let help = try CLI.run([command, "--help"], in: dir.url)
                #expect(help.standardOutput.contains("--fonts"), "\(command)")
            }
        }
    }
}
