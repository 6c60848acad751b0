import Foundation
import MapAnnotations
import MapGeometry
import MapGraphics
import MapOverlays

/// The `markers`, `path` and `visible` parameters of a static-map request, parsed by the one parser the
/// command line (`--marker`, `--path`, `--visible`) and the HTTP server share, and turned into scene content:
/// markers become pins (``Scene/annotations``), paths polylines or polygons (``Scene/overlays``), visible
/// points ``Scene/visibleCoordinates``.
///
/// ```swift
/// let parameters = try StaticMapParameters(
///     markers: ["color:blue|label:S|40.702147,-74.015794"],
///     paths: ["color:0xff0000ff|weight:5|40.737102,-73.990318|40.749825,-73.987963"])
/// var scene = Scene()
/// try parameters.add(to: &scene)
/// ```
///
/// Limits (refused with a ``StaticMapParameterError``): ``maximumMarkers`` markers and
/// ``maximumPathPoints`` path points in all, path widths up to ``maximumPathWidth``.
public struct StaticMapParameters: Sendable, Equatable {
    /// The most markers in one request: 1,000 (Google allows fewer in a URL of 16,384 characters).
    public static let maximumMarkers = 1000
    /// The most path points in one request, after decoding encoded polylines: 100,000.
    public static let maximumPathPoints = 100_000
    /// The most `visible` points in one request: 1,000.
    public static let maximumVisiblePoints = 1000
    /// The widest path line, in pixels (points): 100.
    public static let maximumPathWidth = 100.0

    /// The marker groups, in order.
    public var markers: [MarkerParameter] = []
    /// The paths, back to front.
    public var paths: [PathParameter] = []
    /// Points the image must show (`visible`).
    public var visible: [LocationCoordinate2D] = []

    /// Creates empty parameters.
    public init() {}

    /// Parses the raw values of every `markers` (or tileserver-gl `marker`), `path` and `visible` parameter.
    ///
    /// - Parameters:
    ///   - markers: one string per `markers` parameter.
    ///   - paths: one string per `path` parameter.
    ///   - visible: one string per `visible` parameter (`lat,lng|lat,lng...`).
    ///   - syntax: the grammar of markers and paths; nil detects it per value
    ///     (``StaticMapSyntax/detect(marker:)``, ``StaticMapSyntax/detect(path:)``).
    ///   - pathDefaults: tileserver-gl's query-wide path options, for paths in its grammar.
    /// - Throws: ``StaticMapParameterError`` naming the parameter, the bad part and the grammar, also when
    ///   the values together exceed a limit.
    public init(
        markers: [String] = [], paths: [String] = [], visible: [String] = [], syntax: StaticMapSyntax? = nil,
        pathDefaults: PathParameter.Defaults = PathParameter.Defaults()
    ) throws {
        var markerCount = 0
        for text in markers {
            let marker = try MarkerParameter(
                parsing: text, syntax: syntax ?? .detect(marker: text),
                maximumCount: Self.maximumMarkers - markerCount)
            markerCount += marker.coordinates.count
            self.markers.append(marker)
        }
        var pointCount = 0
        for text in paths {
            let path = try PathParameter(
                parsing: text, syntax: syntax ?? .detect(path: text), maximumCount: Self.maximumPathPoints - pointCount,
                defaults: pathDefaults)
            pointCount += path.coordinates.count
            self.paths.append(path)
        }
        for text in visible {
            let grammar = StaticMapParameterError.visibleGrammar
            func fail(_ part: Substring, _ problem: String) -> StaticMapParameterError {
                StaticMapParameterError(parameter: "visible", part: part, problem: problem, grammar: grammar)
            }
            guard let decoded = StaticMapText.percentDecoded(text) else {
                throw fail(Substring(text), "a malformed % escape")
            }
            let parts = StaticMapText.parts(decoded)
            guard !parts.isEmpty else { throw fail(Substring(text), "no point") }
            for part in parts {
                guard let (lat, lng) = StaticMapText.pair(part) else {
                    throw fail(part, "a point must be LAT,LNG in decimal degrees (place names are not supported)")
                }
                guard self.visible.count < Self.maximumVisiblePoints else {
                    throw fail(part, "more than \(Self.maximumVisiblePoints) points")
                }
                self.visible.append(try StaticMapCoordinate.make(lat, lng, part: part, fail: fail))
            }
        }
    }

    /// Adds the markers, paths and visible points to a scene, after what it already has.
    ///
    /// - Parameter loadIcon: loads a marker icon (a PNG path) for tileserver-gl markers; nil refuses icons.
    /// - Throws: ``StaticMapParameterError`` for an icon that is refused or cannot be loaded.
    public func add(to scene: inout Scene, loadIcon: ((String) throws -> ImageSurface)? = nil) throws {
        for marker in markers {
            var options = MarkerOptions()
            if let icon = marker.icon {
                func fail(_ problem: String) -> StaticMapParameterError {
                    StaticMapParameterError(
                        parameter: "marker", part: icon, problem: problem,
                        grammar: StaticMapParameterError.tileserverMarkerGrammar)
                }
                guard let loadIcon else { throw fail("marker icons are not supported here: leave the icon out") }
                if scene.markerImages[icon] == nil {
                    do { scene.markerImages[icon] = try loadIcon(icon) } catch { throw fail("\(error)") }
                }
                let height = Double(scene.markerImages[icon]?.height ?? 0) / marker.iconScale
                options.imagePath = icon
                options.imageScale = marker.iconScale
                // tileserver-gl puts the icon's bottom center at the point; its offset's y points up and
                // scales with the icon.
                options.centerOffset = Point(
                    x: marker.offset.x / marker.iconScale, y: -height / 2 - marker.offset.y / marker.iconScale)
            }
            for coordinate in marker.coordinates {
                let style = Scene.PinStyle(
                    color: marker.color ?? PinAnnotationView.PinColor.red.color, sizeFactor: marker.size.factor,
                    marker: options, label: marker.label)
                scene.annotations.append((PointAnnotation(coordinate: coordinate), style))
            }
        }
        for path in paths {
            var style = SimpleStyle()
            style.stroke = path.color
            style.strokeWidth = path.width
            style.strokeOpacity = 1
            if let cap = path.lineCap { style.lineCap = cap }
            if let join = path.lineJoin { style.lineJoin = join }
            if let fill = path.fillColor {
                style.fill = fill
                style.fillOpacity = 1
            }
            // A new overlay each time: a scene styles each overlay object once.
            func overlay() -> Overlay {
                if path.fillColor != nil { return Polygon(coordinates: path.coordinates) }
                if path.isGeodesic { return GeodesicPolyline(controlCoordinates: path.coordinates) }
                return Polyline(coordinates: path.coordinates)
            }
            // tileserver-gl's border: the fill and a stroke wider by the border on each side, then the line
            // over it (the same shape again, unfilled).
            if let border = path.borderColor, path.effectiveBorderWidth > 0 {
                var under = style
                under.stroke = border
                under.strokeWidth = path.width + 2 * path.effectiveBorderWidth
                scene.overlays.append((overlay(), under))
                style.fillOpacity = 0
            }
            scene.overlays.append((overlay(), style))
        }
        scene.visibleCoordinates += visible
    }
}
