import Foundation
import MapData
import MapTestSupport
import Testing

/// Glyph PBFs: MapLibre's own test glyphs read with the metrics an independent decoder (a short Python
/// protocol-buffers reader) found in the same file, round trips, and broken files.
@Suite struct GlyphRangeTests {
    static let openSans = "maplibre/assets/glyphs/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf"

    @Test func readsMapLibresTestGlyphs() throws {
        let range = try GlyphRange(pbf: [UInt8](Fixtures.data(Self.openSans)), index: 0)
        #expect(range.fontStack == "Open Sans Semibold, Arial Unicode MS Bold")
        #expect(range.glyphs.count == 191)
        #expect(range.droppedGlyphs == 0)
        // Values from the Python decoder: id, width, height, left, top, advance, bitmap bytes, sum of bytes.
        let expected: [(UInt32, Int, Int, Int, Int, Int, Int, Int)] = [
            (32, 0, 0, 0, -26, 6, 0, 0), (65, 16, 18, 0, -8, 15, 528, 62954), (103, 13, 20, 0, -12, 13, 494, 71424),
        ]
        for (id, width, height, left, top, advance, count, sum) in expected {
            let glyph = try #require(range.glyphs[id])
            #expect(glyph.width == width && glyph.height == height)
            #expect(glyph.left == left && glyph.top == top && glyph.advance == advance)
            #expect(glyph.bitmap.count == count)
            #expect(glyph.bitmap.reduce(0) { $0 + Int($1) } == sum)
            #expect(glyph.bitmap.count == glyph.bitmapWidth * glyph.bitmapHeight)
        }
    }

    @Test func roundTripsByteForByte() throws {
        let range = try GlyphRange(pbf: [UInt8](Fixtures.data(Self.openSans)), index: 0)
        let written = range.pbfBytes()
        let again = try GlyphRange(pbf: written, index: 0)
        #expect(again.glyphs == range.glyphs)
        #expect(again.fontStack == range.fontStack)
        #expect(again.pbfBytes() == written)
    }

    @Test func glyphsOutsideTheRangeOrBrokenAreLeftOut() throws {
        let good = SDFGlyph(
            id: 300, width: 1, height: 1, left: -2, top: 5, advance: 7, bitmap: [UInt8](repeating: 9, count: 49))
        let outside = SDFGlyph(id: 10, width: 0, height: 0, left: 0, top: 0, advance: 3, bitmap: [])
        var range = GlyphRange(index: 1, fontStack: "Test", glyphs: [good, outside])
        #expect(range.glyphs.count == 1)
        // A bitmap of the wrong size is dropped on reading, not trusted.
        range.glyphs[301] = SDFGlyph(id: 301, width: 2, height: 2, left: 0, top: 0, advance: 1, bitmap: [1, 2, 3])
        let read = try GlyphRange(pbf: range.pbfBytes(), index: 1)
        #expect(read.glyphs[300] == good)
        #expect(read.glyphs[301] == nil)
        #expect(read.droppedGlyphs == 1)
        // Read as another range, every glyph is outside it.
        let other = try GlyphRange(pbf: range.pbfBytes(), index: 2)
        #expect(other.glyphs.isEmpty && other.droppedGlyphs == 2)
    }

    @Test func brokenFilesAreErrorsNotTraps() throws {
        let bytes = [UInt8](try Fixtures.data(Self.openSans))
        #expect(throws: GlyphPBFError.self) { try GlyphRange(pbf: Array(bytes.prefix(1000)), index: 0) }
        #expect(throws: GlyphPBFError.badRange(index: 256)) { try GlyphRange(pbf: bytes, index: 256) }
        #expect(throws: GlyphPBFError.self) { try GlyphRange(pbf: [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], index: 0) }
        // Every truncation and a sweep of single-byte corruptions either reads or throws.
        var rng = SplitMix64(state: 26)
        for _ in 0..<300 {
            var copy = Array(bytes.prefix(4000))
            copy[Int(rng.next() % UInt64(copy.count))] = UInt8(truncatingIfNeeded: rng.next())
            _ = try? GlyphRange(pbf: copy, index: 0)
        }
        for cut in stride(from: 0, to: 4000, by: 37) { _ = try? GlyphRange(pbf: Array(bytes.prefix(cut)), index: 0) }
    }

    @Test func rangeNames() {
        #expect(GlyphRange.name(ofRange: 0) == "0-255")
        #expect(GlyphRange.name(ofRange: 255) == "65280-65535")
        #expect(GlyphRange.index(named: "512-767.pbf") == 2)
        #expect(GlyphRange.index(named: "0-255") == 0)
        for bad in ["1-256", "0-254", "65536-65791", "-0-255", "0--255", "", "a-b", "00000000000-255"] {
            #expect(GlyphRange.index(named: bad) == nil, "\(bad)")
        }
        #expect(GlyphRange.index(of: 0x4E2D) == 0x4E)
        #expect(GlyphRange.index(of: 0x1F600) == nil)
    }
}
