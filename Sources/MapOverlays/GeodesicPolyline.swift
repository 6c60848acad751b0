import Foundation
import MapGeometry

/// A polyline whose segments follow great circles, the shortest paths on the globe: the vertices are
/// densified so that no step is longer than ``maximumStep`` meters (a flight path from Tokyo to San
/// Francisco curves north over the Pacific). ``Polyline/coordinates`` and ``Polyline/points`` hold the
/// densified vertices. Mirrors MapKit's `MKGeodesicPolyline`.
public final class GeodesicPolyline: Polyline {
    /// The longest step between interpolated vertices: 50 km.
    public static let maximumStep = 50_000.0

    /// The vertices as given, before interpolation.
    public let controlCoordinates: [LocationCoordinate2D]

    /// Creates a geodesic polyline through `coordinates`. Mirrors `polylineWithCoordinates:count:`.
    public init(controlCoordinates coordinates: [LocationCoordinate2D]) {
        controlCoordinates = coordinates
        let valid = coordinates.allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite }
        super.init(coordinates: valid ? Geodesic.densified(coordinates, maximumStep: Self.maximumStep) : coordinates)
    }

    override var kindName: String { "GeodesicPolyline" }

    public override func validate() throws {
        try checkVertices(
            controlCoordinates, minimum: 2, what: "the line",
            name: overlayName(kindName, title: title, first: controlCoordinates.first))
    }
}
