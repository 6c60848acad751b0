import Foundation
import MapRaster

/// The glyph PBF reader: any bytes read as a range (as range 0 and as the range the last byte names) or throw
/// `GlyphPBFError`; nothing traps. A range that reads writes bytes that read back to the same glyphs and write
/// the same bytes again (a round trip that differs is a crash, so that libFuzzer keeps the input).
func fuzzGlyphs(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    for index in Set([0, Int(bytes.last ?? 0)]) {
        guard let range = try? GlyphRange(pbf: bytes, index: index) else { continue }
        let written = range.pbfBytes()
        guard let again = try? GlyphRange(pbf: written, index: index), again.glyphs == range.glyphs,
            again.droppedGlyphs == 0, again.pbfBytes() == written
        else { fatalError("a glyph range read from \(count) bytes does not survive writing and reading") }
    }
    return 0
}
