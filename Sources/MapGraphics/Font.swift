import Foundation
import MapGeometry

/// A font loaded from a file by path, for shaping (HarfBuzz) and drawing (FreeType through Cairo).
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

    /// The file the font was loaded from.
    public let path: String
    let freeType: FreeTypeFace
    let cairoFace: CairoFontFace
    let harfBuzz: HarfBuzzFont

    private init(path: String) throws {
        self.path = path
        freeType = try FreeTypeFace(path: path)
        cairoFace = try CairoFontFace(freeTypeFace: freeType)
        harfBuzz = try HarfBuzzFont(path: path)
    }

    private static let cache = OnceCache<String, Font>()

    /// Loads the font at `path`, or returns the one already loaded from it.
    ///
    /// - Throws: ``GraphicsError/cannotLoadFont(path:reason:)`` when the file is missing or not a font.
    public static func load(path: String) throws -> Font {
        try cache.value(path) { try Font(path: path) }
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

    /// Measures one line of text at `size` points.
    public func measure(_ text: String, size: Double) -> Metrics {
        let shaped = harfBuzz.shape(text, size: size)
        return Metrics(width: shaped.advance, ascent: harfBuzz.ascender * size, descent: harfBuzz.descender * size)
    }
}
