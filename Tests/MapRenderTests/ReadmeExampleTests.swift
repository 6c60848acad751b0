import Foundation
import MapRaster
import Testing

/// README.md's library example, kept compiling and checked.
final class ReadmeTriangleView: AnnotationView {
    init() { super.init(size: Size(width: 40, height: 40), reuseIdentifier: "triangle") }
    override func draw(in context: GraphicsContext, bounds: Rect) {
        var path = Path()
        path.move(to: Point(x: 20, y: 0))
        path.addLine(to: Point(x: 10, y: 20 + 10 * 3.0.squareRoot()))
        path.addLine(to: Point(x: 30, y: 20 + 10 * 3.0.squareRoot()))
        path.close()
        path.apply(Transform.identity.translatedBy(x: 20, y: 20).rotated(by: .pi / 2).translatedBy(x: -20, y: -20))
        context.setFillColor(.red); context.setStrokeColor(.black)
        context.fill(path); context.stroke(path)
    }
}

@Suite("README examples")
struct ReadmeExampleTests {
    @Test("the library example renders a 640x640 px image with the triangle east of City Hall")
    func libraryExample() throws {
        let cityHall = LocationCoordinate2D(latitude: 34.053714, longitude: -118.242653)
        var options = MapSnapshotter.Options(size: Size(width: 320, height: 320), scale: 2)
        options.region = CoordinateRegion(center: cityHall, latitudinalMeters: 804.672, longitudinalMeters: 804.672)
        let snapshotter = try MapSnapshotter(options: options)
        snapshotter.addAnnotation(PointAnnotation(coordinate: cityHall, title: "City Hall"))
        snapshotter.viewProvider = { _ in ReadmeTriangleView() }
        snapshotter.addOverlay(Circle(center: cityHall, radius: 200))
        let snapshot = try snapshotter.snapshot()
        #expect(snapshot.image.width == 640 && snapshot.image.height == 640)
        // The view is centered on City Hall, at the image center; 10 points east of it is red triangle.
        let east = snapshot.image.pixel(x: 2 * 170, y: 2 * 160)
        #expect(east.red > 200 && east.green < 60 && east.blue < 60, "\(east)")
    }
}
