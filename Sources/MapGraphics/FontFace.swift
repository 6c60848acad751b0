import Foundation
import MapGeometry

/// One face of a font file (a collection holds several, by index): what shapes and draws the glyphs of a
/// ``Font``, which is a stack of faces.
///
/// Faces are loaded once per process per file and index and kept; two glyphs drawn by the same face
/// carry the same instance.
public final class FontFace: Sendable, Hashable, CustomStringConvertible {
    /// The file the face was loaded from.
    public let path: String
    /// The face's index in its file (0 unless the file is a collection).
    public let index: Int
    let freeType: FreeTypeFace
    let cairoFace: CairoFontFace
    let harfBuzz: HarfBuzzFont

    private init(path: String, index: Int) throws {
        self.path = path
        self.index = index
        freeType = try FreeTypeFace(path: path, index: index)
        cairoFace = try CairoFontFace(freeTypeFace: freeType)
        harfBuzz = try HarfBuzzFont(path: path, index: index)
    }

    private struct Key: Hashable, Sendable {
        var path: String
        var index: Int
    }
    private static let cache = OnceCache<Key, FontFace>()

    /// Loads face `index` of the font file at `path`, or returns the one already loaded.
    ///
    /// - Throws: ``GraphicsError/cannotLoadFont(path:reason:)`` when the file is missing or not a font.
    public static func load(path: String, index: Int = 0) throws -> FontFace {
        try cache.value(Key(path: path, index: index)) { try FontFace(path: path, index: index) }
    }

    /// Whether the face has a glyph for the Unicode scalar.
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { harfBuzz.hasGlyph(scalar.value) }

    /// The file name and, for a face of a collection, its index: `DejaVuSans.ttf`, `NotoSansCJK.ttc#2`.
    public var description: String {
        let name = (path as NSString).lastPathComponent
        return index == 0 ? name : "\(name)#\(index)"
    }

    public static func == (a: FontFace, b: FontFace) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
