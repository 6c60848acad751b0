import Foundation
import MapAnnotations
import MapBaseMap
import MapGeometry
import MapOverlays
import MapRender

/// The part of the map an image shows, in the forms users give it.
public enum MapArea: Sendable, Equatable {
    /// The whole world, fitted to the image.
    case world
    /// A region (center and span), fitted to the image's aspect ratio.
    case region(CoordinateRegion)
    /// A center and a fractional zoom level (zoom z shows the world 256 * 2^z points wide).
    case centerZoom(LocationCoordinate2D, zoomLevel: Double)
    /// A longitude/latitude box, fitted to the image's aspect ratio.
    case boundingBox(GeoBoundingBox)
    /// A center seen from a camera whose altitude the scene's ``SceneCamera`` gives (the snapshot options'
    /// ``MapSnapshotter/Options/camera`` then places the map).
    case centerAltitude(LocationCoordinate2D)

    /// Applies the area to snapshot options.
    ///
    /// - Throws: ``GeometryError`` for a zoom level outside 0...22.
    public func apply(to options: inout MapSnapshotter.Options) throws {
        options.region = nil
        options.visibleMapRect = nil
        switch self {
        case .world: break
        case .region(let region): options.region = try region.validated()
        case let .centerZoom(center, zoomLevel):
            _ = try LocationCoordinate2D(validatingLatitude: center.latitude, longitude: center.longitude)
            guard MapViewport.isValidZoomLevel(zoomLevel) else { throw GeometryError.invalidZoom(zoomLevel) }
            let perPoint = pow(2, 20 - zoomLevel)
            let c = MapPoint(center)
            let width = options.size.width * perPoint
            let height = options.size.height * perPoint
            options.visibleMapRect = MapRect(x: c.x - width / 2, y: c.y - height / 2, width: width, height: height)
        case .boundingBox(let box): options.visibleMapRect = box.mapRect
        case .centerAltitude(let center):
            _ = try LocationCoordinate2D(validatingLatitude: center.latitude, longitude: center.longitude)
        }
    }
}
