/// The SDF glyphs of one `text-font` stack, looked up code point by code point: from the stack's own
/// glyph PBF (`{fontstack}` = the names joined with commas) when the provider has one for the range,
/// else from each font of the stack alone, the first that has the glyph winning (tileserver-gl combines
/// a stack's fonts this way).
///
/// Ranges are asked for once per stack object; the provider caches the files. A ``GlyphProvider`` (installed
/// fonts) is asked glyph by glyph instead. Not thread-safe: one per
/// draw (or per thread).
///
/// ```swift
/// let stack = GlyphStack(names: ["Open Sans Semibold", "Arial Unicode MS Bold"], provider: glyphs)
/// if let a = try stack.glyph(0x61) { print(a.advance) }
/// ```
public final class GlyphStack {
    /// The font names of the stack, in order.
    public let names: [String]
    private let provider: any GlyphRangeProvider
    /// The provider as a ``GlyphProvider`` when it gives glyphs one by one (cast once, not per glyph).
    private let single: (any GlyphProvider)?
    /// By range index: the stack's own range, or the single fonts' ranges in stack order.
    private var ranges: [Int: [GlyphRange]] = [:]
    /// By code point: the glyphs a ``GlyphProvider`` gave (asked once per stack object).
    private var singles: [UInt32: SDFGlyph?] = [:]
    /// Glyphs already looked up, by range index then code point within it (nil: not asked yet; `.some(nil)`:
    /// no font has it), and the range of the last lookup: a label's glyphs cost an array index each, not
    /// the hashing of the lookups above.
    private var pages: [Int: [SDFGlyph??]] = [:]
    private var pageIndex = -1
    private var page: [SDFGlyph??] = []

    /// The glyphs of `names` from `provider`.
    public init(names: [String], provider: any GlyphRangeProvider) {
        self.names = names
        self.provider = provider
        self.single = provider as? any GlyphProvider
    }

    /// The glyph of `codePoint`, or nil when no font of the stack has it (code points past U+FFFF never do).
    ///
    /// - Throws: the provider's error when a file of the range exists but cannot be read.
    public func glyph(_ codePoint: UInt32) throws -> SDFGlyph? {
        guard let index = GlyphRange.index(of: codePoint) else { return try lookUp(codePoint) }
        if index != pageIndex {
            if pageIndex >= 0 { pages[pageIndex] = page }
            // Taken out of the table while in use, so that filling it copies nothing.
            page = pages.removeValue(forKey: index) ?? [SDFGlyph??](repeating: nil, count: 256)
            pageIndex = index
        }
        let slot = Int(codePoint & 0xFF)
        if let known = page[slot] { return known }
        let glyph = try lookUp(codePoint)
        page[slot] = .some(glyph)
        return glyph
    }

    /// ``glyph(_:)`` without the memo.
    private func lookUp(_ codePoint: UInt32) throws -> SDFGlyph? {
        if let single {
            if let known = singles[codePoint] { return known }
            let glyph = try single.glyph(fontStack: names, codePoint: codePoint)
            singles[codePoint] = .some(glyph)
            return glyph
        }
        guard let index = GlyphRange.index(of: codePoint) else { return nil }
        let sources = try ranges(index)
        for range in sources {
            if let glyph = range.glyphs[codePoint] { return glyph }
        }
        return nil
    }

    /// Whether the provider has any file for this stack: the stack's own, or one of its fonts', for the
    /// range of `codePoint` (U+0000-00FF when omitted).
    ///
    /// - Throws: the provider's error when such a file exists but cannot be read.
    public func isAvailable(near codePoint: UInt32 = 0) throws -> Bool {
        if let single { return single.hasFont(fontStack: names) }
        return try !ranges(GlyphRange.index(of: codePoint) ?? 0).isEmpty
    }

    private func ranges(_ index: Int) throws -> [GlyphRange] {
        if let known = ranges[index] { return known }
        var found: [GlyphRange] = []
        if let whole = try provider.glyphRange(fontStack: names, index: index) {
            found = [whole]
        } else if names.count > 1 {
            for name in names {
                if let single = try provider.glyphRange(fontStack: [name], index: index) { found.append(single) }
            }
        }
        ranges[index] = found
        return found
    }
}
