import Foundation
import MapGraphics
import MapTestSupport
import Testing

/// Complex-script shaping against HarfBuzz's own `hb-shape` (Debian libharfbuzz-bin 6.0.0) for the same
/// font file and text, committed in fixtures/fonts/shaping.tsv by Scripts/prepare-font-expectations.sh.
/// Shaping at a size equal to the font's units per em gives positions in font units, as hb-shape prints.
@Suite("Shaping")
struct ShapingTests {
    struct Expected: Sendable, CustomStringConvertible {
        var font: String
        var text: String
        /// Glyph id, x (pen + dx), y offset, in font units.
        var glyphs: [(id: UInt32, x: Double, y: Double)]
        var width: Double
        var description: String { text }
    }

    static let table: [Expected] = {
        guard let text = try? String(contentsOf: Fixtures.url("fonts/shaping.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let f = line.split(separator: "\t").map(String.init)
            guard f.count == 3 else { return nil }
            var pen = 0.0
            var glyphs: [(UInt32, Double, Double)] = []
            for item in f[2].trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: "|") {
                // gid=cluster[@dx,dy]+advance
                let gid = UInt32(item.prefix { $0 != "=" }) ?? 0
                let advance = Double(item.split(separator: "+").last ?? "0") ?? 0
                var dx = 0.0
                var dy = 0.0
                if let at = item.firstIndex(of: "@") {
                    let offsets = item[item.index(after: at)...].prefix { $0 != "+" }.split(separator: ",")
                    dx = Double(offsets[0]) ?? 0
                    dy = Double(offsets[1]) ?? 0
                }
                glyphs.append((gid, pen + dx, -dy))
                pen += advance
            }
            return Expected(font: f[0], text: f[1], glyphs: glyphs, width: pen)
        }
    }()

    /// head.unitsPerEm of the two files (read from the files' head tables).
    static func unitsPerEm(_ path: String) -> Double { path.contains("dejavu") ? 2048 : 1024 }

    @Test("The hb-shape table is there") func tableLoaded() { #expect(Self.table.count == 7) }

    @Test("Arabic, Hebrew and Devanagari shape as hb-shape shapes them: glyphs, order, positions", arguments: table)
    func matchesHBShape(expected: Expected) throws {
        let font = try Font.load(path: expected.font)
        let upem = Self.unitsPerEm(expected.font)
        let shaped = font.shape(expected.text, size: upem)
        #expect(shaped.glyphs.map(\.index) == expected.glyphs.map(\.id))
        for (g, e) in zip(shaped.glyphs, expected.glyphs) {
            #expect(abs(g.x - e.x) < 1e-6 && abs(g.y - e.y) < 1e-6, "\(g.x),\(g.y) vs \(e.x),\(e.y)")
            #expect(g.face.path == expected.font)
        }
        #expect(abs(shaped.width - expected.width) < 1e-6)
    }

    @Test("Fallback: Arabic and Devanagari in a DejaVu-only stack are drawn by the faces that have them")
    func fallbackFaces() throws {
        let font = try FontCatalog.default.font(stack: ["DejaVu Sans Bold"])
        let text = "Delhi दिल्ली 東京"
        let shaped = font.shape(text, size: 1000)
        let files = shaped.glyphs.map { ($0.face.path as NSString).lastPathComponent }
        #expect(files.first == "DejaVuSans-Bold.ttf")
        #expect(files.contains("Lohit-Devanagari.ttf"))
        #expect(files.last == "ipaexg.ttf")
        #expect(!shaped.glyphs.contains { $0.index == 0 })
        #expect(font.covers(text))
        #expect(!font.stackCovers(text))
        // The Devanagari run is shaped as on its own (conjuncts): the same glyphs as hb-shape's.
        let delhi = try #require(Self.table.first { $0.text == "नई दिल्ली" })
        // (The space after it stays with the face before it.)
        let lohit = shaped.glyphs.filter { $0.face.path.hasSuffix("Lohit-Devanagari.ttf") }.map(\.index)
        let dilli = Array(delhi.glyphs.map(\.id).drop { $0 != 3 }.dropFirst())
        #expect(Array(lohit.prefix(dilli.count)) == dilli && dilli.count == 4, "\(lohit) \(dilli)")
    }

    /// fc-list's charsets: IPAex Gothic has 戸 (U+6238) but not its traditional form 戶 (U+6236, in Natural
    /// Earth's 松戶市) nor simplified Chinese 这 说 (U+8FD9, U+8BF4); Droid Sans Fallback (fonts-droid-fallback)
    /// has them; Hangul (서울, U+C11C U+C6B8) is in neither (nor mostly in Droid) and comes from Nanum Gothic
    /// (fonts-nanum). (A space stays with the face before it.)
    @Test("Fallback: kanji IPAex lacks, simplified Chinese and Hangul are drawn by their fallback faces, not as boxes")
    func cjkFallback() throws {
        let font = try FontCatalog.default.font(stack: ["DejaVu Sans Bold"])
        let shaped = font.shape("松戸 松戶 这说 서울", size: 1000)
        let files = shaped.glyphs.map { ($0.face.path as NSString).lastPathComponent }
        let (ipa, droid, nanum) = ("ipaexg.ttf", "DroidSansFallbackFull.ttf", "NanumGothic.ttf")
        #expect(files == [ipa, ipa, ipa, ipa, droid, droid, droid, droid, droid, nanum, nanum], "\(files)")
        #expect(!shaped.glyphs.contains { $0.index == 0 })
    }

    @Test("Mixed Latin and Arabic: the Latin run on the left, the Arabic run right to left after it")
    func bidi() throws {
        let font = try Font.load(path: Font.defaultPath)
        let cairo = try #require(Self.table.first { $0.text == "القاهرة" })
        let latin = font.shape("Cairo ", size: 2048)
        let mixed = font.shape("Cairo القاهرة", size: 2048)
        #expect(Array(mixed.glyphs.prefix(latin.glyphs.count)).map(\.index) == latin.glyphs.map(\.index))
        #expect(Array(mixed.glyphs.suffix(cairo.glyphs.count)).map(\.index) == cairo.glyphs.map(\.id))
        #expect(abs(mixed.width - latin.width - cairo.width) < 1e-6)
        // Arabic first: the paragraph is right to left, so the Latin word ends up on the left.
        let rtl = font.shape("القاهرة Cairo", size: 2048)
        #expect(rtl.glyphs.first?.index == latin.glyphs.first?.index)
        // Digits keep their order inside Arabic text.
        let digits = font.shape("شارع 12", size: 2048)
        let one = font.shape("1", size: 2048).glyphs[0].index
        let two = font.shape("2", size: 2048).glyphs[0].index
        let order = digits.glyphs.map(\.index).filter { $0 == one || $0 == two }
        #expect(order == [one, two])
        #expect(digits.glyphs.first?.index == one)
    }

    @Test("A line feed or tab inside one line shapes as a space, not a missing-glyph box")
    func controlCharacters() throws {
        let font = try Font.load(path: Font.defaultPath)
        let shaped = font.shape("Tokyo\n東京\tX", size: 10)
        #expect(!shaped.glyphs.contains { $0.index == 0 })
        #expect(abs(shaped.width - font.shape("Tokyo 東京 X", size: 10).width) < 1e-9)
    }

    @Test("Latin text shapes exactly as one HarfBuzz run did before stacks (goldens keep their glyph positions)")
    func latinUnchanged() throws {
        let font = try Font.load(path: Font.defaultPath)
        // hmtx advances of DejaVu Sans: A 1401, V 1401 with the GPOS kern A-V -131.
        let shaped = font.shape("AV", size: 2048)
        #expect(shaped.glyphs.map(\.x) == [0, 1270])
        #expect(shaped.width == 2671)
    }

    @Test("Vertical Japanese: one column top to bottom, the vertical forms of the brackets and the long vowel mark")
    func vertical() throws {
        let font = try FontCatalog.default.font(stack: ["IPAexGothic"])
        let horizontal = font.shape("東京（トーキョー）", size: 1000)
        let vertical = font.shape("東京（トーキョー）", size: 1000, vertical: true)
        #expect(vertical.isVertical)
        #expect(vertical.glyphs.count == horizontal.glyphs.count)
        // Pen positions go down the column one em per ideograph and keep x on the center line.
        let ys = vertical.glyphs.map(\.y)
        #expect(zip(ys, ys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(abs(vertical.height - 9000) < 1e-6, "\(vertical.height)")
        #expect(vertical.glyphs.allSatisfy { abs($0.x + 500) < 1e-6 }, "\(vertical.glyphs.map(\.x))")
        // `vert` substitutes the parentheses and ー with their vertical forms; the kanji stay.
        let changed = zip(horizontal.glyphs, vertical.glyphs).enumerated().filter { $1.0.index != $1.1.index }
            .map(\.offset)
        #expect(changed.contains(2) && changed.contains(4) && changed.contains(8), "\(changed)")
        #expect(!changed.contains(0) && !changed.contains(1))
    }

    @Test("Sections: per-section font, scale and color in one shaped text, lines centered")
    func sections() throws {
        let regular = try FontCatalog.default.font(stack: ["DejaVu Sans"])
        let bold = try FontCatalog.default.font(stack: ["DejaVu Sans Bold"])
        let shaped = Font.shape(
            sections: [
                TextSection(text: "Tokyo\n", font: bold, scale: 1),
                TextSection(text: "東京", font: regular, scale: 0.8, color: .init(red: 1, green: 0, blue: 0)),
            ], size: 20, lineHeight: 24)
        let first = shaped.glyphs.filter { $0.y == 0 }
        let second = shaped.glyphs.filter { $0.y == 24 }
        #expect(first.count == 5 && second.count == 2)
        #expect(first.allSatisfy { $0.face.path.hasSuffix("DejaVuSans-Bold.ttf") && $0.scale == 1 && $0.color == nil })
        #expect(second.allSatisfy { $0.face.path.hasSuffix("ipaexg.ttf") && $0.scale == 0.8 && $0.color != nil })
        let boldWidth = bold.measure("Tokyo", size: 20).width
        #expect(abs(shaped.width - boldWidth) < 1e-9)
        #expect(shaped.height == 48)
        // The narrower second line is centered: 2 ideographs of 16 points (0.8 x 20).
        #expect(abs(second[0].x - (boldWidth - 32) / 2) < 1e-6)
    }
}
