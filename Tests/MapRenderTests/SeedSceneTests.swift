import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("The seed's scene: Los Angeles City Hall with a rotated triangle")
struct SeedSceneTests {
    static let metersPerMile = 1609.344
    static let park = LocationCoordinate2D(latitude: 34.0528873, longitude: -118.2434255)
    static let cityHall = LocationCoordinate2D(latitude: 34.053714, longitude: -118.242653)

    /// The seed's case: the park (its center) seen across 0.5 mile, with the triangle at City Hall.
    static func snapshotter() throws -> MapSnapshotter {
        let golden = try GoldenCase.load("seed/la-triangle")
        let snapshotter = try golden.snapshotter()
        snapshotter.addAnnotation(
            AngledAnnotation(
                coordinate: try golden.value("cityHall", as: LocationCoordinate2D.self),
                angle: try golden.number("angle")))
        snapshotter.viewProvider = { annotation in
            (annotation as? AngledAnnotation).map(TriangleAnnotationView.init)
        }
        return snapshotter
    }

    func makeSnapshot() throws -> Snapshot { try Self.snapshotter().snapshot() }

    @Test("seed golden: 0.5 mile square region, triangle at City Hall rotated 90 degrees")
    func golden() throws {
        let golden = try GoldenCase.load("seed/la-triangle")
        // The case's parameters are the seed's: the park, half a mile, City Hall, 90 degrees.
        #expect(golden.centerCoordinate == Self.park && golden.meters == 0.5 * Self.metersPerMile)
        #expect(
            try golden.value("cityHall", as: LocationCoordinate2D.self) == Self.cityHall && golden.number("angle") == 90
        )
        #expect(golden.check(try makeSnapshot().image) == nil)
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

    // MARK: - The seed's rotated triangle

    @Test("the seed's triangle view at 0, 45, 90, 180 and 270 degrees")
    func triangles() throws {
        let golden = try GoldenCase.load("annotations/triangle-angles")
        let s = try golden.snapshotter()
        let angles = try golden.numbers("angles")
        let centers = try golden.list("points", of: Point.self)
        for (angle, center) in zip(angles, centers) {
            s.addAnnotation(AngledAnnotation(coordinate: s.viewport.coordinate(for: center), angle: angle))
        }
        s.viewProvider = { ($0 as? AngledAnnotation).map(TriangleAnnotationView.init) }
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        // A drawing-closure view has no reuse key: it is drawn each time.
        #expect(
            TriangleAnnotationView(annotation: AngledAnnotation(coordinate: Self.cityHall, angle: 30)).reuseContentKey
                == nil)
        // The apex is 20 points from the center in the direction of the angle (0 = up, clockwise).
        for (angle, center) in zip(angles, centers) {
            let a = angle * .pi / 180
            let inside = snapshot.image.pixel(x: Int(center.x + 12 * sin(a)), y: Int(center.y - 12 * cos(a)))
            let opposite = snapshot.image.pixel(x: Int(center.x - 19 * sin(a)), y: Int(center.y + 19 * cos(a)))
            #expect(inside.red > 200 && inside.green < 60, "angle \(angle): \(inside)")
            #expect(!(opposite.red > 200 && opposite.green < 60), "angle \(angle): \(opposite)")
        }
    }
}
