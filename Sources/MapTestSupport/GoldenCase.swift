import Foundation
import MapRaster

/// The parameters of a golden case, kept in `case.json` beside its `expected.png`
/// (`fixtures/render/<feature>/<case>/`), as MapLibre's render tests keep `style.json` beside theirs.
///
/// ```json
/// {"style": "../layers/style.json", "center": [0, 0], "zoom": 3, "size": [480, 360], "scale": 2}
/// ```
///
/// - `style`: a style file relative to the case's folder, or `shipped:NAME` for a shipped style
///   (``ShippedStyle``); absent: the base map of `mapType`.
/// - `mapType`: `standard` (default), `satellite` or `hybrid`.
/// - `baseMap`: `plain` for the Natural Earth base map that does not change with the shipped styles
///   (``MapRaster/MapSnapshotter/pinnedToPlainBaseMap()``), `none` for no base map (transparency); absent:
///   the base map of `style` or `mapType`.
/// - `center` (`[latitude, longitude]`) with one of `zoom`, `span` (`[latitudeDelta, longitudeDelta]`)
///   or `meters` (a square region that many meters on a side); all absent: the snapshotter's default region.
/// - `size`: `[width, height]` in points; `scale`: device pixels per point (default 1).
/// - `attribution`: whether the attribution box is drawn (default true).
/// - `scene`: a scene file (`mapraster render --scene`) relative to the case's folder, whose annotations and
///   overlays are drawn, and whose area, size, scale and map type win over the members above; a scene
///   with no area fits its content with `padding` points free at the edges (`mapraster render --padding`,
///   default ``MapRaster/Scene/defaultContentPadding``).
/// - `values`: the case's plain data (coordinates, points, colors, counts) that its test reads by name
///   (``value(_:)``, ``number(_:)``, ``numbers(_:)``, ``value(_:as:)``, ``list(_:of:)``, ``named(_:of:)``).
public struct GoldenCase: Decodable, Sendable {
    /// The case under `fixtures/render`, such as `styles/muted-z5`.
    public private(set) var name = ""
    public var style: String?
    public var mapType: String?
    public var baseMap: String?
    public var center: [Double]?
    public var zoom: Double?
    public var span: [Double]?
    public var meters: Double?
    public var size: [Double]
    public var scale: Double?
    public var attribution: Bool?
    public var scene: String?
    public var padding: Double?
    /// The `values` member, read with ``value(_:)``.
    public private(set) var values: JSONValue = .null

    enum CodingKeys: String, CodingKey, CaseIterable {
        case style, mapType, baseMap, center, zoom, span, meters, size, scale, attribution, scene, padding
    }

    /// Reads `fixtures/render/<name>/case.json`.
    ///
    /// - Throws: when the file is missing, has a member not listed above, or does not have the fields above.
    public static func load(_ name: String) throws -> GoldenCase {
        let url = Fixtures.url("render/\(name)/case.json")
        let data = try Data(contentsOf: url)
        var loaded = try JSONDecoder().decode(GoldenCase.self, from: data)
        loaded.name = name
        let json = try JSONValue.parse(data)
        let known = Set(CodingKeys.allCases.map(\.rawValue) + ["values"])
        if let unknown = json.members?.map(\.0).first(where: { !known.contains($0) }) {
            throw GoldenCaseError(
                "\(url.path): unknown member '\(unknown)'; expected \(known.sorted().joined(separator: ", "))")
        }
        loaded.values = json["values"] ?? .null
        let extents = [loaded.zoom != nil, loaded.span != nil, loaded.meters != nil].filter { $0 }.count
        guard loaded.size.count == 2, (loaded.center == nil) == (extents == 0), extents <= 1,
            loaded.center.map({ $0.count == 2 }) ?? true, loaded.span.map({ $0.count == 2 }) ?? true
        else {
            throw GoldenCaseError(
                "\(url.path): size needs [width, height], center [latitude, longitude] with one of zoom, span, meters")
        }
        guard [nil, "plain", "none"].contains(loaded.baseMap) else {
            throw GoldenCaseError("\(url.path): baseMap '\(loaded.baseMap ?? "")'; expected plain or none")
        }
        return loaded
    }

    /// The image size in points.
    public var pointSize: Size { Size(width: size[0], height: size[1]) }

    /// Device pixels per point.
    public var pixelScale: Double { scale ?? 1 }

    /// The center, when the case has one.
    public var centerCoordinate: LocationCoordinate2D? {
        center.map { LocationCoordinate2D(latitude: $0[0], longitude: $0[1]) }
    }

    /// A file of the case's folder, such as its scene.
    public func url(_ relativePath: String) -> URL {
        Fixtures.url("render/\(name)/\(relativePath)").standardized
    }

    /// The snapshot options the case describes (without its scene).
    public func options() throws -> MapSnapshotter.Options {
        var options = MapSnapshotter.Options(size: pointSize, scale: pixelScale)
        options.showsAttribution = attribution ?? true
        if let center = centerCoordinate {
            if let zoom {
                options.visibleMapRect = try MapViewport(
                    size: pointSize, scale: pixelScale, center: center, zoomLevel: zoom
                ).visibleMapRect
            } else if let span {
                options.region = CoordinateRegion(
                    center: center, span: CoordinateSpan(latitudeDelta: span[0], longitudeDelta: span[1]))
            } else if let meters {
                options.region = CoordinateRegion(center: center, latitudinalMeters: meters, longitudinalMeters: meters)
            }
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
                options.style = try Style.load(contentsOf: url(style))
            }
        }
        return options
    }

    /// The case's scene, when it names one.
    public func loadScene() throws -> Scene? {
        guard let scene else { return nil }
        let file = url(scene)
        return try Scene.decode(Data(contentsOf: file), source: file.path)
    }

    /// A snapshotter for the case: its options, its base map, and its scene's annotations and overlays; a test
    /// adds what the case draws in Swift (custom views, renderers) before taking the snapshot.
    ///
    /// - Parameter adjust: changes the options before the snapshotter is made, for what a case computes in Swift
    ///   (a visible map rect in grid cells, say).
    public func snapshotter(adjusting adjust: (inout MapSnapshotter.Options) throws -> Void = { _ in }) throws
        -> MapSnapshotter
    {
        let scene = try loadScene()
        var options = try scene?.options(defaults: options()) ?? options()
        try adjust(&options)
        let snapshotter = try MapSnapshotter(options: options)
        switch baseMap {
        case "plain": _ = snapshotter.pinnedToPlainBaseMap()
        case "none": snapshotter.baseMap = nil
        default: break
        }
        if let scene {
            scene.populate(snapshotter)
            if scene.positionsFromContent {
                try scene.showContent(
                    in: snapshotter,
                    edgePadding: padding.map { EdgeInsets(top: $0, left: $0, bottom: $0, right: $0) }
                        ?? Scene.defaultContentPadding)
            }
        }
        return snapshotter
    }

    /// The snapshot the case describes.
    public func snapshot() throws -> Snapshot {
        try snapshotter().snapshot()
    }

    /// Compares an image drawn for the case with its golden (``GoldenImage/check(_:golden:threshold:allowedFraction:)``).
    ///
    /// - Returns: what went wrong, nil when the image matches.
    public func check(
        _ image: ImageSurface, threshold: Double = GoldenImage.defaultThreshold,
        allowedFraction: Double = GoldenImage.defaultAllowedFraction
    ) -> String? {
        GoldenImage.check(image, golden: name, threshold: threshold, allowedFraction: allowedFraction)
    }
}

extension GoldenCase {
    /// Reads the case, draws its snapshot and compares it with its golden (``GoldenImage/check(_:golden:threshold:allowedFraction:)``).
    ///
    /// - Returns: the snapshot, for further checks, and what went wrong (nil when the image matches).
    public static func check(_ name: String) throws -> (golden: GoldenCase, snapshot: Snapshot, failure: String?) {
        let golden = try load(name)
        let snapshot = try golden.snapshot()
        return (golden, snapshot, golden.check(snapshot.image))
    }
}

/// A `case.json` that cannot be used.
public struct GoldenCaseError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
