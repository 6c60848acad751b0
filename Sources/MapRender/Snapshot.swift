import Foundation
import MapAnnotations
import MapBaseMap
import MapData
import MapGeometry
import MapGraphics
import MapOverlays

/// A rendered map image and what is where in it. Mirrors MapKit's `MKMapSnapshot`.
public final class Snapshot {
    /// Whether an annotation's view shows.
    public typealias Visibility = AnnotationVisibility
    /// An annotation (or a cluster) and its view's frame in image points.
    public typealias PlacedAnnotation = MapAnnotations.PlacedAnnotation

    /// The image, in device pixels.
    public let image: ImageSurface
    /// What the image shows.
    public let viewport: MapViewport
    /// Every annotation with its view's frame, north to south (the drawing order without selection),
    /// including hidden and clustered ones.
    public let annotations: [PlacedAnnotation]
    /// The clusters formed, with their views' frames.
    public let clusters: [PlacedAnnotation]

    /// The attribution's boxes (one per line), image points.
    public let attributionBoxes: [Rect]
    /// A box around each base-map label drawn (text, halo and icon), image points.
    public let labelBoxes: [Rect]

    init(
        image: ImageSurface, viewport: MapViewport, annotations: [PlacedAnnotation], attributionBoxes: [Rect] = [],
        labelBoxes: [Rect] = []
    ) {
        self.image = image
        self.viewport = viewport
        self.attributionBoxes = attributionBoxes
        self.labelBoxes = labelBoxes
        self.annotations = annotations.filter { !($0.annotation is ClusterAnnotation) }
        self.clusters = annotations.filter { $0.annotation is ClusterAnnotation }
    }

    /// The image point of a coordinate. Mirrors `pointForCoordinate:`.
    public func point(for coordinate: LocationCoordinate2D) -> Point { viewport.point(for: coordinate) }

    /// A JSON description of the snapshot: size, scale, region, visible map rect, zoom level, the camera
    /// (center, distance and altitude in metres, heading, pitch), every
    /// annotation's title, coordinate, frame (points, origin top-left) and `state` (`visible`, `hidden` by a
    /// collision, or `clustered` with its `cluster` id; `selected` and its `callout` frame; `userLocation`),
    /// and the `clusters` with their `id`, `count`, coordinate, frame and state; the `attribution` boxes
    /// and the base map's `labels` boxes (image points), which golden-image tests can mask.
    public func metadata() -> JSONValue {
        let region = viewport.region
        let rect = viewport.visibleMapRect
        let camera = viewport.camera
        func coordinate(_ c: LocationCoordinate2D) -> JSONValue {
            .object([("latitude", .number(c.latitude)), ("longitude", .number(c.longitude))])
        }
        return .object([
            ("size", .object([("width", .number(viewport.size.width)), ("height", .number(viewport.size.height))])),
            ("scale", .number(viewport.scale)),
            (
                "pixelSize",
                .object([
                    ("width", .number(Double(viewport.pixelSize.width))),
                    ("height", .number(Double(viewport.pixelSize.height))),
                ])
            ),
            (
                "region",
                .object([
                    ("center", coordinate(region.center)),
                    (
                        "span",
                        .object([
                            ("latitudeDelta", .number(region.span.latitudeDelta)),
                            ("longitudeDelta", .number(region.span.longitudeDelta)),
                        ])
                    ),
                ])
            ),
            (
                "visibleMapRect",
                .object([
                    ("x", .number(rect.minX)), ("y", .number(rect.minY)), ("width", .number(rect.width)),
                    ("height", .number(rect.height)),
                ])
            ),
            ("zoomLevel", .number(viewport.zoomLevel)),
            ("tileZoom", .number(Double(viewport.tileZoom))),
            (
                "camera",
                .object([
                    ("centerCoordinate", coordinate(camera.centerCoordinate)),
                    ("centerCoordinateDistance", .number(camera.centerCoordinateDistance)),
                    ("altitude", .number(camera.altitude)), ("heading", .number(camera.heading)),
                    ("pitch", .number(camera.pitch)),
                ])
            ),
            ("annotations", .array(annotations.map { Self.json($0, coordinate: coordinate) })),
            ("clusters", .array(clusters.map { Self.json($0, coordinate: coordinate) })),
            ("attribution", .array(attributionBoxes.map(Self.json))),
            ("labels", .array(labelBoxes.map(Self.json))),
        ])
    }

    private static func json(_ r: Rect) -> JSONValue {
        .object([
            ("x", .number(r.minX)), ("y", .number(r.minY)), ("width", .number(r.width)),
            ("height", .number(r.height)),
        ])
    }

    private static func json(_ placed: PlacedAnnotation, coordinate: (LocationCoordinate2D) -> JSONValue)
        -> JSONValue
    {
        var members: [(String, JSONValue)] = [
            ("title", placed.annotation.title.map(JSONValue.string) ?? .null),
            ("subtitle", placed.annotation.subtitle.map(JSONValue.string) ?? .null),
            ("coordinate", coordinate(placed.annotation.coordinate)),
            ("frame", json(placed.frame)),
            ("state", .string(placed.visibility.rawValue)),
        ]
        if let cluster = placed.annotation as? ClusterAnnotation {
            members.append(("id", .number(Double(cluster.id))))
            members.append(("count", .number(Double(cluster.memberAnnotations.count))))
        } else if let id = placed.clusterID {
            members.append(("cluster", .number(Double(id))))
        }
        if placed.isSelected { members.append(("selected", .bool(true))) }
        if let callout = placed.calloutFrame { members.append(("callout", json(callout))) }
        if placed.annotation is UserLocation { members.append(("userLocation", .bool(true))) }
        return .object(members)
    }
}
