import Foundation
import MapRaster

/// The parameters of a golden case of a base-map view, kept in `case.json` beside its `expected.png`
/// (`fixtures/render/<feature>/<case>/`), as MapLibre's render tests keep `style.json` beside theirs.
///
/// ```json
/// {"style": "../layers/style.json", "center": [0, 0], "zoom": 3, "size": [480, 360], "scale": 2}
/// ```
///
/// - `style`: a style file relative to the case's folder, or `shipped:NAME` for a shipped style
///   (``ShippedStyle``); absent: the base map of `mapType`.
/// - `mapType`: `standard` (default), `satellite` or `hybrid`.
/// - `center` (`[latitude, longitude]`) with `zoom`; both absent: the snapshotter's default region.
/// - `size`: `[width, height]` in points; `scale`: device pixels per point (default 1).
/// - `attribution`: whether the attribution box is drawn (default true).
public struct GoldenCase: Decodable, Sendable {
    /// The case under `fixtures/render`, such as `styles/muted-z5`.
    public private(set) var name = ""
    public var style: String?
    public var mapType: String?
    public var center: [Double]?
    public var zoom: Double?
    public var size: [Double]
    public var scale: Double?
    public var attribution: Bool?

    enum CodingKeys: String, CodingKey { case style, mapType, center, zoom, size, scale, attribution }

    /// Reads `fixtures/render/<name>/case.json`.
    ///
    /// - Throws: when the file is missing or does not have the fields above.
    public static func load(_ name: String) throws -> GoldenCase {
        let url = Fixtures.url("render/\(name)/case.json")
        var loaded = try JSONDecoder().decode(GoldenCase.self, from: Data(contentsOf: url))
        loaded.name = name
        guard loaded.size.count == 2, (loaded.center == nil) == (loaded.zoom == nil),
            loaded.center.map({ $0.count == 2 }) ?? true
        else {
            throw GoldenCaseError("\(url.path): size needs [width, height], center [latitude, longitude] with a zoom")
        }
        return loaded
    }

    /// The image size in points.
    public var pointSize: Size { Size(width: size[0], height: size[1]) }

    /// Device pixels per point.
    public var pixelScale: Double { scale ?? 1 }

    /// The snapshot the case describes.
    public func snapshot() throws -> Snapshot {
        var options = MapSnapshotter.Options(size: pointSize, scale: pixelScale)
        options.showsAttribution = attribution ?? true
        if let center, let zoom {
            options.visibleMapRect = try MapViewport(
                size: pointSize, scale: pixelScale,
                center: LocationCoordinate2D(latitude: center[0], longitude: center[1]),
                zoomLevel: zoom
            ).visibleMapRect
        }
        if let mapType {
            guard let known = MapType(rawValue: mapType) else { throw GoldenCaseError("\(name): mapType '\(mapType)'") }
            options.mapType = known
        }
        if let style {
            if style.hasPrefix("shipped:") {
                guard let shipped = ShippedStyle(rawValue: String(style.dropFirst("shipped:".count))) else {
                    throw GoldenCaseError("\(name): no shipped style '\(style)'")
                }
                options.style = try shipped.style()
            } else {
                options.style = try Style.load(contentsOf: Fixtures.url("render/\(name)/\(style)").standardized)
            }
        }
        return try MapSnapshotter(options: options).snapshot()
    }
}

extension GoldenCase {
    /// Reads the case, draws its snapshot and compares it with its golden (``GoldenImage/check(_:golden:threshold:allowedFraction:)``).
    ///
    /// - Returns: the snapshot, for further checks, and what went wrong (nil when the image matches).
    public static func check(_ name: String) throws -> (golden: GoldenCase, snapshot: Snapshot, failure: String?) {
        let golden = try load(name)
        let snapshot = try golden.snapshot()
        return (golden, snapshot, GoldenImage.check(snapshot.image, golden: name))
    }
}

/// A `case.json` that cannot be used.
public struct GoldenCaseError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
