import Foundation
import MapGeometry
import MapTestSupport
import Testing

/// MapCamera and MapViewport under a heading and a pitch, against MapLibre Native's projection matrix
/// (`fixtures/camera/projection.json`, written by `Scripts/camera-projection-fixture.py`) and hand-worked cases.
@Suite("MapCamera")
struct MapCameraTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            struct Sample: Decodable {
                var latitude, longitude, x, y: Double
            }
            var width, height, latitude, longitude, zoomMapLibre, bearing, pitch: Double
            var points: [Sample]
        }
        var cases: [Case]
    }

    static func fixture() throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: Fixtures.data("camera/projection.json"))
    }

    static func viewport(_ c: Fixture.Case) throws -> MapViewport {
        var viewport = try MapViewport(
            size: Size(width: c.width, height: c.height),
            center: LocationCoordinate2D(latitude: c.latitude, longitude: c.longitude), zoomLevel: c.zoomMapLibre + 1)
        try viewport.setHeading(c.bearing, pitch: c.pitch)
        return viewport
    }

    @Test("Coordinates land where MapLibre Native's projection matrix puts them (6 views, 240 points, 1e-6 px)")
    func matchesMapLibreMatrix() throws {
        for c in try Self.fixture().cases {
            let viewport = try Self.viewport(c)
            for s in c.points {
                let p = viewport.point(for: LocationCoordinate2D(latitude: s.latitude, longitude: s.longitude))
                let what = "bearing \(c.bearing) pitch \(c.pitch): \(s.latitude),\(s.longitude)"
                expectClose(p.x, s.x, absolute: 1e-6, what + " x")
                expectClose(p.y, s.y, absolute: 1e-6, what + " y")
            }
        }
    }

    @Test(
        "convert(point) round-trips: image point -> map point -> image point within 1e-9 px (plus a map point's own precision)"
    )
    func roundTrips() throws {
        for c in try Self.fixture().cases {
            let viewport = try Self.viewport(c)
            var rng = SplitMix64(state: 28)
            for _ in 0..<200 {
                let p = Point(
                    x: Double(rng.next() % 10_000) / 10_000 * c.width,
                    y: Double(rng.next() % 10_000) / 10_000 * c.height)
                let m = try #require(viewport.groundMapPoint(for: p))
                let back = viewport.point(for: m)
                // A map point is a double of up to 2^28: its last bit is up to 3e-8 map points, which is more
                // than 1e-9 image points at street zooms; the tolerance adds four of those bits.
                let precision = 4 * max(m.x.ulp, m.y.ulp) / viewport.mapPointsPerPoint
                let tolerance = 1e-9 + precision
                expectClose(back.x, p.x, absolute: tolerance, "x of \(p) at bearing \(c.bearing) pitch \(c.pitch)")
                expectClose(back.y, p.y, absolute: tolerance, "y of \(p) at bearing \(c.bearing) pitch \(c.pitch)")
                let coordinate = viewport.coordinate(for: p)
                let again = viewport.point(for: coordinate)
                expectClose(again.x, p.x, absolute: 1e-6, "x via coordinate")
                expectClose(again.y, p.y, absolute: 1e-6, "y via coordinate")
            }
        }
    }

    @Test("Heading 90: east is up, the center stays put; heading 180: north is down (hand-worked)")
    func handWorkedHeading() throws {
        var viewport = try MapViewport(
            size: Size(width: 400, height: 300), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 4)
        let perPoint = viewport.mapPointsPerPoint
        let center = MapPoint(LocationCoordinate2D(latitude: 0, longitude: 0))
        try viewport.setHeading(90, pitch: 0)
        let east = viewport.point(for: MapPoint(x: center.x + 100 * perPoint, y: center.y))
        #expect(east == Point(x: 200, y: 50))
        try viewport.setHeading(180, pitch: 0)
        let north = viewport.point(for: MapPoint(x: center.x, y: center.y - 100 * perPoint))
        #expect(north == Point(x: 200, y: 250))
        // The visible map rect of a turned 400x300 view is 300x400 points of map.
        try viewport.setHeading(90, pitch: 0)
        let rect = viewport.visibleMapRect
        expectClose(rect.width / perPoint, 300, absolute: 1e-6, "turned width")
        expectClose(rect.height / perPoint, 400, absolute: 1e-6, "turned height")
    }

    @Test("Pitch 60, hand-worked: the image's top edge sees the ground 1/(1 - tan 60 / 3) x the camera distance away")
    func handWorkedPitch() throws {
        var viewport = try MapViewport(
            size: Size(width: 512, height: 512), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 10)
        try viewport.setHeading(0, pitch: 60)
        let d = 1.5 * 512.0
        // Ground ahead of the center at turned y: image y = 256 + d ry cos p / (d - ry sin p).
        let top = try #require(viewport.groundMapPoint(for: Point(x: 256, y: 0)))
        let ry = (top.y - MapPoint(LocationCoordinate2D(latitude: 0, longitude: 0)).y) / viewport.mapPointsPerPoint
        let p = 60.0 * .pi / 180
        expectClose(d - ry * sin(p), d / (1 - tan(p) / 3), absolute: 1e-6, "depth of the top edge")
        // The horizon lies above the image at 60 degrees: every image point has ground.
        #expect(viewport.groundMapPoint(for: Point(x: 0, y: 0)) != nil)
        // Far above the image, the sky: no ground.
        #expect(viewport.groundMapPoint(for: Point(x: 256, y: -2_000)) == nil)
        // The visible rect is wider at the top (far) than at the bottom, and contains every corner's ground.
        let visible = viewport.visibleMapRect
        for corner in [Point(x: 0, y: 0), Point(x: 512, y: 0), Point(x: 0, y: 512), Point(x: 512, y: 512)] {
            let m = try #require(viewport.groundMapPoint(for: corner))
            #expect(visible.insetBy(dx: -1e-3, dy: -1e-3).contains(m), "corner \(corner)")
        }
    }

    @Test("Altitude and zoom: 1.5 view heights x metres per point (MapLibre's transform), and back")
    func altitudeZoom() throws {
        // Zoom 17 (256-point tiles) at the equator: 2 pi 6378137 / 2^25 m per point; 600 points tall.
        let distance = MapCamera.distance(forZoomLevel: 17, latitude: 0, height: 600)
        expectClose(distance, 1.5 * 600 * 2 * .pi * 6_378_137 / 33_554_432, absolute: 1e-9, "distance")
        expectClose(
            MapCamera.zoomLevel(forDistance: distance, latitude: 0, height: 600), 17, absolute: 1e-12, "zoom back")
        let center = LocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
        let camera = try MapCamera(lookingAtCenter: center, fromDistance: 1_000, pitch: 45, heading: -30)
        #expect(camera.heading == 330)
        expectClose(camera.altitude, 1_000 * cos(.pi / 4), absolute: 1e-9, "altitude")
        var viewport = try MapViewport(size: Size(width: 800, height: 600))
        try viewport.setCamera(camera)
        let back = viewport.camera
        expectClose(back.centerCoordinateDistance, 1_000, absolute: 1e-6, "distance back")
        #expect(back.heading == 330 && back.pitch == 45)
    }

    @Test("Headings normalise into 0..<360; NaN, infinity and pitches outside 0...60 are refused naming the range")
    func validation() throws {
        let c = LocationCoordinate2D(latitude: 0, longitude: 0)
        for (given, expected) in [(360.0, 0.0), (-90, 270), (725, 5), (-720, 0), (359.5, 359.5)] {
            #expect(try MapCamera(lookingAtCenter: c, fromDistance: 1, pitch: 0, heading: given).heading == expected)
        }
        for heading in [Double.nan, .infinity, -.infinity] {
            #expect(throws: GeometryError.self) {
                try MapCamera(lookingAtCenter: c, fromDistance: 1, pitch: 0, heading: heading)
            }
        }
        for pitch in [-1.0, 60.001, 90, .nan] {
            let error = #expect(throws: GeometryError.self) {
                try MapCamera(lookingAtCenter: c, fromDistance: 1, pitch: pitch, heading: 0)
            }
            #expect(error?.description.contains("0...60") == true)
        }
        var viewport = try MapViewport(size: Size(width: 10, height: 10))
        #expect(throws: GeometryError.self) { try viewport.setHeading(.nan, pitch: 0) }
        #expect(throws: GeometryError.self) { try viewport.setHeading(0, pitch: 61) }
        #expect(throws: GeometryError.self) {
            try MapCamera(lookingAtCenter: c, fromDistance: 0, pitch: 0, heading: 0)
        }
    }

    @Test("Fitting under a heading: the region's turned bounding box fills the image, centered")
    func fitsTurned() throws {
        var viewport = try MapViewport(size: Size(width: 400, height: 200))
        try viewport.setHeading(90, pitch: 0)
        let rect = MapRect(x: 1_000_000, y: 2_000_000, width: 4_000, height: 1_000)
        viewport.setVisibleMapRect(rect)
        // Turned by 90 degrees the rect is 1000 wide and 4000 tall on the image: the height decides.
        expectClose(viewport.mapPointsPerPoint, 20, absolute: 1e-9, "scale")
        let a = viewport.point(for: MapPoint(x: rect.minX, y: rect.minY))
        let b = viewport.point(for: MapPoint(x: rect.maxX, y: rect.maxY))
        expectClose(min(a.y, b.y), 0, absolute: 1e-6, "top")
        expectClose(max(a.y, b.y), 200, absolute: 1e-6, "bottom")
        expectClose((a.x + b.x) / 2, 200, absolute: 1e-6, "centered")
    }
}

@Suite("The ground homography")
struct GroundHomographyTests {
    @Test("groundHomography is project(turned:) as a matrix; its inverse is groundTurned(at:)")
    func matchesProjection() throws {
        let projection = ViewProjection(
            center: MapPoint(x: 1000, y: 2000), perPoint: 1, size: Size(width: 300, height: 200), heading: 30,
            pitch: 50)
        let h = projection.groundHomography
        let inverse = try #require(h.inverted())
        for p in [Point(x: 0, y: 0), Point(x: -120, y: 80), Point(x: 60, y: -250), Point(x: 17.5, y: 3)] {
            let expected = projection.project(turned: p)
            let got = h.apply(p)
            #expect(abs(got.point.x - expected.point.x) < 1e-9 && abs(got.point.y - expected.point.y) < 1e-9)
            // The homography's w is the depth (its last row is (0, -sin p, d)).
            #expect(abs(got.w - expected.w) < 1e-9)
            let back = inverse.apply(got.point).point
            let ground = try #require(projection.groundTurned(at: got.point))
            #expect(abs(back.x - ground.x) < 1e-9 && abs(back.y - ground.y) < 1e-9)
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
        // Worked by hand: d = 300, pitch 50; the ground point 100 points ahead (ry = -100) at rx = 0 has depth
        // 300 + 100 sin 50 = 376.604 and image y = 100 + 300 (-100 cos 50) / 376.604 = 48.796.
        let ahead = h.apply(Point(x: 0, y: -100))
        #expect(abs(ahead.w - 376.6044) < 1e-3)
        #expect(abs(ahead.point.y - 48.7961) < 1e-3 && abs(ahead.point.x - 150) < 1e-12)
    }

    @Test("an affine transform as a homography, composition and inversion")
    func affine() throws {
        let t = Transform(rotationAngle: 0.3).concatenating(Transform(translationX: 5, y: -2))
        let s = Transform(scaleX: 2, y: 3)
        let h = Homography(t).concatenating(s)
        let p = Point(x: 1.5, y: -4)
        let expected = p.applying(t.concatenating(s))
        #expect(abs(h.apply(p).point.x - expected.x) < 1e-12 && abs(h.apply(p).point.y - expected.y) < 1e-12)
        let back = try #require(h.inverted()).apply(expected).point
        #expect(abs(back.x - p.x) < 1e-12 && abs(back.y - p.y) < 1e-12)
        #expect(Homography([1, 2, 3, 2, 4, 6, 0, 0, 1]).inverted() == nil, "singular")
    }
}
