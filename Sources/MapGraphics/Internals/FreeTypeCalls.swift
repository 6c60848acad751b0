internal import CFreeType
import Foundation

// The one place that calls FreeType. Faces are created once per font file and kept for the process's
// lifetime (Cairo's font cache may refer to them after the last Swift reference is gone).

/// Owns one FreeType library and one face loaded from a file.
final class FreeTypeFace: @unchecked Sendable {
    let library: FT_Library
    /// The `FT_Face`, untyped so that Cairo's module can take it.
    let raw: OpaquePointer

    init(path: String) throws {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw GraphicsError.cannotLoadFont(path: path, reason: "FreeType could not start")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            FT_Done_FreeType(library)
            throw GraphicsError.cannotLoadFont(path: path, reason: "no such readable file")
        }
        var face: FT_Face?
        let error = FT_New_Face(library, path, 0, &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            throw GraphicsError.cannotLoadFont(
                path: path, reason: "FreeType error \(error): not a font file FreeType reads")
        }
        self.library = library
        self.raw = OpaquePointer(face)
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
