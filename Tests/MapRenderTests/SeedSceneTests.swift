import Foundation
import MapRaster
import MapTestSupport
import Testing

/// The seed's `MAnnotation`: a location and an angle in degrees.
final class AngledAnnotation: Annotation {
    let coordinate: LocationCoordinate2D
    let angle: Double
    init(coordinate: LocationCoordinate2D, angle: Double) {
        self.coordinate = coordinate
        self.angle = angle
    }
}

/// The seed's `MAnnotationView`: 40x40, not opaque, `drawRect:` draws a triangle rotated by the angle,
/// red fill and black stroke, line for line as in the tutorial.
final class TriangleAnnotationView: AnnotationView {
    let angle: Double
    init(annotation: AngledAnnotation) {
        angle = annotation.angle
        super.init(size: Size(width: 40, height: 40), isOpaque: false, reuseIdentifier: "Custom Annotation View")
    }

    override func draw(in context: GraphicsContext, bounds: Rect) {
        let size = min(bounds.width, bounds.height) / 2
        let center = Point(x: bounds.width / 2, y: bounds.height / 2)
        var path = Path()
        path.move(to: Point(x: center.x + 0, y: center.y - size))
        path.addLine(to: Point(x: center.x - size / 2, y: center.y + size / 2 * 3.0.squareRoot()))
        path.addLine(to: Point(x: center.x + size / 2, y: center.y + size / 2 * 3.0.squareRoot()))
        path.close()
        var transform = Transform.identity
        path.apply(transform)
        transform = transform.translatedBy(x: center.x, y: center.y)
        transform = transform.rotated(by: angle / 180 * .pi)
        transform = transform.translatedBy(x: -center.x, y: -center.y)
        path.apply(transform)
        context.setFillColor(.red)
        context.setStrokeColor(.black)
        context.fill(path)
        context.stroke(path)
    }
}

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
