import Foundation
import MapData
import MapGeometry

/// How much one image may differ from its approved version: pixelmatch's per-pixel threshold and
/// anti-aliasing handling, and the differing pixels allowed.
///
/// Without ``maxDiffPixels`` and ``maxDiffRatio`` any differing pixel fails; with either or both, the image
/// passes when every given limit holds.
public struct Tolerance: Sendable, Hashable {
    /// pixelmatch's per-pixel threshold, 0...1.
    public var threshold: Double
    /// Count anti-aliased pixels as differences too.
    public var includeAA: Bool
    /// The most differing pixels allowed, or nil.
    public var maxDiffPixels: Int?
    /// The largest fraction of differing pixels allowed (0.001 = 0.1 %), or nil.
    public var maxDiffRatio: Double?
    /// Rectangles (pixels) left out of this image's comparison.
    public var ignore: [IgnoreMask.PixelRect]

    /// Creates a tolerance; by default no pixel may differ at threshold 0.1.
    public init(
        threshold: Double = 0.1, includeAA: Bool = false, maxDiffPixels: Int? = nil, maxDiffRatio: Double? = nil,
        ignore: [IgnoreMask.PixelRect] = []
    ) {
        self.threshold = threshold
        self.includeAA = includeAA
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
        self.ignore = ignore
    }

    /// Whether `result` is within this tolerance.
    public func passes(_ result: PixelMatch.Result) -> Bool {
        if maxDiffPixels == nil && maxDiffRatio == nil { return result.differentPixels == 0 }
        if let maxDiffPixels, result.differentPixels > maxDiffPixels { return false }
        if let maxDiffRatio, result.differentRatio > maxDiffRatio { return false }
        return true
    }

    /// What is allowed, in words: "at most 10 pixels and at most 0.1 %", or "none".
    public var allowedText: String {
        var parts: [String] = []
        if let maxDiffPixels { parts.append("at most \(maxDiffPixels) pixels") }
        if let maxDiffRatio { parts.append("at most \(Self.number(maxDiffRatio * 100)) %") }
        return parts.isEmpty ? "none" : parts.joined(separator: " and ")
    }

    /// `drawing`'s colors and alpha with this tolerance's threshold and anti-aliasing handling.
    public func options(drawing: PixelMatch.Options) -> PixelMatch.Options {
        var options = drawing
        options.threshold = threshold
        options.includeAA = includeAA
        return options
    }

    static func number(_ v: Double) -> String { Int(exactly: v).map(String.init) ?? "\(v)" }
}

/// Per-image tolerances, read from a `thresholds.json` beside the approved images:
///
/// ```json
/// {
///   "default": { "threshold": 0.1, "maxDiffPixels": 0 },
///   "images": {
///     "3/4/2.png": { "maxDiffPixels": 40 },
///     "labels/*.png": { "threshold": 0.2, "maxDiffRatio": 0.001, "ignore": [[0, 236, 256, 20]] }
///   }
/// }
/// ```
///
/// Members of an entry replace those of the default; an exact path wins over patterns, and among
/// patterns (`*` matches any characters, `/` included; `?` one character) the first that matches wins.
/// Each member is optional: `threshold` 0...1, `includeAA` true or false, `maxDiffPixels` a whole number
/// 0 or greater, `maxDiffRatio` 0...1, `ignore` a list of `[x, y, width, height]` rectangles in pixels.
public struct ToleranceOverrides: Sendable {
    /// One entry's members; nil members are not set.
    struct Patch: Sendable {
        var threshold: Double?
        var includeAA: Bool?
        var maxDiffPixels: Int?
        var maxDiffRatio: Double?
        var ignore: [IgnoreMask.PixelRect]?

        func applied(to base: Tolerance) -> Tolerance {
            var t = base
            if let threshold { t.threshold = threshold }
            if let includeAA { t.includeAA = includeAA }
            if let maxDiffPixels { t.maxDiffPixels = maxDiffPixels }
            if let maxDiffRatio { t.maxDiffRatio = maxDiffRatio }
            if let ignore { t.ignore = ignore }
            return t
        }
    }

    var defaults: Patch?
    var exact: [String: Patch] = [:]
    var patterns: [(pattern: String, patch: Patch)] = []

    /// No overrides.
    public static let none = ToleranceOverrides()

    init() {}

    /// The number of per-image entries.
    public var count: Int { exact.count + patterns.count }

    /// Reads a thresholds file.
    ///
    /// - Throws: ``ToleranceOverridesError`` naming the file, the entry and what is wrong.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try FileReader.read(url, limit: 16 << 20) } catch {
            throw ToleranceOverridesError(path: url.path, message: "cannot read it: \(error.problem)")
        }
        try self.init(json: data, source: url.path)
    }

    /// Parses a thresholds file's JSON; `source` names it in errors.
    ///
    /// - Throws: ``ToleranceOverridesError``.
    public init(json data: Data, source: String) throws {
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch {
            throw ToleranceOverridesError(path: source, message: "invalid JSON: \(error)")
        }
        guard let members = root.members else {
            throw ToleranceOverridesError(path: source, message: "expected an object with 'default' and 'images'")
        }
        for (key, value) in members {
            switch key {
            case "default": defaults = try Self.patch(value, "default", source)
            case "images":
                guard let images = value.members else {
                    throw ToleranceOverridesError(path: source, message: "'images' must be an object of paths")
                }
                for (path, entry) in images {
                    let patch = try Self.patch(entry, "images.\(path)", source)
                    if path.contains("*") || path.contains("?") {
                        patterns.append((path, patch))
                    } else {
                        exact[path] = patch
                    }
                }
            default:
                throw ToleranceOverridesError(
                    path: source, message: "unknown member '\(key)'; a thresholds file has 'default' and 'images'")
            }
        }
    }

    /// The tolerance of the image at `path` (relative, `/` separators): `base` with the file's default and
    /// the image's entry applied.
    public func tolerance(for path: String, default base: Tolerance) -> Tolerance {
        let start = defaults?.applied(to: base) ?? base
        if let patch = exact[path] { return patch.applied(to: start) }
        for (pattern, patch) in patterns where fnmatch(pattern, path, 0) == 0 { return patch.applied(to: start) }
        return start
    }

    private static func patch(_ value: JSONValue, _ name: String, _ source: String) throws -> Patch {
        func fail(_ message: String) -> ToleranceOverridesError {
            ToleranceOverridesError(path: source, message: "'\(name)': \(message)")
        }
        guard let members = value.members else { throw fail("expected an object") }
        var patch = Patch()
        for (key, v) in members {
            switch key {
            case "threshold":
                guard let t = v.number, (0...1).contains(t) else { throw fail("'threshold' must be a number 0...1") }
                patch.threshold = t
            case "includeAA":
                guard let b = v.bool else { throw fail("'includeAA' must be true or false") }
                patch.includeAA = b
            case "maxDiffPixels":
                guard let n = v.number, n >= 0, n <= 1e15, let count = Int(exactly: n) else {
                    throw fail("'maxDiffPixels' must be a whole number 0 or greater")
                }
                patch.maxDiffPixels = count
            case "maxDiffRatio":
                guard let r = v.number, (0...1).contains(r) else {
                    throw fail("'maxDiffRatio' must be a fraction 0...1 (0.001 is 0.1 %)")
                }
                patch.maxDiffRatio = r
            case "ignore":
                guard let list = v.array else { throw fail("'ignore' must be a list of [x, y, width, height]") }
                patch.ignore = try list.map { rect in
                    let limit = Double(1 << 30)
                    guard let parts = rect.array?.compactMap({ $0.number.flatMap { Int(exactly: $0) } }),
                        parts.count == 4, rect.array?.count == 4, parts[2] > 0, parts[3] > 0,
                        parts.allSatisfy({ abs(Double($0)) <= limit })
                    else {
                        throw fail(
                            "each 'ignore' entry must be [x, y, width, height] in whole pixels within "
                                + "-2^30...2^30, width and height above 0")
                    }
                    return IgnoreMask.PixelRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
                }
            default:
                throw fail(
                    "unknown member '\(key)'; use threshold, includeAA, maxDiffPixels, maxDiffRatio or ignore")
            }
        }
        return patch
    }
}

/// A thresholds file that cannot be used.
public struct ToleranceOverridesError: MapRasterError, Equatable {
    /// The file.
    public var path: String
    /// What is wrong.
    public var message: String

    public var description: String { "thresholds file '\(path)': \(message)" }
}
