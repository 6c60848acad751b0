import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("mapraster --glyphs")
struct GlyphsOptionTests {
    static let style =
        ##"{"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}, {"id": "names", "type": "symbol", "source": "p", "layout": {"text-field": "ABC", "text-font": ["Open Sans Semibold", "Arial Unicode MS Bold"], "text-size": 24}}]}"##

    @Test("--glyphs TEMPLATE draws labels from glyph PBFs; a template without placeholders is a usage error")
    func drawsFromPBFs() throws {
        try withTemporaryDirectory { dir in
            try dir.write("s.json", Self.style)
            let glyphs = Fixtures.url("maplibre/assets/glyphs").path + "/{fontstack}/{range}.pbf"
            let result = try CLI.run(
                [
                    "render", "--style", "s.json", "--glyphs", glyphs, "--center", "0,0", "--zoom", "2", "--size",
                    "96x48", "-o", "o.png",
                ], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let image = try ImageSurface(contentsOfPNG: dir.file("o.png"))
            var dark = 0
            for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y).red < 128 { dark += 1 } }
            #expect(dark > 50, "the label draws ink: \(dark) dark pixels")
            let bad = try CLI.run(
                ["render", "--style", "s.json", "--glyphs", "fonts/x.pbf", "-o", "o.png"], in: dir.url)
            #expect(bad.exitCode == 64, "\(bad)")
            #expect(bad.standardError.contains("{fontstack}"), "\(bad)")
        }
    }

    @Test("a broken glyph PBF is an error naming the file and the range")
    func brokenFile() throws {
        try withTemporaryDirectory { dir in
            try dir.write("s.json", Self.style)
            try FileManager.default.createDirectory(
                at: dir.file("g/Open Sans Semibold,Arial Unicode MS Bold"), withIntermediateDirectories: true)
            try dir.write("g/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf", "\u{0A}\u{7F}")
            let result = try CLI.run(
                [
                    "render", "--style", "s.json", "--glyphs", "g/{fontstack}/{range}.pbf", "--size", "64x64", "-o",
                    "o.png",
                ],
                in: dir.url)
            #expect(result.exitCode == 1, "\(result)")
            #expect(
                result.standardError.contains("0-255.pbf") && result.standardError.contains("range 0-255"), "\(result)")
        }
    }
}
