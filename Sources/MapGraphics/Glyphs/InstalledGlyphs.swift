import MapData
import MapGeometry

/// Glyph PBF ranges made from installed fonts: signed distance fields of FreeType outlines, the glyphs a
/// MapLibre client asks a style's `glyphs` URL for, with no PBFs prepared.
///
/// A stack resolves through the ``FontCatalog`` as labels do (``FontCatalog/font(stack:)``): the faces it
/// names that are installed, then the fallback chain; a stack naming no installed font takes the installed
/// face closest to it. Each code point of the range comes from the first face that maps it (a stack combined
/// per glyph, first font wins), drawn as node-fontnik draws it (``SDFGlyph/fontSize`` pixels, unhinted,
/// ``SDFGlyph/border`` pixels of border, metrics in whole pixels; see `GlyphDistanceField`).
///
/// Ranges are cached per stack and range (at most ``capacity``, oldest dropped first) and their bytes are
/// the same on every run for the same font files.
///
/// ```swift
/// let glyphs = InstalledGlyphs(catalog: .default)
/// let latin = try glyphs.glyphRange(fontStack: ["Noto Sans Regular", "Open Sans Regular"], index: 0)
/// ```
public final class InstalledGlyphs: GlyphRangeProvider {
    /// The catalog stacks resolve through.
    public let catalog: FontCatalog
    /// The most ranges kept.
    public let capacity: Int
    private let cache: OnceCache<CacheKey, GlyphRange?>

    private struct CacheKey: Hashable, Sendable {
        var stack: [String]
        var index: Int
    }

    /// A maker of ranges from `catalog`'s fonts, keeping at most `capacity` ranges (each up to ~200 kB).
    public init(catalog: FontCatalog = .default, capacity: Int = 256) {
        self.catalog = catalog
        self.capacity = max(1, capacity)
        self.cache = OnceCache(capacity: max(1, capacity))
    }

    /// The range `index` of `fontStack`, made the first time and cached; nil when the catalog has no face
    /// at all.
    ///
    /// - Throws: ``GlyphPBFError/badRange(index:)`` for an index outside `0..<256`;
    ///   ``GraphicsError/cannotLoadFont(path:reason:)`` when a font file fails.
    public func glyphRange(fontStack: [String], index: Int) throws -> GlyphRange? {
        guard (0..<GlyphRange.count).contains(index) else { throw GlyphPBFError.badRange(index: index) }
        return try cache.value(CacheKey(stack: fontStack, index: index)) {
            let font: Font
            do { font = try catalog.font(stack: fontStack) } catch GraphicsError.unknownFontStack { return nil }
            return try Self.makeRange(
                faces: font.faces, name: fontStack.joined(separator: ","), index: index)
        }
    }

    /// The range `index` of one installed face alone, without fallback (what node-fontnik writes for a font
    /// file: a folder of these per font is what tileserver-gl serves and combines per stack). Not cached.
    ///
    /// ```swift
    /// if let entry = FontCatalog.default.entry(named: "Open Sans Regular") {
    ///     let latin = try InstalledGlyphs.glyphRange(face: entry, index: 0)
    /// }
    /// ```
    ///
    /// - Throws: ``GlyphPBFError/badRange(index:)`` for an index outside `0..<256`;
    ///   ``GraphicsError/cannotLoadFont(path:reason:)`` when the file fails.
    public static func glyphRange(face entry: FontCatalog.Entry, index: Int) throws -> GlyphRange {
        guard (0..<GlyphRange.count).contains(index) else { throw GlyphPBFError.badRange(index: index) }
        return try makeRange(
            faces: [FontFace.load(path: entry.path, index: entry.index)], name: entry.name, index: index)
    }

    /// The range of glyphs `faces` give, each code point from the first face that maps it.
    static func makeRange(faces: [FontFace], name: String, index: Int) throws -> GlyphRange {
        let codePoints = GlyphRange.codePoints(ofRange: index)
        var remaining = Set(codePoints)
        var glyphs: [SDFGlyph] = []
        for face in faces where !remaining.isEmpty {
            // The face's character map (HarfBuzz's, already loaded) says which code points it can give: a face
            // of the fallback chain is opened for outlines only when it has one of them.
            let mapped = codePoints.filter {
                remaining.contains($0) && Unicode.Scalar($0).map { face.hasGlyph(for: $0) } == true
            }
            guard !mapped.isEmpty else { continue }
            let outlines = try GlyphOutlineFace.load(path: face.path, index: face.index)
            let made = outlines.glyphs(for: mapped)
            for glyph in made { remaining.remove(glyph.id) }
            glyphs += made
        }
        return GlyphRange(index: index, fontStack: name, glyphs: glyphs)
    }
}

/// A font face of the SDF maker's own, apart from the one Cairo and HarfBuzz draw with (FreeType faces are
/// not safe to size from two threads), used by one thread at a time.
final class GlyphOutlineFace: Sendable {
    private let face: Locked<FreeTypeFace>
    private let ascender: Int

    private struct Key: Hashable, Sendable {
        var path: String
        var index: Int
    }
    private static let cache = OnceCache<Key, GlyphOutlineFace>()

    private init(path: String, index: Int) throws {
        let face = try FreeTypeFace(path: path, index: index)
        guard face.setPixelSize(SDFGlyph.fontSize) else {
            throw GraphicsError.cannotLoadFont(path: path, reason: "FreeType cannot size it to \(SDFGlyph.fontSize) px")
        }
        self.ascender = face.scaledAscender
        self.face = Locked(face)
    }

    /// The face `index` of the file at `path`, opened once per process.
    static func load(path: String, index: Int) throws -> GlyphOutlineFace {
        try cache.value(Key(path: path, index: index)) { try GlyphOutlineFace(path: path, index: index) }
    }

    /// The SDF glyphs of the code points this face maps, in the order given.
    func glyphs(for codePoints: [UInt32]) -> [SDFGlyph] {
        face.withLock { face in
            codePoints.compactMap { codePoint in
                let index = face.glyphIndex(codePoint: codePoint)
                guard index != 0, let outline = face.loadOutline(glyphIndex: index) else { return nil }
                return GlyphDistanceField.glyph(
                    id: codePoint, rings: GlyphDistanceField.rings(outline.commands), advance: outline.advance,
                    ascender: ascender)
            }
        }
    }
}
