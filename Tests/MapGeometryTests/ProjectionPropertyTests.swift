import Foundation
import MapGeometry
import Testing

/// Properties of the projection that hold for every coordinate, checked over deterministic grids.
@Suite("Projection properties")
struct ProjectionPropertyTests {
    /// 41 latitudes from -85.05 to 85.05 degrees (just inside the poles' limit of 85.0511 degrees).
    static let latitudes: [Double] = (0...40).map { -85.05 + Double($0) * (2 * 85.05 / 40) }
    /// 25 longitudes from -180 to 180 degrees, both ends included.
    static let longitudes: [Double] = (0...24).map { -180 + Double($0) * 15 }

    @Test("project then unproject returns the coordinate within 1e-9 degrees (1025 coordinates)", arguments: latitudes)
    func roundTrip(latitude: Double) {
        for longitude in Self.longitudes {
            let coordinate = LocationCoordinate2D(latitude: latitude, longitude: longitude)
            let back = MapPoint(coordinate).coordinate
            #expect(
                abs(back.latitude - latitude) <= Tolerance.degrees
                    && abs(back.longitude - longitude) <= Tolerance.degrees,
                "\(coordinate) came back as \(back)")
        }
    }

    @Test("unproject then project returns the map point within 1e-5 map points")
    func inverseRoundTrip() {
        let world = WebMercator.worldSize
        for i in 0...32 {
            for j in 1...31 {  // rows 0 and 32 are the poles' limit, where latitude is flat in y
                let point = MapPoint(x: Double(i) / 32 * world, y: Double(j) / 32 * world)
                let back = MapPoint(point.coordinate)
                #expect(
                    abs(back.x - point.x) <= Tolerance.mapPoints && abs(back.y - point.y) <= Tolerance.mapPoints,
                    "\(point) came back as \(back)")
            }
        }
    }

    @Test("Latitudes beyond the poles' limit project onto the world's north and south edges")
    func clampedLatitudes() {
        for latitude in [85.06, 89.0, 90.0] {
            #expect(abs(MapPoint(LocationCoordinate2D(latitude: latitude, longitude: 10)).y) <= Tolerance.mapPoints)
            #expect(
                abs(MapPoint(LocationCoordinate2D(latitude: -latitude, longitude: 10)).y - WebMercator.worldSize)
                    <= Tolerance.mapPoints)
        }
    }

    @Test("Map points per meter follow the Mercator scale 1/cos(latitude) beyond the poles' limit too")
    func pointsPerMeterNearPoles() {
        // 2^28 / (2 pi 6378137 cos 89 deg) = 383.8052, computed by hand; MapKit's scale is not clamped.
        #expect(abs(MapPoint.pointsPerMeter(atLatitude: 89) - 383.80519) < 1e-4)
        let region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 89, longitude: 0), latitudinalMeters: 1000, longitudinalMeters: 1000)
        // 1000 m along the 89 degree parallel: 1000 / (6378137 cos 89 deg) radians = 0.5147 degrees.
        #expect(abs(region.span.longitudeDelta - 0.51472) < 1e-4)
    }

    @Test("Going east increases x and going north decreases y, everywhere on the grid")
    func monotonic() {
        for (a, b) in zip(Self.latitudes, Self.latitudes.dropFirst()) {
            #expect(
                MapPoint(LocationCoordinate2D(latitude: b, longitude: 0)).y
                    < MapPoint(LocationCoordinate2D(latitude: a, longitude: 0)).y)
        }
        for (a, b) in zip(Self.longitudes, Self.longitudes.dropFirst()) {
            #expect(
                MapPoint(LocationCoordinate2D(latitude: 0, longitude: b)).x
                    > MapPoint(LocationCoordinate2D(latitude: 0, longitude: a)).x)
        }
    }

    @Test("A map point several worlds east or west unprojects to the same coordinate as its copy in the world")
    func longitudeWraps() {
        let world = WebMercator.worldSize
        for k in [-3.0, -1.0, 1.0, 2.0] {
            for x in [0.1, 0.25, 0.5, 0.9] {
                let inside = MapPoint(x: x * world, y: world / 3).coordinate
                let outside = MapPoint(x: (x + k) * world, y: world / 3).coordinate
                #expect(abs(longitudeDifference(outside.longitude, inside.longitude)) <= Tolerance.degrees)
                #expect((-180.0...180.0).contains(outside.longitude), "x = \(x + k) worlds gave \(outside.longitude)")
                #expect(outside.latitude == inside.latitude)
            }
        }
    }

    @Test("Distance is symmetric, zero to itself, and a quarter meridian is pi/2 * R")
    func distanceBasics() {
        let a = LocationCoordinate2D(latitude: 60.17, longitude: 24.94)
        let b = LocationCoordinate2D(latitude: -33.87, longitude: 151.21)
        #expect(WebMercator.distance(from: a, to: a) == 0)
        #expect(WebMercator.distance(from: a, to: b) == WebMercator.distance(from: b, to: a))
        let quarter = WebMercator.distance(
            from: LocationCoordinate2D(latitude: 0, longitude: 0), to: LocationCoordinate2D(latitude: 90, longitude: 0))
        expectClose(quarter, .pi / 2 * 6_378_137, absolute: 0, relative: Tolerance.relative, "quarter meridian")
    }

    @Test("Going 10 km along any bearing ends 10 km from the start")
    func destinationRoundTrip() {
        let start = LocationCoordinate2D(latitude: 60.17, longitude: 24.94)
        for bearing in stride(from: 0.0, to: 360, by: 45) {
            let there = WebMercator.destination(from: start, bearing: bearing, meters: 10_000)
            expectClose(
                WebMercator.distance(from: start, to: there), 10_000, absolute: 0, relative: Tolerance.relative,
                "distance at bearing \(bearing)")
        }
    }
}
