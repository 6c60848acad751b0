import Foundation
import MapData
import MapGeometry

/// Ignore rectangles taken from what a render says it drew: the metadata JSON of `Snapshot.metadata()`
/// (`mapraster render --metadata`), whose frames are in image points with the origin top-left.
///
/// The attribution box (`attribution`), the annotation views' frames and callouts (`annotations` and
/// `clusters`, views that show only) and the base map's label boxes (`labels`) become pixel rectangles,
/// scaled by the metadata's `scale` and widened to whole pixels, plus a margin of ``margin`` pixels
/// for anti-aliasing and halos.
///
/// ```swift
/// let mask = try MapMask(contentsOf: metadataURL)
/// let rects = mask.rects(ignoring: [.labels, .attribution])
/// ```
public struct MapMask: Sendable {
    /// What a mask can leave out.
    public enum Part: String, Sendable, CaseIterable, Hashable {
        /// The attribution box in the bottom-right corner.
        case attribution
        /// Annotation views (and clusters and callouts) that show.
        case annotations
        /// The base map's labels (text and icons).
        case labels

        /// The parts of a comma-separated list such as `attribution,labels`; nil when any item is not a part.
        public static func parse(list: String) -> Set<Part>? {
            let items = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let parts = items.compactMap(Part.init(rawValue:))
            return parts.count == items.count && !parts.isEmpty ? Set(parts) : nil
        }
    }

    /// Pixels added on every side of a box.
    public static let margin = 1

    /// The boxes by part, in image points.
    public var boxes: [Part: [(x: Double, y: Double, width: Double, height: Double)]]
    /// Device pixels per point.
    public var scale: Double

    /// A mask from boxes already known (image points), e.g. a `Snapshot`'s.
    public init(
        scale: Double, attribution: [(x: Double, y: Double, width: Double, height: Double)] = [],
        annotations: [(x: Double, y: Double, width: Double, height: Double)] = [],
        labels: [(x: Double, y: Double, width: Double, height: Double)] = []
    ) {
        self.scale = scale
        boxes = [.attribution: attribution, .annotations: annotations, .labels: labels]
    }

    /// Reads a metadata file.
    ///
    /// - Throws: ``MapMaskError`` naming the file and what is wrong.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try FileReader.read(url, limit: 256 << 20) } catch {
            throw MapMaskError(path: url.path, message: "cannot read it: \(error.problem)")
        }
        try self.init(json: data, source: url.path)
    }

    /// Parses metadata JSON; `source` names it in errors.
    ///
    /// - Throws: ``MapMaskError``.
    public init(json data: Data, source: String) throws {
        func fail(_ message: String) -> MapMaskError { MapMaskError(path: source, message: message) }
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch { throw fail("invalid JSON: \(error)") }
        guard root.members != nil else { throw fail("expected the object `mapraster render --metadata` writes") }
        guard let scale = root["scale"]?.number, scale > 0, scale <= 16 else {
            throw fail("'scale' must be a number above 0 and at most 16")
        }
        self.scale = scale
        func rect(_ value: JSONValue?, _ name: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
            let limit = 1e7
            guard let value, let x = value["x"]?.number, let y = value["y"]?.number,
                let w = value["width"]?.number, let h = value["height"]?.number,
                [x, y, w, h].allSatisfy({ $0.isFinite && abs($0) <= limit }), w >= 0, h >= 0
            else { throw fail("\(name) must be {x, y, width, height} in points within -10^7...10^7, sizes 0 or more") }
            return (x, y, w, h)
        }
        var boxes: [Part: [(x: Double, y: Double, width: Double, height: Double)]] = [:]
        boxes[.attribution] = try (root["attribution"]?.array ?? []).map { try rect($0, "an 'attribution' box") }
        boxes[.labels] = try (root["labels"]?.array ?? []).map { try rect($0, "a 'labels' box") }
        var views: [(x: Double, y: Double, width: Double, height: Double)] = []
        for key in ["annotations", "clusters"] {
            for item in root[key]?.array ?? [] where item["state"]?.string == "visible" {
                views.append(try rect(item["frame"], "an annotation's 'frame'"))
                if let callout = item["callout"] { views.append(try rect(callout, "a 'callout'")) }
            }
        }
        boxes[.annotations] = views
        self.boxes = boxes
    }

    /// Whether the metadata lists any box of `part` (an old render's metadata has no `labels`).
    public func lists(_ part: Part) -> Bool { !(boxes[part] ?? []).isEmpty }

    /// The pixel rectangles of `parts`, each widened to whole pixels and by ``margin``.
    public func rects(ignoring parts: Set<Part>) -> [IgnoreMask.PixelRect] {
        var out: [IgnoreMask.PixelRect] = []
        for part in Part.allCases where parts.contains(part) {
            for b in boxes[part] ?? [] {
                let x0 = Int((b.x * scale).rounded(.down)) - Self.margin
                let y0 = Int((b.y * scale).rounded(.down)) - Self.margin
                let x1 = Int(((b.x + b.width) * scale).rounded(.up)) + Self.margin
                let y1 = Int(((b.y + b.height) * scale).rounded(.up)) + Self.margin
                out.append(IgnoreMask.PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            }
        }
        return out
    }
}

/// A metadata file that cannot be used as a mask.
public struct MapMaskError: MapRasterError, Equatable {
    /// The file.
    public var path: String
    /// What is wrong.
    public var message: String

    public var description: String { "mask metadata '\(path)': \(message)" }
}
