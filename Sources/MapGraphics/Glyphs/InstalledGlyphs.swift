import Dispatch
import Foundation
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
/// the same on every run for the same font files. Labels ask glyph by glyph (``GlyphProvider``): each glyph's
/// field is made the first time a label draws it and cached (at most ``glyphCapacity`` glyphs), so a map
/// costs the glyphs it shows, not whole ranges, and a halo is a lookup in the field, not a stroke.
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
    /// The most single glyphs kept (each a few hundred bytes).
    public let glyphCapacity: Int
    private let cache: OnceCache<CacheKey, GlyphRange?>
    private let glyphs: OnceCache<CacheKey, SDFGlyph?>
    private let fonts: OnceCache<[String], Font?>

    /// A stack and a range index, or a stack and a code point (single glyphs).
    private struct CacheKey: Hashable, Sendable {
        var stack: [String]
        var index: Int
    }

    /// A maker of ranges from `catalog`'s fonts, keeping at most `capacity` ranges (each up to ~200 kB) and
    /// `glyphCapacity` single glyphs.
    public init(catalog: FontCatalog = .default, capacity: Int = 256, glyphCapacity: Int = 16384) {
        self.catalog = catalog
        self.capacity = max(1, capacity)
        self.glyphCapacity = max(1, glyphCapacity)
        self.cache = OnceCache(capacity: max(1, capacity))
        self.glyphs = OnceCache(capacity: max(1, glyphCapacity))
        self.fonts = OnceCache(capacity: 1024)
    }

    private static let shared = OnceCache<ObjectIdentifier, InstalledGlyphs>(capacity: 64)

    /// The process's glyphs of `catalog` (one per catalog, so that every render of a process reuses the
    /// glyphs made before).
    public static func shared(for catalog: FontCatalog) -> InstalledGlyphs {
        // The cache holds the catalog strongly, so its identifier is not reused while the entry lives.
        (try? shared.value(ObjectIdentifier(catalog)) { InstalledGlyphs(catalog: catalog) })
            ?? InstalledGlyphs(catalog: catalog)
    }

    /// The range `index` of `fontStack`, made the first time and cached; nil when the catalog has no face
    /// at all.
    ///
    /// - Throws: ``GlyphPBFError/badRange(index:)`` for an index outside `0..<256`;
    ///   ``GraphicsError/cannotLoadFont(path:reason:)`` when a font file fails.
    public func glyphRange(fontStack: [String], index: Int) throws -> GlyphRange? {
        guard (0..<GlyphRange.count).contains(index) else { throw GlyphPBFError.badRange(index: index) }
        return try cache.value(CacheKey(stack: fontStack, index: index)) {
            guard let font = try font(fontStack) else { return nil }
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

    /// The font `fontStack` resolves to (nil when the catalog has no face at all), once per stack.
    private func font(_ fontStack: [String]) throws -> Font? {
        try fonts.value(fontStack) {
            do { return try catalog.font(stack: fontStack) } catch GraphicsError.unknownFontStack { return nil }
        }
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

extension InstalledGlyphs: GlyphProvider {
    /// The glyph of `codePoint` from the first face of the stack's font (its fallbacks included) that maps
    /// it, made the first time and cached; nil past U+FFFF (as in glyph PBFs) or when no face has it.
    ///
    /// - Throws: ``GraphicsError/cannotLoadFont(path:reason:)`` when a font file fails.
    public func glyph(fontStack: [String], codePoint: UInt32) throws -> SDFGlyph? {
        guard codePoint <= 0xFFFF, let scalar = Unicode.Scalar(codePoint) else { return nil }
        return try glyphs.value(CacheKey(stack: fontStack, index: Int(codePoint))) {
            guard let font = try font(fontStack) else { return nil }
            for face in font.faces where face.hasGlyph(for: scalar) {
                let outlines = try GlyphOutlineFace.load(path: face.path, index: face.index)
                if let glyph = outlines.glyphs(for: [codePoint]).first { return glyph }
            }
            return nil
        }
    }

    /// Whether the catalog resolves `fontStack` to any face (a stack it does not know falls back with a
    /// warning, as labels do).
    public func hasFont(fontStack: [String]) -> Bool {
        ((try? font(fontStack)) ?? nil) != nil
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
        // Outlines come from the face under its lock; the fields, the costly part, are made apart from it, on
        // every core for a whole range (each glyph alone, so the bytes are the same however they are spread).
        let outlines: [(id: UInt32, rings: [[Point]], advance: Int)] = face.withLock { face in
            codePoints.compactMap { codePoint in
                let index = face.glyphIndex(codePoint: codePoint)
                guard index != 0, let outline = face.loadOutline(glyphIndex: index) else { return nil }
                return (codePoint, GlyphDistanceField.rings(outline.commands), outline.advance)
            }
        }
        let ascender = self.ascender
        @Sendable func make(_ i: Int) -> SDFGlyph {
            GlyphDistanceField.glyph(
                id: outlines[i].id, rings: outlines[i].rings, advance: outlines[i].advance, ascender: ascender)
        }
        guard outlines.count >= 16 else { return outlines.indices.map(make) }
        let made = Locked([SDFGlyph?](repeating: nil, count: outlines.count))
        let chunks = min(outlines.count, 4 * max(1, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (chunk * outlines.count / chunks)..<((chunk + 1) * outlines.count / chunks)
            let glyphs = range.map(make)
            made.withLock { for (i, glyph) in zip(range, glyphs) { $0[i] = glyph } }
        }
        return made.withLock { $0.compactMap { $0 } }
    }
}
