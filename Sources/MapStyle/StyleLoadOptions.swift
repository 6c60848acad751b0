import Foundation

/// How a style is read: leniently, as MapLibre reads styles (what this version does not know or support is
/// warned about and left out, the rest is drawn), or strictly (every such thing is an error), and which
/// local files stand in for the style's network locations.
///
/// ```swift
/// var options = StyleLoadOptions()
/// options.sources["openmaptiles"] = "tiles/monaco.mbtiles"   // --source openmaptiles=...
/// options.sprites["default"] = "sprites/osm-bright"          // --sprite ...
/// let style = try Style.load(contentsOf: URL(fileURLWithPath: "osm-bright.json"), options: options)
/// for line in style.warnings.lines(limit: 20) { print("warning:", line) }
/// ```
public struct StyleLoadOptions: Sendable, Equatable {
    /// Refuse unknown members, layer types and properties, unsupported source types and network sources
    /// (`--strict`); otherwise each is a warning in ``Style/warnings`` and is left out.
    public var strict: Bool
    /// Files read instead of sources, by source id (`--source NAME=PATH`): an `.mbtiles`/`.pmtiles` file,
    /// a `{z}/{x}/{y}` template or a TileJSON file for tiled sources, a GeoJSON file for GeoJSON sources.
    /// The style's own `url`/`tiles`/`data` is not looked at, so a network URL may be replaced.
    public var sources: [String: String]
    /// Sprites read instead of the style's, by sprite id (`default` for the one-string form of `sprite`):
    /// a path without extension (`PATH.json`, `PATH.png`, `PATH@2x.json`, `PATH@2x.png`).
    public var sprites: [String: String]
    /// The folder that relative paths of ``sources`` and ``sprites`` start from.
    public var base: URL
    /// Return a style even when nothing of it can be drawn (``Style/nothingToDraw``), for checkers that list
    /// every problem; otherwise that is an error.
    public var allowsNothingToDraw = false

    /// Creates options; relative replacement paths start from the working directory unless `base` is given.
    public init(
        strict: Bool = false, sources: [String: String] = [:], sprites: [String: String] = [:], base: URL? = nil
    ) {
        self.strict = strict
        self.sources = sources
        self.sprites = sprites
        self.base = base ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }
}

/// What a lenient read of a style left out or could not use, each once per style: an unknown member or
/// property (once however many layers have it), a network source, sprite or glyphs URL.
public struct StyleWarnings: Sendable, Equatable {
    /// The messages kept, in the order met, each "path: what, and what was done".
    public var messages: [String] = []
    /// How many further distinct warnings there were beyond ``maximumKept`` (not kept, so that a hostile
    /// style cannot fill memory).
    public var omitted = 0

    /// At most this many messages are kept.
    public static let maximumKept = 1_000

    /// Creates an empty list.
    public init() {}

    /// Whether there is nothing to warn about.
    public var isEmpty: Bool { messages.isEmpty && omitted == 0 }
    /// The number of distinct warnings.
    public var count: Int { messages.count + omitted }

    /// The first `limit` messages, then one line saying how many more there are.
    public func lines(limit: Int) -> [String] {
        guard count > limit else { return messages }
        return Array(messages.prefix(limit)) + [
            "... and \(count - limit) more warnings (mapraster style check lists them)"
        ]
    }
}

/// Collects warnings while a style is decoded: once per key, counting repeats.
final class StyleWarningLog {
    private var entries: [(message: String, repeats: Int, suffix: String)] = []
    private var index: [String: Int] = [:]
    private var omitted = 0

    /// Records `message` under `key`; a key seen before only counts as a repeat. `suffix` names what a
    /// repeat is ("layers").
    func add(key: String, _ message: String, repeats suffix: String = "places") {
        if let i = index[key] {
            entries[i].repeats += 1
            return
        }
        guard entries.count < StyleWarnings.maximumKept else {
            omitted += 1
            return
        }
        index[key] = entries.count
        entries.append((message, 0, suffix))
    }

    /// Appends `text` to the message recorded under `key`, if any.
    func amend(key: String, _ text: String) {
        if let i = index[key] { entries[i].message += text }
    }

    var warnings: StyleWarnings {
        var result = StyleWarnings()
        result.messages = entries.map { entry in
            entry.repeats == 0
                ? entry.message
                : "\(entry.message) (and \(entry.repeats) more \(entry.repeats == 1 ? String(entry.suffix.dropLast()) : entry.suffix))"
        }
        result.omitted = omitted
        return result
    }
}
