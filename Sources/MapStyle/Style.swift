import Foundation
import MapData

/// A map style: sources and layers drawn in order, from a subset of the MapLibre style specification
/// version 8 (see `styles/README.md`).
///
/// ```swift
/// let style = try Style.load(contentsOf: URL(fileURLWithPath: "styles/standard.json"))
/// ```
public struct Style: Sendable, Equatable {
    /// `name`.
    public var name: String?
    /// Sources by id.
    public var sources: [String: StyleSource]
    /// Layers, back to front.
    public var layers: [StyleLayer]
    /// `metadata`, kept as written.
    public var metadata: JSONValue?
    /// The style's sprites (`sprite`): where their `NAME.json` and `NAME.png` are, by id (`default` for
    /// the one-string form), for `*-pattern` images.
    public var sprites: [SpriteLocation] = []
    /// `light`: how `fill-extrusion` layers are shaded.
    public var light = StyleLight()
    /// `glyphs` when it is local (a path relative to the style, an absolute path or `file://`): the
    /// template of its glyph PBFs as an absolute path with `{fontstack}` and `{range}`; nil when the style
    /// has none or names a network location (which is not downloaded).
    public var glyphs: String?
    /// Members the subset accepts but does not use (`center`, `zoom`, `bearing`, `pitch`, `glyphs`,
    /// `sprite`, and members a lenient read did not know), kept for writing the style back.
    public var unused: [String: JSONValue]
    /// What a lenient read left out or could not use (see ``StyleLoadOptions``); empty after a strict read.
    public var warnings = StyleWarnings()
    /// The sources a lenient read could not use (network locations, unsupported types) whose layers it left
    /// out, sorted.
    public var unreadSources: [String] = []
    /// Whether the style was read with ``StyleLoadOptions/strict``: invalid GeoJSON in a source (or an
    /// invalid feature) is then an error when drawn, not a warning with the source (or feature) left out.
    public var isStrict = false

    /// Why nothing can be drawn, when every layer with a source was left out because its source is on the
    /// network or of an unsupported type; nil otherwise. A read fails with it unless
    /// ``StyleLoadOptions/allowsNothingToDraw``.
    public var nothingToDraw: String? {
        guard !unreadSources.isEmpty, !layers.contains(where: { $0.source != nil }) else { return nil }
        return "nothing can be drawn: every layer with a source reads a network location (MapRaster downloads "
            + "nothing: no network) or a source of an unsupported type (" + unreadSources.joined(separator: ", ")
            + "); give " + unreadSources.map { "--source \($0)=PATH" }.joined(separator: " ")
    }

    /// Creates a style.
    public init(
        name: String? = nil, sources: [String: StyleSource] = [:], layers: [StyleLayer] = [],
        metadata: JSONValue? = nil, unused: [String: JSONValue] = [:]
    ) {
        self.name = name
        self.sources = sources
        self.layers = layers
        self.metadata = metadata
        self.unused = unused
    }

    /// The root `bearing`: the heading (degrees clockwise from north) a view of the style faces when nothing
    /// else says; nil when the style gives none or gives something other than a number.
    public var bearing: Double? { unused["bearing"]?.number }

    /// The root `pitch`: the view's tilt from straight down (degrees) when nothing else says; nil when the
    /// style gives none or something other than a number. Checked against the camera's range where used.
    public var pitch: Double? { unused["pitch"]?.number }

    /// The attribution of every source, in source id order, without duplicates.
    public var attribution: [String] {
        var result: [String] = []
        for id in sources.keys.sorted() {
            if let a = sources[id]?.attribution, !a.isEmpty, !result.contains(a) { result.append(a) }
        }
        return result
    }

    /// Loads a style file; source paths are relative to the folder of the file (of the file a symbolic
    /// link points to, so that `styles/standard.json` finds the shipped data).
    ///
    /// - Parameters:
    ///   - link: the style file.
    ///   - options: strict or lenient, and the files that replace sources and sprites.
    /// - Throws: ``StyleError``.
    public static func load(contentsOf link: URL, options: StyleLoadOptions) throws -> Style {
        let url = link.resolvingSymlinksInPath()
        let data: Data
        do { data = try FileReader.read(url, limit: 256 << 20) } catch {
            throw StyleError.invalid(
                source: url.path, path: "(file)", message: "cannot read the style file: \(error.localizedDescription)")
        }
        return try decode(data, source: url.path, baseURL: url.deletingLastPathComponent(), options: options)
    }

    /// Loads a style file leniently (``load(contentsOf:options:)`` with the default options).
    ///
    /// - Throws: ``StyleError``.
    public static func load(contentsOf link: URL) throws -> Style {
        try load(contentsOf: link, options: StyleLoadOptions())
    }

    /// Decodes a style leniently (``decode(_:source:baseURL:options:)`` with the default options).
    ///
    /// - Throws: ``StyleError`` naming the place and what is wrong.
    public static func decode(_ data: Data, source: String, baseURL: URL) throws -> Style {
        try decode(data, source: source, baseURL: baseURL, options: StyleLoadOptions())
    }

    /// Decodes a style. Read leniently (the default), what MapLibre would ignore and this version does not
    /// know or support is left out and listed in ``warnings``; malformed JSON, members of the wrong type,
    /// invalid expressions and numbers out of range are errors either way.
    ///
    /// - Parameters:
    ///   - source: a name for error messages, usually the file's path.
    ///   - baseURL: the folder that relative source paths start from.
    ///   - options: strict or lenient, and the files that replace sources and sprites.
    /// - Throws: ``StyleError`` naming the place and what is wrong.
    public static func decode(_ data: Data, source: String, baseURL: URL, options: StyleLoadOptions) throws -> Style {
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch let error as JSONError {
            throw StyleError.syntax(source: source, error)
        }
        return try StyleDecoder(source: source, baseURL: baseURL, options: options).style(json)
    }
}

extension Style {
    /// The style with source `id` reading from `path` instead of where the style says, as tileserver-gl's
    /// configuration maps a style's sources to files: a vector or raster source takes an `.mbtiles` or
    /// `.pmtiles` file, a `{z}/{x}/{y}` template or a TileJSON file (its zooms and bounds then come from
    /// there), a GeoJSON source a GeoJSON file. The source keeps its type, attribution and `promoteId`.
    ///
    /// - Parameters:
    ///   - id: the source's id in the style.
    ///   - path: the new location; a relative path is taken from `base`.
    ///   - base: the folder relative paths start from (the command line's working directory).
    /// - Throws: ``StyleError/invalid(source:path:message:)`` when the style has no such source (listing
    ///   its sources) or the new location does not suit the source.
    public func replacingSource(_ id: String, with path: String, relativeTo base: URL) throws -> Style {
        guard let old = sources[id] else {
            throw StyleError.invalid(
                source: name ?? "style", path: "sources.\(id)",
                message: "no such source; the style's sources: " + sources.keys.sorted().joined(separator: ", "))
        }
        var style = self
        style.sources[id] = try StyleDecoder.replacement(of: old.json, id: id, with: path, relativeTo: base)
        return style
    }
}

/// Where one sprite sheet is: `base` + `.json` / `.png`, or `base` + `@2x.json` / `@2x.png` for images
/// drawn at a scale of 2 or more.
public struct SpriteLocation: Sendable, Equatable {
    /// The sprite's id (`default` for a style whose `sprite` is one string); images of a sprite other
    /// than `default` are named `id:image`.
    public var id: String
    /// The path without extension, absolute.
    public var base: URL

    /// Creates a sprite location.
    public init(id: String, base: URL) {
        self.id = id
        self.base = base
    }
}
