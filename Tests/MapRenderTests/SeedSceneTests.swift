import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("The seed's scene: Los Angeles City Hall with a rotated triangle")
struct SeedSceneTests {
    static let metersPerMile = 1609.344
    static let park = LocationCoordinate2D(latitude: 34.0528873, longitude: -118.2434255)
    static let cityHall = LocationCoordinate2D(latitude: 34.053714, longitude: -118.242653)

    func makeSnapshot(scale: Double = 1) throws -> Snapshot {
        var options = MapSnapshotter.Options(size: Size(width: 320, height: 320), scale: scale)
        options.region = CoordinateRegion(
            center: Self.park, latitudinalMeters: 0.5 * Self.metersPerMile, longitudinalMeters: 0.5 * Self.metersPerMile
        )
        let snapshotter = try MapSnapshotter(options: options)
        snapshotter.addAnnotation(AngledAnnotation(coordinate: Self.cityHall, angle: 90))
        snapshotter.viewProvider = { annotation in
            (annotation as? AngledAnnotation).map(TriangleAnnotationView.init)
        }
        return try snapshotter.snapshot()
    }

    @Test("seed golden: 0.5 mile square region, triangle at City Hall rotated 90 degrees")
    func golden() throws {
        let snapshot = try makeSnapshot()
        #expect(GoldenImage.check(snapshot.image, golden: "seed/la-triangle") == nil)
    }

    @Test("the view is centered on City Hall and the triangle points east after a 90 degree turn")
    func geometry() throws {
        let snapshot = try makeSnapshot()
        let anchor = snapshot.point(for: Self.cityHall)
        let frame = try #require(snapshot.annotations.first?.frame)
        #expect(abs(frame.midX - anchor.x) < 1e-9 && abs(frame.midY - anchor.y) < 1e-9)
        #expect(frame.width == 40 && frame.height == 40)
        // Rotated 90 degrees clockwise, the apex (20 points above the center) is 20 points right of it.
        let apex = snapshot.image.pixel(x: Int(anchor.x + 5), y: Int(anchor.y))
        let above = snapshot.image.pixel(x: Int(anchor.x), y: Int(anchor.y - 17))
        #expect(apex.red > 200 && apex.green < 60, "near the apex east of the center: \(apex)")
        #expect(!(above.red > 200 && above.green < 60), "north of the center is map, not triangle: \(above)")
        // City Hall lies north-east of the park: up and right of the image center.
        #expect(anchor.x > 160 && anchor.y < 160)
    }

    @Test("the region is the 0.5 mile square fitted to the square image")
    func region() throws {
        let snapshot = try makeSnapshot()
        let region = snapshot.viewport.region
        // 804.672 m on the sphere of radius 6378137 m: 0.0072284 degrees of latitude.
        #expect(abs(region.span.latitudeDelta - 0.5 * Self.metersPerMile / 6_378_137 * 180 / .pi) < 1e-6)
        #expect(abs(region.center.latitude - Self.park.latitude) < 1e-9)
        #expect(abs(region.center.longitude - Self.park.longitude) < 1e-9)
    }
}
