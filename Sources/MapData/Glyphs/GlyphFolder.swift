import Foundation
import MapGeometry

/// A folder of glyph PBFs laid out as tileserver-gl's `paths.fonts` and node-fontnik's `build-glyphs` lay it
/// out: one subfolder per font, named as `text-font` names it, holding `{start}-{end}.pbf` files.
///
/// A font is a subfolder that has `0-255.pbf` (tileserver-gl's listing). A stack combines its fonts per
/// glyph, the first font that has a glyph giving it (tileserver-gl's `combine`); fonts of the stack that the
/// folder lacks are skipped. The files are read through ``GlyphPBFTemplate`` (`DIR/{fontstack}/{range}.pbf`
/// for one font at a time): once per process, cached, and a file that is not a glyph PBF is a
/// ``GlyphSourceError`` naming it and its range.
///
/// ```swift
/// let folder = try GlyphFolder(directory: "/srv/fonts")
/// let range = try folder.glyphRange(fontStack: ["Noto Sans Regular", "Open Sans Regular"], index: 0)
/// ```
public final class GlyphFolder: GlyphRangeProvider {
    /// The folder.
    public let directory: URL
    /// The fonts it holds, sorted.
    public let fontNames: [String]
    private let names: Set<String>
    /// One font's files: `DIR/{fontstack}/{range}.pbf` asked for with a stack of one font.
    private let files: GlyphPBFTemplate

    /// Lists the fonts of `directory`.
    ///
    /// - Throws: ``GlyphFileError`` when the folder cannot be listed.
    public init(directory: String) throws(GlyphFileError) {
        let folder = URL(fileURLWithPath: directory)
        self.directory = folder
        let entries: [String]
        do { entries = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw GlyphFileError(path: directory, range: nil, reason: "not a readable folder")
        }
        let fonts = entries.filter { name in
            !name.hasPrefix(".")
                && FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(name).appendingPathComponent("0-255.pbf").path)
        }
        fontNames = fonts.sorted()
        names = Set(fonts)
        do { files = try GlyphPBFTemplate(folder.path + "/{fontstack}/{range}.pbf") } catch {
            throw GlyphFileError(path: directory, range: nil, reason: error.description)
        }
    }

    /// Whether the folder holds `font`.
    public func contains(font: String) -> Bool { names.contains(font) }

    /// Range `index` of one font, or nil when the folder lacks the font or that range's file.
    ///
    /// - Throws: ``GlyphSourceError`` naming the file and range when the file cannot be read or is not a
    ///   glyph PBF; ``GlyphPBFError/badRange(index:)`` for an index outside `0..<256`.
    public func glyphRange(font: String, index: Int) throws -> GlyphRange? {
        guard (0..<GlyphRange.count).contains(index) else { throw GlyphPBFError.badRange(index: index) }
        guard names.contains(font) else { return nil }
        return try files.glyphRange(fontStack: [font], index: index)
    }

    /// Range `index` of a stack: its fonts' glyphs combined, the first font's glyph winning; nil when the
    /// folder holds none of the stack's fonts.
    ///
    /// - Throws: as ``glyphRange(font:index:)``.
    public func glyphRange(fontStack: [String], index: Int) throws -> GlyphRange? {
        guard (0..<GlyphRange.count).contains(index) else { throw GlyphPBFError.badRange(index: index) }
        var combined: GlyphRange?
        for font in fontStack where names.contains(font) {
            guard let range = try glyphRange(font: font, index: index) else { continue }
            if combined == nil {
                combined = GlyphRange(index: index, fontStack: fontStack.joined(separator: ","))
            }
            combined?.fill(from: range)
        }
        return combined
    }
}

/// A glyph folder that cannot be listed: its path and why.
public struct GlyphFileError: MapRasterError, Equatable {
    /// The file (or folder).
    public var path: String
    /// The range's name (`0-255`), when a range was being read.
    public var range: String?
    /// What is wrong.
    public var reason: String

    /// An error about `path`.
    public init(path: String, range: String?, reason: String) {
        self.path = path
        self.range = range
        self.reason = reason
    }

    public var description: String {
        "glyphs '\(path)'" + (range.map { " (range \($0))" } ?? "") + ": \(reason)"
    }
}

extension GlyphRange {
    /// Adds the glyphs of `other` that this range lacks (the glyphs it has win), as tileserver-gl combines the
    /// fonts of a stack.
    public mutating func fill(from other: GlyphRange) {
        for (id, glyph) in other.glyphs where glyphs[id] == nil && codePoints.contains(id) { glyphs[id] = glyph }
    }
}
