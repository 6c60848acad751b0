internal import CHarfBuzz
import Foundation

// The one place that calls HarfBuzz. HarfBuzz reads the font file itself (its OpenType functions), so
// shaping never touches the FreeType face that Cairo renders with.

/// A glyph placed by shaping: glyph index and pen position in points relative to the text origin.
struct ShapedGlyph: Sendable {
    var index: UInt32
    var x: Double
    var y: Double
    /// The UTF-8 offset of the first character the glyph belongs to (HarfBuzz's cluster).
    var cluster: Int = 0
}

/// The direction a run of text is shaped in.
enum ShapingDirection: Sendable, Equatable {
    case leftToRight, rightToLeft, topToBottom
}

/// Unicode script properties, from HarfBuzz's Unicode functions (ISO 15924 tags).
enum UnicodeScripts {
    /// The ISO 15924 tag of the script of `scalar`, as a 32-bit tag (`'Latn'`, `'Arab'`, `'Zyyy'`).
    static func script(of scalar: UInt32) -> UInt32 {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue
    }

    /// `Zyyy` (common), `Zinh` (inherited) and `Zzzz` (unknown): characters that take the script of
    /// their neighbours.
    static func isNeutral(_ script: UInt32) -> Bool {
        script == HB_SCRIPT_COMMON.rawValue || script == HB_SCRIPT_INHERITED.rawValue
            || script == HB_SCRIPT_UNKNOWN.rawValue
    }

    /// Whether the script is written right to left (Arabic, Hebrew, Syriac, Thaana, N'Ko, ...).
    static func isRightToLeft(_ script: UInt32) -> Bool {
        hb_script_get_horizontal_direction(hb_script_t(rawValue: script)) == HB_DIRECTION_RTL
    }

    /// The script's four-letter ISO 15924 name.
    static func name(_ script: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: script >> $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Owns one immutable `hb_font_t` at the font's units-per-em scale.
final class HarfBuzzFont: @unchecked Sendable {
    let font: OpaquePointer
    let unitsPerEm: Double
    let ascender: Double
    let descender: Double

    init(path: String, index: Int = 0) throws {
        guard let faceIndex = UInt32(exactly: index) else {
            throw GraphicsError.cannotLoadFont(path: path, reason: "face index \(index) out of range")
        }
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw GraphicsError.cannotLoadFont(path: path, reason: "HarfBuzz could not read the file")
        }
        guard let face = hb_face_create(blob, faceIndex) else {
            hb_blob_destroy(blob)
            throw GraphicsError.cannotLoadFont(path: path, reason: "HarfBuzz could not make a face")
        }
        hb_blob_destroy(blob)
        let upem = hb_face_get_upem(face)
        guard upem > 0, hb_face_get_glyph_count(face) > 0 else {
            hb_face_destroy(face)
            throw GraphicsError.cannotLoadFont(path: path, reason: "HarfBuzz found no font in the file")
        }
        guard let font = hb_font_create(face) else {
            hb_face_destroy(face)
            throw GraphicsError.cannotLoadFont(path: path, reason: "HarfBuzz could not make a font")
        }
        self.font = font
        hb_face_destroy(face)
        hb_font_set_scale(font, Int32(clamping: upem), Int32(clamping: upem))
        hb_font_make_immutable(font)
        unitsPerEm = Double(upem)
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        ascender = Double(extents.ascender) / Double(upem)
        descender = Double(-extents.descender) / Double(upem)
    }

    deinit { hb_font_destroy(font) }

    /// Whether the font's cmap maps `scalar` to a glyph. Thread-safe (an immutable `hb_font_t`), unlike
    /// asking the FreeType face that Cairo draws with.
    func hasGlyph(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 && glyph != 0
    }

    /// Shapes one line of text with the script and direction HarfBuzz guesses; returns the glyphs and the
    /// advance width, both for a font size of `size`.
    func shape(_ text: String, size: Double) -> (glyphs: [ShapedGlyph], advance: Double) {
        let utf8 = Array(text.utf8)
        let result = shape(utf8: utf8, range: 0..<utf8.count, script: nil, direction: nil, size: size)
        return (result.glyphs, result.advanceX)
    }

    /// Shapes the characters `range` (UTF-8 offsets) of `utf8`, the rest of the text serving as context
    /// (Arabic joining across runs). Glyphs come in visual order: left to right for horizontal text.
    ///
    /// - Parameters:
    ///   - script: an ISO 15924 tag, or nil to let HarfBuzz guess.
    ///   - direction: nil to let HarfBuzz guess from the script.
    func shape(
        utf8: [UInt8], range: Range<Int>, script: UInt32?, direction: ShapingDirection?, size: Double
    ) -> (glyphs: [ShapedGlyph], advanceX: Double, advanceY: Double) {
        guard let buffer = hb_buffer_create() else { return ([], 0, 0) }
        defer { hb_buffer_destroy(buffer) }
        guard let count = Int32(exactly: utf8.count), let start = UInt32(exactly: range.lowerBound),
            let length = Int32(exactly: range.count), range.upperBound <= utf8.count
        else { return ([], 0, 0) }
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, count, start, length)
            }
        }
        if let script { hb_buffer_set_script(buffer, hb_script_t(rawValue: script)) }
        switch direction {
        case .leftToRight: hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        case .rightToLeft: hb_buffer_set_direction(buffer, HB_DIRECTION_RTL)
        case .topToBottom: hb_buffer_set_direction(buffer, HB_DIRECTION_TTB)
        case nil: break
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var infoCount: UInt32 = 0
        var positionCount: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &infoCount)
        let positions = hb_buffer_get_glyph_positions(buffer, &positionCount)
        let k = size / unitsPerEm
        var glyphs: [ShapedGlyph] = []
        let n = Int(min(infoCount, positionCount))
        glyphs.reserveCapacity(n)
        var penX = 0.0
        var penY = 0.0
        for i in 0..<n {
            guard let info = infos?[i], let pos = positions?[i] else { break }
            glyphs.append(
                ShapedGlyph(
                    index: info.codepoint, x: penX + Double(pos.x_offset) * k, y: penY - Double(pos.y_offset) * k,
                    cluster: Int(info.cluster)))
            penX += Double(pos.x_advance) * k
            penY -= Double(pos.y_advance) * k
        }
        return (glyphs, penX, penY)
    }

    static var version: String { String(cString: hb_version_string()) }
}
