internal import CFreeType
import Foundation

// The one place that calls FreeType. Faces are created once per font file and kept for the process's
// lifetime (Cairo's font cache may refer to them after the last Swift reference is gone).

/// Owns one FreeType library and one face loaded from a file (a face of a collection by its index).
final class FreeTypeFace: @unchecked Sendable {
    let library: FT_Library
    /// The `FT_Face`, untyped so that Cairo's module can take it.
    let raw: OpaquePointer

    init(path: String, index: Int = 0) throws {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw GraphicsError.cannotLoadFont(path: path, reason: "FreeType could not start")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            FT_Done_FreeType(library)
            throw GraphicsError.cannotLoadFont(path: path, reason: "no such readable file")
        }
        guard let faceIndex = CLong(exactly: index), faceIndex >= 0, faceIndex < 0x10000 else {
            FT_Done_FreeType(library)
            throw GraphicsError.cannotLoadFont(path: path, reason: "face index \(index) out of range")
        }
        var face: FT_Face?
        let error = FT_New_Face(library, path, faceIndex, &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            throw GraphicsError.cannotLoadFont(
                path: path, reason: "FreeType error \(error): not a font file FreeType reads")
        }
        self.library = library
        self.raw = OpaquePointer(face)
    }

    /// The names of one face as the file gives them (FreeType's `family_name` and `style_name`).
    struct Names: Sendable, Equatable {
        var index: Int
        var family: String
        var style: String
    }

    /// Opens every face of a font file (a collection has several) and returns their names. Each face is
    /// also checked: it must have a glyph for its first mapped character that FreeType can load.
    ///
    /// - Throws: ``GraphicsError/cannotLoadFont(path:reason:)`` when the file is not a font FreeType reads.
    static func names(path: String) throws -> [Names] {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw GraphicsError.cannotLoadFont(path: path, reason: "FreeType could not start")
        }
        defer { FT_Done_FreeType(library) }
        var result: [Names] = []
        var count = 1
        var index = 0
        while index < count {
            var face: FT_Face?
            let error = FT_New_Face(library, path, CLong(index), &face)
            guard error == 0, let face else {
                throw GraphicsError.cannotLoadFont(
                    path: path, reason: "FreeType error \(error) on face \(index): not a font file FreeType reads")
            }
            defer { FT_Done_Face(face) }
            if index == 0 {
                // A collection names its face count; a hostile file cannot make the scan longer than 256 faces.
                count = max(1, min(Int(exactly: face.pointee.num_faces) ?? 1, 256))
            }
            var gindex: FT_UInt = 0
            _ = FT_Get_First_Char(face, &gindex)
            let loadError = FT_Load_Glyph(face, gindex, FT_Int32(FT_LOAD_NO_SCALE))
            guard loadError == 0 else {
                throw GraphicsError.cannotLoadFont(
                    path: path, reason: "FreeType error \(loadError) loading a glyph of face \(index): damaged font")
            }
            let family = face.pointee.family_name.map { String(cString: $0) } ?? ""
            let style = face.pointee.style_name.map { String(cString: $0) } ?? ""
            guard !family.isEmpty else {
                throw GraphicsError.cannotLoadFont(path: path, reason: "face \(index) has no family name")
            }
            result.append(Names(index: index, family: family, style: style))
            index += 1
        }
        return result
    }

    static var version: String {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
        FT_Library_Version(library, &major, &minor, &patch)
        FT_Done_FreeType(library)
        return "\(major).\(minor).\(patch)"
    }
}
