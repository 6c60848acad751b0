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
    /// (small 0.75, medium 1, large 1.35 times the default size), with its `marker-symbol` on the head.
    public func makeView(for annotation: Annotation) -> AnnotationView {
        let pin = PinAnnotationView(pinTintColor: style.markerColor, sizeFactor: style.markerSizeFactor)
        pin.glyphText = style.markerSymbol
        return pin
    }

    /// A renderer for one of this feature's overlays, styled by ``style``.
    public func makeRenderer(for overlay: Overlay) -> OverlayRenderer? {
        style.makeRenderer(for: overlay)
    }
}

/// Decodes a GeoJSON file into annotations and overlays. Mirrors MapKit's `MKGeoJSONDecoder`.
///
/// The one converter from GeoJSON to map objects: scene files and the CLI use it too. Point and
/// MultiPoint become ``PointAnnotation``s (title from `title`, subtitle from `subtitle` or `description`);
/// a Point with a `radius` in meters becomes a geodesic ``Circle``; LineString a ``Polyline`` (a
/// ``GeodesicPolyline`` with `"geodesic": true`), MultiLineString a ``MultiPolyline``, Polygon a
/// ``Polygon`` with its holes, MultiPolygon a ``MultiPolygon``; a GeometryCollection gives all of its
/// parts. Lines need 2 distinct positions and rings 3; errors name the position list.
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
        let p = feature.properties
        let path = feature.location
        let style = try SimpleStyle(properties: p, source: source, path: path)
        var annotations: [PointAnnotation] = []
        var overlays: [Overlay] = []
        let title = p["title"]?.string
        let subtitle = p["subtitle"]?.string ?? p["description"]?.string
        func invalid(_ path: String, _ message: String) -> GeoJSONError {
            .invalid(source: source, path: path, message: message)
        }
        func distinct(_ line: [LocationCoordinate2D]) -> Int { Set(line.map { [$0.latitude, $0.longitude] }).count }
        func line(_ coordinates: [LocationCoordinate2D], at place: String) throws -> Polyline {
            guard distinct(coordinates) >= 2 else {
                throw invalid(place, "a LineString needs at least 2 distinct positions")
            }
            // "geodesic": true draws great circles (a flight path), as MKGeodesicPolyline.
            let l =
                p["geodesic"]?.bool == true
                ? GeodesicPolyline(controlCoordinates: coordinates) : Polyline(coordinates: coordinates)
            l.title = title
            l.subtitle = subtitle
            return l
        }
        func polygon(_ rings: [[LocationCoordinate2D]], at place: String) throws -> Polygon {
            guard let outer = rings.first else { throw invalid(place, "a Polygon needs at least one ring") }
            for (k, ring) in rings.enumerated() where distinct(ring) < 3 {
                throw invalid("\(place)[\(k)]", "a polygon ring needs at least 3 distinct positions")
            }
            let polygon = Polygon(
                coordinates: outer, interiorPolygons: rings.dropFirst().map { Polygon(coordinates: $0) })
            polygon.title = title
            polygon.subtitle = subtitle
            return polygon
        }
        let coordinates = "\(path).geometry.coordinates"
        func add(_ geometry: GeoJSONGeometry) throws {
            switch geometry {
            case .point(let c):
                if let radius = p["radius"] {
                    guard let meters = radius.number, meters > 0, meters <= Double.pi * WebMercator.earthRadius else {
                        throw invalid(
                            "\(path).properties.radius",
                            "expected meters greater than 0 and at most half the earth's circumference (20037508)")
                    }
                    let circle = Circle(center: c, radius: meters)
                    circle.title = title
                    overlays.append(circle)
                } else {
                    annotations.append(PointAnnotation(coordinate: c, title: title, subtitle: subtitle))
                }
            case .multiPoint(let points):
                for point in points { try add(.point(point)) }
            case .lineString(let coordinatesOfLine):
                overlays.append(try line(coordinatesOfLine, at: coordinates))
            case .multiLineString(let lines):
                let m = MultiPolyline(try lines.enumerated().map { try line($1, at: "\(coordinates)[\($0)]") })
                m.title = title
                overlays.append(m)
            case .polygon(let rings):
                overlays.append(try polygon(rings, at: coordinates))
            case .multiPolygon(let polygons):
                let m = MultiPolygon(try polygons.enumerated().map { try polygon($1, at: "\(coordinates)[\($0)]") })
                m.title = title
                overlays.append(m)
            case .geometryCollection(let items):
                for item in items { try add(item) }
            }
        }
        if let geometry = feature.geometry { try add(geometry) }
        return GeoJSONMapFeature(
            location: feature.location, properties: p, annotations: annotations, overlays: overlays, style: style)
    }
}
