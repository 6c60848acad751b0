import Foundation
import MapData
import MapGeometry
import MapGraphics

/// A rendered map image and what is where in it. Mirrors MapKit's `MKMapSnapshot`.
public final class Snapshot {
    /// An annotation and its view's frame in image points.
    public struct PlacedAnnotation {
        public var annotation: Annotation
        /// The view's frame in points; it may lie partly or wholly outside the image.
        public var frame: Rect
    }

    /// The image, in device pixels.
    public let image: ImageSurface
    /// What the image shows.
    public let viewport: MapViewport
    /// Every annotation with its view's frame, in drawing order.
    public let annotations: [PlacedAnnotation]

    init(image: ImageSurface, viewport: MapViewport, annotations: [PlacedAnnotation]) {
        self.image = image
        self.viewport = viewport
        self.annotations = annotations
    }

    /// The image point of a coordinate. Mirrors `pointForCoordinate:`.
    public func point(for coordinate: LocationCoordinate2D) -> Point { viewport.point(for: coordinate) }

    /// A JSON description of the snapshot: size, scale, region, visible map rect, zoom level and every
    /// annotation's title, coordinate and frame (points, origin top-left).
    public func metadata() -> JSONValue {
        let region = viewport.region
        let rect = viewport.visibleMapRect
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
                "annotations",
                .array(
                    annotations.map { placed in
                        .object([
                            ("title", placed.annotation.title.map(JSONValue.string) ?? .null),
                            ("subtitle", placed.annotation.subtitle.map(JSONValue.string) ?? .null),
                            ("coordinate", coordinate(placed.annotation.coordinate)),
                            (
                                "frame",
                                .object([
                                    ("x", .number(placed.frame.minX)), ("y", .number(placed.frame.minY)),
                                    ("width", .number(placed.frame.width)), ("height", .number(placed.frame.height)),
                                ])
                            ),
                        ])
                    })
            ),
        ])
    }
}
