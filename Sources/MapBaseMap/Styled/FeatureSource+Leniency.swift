import Foundation
import MapData
import MapGeometry

// Lenient reading of a style's GeoJSON sources, MapLibre's way: a source that is not GeoJSON draws nothing
// and an invalid feature is left out, each with one warning naming the source (``SourceWarnings``).
extension FeatureSource {
    /// A lenient read of a GeoJSON file without declared feature extents (see ``load(_:promoteID:lenientAs:)``).
    static func lenientFile(
        _ data: Data, url: URL, fileBox: GeoBoundingBox?, promoteID: String?, _ sourceID: String
    ) -> FeatureSource {
        var decoding: GeoJSON.LenientDecoding
        do { decoding = try GeoJSON.decodeFeaturesSkippingInvalid(data, source: url.path) } catch {
            reportInvalid("source \"\(sourceID)\"", error)
            return FeatureSource(name: url.lastPathComponent, features: [])
        }
        // A declared extent lets views away from it skip the file: a feature outside it is left out.
        if let fileBox {
            decoding.features.removeAll { feature in
                do {
                    try check(feature, within: fileBox, what: "its \"bbox\" member", url: url)
                    return false
                } catch {
                    decoding.skipped += 1
                    return true
                }
            }
        }
        if decoding.skipped > 0 {
            reportSkipped(sourceID, url: url, count: decoding.skipped, first: decoding.firstError)
        }
        reportFolded("source \"\(sourceID)\" (\(url.path))", decoding)
        return make(name: url.lastPathComponent, decoding.features, promoteID: promoteID)
    }

    /// Warns (once per process) that a source's GeoJSON is not GeoJSON, so its layers draw nothing.
    static func reportInvalid(_ name: String, _ error: any Error) {
        let text = "\(error)"
        SourceWarnings.shared.report(
            key: "invalid \(name)",
            (text.hasPrefix(name) ? "" : "\(name): ")
                + "invalid GeoJSON: \(text); the layers of this source draw nothing")
    }

    /// Warns (once per process and file) that invalid features of a source's file were left out; `count` nil:
    /// found one at a time, as views decode them.
    static func reportSkipped(_ sourceID: String, url: URL, count: Int?, first: (any Error)?) {
        SourceWarnings.shared.report(
            key: "skipped source \(sourceID) \(url.path)",
            "source \"\(sourceID)\" (\(url.path)): " + skippedText(count, first.map { "\($0)" }))
    }

    /// Warns (once per process and source) that positions with a latitude beyond ±90° were drawn folded.
    static func reportFolded(_ name: String, _ decoding: GeoJSON.LenientDecoding) {
        guard decoding.foldedPositions > 0 else { return }
        let count = decoding.foldedPositions == 1 ? "1 position" : "\(decoding.foldedPositions) positions"
        SourceWarnings.shared.report(
            key: "folded \(name)",
            "\(name): \(count) with a latitude beyond ±90° drawn at the latitude of the same sine, as MapLibre "
                + "does (the first: \(decoding.firstFolded ?? "?")); GeoJSON latitudes are within -90...90")
    }

    static func skippedText(_ count: Int?, _ first: String?) -> String {
        let what =
            count.map { $0 == 1 ? "1 invalid feature left out" : "\($0) invalid features left out" }
            ?? "invalid features left out as views meet them"
        return what + (first.map { "; the first: \($0)" } ?? "") + " (the rest is drawn; --strict refuses the source)"
    }
}
