import Foundation
import MapData
import MapTestSupport
import Testing

/// `mapraster glyphs`: a folder per font with the 256 ranges, byte-identical across runs, read back as glyph
/// PBFs; a font that is not installed fails and writes nothing.
@Suite("mapraster glyphs")
struct GlyphsCommandTests {
    @Test("writes DIR/FONT/{start}-{end}.pbf for every range, the same bytes on every run")
    func writesEveryRange() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/open-sans/OpenSans-Semibold.ttf")
        else { return }
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["glyphs", "Open Sans Semibold", "-o", "fonts"], in: dir.url)
            #expect(result.exitCode == 0 && result.standardError.isEmpty, "\(result)")
            #expect(result.standardOutput.contains("256 ranges"), "\(result)")
            let folder = dir.file("fonts/Open Sans Semibold")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 256 && files.contains("0-255.pbf") && files.contains("65280-65535.pbf"))
            let latin = try Data(contentsOf: folder.appendingPathComponent("0-255.pbf"))
            let range = try GlyphRange(pbf: [UInt8](latin), index: 0)
            // Open Sans Semibold's A, as MapLibre's test glyphs (made by node-fontnik from the same font) have it.
            #expect(range.fontStack == "Open Sans Semibold" && range.glyphs[65]?.advance == 15)
            let again = try CLI.run(["glyphs", "Open Sans Semibold", "-o", "again"], in: dir.url)
            #expect(again.exitCode == 0)
            #expect(try Data(contentsOf: dir.file("again/Open Sans Semibold/0-255.pbf")) == latin)
        }
    }

    @Test("a font that is not installed fails naming it; no names is a usage error")
    func unknownFont() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["glyphs", "Nonsense Sans", "-o", "fonts"], in: dir.url)
            #expect(result.exitCode == 1 && result.standardError.contains("'Nonsense Sans'"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("fonts").path))
            #expect(try CLI.run(["glyphs", "-o", "fonts"], in: dir.url).exitCode == 64)
        }
    }
}
