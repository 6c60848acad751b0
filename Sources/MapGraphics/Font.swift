import Foundation
import MapGeometry

/// A font stack: the faces a `text-font` list names, then a fallback chain, for shaping (HarfBuzz) and
/// drawing (FreeType through Cairo).
///
/// Per character, the first face of the stack that has a glyph for it draws it; characters none of the
/// named faces has go to the fallback faces (``fallbackPaths``: DejaVu Sans for Latin, Greek, Cyrillic,
/// Arabic and Hebrew; IPAex Gothic for Japanese; Lohit Devanagari; Droid Sans Fallback for Chinese and the
/// kanji IPAex lacks; Nanum Gothic for Korean; then Noto Sans CJK/Arabic/Hebrew/Devanagari when installed, filling only gaps). Text is
/// split into runs by face and script, each run shaped by HarfBuzz with its script and direction,
/// right-to-left runs put in visual order.
///
/// Fonts are pinned by file path, never looked up among the host's fonts, so output does not depend on
/// what else is installed. Each file is loaded once per process and kept.
///
/// ```swift
/// let font = try Font.load(path: Font.defaultPath)
/// let width = font.measure("Helsinki", size: 12).width
/// ```
public final class Font: Sendable {
    /// DejaVu Sans from Debian's fonts-dejavu-core, the default for text.
    public static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// The fallback chain, in order, tried for characters no face of a stack has. Files that are not
    /// installed are left out; DejaVu, IPAex, Lohit, Droid and Nanum come with `Scripts/install-system-deps.sh`.
    public static let fallbackPaths: [String] = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",  // Latin, Greek, Cyrillic, Arabic, Hebrew, symbols
        "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",  // Japanese kana and kanji (fonts-ipaexfont-gothic)
        "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf",  // Devanagari (fonts-lohit-deva)
        // Chinese and the rarer ideographs IPAex lacks (fonts-droid-fallback)
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",  // Korean Hangul (fonts-nanum)
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  // fonts-noto-cjk, optional
        "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",  // fonts-noto-core, optional
        "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
    ]

    /// The faces in the order they are tried: the stack's own, then the fallback faces not among them.
    public let faces: [FontFace]
    /// How many of ``faces`` the stack named (the rest are fallback).
    public let stackCount: Int

    /// The file the stack's first face was loaded from.
    public var path: String { faces[0].path }
    /// The stack's first face: its metrics give a line's ascent and descent.
    public var primary: FontFace { faces[0] }

    /// A stack of `faces` followed by the fallback faces (those installed); `faces` must not be empty.
    ///
    /// - Throws: ``GraphicsError/cannotLoadFont(path:reason:)`` when `faces` is empty.
    public init(faces: [FontFace], fallback: Bool = true) throws {
        guard !faces.isEmpty else { throw GraphicsError.cannotLoadFont(path: "", reason: "an empty font stack") }
        var all: [FontFace] = []
        for face in faces where !all.contains(face) { all.append(face) }
        stackCount = all.count
        if fallback {
            for face in Self.fallbackFaces where !all.contains(face) { all.append(face) }
        }
        self.faces = all
    }

    /// The fallback faces that are installed, loaded once.
    static let fallbackFaces: [FontFace] = fallbackPaths.compactMap { path in
        FileManager.default.isReadableFile(atPath: path) ? try? FontFace.load(path: path) : nil
    }

    private static let cache = OnceCache<String, Font>()

    /// Loads the font at `path` (followed by the fallback chain), or returns the one already loaded from it.
    ///
    /// - Throws: ``GraphicsError/cannotLoadFont(path:reason:)`` when the file is missing or not a font.
    public static func load(path: String) throws -> Font {
        try cache.value(path) { try Font(faces: [FontFace.load(path: path)]) }
    }

    private static let stackCache = OnceCache<[String], Font>()

    /// The font for a stack of faces, made once per process for the same faces.
    static func stack(_ faces: [FontFace]) throws -> Font {
        try stackCache.value(faces.map { "\($0.index)|\($0.path)" }) { try Font(faces: faces) }
    }

    /// The size of a line of text.
    public struct Metrics: Hashable, Sendable {
        /// The advance width in points.
        public var width: Double
        /// Distance from the baseline up to the top of the tallest glyphs, in points.
        public var ascent: Double
        /// Distance from the baseline down to the bottom of the lowest glyphs, in points (positive).
        public var descent: Double
    }

    /// Measures one line of text at `size` points; ascent and descent are the first face's.
    public func measure(_ text: String, size: Double) -> Metrics {
        let shaped = shape(text, size: size)
        let m = verticalMetrics
        return Metrics(width: shaped.width, ascent: m.ascender * size, descent: m.descender * size)
    }
}
