import Foundation
import MapRaster
import MapTestSupport
import Testing

/// Renders overlays over the base map.
func overlaySnapshot(
    size: Size = Size(width: 480, height: 320), scale: Double = 1, region: CoordinateRegion? = nil,
    mapRect: MapRect? = nil, baseMap: Bool = true, overlays: [Overlay],
    provider: ((Overlay) -> OverlayRenderer?)? = nil
) throws -> Snapshot {
    var options = MapSnapshotter.Options(size: size, scale: scale)
    options.region = region
    options.visibleMapRect = mapRect
    options.showsAttribution = false
    let snapshotter = try MapSnapshotter(options: options).pinnedToPlainBaseMap()
    if !baseMap { snapshotter.baseMap = nil }
    snapshotter.addOverlays(overlays)
    snapshotter.rendererProvider = provider
    return try snapshotter.snapshot()
}

/// Renders overlays in the view of a golden case (``GoldenCase/snapshotter()``: its `case.json`).
func overlaySnapshot(
    _ golden: GoldenCase, overlays: [Overlay], provider: ((Overlay) -> OverlayRenderer?)? = nil
) throws -> Snapshot {
    let snapshotter = try golden.snapshotter()
    snapshotter.addOverlays(overlays)
    snapshotter.rendererProvider = provider
    return try snapshotter.snapshot()
}

/// The golden case `name` at scale 1, or its `@2x` (`@3x`) sibling.
func goldenCase(_ name: String, _ scale: Double) throws -> GoldenCase {
    try GoldenCase.load(scale == 1 ? name : "\(name)@\(Int(scale))x")
}

@Suite("Golden images of overlays across the 180th meridian")
struct OverlayAntimeridianGoldenTests {
    static func flightRenderers(_ overlay: Overlay) -> OverlayRenderer? {
        switch overlay {
        case let l as GeodesicPolyline:
            let r = PolylineRenderer(polyline: l)
            r.strokeColor = Color(red8: 0, green8: 90, blue8: 200)
            return r
        case let l as Polyline:
            let r = PolylineRenderer(polyline: l)
            r.strokeColor = Color(red8: 210, green8: 30, blue8: 30)
            r.lineDashPattern = [8, 5]
            r.lineCap = .butt
            return r
        case let p as Polygon:
            let r = PolygonRenderer(polygon: p)
            r.fillColor = Color(red8: 255, green8: 140, blue8: 0, alpha: 0.5)
            r.strokeColor = Color(red8: 160, green8: 80, blue8: 0)
            r.lineWidth = 2
            return r
        case let c as Circle:
            let r = CircleRenderer(circle: c)
            r.fillColor = Color(red8: 120, green8: 40, blue8: 200, alpha: 0.3)
            r.strokeColor = Color(red8: 120, green8: 40, blue8: 200)
            r.lineWidth = 2
            return r
        default: return nil
        }
    }

    /// Fiji's ring, a circle on 180, and Tokyo to San Francisco straight and geodesic, from a case's `values`.
    static func pacificOverlays(_ golden: GoldenCase) throws -> [Overlay] {
        let tokyo = try golden.value("tokyo", as: LocationCoordinate2D.self)
        let sanFrancisco = try golden.value("sanFrancisco", as: LocationCoordinate2D.self)
        return [
            Polygon(coordinates: try golden.list("fiji", of: LocationCoordinate2D.self)),
            Circle(
                center: try golden.value("circleCenter", as: LocationCoordinate2D.self),
                radius: try golden.number("circleRadius")),
            Polyline(coordinates: [tokyo, sanFrancisco]),
            GeodesicPolyline(controlCoordinates: [tokyo, sanFrancisco]),
        ]
    }

    @Test(
        "a view centered on the Pacific: Tokyo to San Francisco geodesic and straight, Fiji, a circle on 180",
        arguments: [1.0, 2.0])
    func pacific(scale: Double) throws {
        let golden = try goldenCase("overlays/antimeridian-pacific", scale)
        let snapshot = try overlaySnapshot(
            golden, overlays: try Self.pacificOverlays(golden), provider: Self.flightRenderers)
        #expect(snapshot.viewport.visibleMapRect.spans180thMeridian)
        #expect(golden.check(snapshot.image) == nil)
        // The geodesic arcs north of the straight line: at 180 degrees it is near 48 N, the straight
        // Mercator line near 37 N.
        let geodesicAt180 = pixel(snapshot, coord(47.9, 180))
        #expect(geodesicAt180.blue > 150 && geodesicAt180.red < 80, "\(geodesicAt180)")
        // Fiji's polygon is filled on both sides of 180 (orange over the ocean).
        for lon in [178.0, -179.5] {
            let p = pixel(snapshot, coord(-16.2, lon))
            #expect(p.red > 180 && p.green > 120 && p.blue < 160, "Fiji at \(lon): \(p)")
        }
    }

    @Test(
        "the picture does not depend on which copy of the world the view rect is given in",
        arguments: [-1.0, 1.0, 2.0])
    func worldShiftInvariance(copies: Double) throws {
        let pacific = try GoldenCase.load("overlays/antimeridian-pacific")
        let region = try #require(pacific.options().region)
        let base = try overlaySnapshot(
            size: Size(width: 240, height: 160), region: region, baseMap: false,
            overlays: Self.pacificOverlays(pacific), provider: Self.flightRenderers)
        let shiftedRect = base.viewport.visibleMapRect.offsetBy(dx: copies * WebMercator.worldSize, dy: 0)
        let shifted = try overlaySnapshot(
            size: Size(width: 240, height: 160), mapRect: shiftedRect, baseMap: false,
            overlays: Self.pacificOverlays(pacific), provider: Self.flightRenderers)
        let result = try PixelMatch.compare(
            RGBAImage(base.image), RGBAImage(shifted.image), options: .init(threshold: 0.05, includeAA: true))
        #expect(result.differentPixels == 0, "\(result.differentPixels) pixels differ")
    }

    @Test("the same overlays give byte-identical PNGs")
    func deterministic() throws {
        let pacific = try GoldenCase.load("overlays/antimeridian-pacific")
        let a = try overlaySnapshot(pacific, overlays: Self.pacificOverlays(pacific), provider: Self.flightRenderers)
        let b = try overlaySnapshot(pacific, overlays: Self.pacificOverlays(pacific), provider: Self.flightRenderers)
        #expect(try a.image.pngData() == b.image.pngData())
    }

    @Test("the whole world: the same overlays drawn once each side of the edge, no line across the map")
    func world() throws {
        let golden = try GoldenCase.load("overlays/antimeridian-world")
        let snapshot = try overlaySnapshot(
            golden, overlays: try Self.pacificOverlays(golden), provider: Self.flightRenderers)
        #expect(golden.check(snapshot.image) == nil)
        // Along 36 N between 100 W and 120 E (across America, the Atlantic, Europe, Asia) nothing of the
        // flight paths is drawn.
        for lon in stride(from: -100.0, through: 120, by: 10) {
            let p = pixel(snapshot, coord(36.5, lon))
            #expect(!(p.red > 180 && p.green < 80) && !(p.blue > 180 && p.red < 40), "at \(lon): \(p)")
        }
    }

    @Test("Fiji close up: the polygon and the circle centered on 180 join seamlessly at the meridian")
    func fiji() throws {
        let golden = try GoldenCase.load("overlays/antimeridian-fiji")
        let fiji = Polygon(coordinates: try golden.list("fiji", of: LocationCoordinate2D.self))
        let circle = Circle(
            center: try golden.value("circleCenter", as: LocationCoordinate2D.self),
            radius: try golden.number("circleRadius"))
        let snapshot = try overlaySnapshot(golden, overlays: [fiji, circle], provider: Self.flightRenderers)
        #expect(golden.check(snapshot.image) == nil)
        // Just west and east of 180 inside both shapes the color is the same.
        #expect(pixel(snapshot, coord(-15.8, 179.9)) == pixel(snapshot, coord(-15.8, -179.9)))
    }
}

@Suite("Golden images of geodesic circles")
struct OverlayCircleGoldenTests {
    static func purple(_ overlay: Overlay) -> OverlayRenderer? {
        guard let c = overlay as? Circle else { return nil }
        let r = CircleRenderer(circle: c)
        r.fillColor = Color(red8: 200, green8: 30, blue8: 120, alpha: 0.35)
        r.strokeColor = Color(red8: 150, green8: 20, blue8: 90)
        r.lineWidth = 1.5
        return r
    }

    @Test(
        "1,000 km circles at 0, 45, 70 and 85 N (85 N contains the pole): taller and egg-shaped further north",
        arguments: [1.0, 2.0])
    func latitudes(scale: Double) throws {
        let golden = try goldenCase("overlays/circles-latitudes", scale)
        let radius = try golden.number("radius")
        let circles = try golden.list("centers", of: LocationCoordinate2D.self).map {
            Circle(center: $0, radius: radius)
        }
        let snapshot = try overlaySnapshot(golden, overlays: circles, provider: Self.purple)
        #expect(golden.check(snapshot.image) == nil)
        #expect(circles[3].containsNorthPole && !circles[2].containsNorthPole)
        // Along the map's top edge (85.05 N) the circle round the pole is filled exactly where that edge
        // is within 1,000 km of its center (spherical distance, checked away from the outline).
        let ocean = ImageSurface.Pixel(red: 170, green: 211, blue: 223, alpha: 255)
        for x in stride(from: 8.0, to: 512, by: 16) {
            let edge = snapshot.viewport.coordinate(for: Point(x: x, y: 0.5))
            let meters = WebMercator.distance(from: circles[3].center, to: edge)
            guard abs(meters - radius) > 30_000 else { continue }
            let p = snapshot.image.pixel(x: Int(x * scale), y: Int(3 * scale))
            if meters < radius {
                #expect(p.green < 170, "top edge at x \(x) is inside: \(p)")
            } else if p.red < 200 {  // land stays land; ocean stays ocean
                #expect(p == ocean, "top edge at x \(x) is outside: \(p)")
            }
        }
    }

    @Test("a circle containing the south pole, and a 12,000 km circle that contains both poles (filled outside a cap)")
    func poles() throws {
        let golden = try GoldenCase.load("overlays/circles-poles")
        let south = Circle(
            center: try golden.value("southCenter", as: LocationCoordinate2D.self),
            radius: try golden.number("southRadius"))
        let huge = Circle(
            center: try golden.value("hugeCenter", as: LocationCoordinate2D.self),
            radius: try golden.number("hugeRadius"))
        let snapshot = try overlaySnapshot(golden, overlays: [south, huge], provider: Self.purple)
        #expect(golden.check(snapshot.image) == nil)
        #expect(huge.containsNorthPole && huge.containsSouthPole)
        // The huge circle's antipode (-10, -150) is outside it: ocean; its center is inside.
        let antipode = pixel(snapshot, coord(-10, -150))
        #expect(antipode == ImageSurface.Pixel(red: 170, green: 211, blue: 223, alpha: 255), "\(antipode)")
        let inside = pixel(snapshot, coord(10, 30))
        #expect(inside.red > inside.blue, "\(inside)")
        // Seen from close by, far from its antipodal hole, the huge circle still fills the view.
        let close = try overlaySnapshot(
            size: Size(width: 64, height: 64),
            region: CoordinateRegion(center: coord(48, 10), span: CoordinateSpan(latitudeDelta: 2, longitudeDelta: 2)),
            baseMap: false, overlays: [huge], provider: Self.purple)
        #expect(close.image.pixel(x: 32, y: 32).alpha > 50)
    }
}
