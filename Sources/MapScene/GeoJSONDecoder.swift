import Foundation
import MapAnnotations
import MapBaseMap
import MapData
import MapGeometry
import MapOverlays
import MapRender

/// A GeoJSON feature turned into map objects: its shapes (annotations for points, overlays for lines and
/// polygons), its properties and its simplestyle look. Mirrors MapKit's `MKGeoJSONFeature`.
public final class GeoJSONMapFeature {
    /// Where the feature is in its file, such as `features[3]`.
    public let location: String
    /// The feature's `properties` object. Mirrors `properties` (which MapKit gives as JSON data).
    public let properties: JSONValue
    /// Points as annotations. Mirrors the `MKPointAnnotation`s of `geometry`.
    public let annotations: [PointAnnotation]
    /// Lines and polygons as overlays: `Polyline`, `MultiPolyline`, `Polygon`, `MultiPolygon`.
    /// Mirrors the overlays of `geometry`.
    public let overlays: [Overlay]
    /// The simplestyle-spec look of the feature.
    public let style: SimpleStyle

    init(
        location: String, properties: JSONValue, annotations: [PointAnnotation], overlays: [Overlay],
        style: SimpleStyle
    ) {
        self.location = location
        self.properties = properties
        self.annotations = annotations
        self.overlays = overlays
        self.style = style
    }

    /// A pin for one of this feature's annotations, in the style's `marker-color` and `marker-size`
    /// (small 0.75, medium 1, large 1.35 times the default size).
    public func makeView(for annotation: Annotation) -> AnnotationView {
        let factors: [String: Double] = ["small": 0.75, "large": 1.35]
        let factor = factors[style.markerSize] ?? 1
        return PinAnnotationView(pinTintColor: style.markerColor, sizeFactor: factor)
    }

    /// A renderer for one of this feature's overlays, styled by ``style``.
    public func makeRenderer(for overlay: Overlay) -> OverlayRenderer? {
        guard let renderer = defaultRenderer(for: overlay) as? OverlayPathRenderer else { return nil }
        style.apply(to: renderer, filled: overlay is Polygon || overlay is MultiPolygon)
        return renderer
    }
}

/// Decodes a GeoJSON file into annotations and overlays. Mirrors MapKit's `MKGeoJSONDecoder`.
///
/// Point and MultiPoint become ``PointAnnotation``s (title from `title`, subtitle from `subtitle` or
/// `description`), LineString a ``Polyline``, MultiLineString a ``MultiPolyline``, Polygon a ``Polygon``
/// with its holes, MultiPolygon a ``MultiPolygon``; a GeometryCollection gives all of its parts. Shapes are
/// checked as overlays are (at least 2 distinct positions per line, 3 per ring).
///
/// ```swift
/// for feature in try GeoJSONDecoder().decode(data, source: "routes.geojson") {
///     snapshotter.addOverlays(feature.overlays)
/// }
/// ```
public struct GeoJSONDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes a FeatureCollection, a Feature or a bare geometry.
    ///
    /// - Throws: ``GeoJSONError`` naming the source, where in it and what is wrong.
    public func decode(_ data: Data, source: String) throws -> [GeoJSONMapFeature] {
        try GeoJSON.decodeFeatures(data, source: source).map { try convert($0, source: source) }
    }

    func convert(_ feature: GeoJSONFeature, source: String) throws -> GeoJSONMapFeature {
        let style = try SimpleStyle(properties: feature.properties, source: source, path: feature.location)
        var annotations: [PointAnnotation] = []
        var overlays: [Overlay] = []
        let title = feature.properties["title"]?.string
        let subtitle = feature.properties["subtitle"]?.string ?? feature.properties["description"]?.string
        func invalid(_ message: String) -> GeoJSONError {
            .invalid(source: source, path: "\(feature.location).geometry", message: message)
        }
        func check(_ overlay: Overlay) throws {
            do { try overlay.validate() } catch let error as OverlayError {
                if case let .invalidShape(_, problem) = error { throw invalid(problem) }
                throw invalid(error.description)
            }
        }
        func polygon(_ rings: [[LocationCoordinate2D]]) throws -> Polygon {
            guard let outer = rings.first else { throw invalid("a Polygon needs at least one ring") }
            let p = Polygon(coordinates: outer, interiorPolygons: rings.dropFirst().map { Polygon(coordinates: $0) })
            p.title = title
            p.subtitle = subtitle
            return p
        }
        func add(_ geometry: GeoJSONGeometry) throws {
            switch geometry {
            case .point(let c):
                annotations.append(PointAnnotation(coordinate: c, title: title, subtitle: subtitle))
            case .multiPoint(let points):
                annotations += points.map { PointAnnotation(coordinate: $0, title: title, subtitle: subtitle) }
            case .lineString(let line):
                let l = Polyline(coordinates: line)
                l.title = title
                l.subtitle = subtitle
                try check(l)
                overlays.append(l)
            case .multiLineString(let lines):
                let m = MultiPolyline(lines.map { Polyline(coordinates: $0) })
                m.title = title
                try check(m)
                overlays.append(m)
            case .polygon(let rings):
                let p = try polygon(rings)
                try check(p)
                overlays.append(p)
            case .multiPolygon(let polygons):
                let m = MultiPolygon(try polygons.map(polygon))
                m.title = title
                try check(m)
                overlays.append(m)
            case .geometryCollection(let items):
                for item in items { try add(item) }
            }
        }
        if let geometry = feature.geometry { try add(geometry) }
        return GeoJSONMapFeature(
            location: feature.location, properties: feature.properties, annotations: annotations, overlays: overlays,
            style: style)
    }
}
