import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Golden images of the first static maps")
struct GoldenRenderTests {
    @Test("the world at zoom 1: 512x512 points shows the whole Web Mercator square")
    func worldZoom1() throws {
        let (_, snapshot, failure) = try GoldenCase.check("world/zoom1")
        #expect(abs(snapshot.viewport.zoomLevel - 1) < 1e-12)
        #expect(snapshot.viewport.visibleMapRect == MapRect.world)
        #expect(failure == nil)
        // Ocean in mid-Pacific, land in central Africa (20 N, 20 E), checked against the style's colors.
        let pacific = snapshot.image.pixel(
            x: Int(snapshot.point(for: LocationCoordinate2D(latitude: 0, longitude: -150)).x), y: 256)
        let africa = snapshot.point(for: LocationCoordinate2D(latitude: 20, longitude: 20))
        #expect(pacific == ImageSurface.Pixel(red: 170, green: 211, blue: 223, alpha: 255))
        #expect(
            snapshot.image.pixel(x: Int(africa.x), y: Int(africa.y))
                == ImageSurface.Pixel(red: 242, green: 239, blue: 233, alpha: 255))
    }

    /// The shapes of `fixtures/scenes/europe-shapes.json` (the scene `mapraster render --scene` draws): a
    /// polygon with a square hole over the Bay of Biscay, a dashed polyline from Brest to Oslo to Helsinki, a
    /// 1,000 km circle at 60 degrees north.
    static func shapesSnapshotter(scale: Double) throws -> MapSnapshotter {
        try GoldenCase.load(scale == 1 ? "overlays/shapes" : "overlays/shapes@2x").snapshotter()
    }

    @Test("a polygon with a hole, a dashed polyline and a 1,000 km circle at 60 N", arguments: [1.0, 2.0])
    func shapes(scale: Double) throws {
        let golden = try GoldenCase.load(scale == 1 ? "overlays/shapes" : "overlays/shapes@2x")
        let snapshot = try golden.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        // The hole shows the sea: the pixel at the hole's center has the ocean color.
        let holeCenter = snapshot.point(for: LocationCoordinate2D(latitude: 45.5, longitude: -6))
        let p = snapshot.image.pixel(x: Int(holeCenter.x * scale), y: Int(holeCenter.y * scale))
        #expect(p == ImageSurface.Pixel(red: 170, green: 211, blue: 223, alpha: 255), "hole center: \(p)")
    }

    @Test("a geodesic circle at 60 N is stretched north-south in Mercator, egg-shaped, and 1,000 km from its center")
    func circleStretched() throws {
        let circle = Circle(center: LocationCoordinate2D(latitude: 60, longitude: 12), radius: 1_000_000)
        let rect = circle.boundingMapRect
        // Independent spherical geometry: the circle spans latitudes 60 -+ r (r = radius / R in radians)
        // and, where it touches a meridian, longitudes 12 -+ asin(sin r / cos 60).
        let r = 1_000_000 / 6_378_137.0
        let north = 60 + r * 180 / .pi
        let south = 60 - r * 180 / .pi
        let mercatorY = { (lat: Double) in (0.5 - log(tan(.pi / 4 + lat * .pi / 360)) / (2 * .pi)) * 268_435_456 }
        let expectedHeight = mercatorY(south) - mercatorY(north)
        let expectedWidth = 2 * asin(sin(r) / cos(60 * Double.pi / 180)) / (2 * .pi) * 268_435_456
        #expect(abs(rect.height - expectedHeight) / expectedHeight < 1e-4, "height \(rect.height) vs \(expectedHeight)")
        #expect(abs(rect.width - expectedWidth) / expectedWidth < 1e-3, "width \(rect.width) vs \(expectedWidth)")
        #expect(rect.height > rect.width * 1.015)
        for point in circle.outline(vertices: 72) {
            let d = WebMercator.distance(from: circle.center, to: point.coordinate)
            #expect(abs(d - 1_000_000) < 0.01)
        }
        // The northern half is larger than the southern half.
        let c = MapPoint(circle.center)
        #expect(c.y - rect.minY > (rect.maxY - c.y) * 1.2)
    }

    static func pinsSnapshotter(_ golden: GoldenCase) throws -> MapSnapshotter {
        let snapshotter = try golden.snapshotter()
        let otherTint = try golden.value("otherTint", as: Color.self)
        var colors: [ObjectIdentifier: Color] = [:]
        for (name, coordinate) in try golden.named("pins", of: LocationCoordinate2D.self) {
            let annotation = PointAnnotation(coordinate: coordinate, title: name)
            colors[ObjectIdentifier(annotation)] = PinAnnotationView.PinColor(rawValue: name)?.color ?? otherTint
            snapshotter.addAnnotation(annotation)
        }
        snapshotter.viewProvider = { annotation in
            annotation.title!.hasPrefix("red")
                ? nil : PinAnnotationView(pinTintColor: colors[ObjectIdentifier(annotation)]!)
        }
        return snapshotter
    }

    @Test(
        "default pins in red, green, purple and a tint; southern pins drawn in front",
        arguments: ["annotations/default-pins", "annotations/default-pins@2x"])
    func pins(name: String) throws {
        let golden = try GoldenCase.load(name)
        let snapshot = try Self.pinsSnapshotter(golden).snapshot()
        #expect(golden.check(snapshot.image) == nil)
        // The orange pin is south of the purple one and overlaps it: the overlap shows orange.
        let frames = Dictionary(uniqueKeysWithValues: snapshot.annotations.map { ($0.annotation.title!, $0.frame) })
        let purple = try #require(frames["purple"])
        let orange = try #require(frames["orange"])
        #expect(purple.intersects(orange))
        let order = snapshot.annotations.map { $0.annotation.title! }
        #expect(order.firstIndex(of: "purple")! < order.firstIndex(of: "orange")!)
        // The pin's tip is at the coordinate: the frame's bottom center.
        let tip = snapshot.point(
            for: try #require(golden.named("pins", of: LocationCoordinate2D.self).first { $0.name == "green" }).value)
        let green = try #require(frames["green"])
        #expect(abs(green.midX - tip.x) < 1e-9 && abs(green.maxY - tip.y) < 1e-9)
    }

    @Test("the same inputs give byte-identical PNGs")
    func deterministic() throws {
        let a = try Self.shapesSnapshotter(scale: 1).snapshot().image.pngData()
        let b = try Self.shapesSnapshotter(scale: 1).snapshot().image.pngData()
        #expect(a == b)
    }
}
