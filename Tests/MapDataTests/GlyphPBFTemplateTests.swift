import Foundation
import MapData
import MapTestSupport
import Testing

/// Glyph PBFs from a template: the stack's own file, per-glyph fallback through the stack's single fonts, a
/// missing file as no glyphs, a broken file as an error naming the file and range.
@Suite struct GlyphPBFTemplateTests {
    /// A folder with `A,B/0-255.pbf` absent, `A/0-255.pbf` holding "a" and `B/0-255.pbf` holding "a" and "b".
    static func folder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glyphs-\(UUID().uuidString)")
        func write(_ stack: String, _ glyphs: [SDFGlyph], name: String = "0-255.pbf") throws {
            let dir = root.appendingPathComponent(stack)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(GlyphRange(index: 0, fontStack: stack, glyphs: glyphs).pbfBytes())
                .write(to: dir.appendingPathComponent(name))
        }
        func glyph(_ id: UInt32, advance: Int) -> SDFGlyph {
            SDFGlyph(
                id: id, width: 1, height: 1, left: 0, top: 0, advance: advance, bitmap: [UInt8](repeating: 9, count: 49)
            )
        }
        try write("A", [glyph(0x61, advance: 10)])
        try write("B", [glyph(0x61, advance: 20), glyph(0x62, advance: 30)])
        try FileManager.default.createDirectory(at: root.appendingPathComponent("C"), withIntermediateDirectories: true)
        try Data([0x0A, 0xFF]).write(to: root.appendingPathComponent("C/0-255.pbf"))
        return root
    }

    @Test func fallsBackThroughTheStackPerGlyph() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let template = try GlyphPBFTemplate("file://" + root.path + "/{fontstack}/{range}.pbf")
        let stack = GlyphStack(names: ["A", "B"], provider: template)
        #expect(try stack.isAvailable())
        #expect(try stack.glyph(0x61)?.advance == 10)  // from A, the first font that has it
        #expect(try stack.glyph(0x62)?.advance == 30)  // only B has it
        #expect(try stack.glyph(0x63) == nil)
        #expect(try stack.glyph(0x1F600) == nil)  // past U+FFFF: no range
        // No file for the range: no glyphs, not an error (MapLibre draws the label without them).
        #expect(try stack.glyph(0x4E00) == nil)
        // Asked again after another range (the stack's memo of looked-up glyphs): the same answers.
        #expect(try stack.glyph(0x61)?.advance == 10)
        #expect(try stack.glyph(0x62)?.advance == 30)
        #expect(try stack.glyph(0x63) == nil)
        #expect(try stack.glyph(0x4E00) == nil)
        #expect(try !GlyphStack(names: ["Missing"], provider: template).isAvailable())
    }

    @Test func aBrokenFileIsAnErrorNamingFileAndRange() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let template = try GlyphPBFTemplate(root.path + "/{fontstack}/{range}.pbf")
        #expect(throws: GlyphSourceError.self) { try template.glyphRange(fontStack: ["C"], index: 0) }
        do {
            _ = try template.glyphRange(fontStack: ["C"], index: 0)
        } catch let error as GlyphSourceError {
            #expect(error.description.contains(root.path + "/C/0-255.pbf"))
            #expect(error.description.contains("range 0-255"))
        }
        #expect(throws: GlyphSourceError.self) { try GlyphPBFTemplate("fonts/{fontstack}.pbf") }
    }

    @Test func readsMapLibresTestGlyphsThroughTheTemplate() throws {
        let folder = Fixtures.url("maplibre/assets/glyphs").path
        let template = try GlyphPBFTemplate(folder + "/{fontstack}/{range}.pbf")
        #expect(
            template.path(fontStack: ["Open Sans Semibold", "Arial Unicode MS Bold"], index: 1)
                == folder + "/Open Sans Semibold,Arial Unicode MS Bold/256-511.pbf")
        let stack = GlyphStack(names: ["Open Sans Semibold", "Arial Unicode MS Bold"], provider: template)
        #expect(try stack.glyph(0x41)?.advance == 15)
    }
}
