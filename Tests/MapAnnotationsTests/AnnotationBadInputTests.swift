import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Bad annotation input gives errors naming the annotation and the problem")
struct AnnotationBadInputTests {
    func snapshotter() throws -> MapSnapshotter {
        try MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 200, height: 100)))
    }

    @Test(
        "an invalid coordinate names the annotation's index and title", arguments: [(95.0, 10.0), (10, 200), (.nan, 0)])
    func invalidCoordinate(latitude: Double, longitude: Double) throws {
        let s = try snapshotter()
        s.addAnnotation(PointAnnotation(coordinate: LocationCoordinate2D(latitude: 1, longitude: 1), title: "fine"))
        s.addAnnotation(
            PointAnnotation(
                coordinate: LocationCoordinate2D(latitude: latitude, longitude: longitude), title: "Bad place"))
        let error = try #require(throws: AnnotationError.self) { try s.snapshot() }
        #expect(error.description.hasPrefix("annotation 1 ('Bad place'): coordinate "))
        #expect(error.description.contains("latitude must be in -90...90"))
    }

    @Test("a negative view size names the annotation; an untitled one says so")
    func negativeSize() throws {
        let s = try snapshotter()
        s.addAnnotation(PointAnnotation(coordinate: LocationCoordinate2D(latitude: 1, longitude: 1)))
        s.viewProvider = { _ in AnnotationView(size: Size(width: -4, height: 10)) }
        let error = try #require(throws: AnnotationError.self) { try s.snapshot() }
        #expect(
            error.description
                == "annotation 0 (untitled): view size -4.0x10.0 is invalid; width and height must be in 0...16384 points"
        )
        s.viewProvider = { _ in AnnotationView(size: Size(width: 10, height: .infinity)) }
        #expect(throws: AnnotationError.self) { try s.snapshot() }
        s.viewProvider = { _ in AnnotationView(size: Size(width: 1e300, height: 10)) }
        #expect(throws: AnnotationError.self) { try s.snapshot() }
    }

    @Test("a centerOffset that is not finite names the annotation")
    func badOffset() throws {
        let s = try snapshotter()
        s.addAnnotation(PointAnnotation(coordinate: LocationCoordinate2D(latitude: 1, longitude: 1), title: "x"))
        s.viewProvider = { _ in AnnotationView(size: Size(width: 4, height: 4), centerOffset: Point(x: .infinity, y: 0))
        }
        let error = try #require(throws: AnnotationError.self) { try s.snapshot() }
        #expect(error.description.hasPrefix("annotation 0 ('x'): view centerOffset"))
    }

    @Test("a missing image file, a folder and a file that is not a PNG")
    func images() throws {
        let missing = Fixtures.url("annotations/icons/NoSuchMarker.png").path
        let e1 = try #require(throws: AnnotationError.self) { try AnnotationView(contentsOfPNG: missing) }
        #expect(e1.description == "annotation image '\(missing)': no such file; expected a readable PNG file")
        let folder = Fixtures.url("annotations/icons").path
        let e2 = try #require(throws: AnnotationError.self) { try AnnotationView.loadImage(path: folder) }
        #expect(e2.description.contains("it is a folder"))
        let text = Fixtures.url("annotations/not-a-png.png").path
        let e3 = try #require(throws: AnnotationError.self) { try AnnotationView(contentsOfPNG: text) }
        #expect(e3.description.hasPrefix("annotation image '\(text)': not a PNG"))
    }

    @Test("an unknown pin color lists the valid ones")
    func pinColor() throws {
        #expect(try PinAnnotationView.PinColor(named: "green") == .green)
        let error = try #require(throws: AnnotationError.self) { try PinAnnotationView.PinColor(named: "blue") }
        #expect(error.description == "unknown pin color 'blue'; expected one of red, green, purple")
    }

    @Test("showAnnotations: negative padding is an error; padding that leaves no room is ignored")
    func padding() throws {
        let s = try snapshotter()
        let a = PointAnnotation(coordinate: LocationCoordinate2D(latitude: 1, longitude: 1))
        let b = PointAnnotation(coordinate: LocationCoordinate2D(latitude: 5, longitude: 9))
        s.addAnnotations([a, b])
        let before = s.viewport
        let error = try #require(throws: RenderError.self) {
            try s.showAnnotations([a, b], edgePadding: EdgeInsets(top: -1, left: 0, bottom: 0, right: 0))
        }
        #expect(error.description.contains("edge padding [-1.0, 0.0, 0.0, 0.0] is invalid"))
        #expect(s.viewport == before)
        let bad = PointAnnotation(coordinate: LocationCoordinate2D(latitude: 91, longitude: 0), title: "north of north")
        s.addAnnotation(bad)
        let e2 = try #require(throws: AnnotationError.self) { try s.showAnnotations([a, bad]) }
        #expect(e2.description.hasPrefix("annotation 2 ('north of north')"))
        #expect(s.viewport == before)
        try s.showAnnotations([a, b], edgePadding: EdgeInsets(top: 0, left: 150, bottom: 0, right: 60))
        let wide = s.viewport
        try s.showAnnotations([a, b])
        #expect(s.viewport == wide)
    }
}
