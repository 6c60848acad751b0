import Foundation
import MapGeometry

/// Glyph PBFs read from local files named by a template, as MapLibre reads a style's `glyphs` URL:
/// `{fontstack}` is replaced by the font names joined with commas, `{range}` by the range's name
/// (`0-255`). Tileserver-gl's fonts folder is such a template (`fonts/{fontstack}/{range}.pbf`).
///
/// Ranges are read on first use and kept per process (at most ``cacheCapacity`` ranges, oldest dropped
/// first); a file that does not exist gives nil (MapLibre draws a label without glyphs it cannot load),
/// a file that exists but cannot be read or decoded is an error naming the file and the range.
///
/// ```swift
/// let glyphs = try GlyphPBFTemplate("/srv/fonts/{fontstack}/{range}.pbf")
/// let range = try glyphs.glyphRange(fontStack: ["Open Sans Regular"], index: 0)
/// ```
public struct GlyphPBFTemplate: GlyphRangeProvider, Hashable {
    /// The template with `{fontstack}` and `{range}` (a plain path; `file://` is removed).
    public let template: String

    /// The most ranges kept in memory per process (a range of Latin glyphs is about 60 kB).
    public static let cacheCapacity = 4096
    /// The largest glyph PBF read, in bytes.
    public static let fileSizeLimit = 16 << 20

    private static let cache = OnceCache<String, GlyphRange?>(capacity: cacheCapacity)

    /// A template; a `file://` prefix is removed.
    ///
    /// - Throws: ``GlyphSourceError/invalidTemplate(_:)`` unless the template has `{fontstack}` and `{range}`.
    public init(_ template: String) throws(GlyphSourceError) {
        var text = template
        if text.hasPrefix("file://") { text = String(text.dropFirst("file://".count)) }
        guard text.contains("{fontstack}"), text.contains("{range}") else {
            throw GlyphSourceError.invalidTemplate(template)
        }
        self.template = text
    }

    /// The path of range `index` of `fontStack` (names joined with commas).
    public func path(fontStack: [String], index: Int) -> String {
        template.replacingOccurrences(of: "{fontstack}", with: fontStack.joined(separator: ","))
            .replacingOccurrences(of: "{range}", with: GlyphRange.name(ofRange: index))
    }

    /// The glyphs of range `index` for exactly this stack's file, or nil when the file does not exist.
    ///
    /// - Throws: ``GlyphSourceError/unreadable(path:range:reason:)`` when the file exists but cannot be
    ///   read or decoded.
    public func glyphRange(fontStack: [String], index: Int) throws -> GlyphRange? {
        guard (0..<GlyphRange.count).contains(index), !fontStack.isEmpty else { return nil }
        let file = path(fontStack: fontStack, index: index)
        return try Self.cache.value(file) { () throws -> GlyphRange? in
            let bytes: Data
            do {
                bytes = try FileReader.read(URL(fileURLWithPath: file), limit: Self.fileSizeLimit)
            } catch let error as FileReadError {
                if error.problem == .noSuchFile { return nil }
                throw GlyphSourceError.unreadable(
                    path: file, range: GlyphRange.name(ofRange: index), reason: error.description)
            } catch {
                throw GlyphSourceError.unreadable(
                    path: file, range: GlyphRange.name(ofRange: index), reason: "\(error)")
            }
            do {
                return try GlyphRange(pbf: [UInt8](bytes), index: index)
            } catch let error as GlyphPBFError {
                throw GlyphSourceError.unreadable(
                    path: file, range: GlyphRange.name(ofRange: index), reason: error.description)
            } catch {
                throw GlyphSourceError.unreadable(
                    path: file, range: GlyphRange.name(ofRange: index), reason: "\(error)")
            }
        }
    }
}

/// A glyph source that cannot be used.
public enum GlyphSourceError: MapRasterError, Equatable {
    /// A glyphs template without `{fontstack}` or `{range}`.
    case invalidTemplate(String)
    /// A glyph PBF that exists but cannot be read or decoded.
    case unreadable(path: String, range: String, reason: String)

    public var description: String {
        switch self {
        case .invalidTemplate(let template):
            return "glyphs template \"\(template)\" must contain {fontstack} and {range}, "
                + "e.g. \"fonts/{fontstack}/{range}.pbf\""
        case .unreadable(let path, let range, let reason):
            return "glyph PBF \(path) (range \(range)) cannot be read: \(reason)"
        }
    }
}
