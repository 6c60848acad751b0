internal import CHarfBuzz
import Foundation

// The one place that calls HarfBuzz. HarfBuzz reads the font file itself (its OpenType functions), so
// shaping never touches the FreeType face that Cairo renders with.

/// A glyph placed by shaping: glyph index and pen position in points relative to the text origin.
struct ShapedGlyph: Sendable {
    var index: UInt32
    var x: Double
    var y: Double
}

/// Owns one immutable `hb_font_t` at the font's units-per-em scale.
final class HarfBuzzFont: @unchecked Sendable {
    let font: OpaquePointer
    let unitsPerEm: Double
    let ascender: Double
    let descender: Double

    init(path: String) throws {
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw GraphicsError.cannotLoadFont(path: path, reason: "HarfBuzz could not read the file")
        }
        let face = hb_face_create(blob, 0)!
        hb_blob_destroy(blob)
        let upem = hb_face_get_upem(face)
        guard upem > 0 else {
            hb_face_destroy(face)
            throw GraphicsError.cannotLoadFont(path: path, reason: "HarfBuzz found no font in the file")
        }
        font = hb_font_create(face)!
        hb_face_destroy(face)
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        hb_font_make_immutable(font)
        unitsPerEm = Double(upem)
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        ascender = Double(extents.ascender) / Double(upem)
        descender = Double(-extents.descender) / Double(upem)
    }

    deinit { hb_font_destroy(font) }

    /// Shapes one line of text; returns the glyphs and the advance width, both for a font size of `size`.
    func shape(_ text: String, size: Double) -> (glyphs: [ShapedGlyph], advance: Double) {
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        let utf8 = Array(text.utf8)
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), 0, Int32(chars.count))
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        let k = size / unitsPerEm
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(Int(count))
        var penX = 0.0
        var penY = 0.0
        for i in 0..<Int(count) {
            guard let info = infos?[i], let pos = positions?[i] else { break }
            glyphs.append(
                ShapedGlyph(
                    index: info.codepoint, x: penX + Double(pos.x_offset) * k, y: penY - Double(pos.y_offset) * k))
            penX += Double(pos.x_advance) * k
            penY -= Double(pos.y_advance) * k
        }
        return (glyphs, penX)
    }

    static var version: String { String(cString: hb_version_string()) }
}
