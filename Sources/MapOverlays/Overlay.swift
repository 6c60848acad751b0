import Foundation
import MapGeometry

/// A shape drawn over the map by an ``OverlayRenderer``.
///
/// Map points of overlays are unwrapped across the 180th meridian (see ``Antimeridian``): consecutive
/// vertices are joined the short way round, so ``boundingMapRect`` of a shape that crosses 180 degrees
/// extends east or west of the world and ``MapRect/spans180thMeridian``.
///
/// Mirrors MapKit's `MKOverlay`.
public protocol Overlay: AnyObject {
    /// The overlay's approximate center.
    var coordinate: LocationCoordinate2D { get }
    /// A map rect that contains the whole overlay.
    var boundingMapRect: MapRect { get }
    /// Whether the overlay may show in `mapRect`. The default tests ``boundingMapRect`` against the rect
    /// and its copies one world east and west, so a route across 180 degrees meets a rect around either
    /// of its ends.
    func intersects(_ mapRect: MapRect) -> Bool
    /// Checks the overlay's data before it is drawn. The default accepts everything.
    ///
    /// - Throws: ``OverlayError`` naming the overlay and the problem.
    func validate() throws
}

extension Overlay {
    public func intersects(_ mapRect: MapRect) -> Bool {
        let bounds = boundingMapRect
        return WorldCopies.offsets(of: bounds, meeting: mapRect).contains {
            bounds.offsetBy(dx: $0, dy: 0).intersects(mapRect)
        }
    }
    public func validate() throws {}
}

/// The center of a map rect as a coordinate (longitude wrapped).
func centerCoordinate(of rect: MapRect) -> LocationCoordinate2D {
    guard !rect.isNull else { return LocationCoordinate2D(latitude: 0, longitude: 0) }
    return MapPoint(x: rect.midX, y: rect.midY).coordinate
}

/// A short name for an overlay in error messages: its kind and its title or first vertex.
func overlayName(_ kind: String, title: String?, first: LocationCoordinate2D?) -> String {
    if let title, !title.isEmpty { return "\(kind) \"\(title)\"" }
    if let first { return "\(kind) starting at \(first)" }
    return "\(kind) without vertices"
}

/// Checks that every vertex is a finite coordinate with latitude in -90...90 and that there are at least
/// `minimum` distinct vertices.
func checkVertices(_ coordinates: [LocationCoordinate2D], minimum: Int, what: String, name: String) throws {
    for (i, c) in coordinates.enumerated() {
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90 else {
            throw OverlayError.invalidShape(
                overlay: name,
                problem: "\(what) vertex \(i) is \(c); latitudes must be finite and in -90...90, longitudes finite")
        }
    }
    var distinct = Set<[Double]>()
    for c in coordinates {
        distinct.insert([c.latitude, c.longitude])
        if distinct.count >= minimum { return }
    }
    throw OverlayError.invalidShape(
        overlay: name,
        problem: "\(what) has \(distinct.count) distinct vertices; it needs at least \(minimum)")
}
