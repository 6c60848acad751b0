import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("The annotation model: lists, spatial queries, selection, user location, fitting")
struct AnnotationModelTests {
    func snapshotter(_ size: Size = Size(width: 400, height: 300), region: CoordinateRegion? = nil) throws
        -> MapSnapshotter
    {
        var options = MapSnapshotter.Options(size: size)
        options.region = region
        return try MapSnapshotter(options: options).pinnedToPlainBaseMap()
    }

    func point(_ lat: Double, _ lon: Double, _ title: String? = nil) -> PointAnnotation {
        PointAnnotation(coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), title: title)
    }

    @Test("add one or many, remove by identity, remove all but the user location")
    func addRemove() throws {
        let s = try snapshotter()
        let a = point(10, 10, "a")
        let b = point(20, 20, "b")
        let c = point(30, 30, "c")
        s.addAnnotation(a)
        s.addAnnotations([b, c])
        #expect(s.annotations.map { $0.title } == ["a", "b", "c"])
        s.removeAnnotation(b)
        #expect(s.annotations.map { $0.title } == ["a", "c"])
        // A different object with the same values is not on the map.
        s.removeAnnotation(point(10, 10, "a"))
        #expect(s.annotations.count == 2)
        s.userLocation.location = LocationCoordinate2D(latitude: 1, longitude: 2)
        s.showsUserLocation = true
        #expect(s.annotations.count == 3 && s.annotations.last === s.userLocation)
        s.removeAllAnnotations(keeping: { $0 is UserLocation })
        #expect(s.annotations.count == 1 && s.annotations[0] === s.userLocation)
        #expect(s.showsUserLocation)
        s.showsUserLocation = false
        #expect(s.annotations.isEmpty)
    }

    @Test("annotations(in:) equals a linear scan for random rects over 10,000 random annotations")
    func spatialQuery() throws {
        let s = try snapshotter()
        var rng = SplitMix64(state: 42)
        var list: [PointAnnotation] = []
        for i in 0..<10_000 {
            // Clumps and duplicates as well as uniform points.
            let lat = i % 3 == 0 ? Double.random(in: 59...61, using: &rng) : Double.random(in: -80...80, using: &rng)
            let lon = i % 3 == 0 ? Double.random(in: 24...26, using: &rng) : Double.random(in: -180..<180, using: &rng)
            list.append(point(lat, lon))
            if i % 1000 == 0 { list.append(point(lat, lon)) }
        }
        s.addAnnotations(list)
        let points = list.map { MapPoint($0.coordinate) }
        for _ in 0..<100 {
            let w = WebMercator.worldSize * pow(10, Double.random(in: -6 ... -0.5, using: &rng))
            let h = WebMercator.worldSize * pow(10, Double.random(in: -6 ... -0.5, using: &rng))
            let rect = MapRect(
                x: Double.random(in: 0...(WebMercator.worldSize - w), using: &rng),
                y: Double.random(in: 0...(WebMercator.worldSize - h), using: &rng), width: w, height: h)
            let expected = AnnotationIndex.linearScan(points, in: rect)
            let found = s.annotations(in: rect)
            #expect(found.count == expected.count)
            #expect(zip(found, expected).allSatisfy { $0 === list[$1] })
        }
        // The index follows changes.
        let extra = point(60, 25)
        s.addAnnotation(extra)
        let helsinki = MapRect(
            corner: MapPoint(LocationCoordinate2D(latitude: 60.01, longitude: 24.99)),
            corner: MapPoint(LocationCoordinate2D(latitude: 59.99, longitude: 25.01)))
        #expect(s.annotations(in: helsinki).contains { $0 === extra })
        s.removeAnnotation(extra)
        #expect(!s.annotations(in: helsinki).contains { $0 === extra })
    }

    @Test("annotations(in:) follows the user location as it moves, and only while it is shown")
    func userLocationQuery() throws {
        let s = try snapshotter()
        let a = point(10, 10, "a")
        let b = point(50, 50, "b")
        s.addAnnotation(a)
        s.showsUserLocation = true
        s.addAnnotation(b)
        let near10 = MapRect(
            corner: MapPoint(LocationCoordinate2D(latitude: 11, longitude: 9)),
            corner: MapPoint(LocationCoordinate2D(latitude: 9, longitude: 11)))
        #expect(s.annotations(in: near10).map { $0.title } == ["a"], "no location yet")
        s.userLocation.location = LocationCoordinate2D(latitude: 10.5, longitude: 10.5)
        #expect(s.annotations(in: near10).map { $0.title } == ["a", "My Location"])
        s.userLocation.location = LocationCoordinate2D(latitude: 40, longitude: 40)
        #expect(s.annotations(in: near10).map { $0.title } == ["a"])
        s.userLocation.location = LocationCoordinate2D(latitude: 9.5, longitude: 9.5)
        s.showsUserLocation = false
        #expect(s.annotations(in: near10).map { $0.title } == ["a"])
    }

    @Test("a rect across the 180th meridian finds annotations on both sides")
    func antimeridianQuery() throws {
        let s = try snapshotter()
        let east = point(-17, 179.5, "Fiji east")
        let west = point(-17, -179.5, "Fiji west")
        let far = point(-17, 170, "far")
        s.addAnnotations([east, west, far])
        let center = MapPoint(LocationCoordinate2D(latitude: -17, longitude: 180))
        let halfWidth = WebMercator.worldSize / 360 * 2
        let rect = MapRect(
            x: center.x - halfWidth, y: center.y - halfWidth, width: 2 * halfWidth, height: 2 * halfWidth)
        #expect(rect.maxX > WebMercator.worldSize)
        #expect(s.annotations(in: rect).map { $0.title } == ["Fiji east", "Fiji west"])
    }

    @Test("assigning selectedAnnotations selects only the first; select replaces, deselect removes")
    func selection() throws {
        let s = try snapshotter()
        let a = point(1, 1, "a")
        let b = point(2, 2, "b")
        s.addAnnotations([a, b])
        s.selectedAnnotations = [b, a]
        #expect(s.selectedAnnotations.count == 1 && s.selectedAnnotations[0] === b)
        s.selectAnnotation(a)
        #expect(s.selectedAnnotations.count == 1 && s.selectedAnnotations[0] === a)
        s.deselectAnnotation(b)
        #expect(s.selectedAnnotations.count == 1)
        s.deselectAnnotation(a)
        #expect(s.selectedAnnotations.isEmpty)
        s.selectAnnotation(b)
        s.removeAnnotation(b)
        #expect(s.selectedAnnotations.isEmpty)
    }

    @Test("userLocationVisible: true when the accuracy rect is partly in view")
    func userLocationVisible() throws {
        let region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 60.17, longitude: 24.94), latitudinalMeters: 2000,
            longitudinalMeters: 2000)
        let s = try snapshotter(Size(width: 400, height: 400), region: region)
        #expect(!s.isUserLocationVisible)
        s.showsUserLocation = true
        #expect(!s.isUserLocationVisible, "no location yet")
        s.userLocation.location = LocationCoordinate2D(latitude: 60.17, longitude: 24.94)
        #expect(s.isUserLocationVisible)
        // 1,500 m east of the center: outside the 2 km square, but a 600 m accuracy circle reaches in.
        let east = WebMercator.destination(from: region.center, bearing: 90, meters: 1500)
        s.userLocation.location = east
        s.userLocation.horizontalAccuracy = 0
        #expect(!s.isUserLocationVisible)
        s.userLocation.horizontalAccuracy = 600
        #expect(s.isUserLocationVisible)
        s.userLocation.horizontalAccuracy = 400
        #expect(!s.isUserLocationVisible)
        s.showsUserLocation = false
        s.userLocation.horizontalAccuracy = 600
        #expect(!s.isUserLocationVisible, "not shown")
    }

    @Test("following the user centers on them and zooms in from a world view; near zooms keep the zoom")
    func tracking() throws {
        let s = try snapshotter(Size(width: 400, height: 400))
        let here = LocationCoordinate2D(latitude: 48.8566, longitude: 2.3522)
        s.userLocation.location = here
        s.userLocation.horizontalAccuracy = 50
        s.showsUserLocation = true
        #expect(s.viewport.zoomLevel < 2)
        s.userTrackingMode = .follow
        #expect(s.userTrackingMode == .follow)
        #expect(abs(s.viewport.centerCoordinate.latitude - here.latitude) < 1e-9)
        #expect(abs(s.viewport.centerCoordinate.longitude - here.longitude) < 1e-9)
        // A 1 km square region on a 400-point image: about zoom 15.6 at this latitude.
        let span = s.viewport.region.span.latitudeDelta
        #expect(abs(span - 1000 / 6_378_137 * 180 / .pi) < 1e-6)
        #expect(s.viewport.zoomLevel > MapSnapshotter.userTrackingMinimumZoomLevel)
        // Moving the user and following again keeps the zoom.
        let zoom = s.viewport.zoomLevel
        s.userLocation.location = LocationCoordinate2D(latitude: 48.86, longitude: 2.36)
        s.userTrackingMode = .followWithHeading
        #expect(abs(s.viewport.zoomLevel - zoom) < 1e-9)
        #expect(abs(s.viewport.centerCoordinate.longitude - 2.36) < 1e-9)
    }

    @Test("showAnnotations fits views and padding exactly, at a fractional zoom", arguments: [1.0, 2.0])
    func fitting(scale: Double) throws {
        let s = try MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 600, height: 400), scale: scale))
            .pinnedToPlainBaseMap()
        let list = SeedAnnotation.all().filter { $0.coordinate.longitude < -60 && $0.coordinate.latitude > 0 }
        s.addAnnotations(list)
        s.viewProvider = try SeedIcons.provider()
        let padding = EdgeInsets(top: 20, left: 30, bottom: 10, right: 40)
        try s.showAnnotations(list, edgePadding: padding)
        #expect(s.viewport.zoomLevel != s.viewport.zoomLevel.rounded())
        let snapshot = try s.snapshot()
        let frames = snapshot.annotations.map(\.frame)
        let minX = frames.map(\.minX).min()!
        let maxX = frames.map(\.maxX).max()!
        let minY = frames.map(\.minY).min()!
        let maxY = frames.map(\.maxY).max()!
        // Everything inside the padded area...
        #expect(minX >= 30 - 1e-6 && maxX <= 560 + 1e-6 && minY >= 20 - 1e-6 && maxY <= 390 + 1e-6)
        // ...touching it on both sides of the binding axis, centered on the other: no empty margin.
        let touchesX = abs(minX - 30) < 1e-6 && abs(maxX - 560) < 1e-6
        let touchesY = abs(minY - 20) < 1e-6 && abs(maxY - 390) < 1e-6
        #expect(touchesX || touchesY, "\(minX) \(maxX) \(minY) \(maxY)")
        if touchesX { #expect(abs((minY - 20) - (390 - maxY)) < 1e-6) }
        if touchesY { #expect(abs((minX - 30) - (560 - maxX)) < 1e-6) }
    }

    @Test("showAnnotations includes the selected annotation's callout")
    func fittingWithCallout() throws {
        let s = try snapshotter(Size(width: 500, height: 300))
        let a = point(10, 10, "A long title for a callout")
        let b = point(12, 14, "b")
        s.addAnnotations([a, b])
        s.selectAnnotation(a)
        try s.showAnnotations([a, b], edgePadding: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
        let snapshot = try s.snapshot()
        let placed = try #require(snapshot.annotations.first { $0.annotation === a })
        let callout = try #require(placed.calloutFrame)
        #expect(callout.minX >= 8 - 1e-6 && callout.minY >= 8 - 1e-6)
        #expect(callout.maxX <= 492 + 1e-6 && callout.maxY <= 292 + 1e-6)
    }

    @Test("an image view from a PNG file: size from pixels and scale, centerOffset moves the frame")
    func imageView() throws {
        let s = try snapshotter()
        let a = point(45, 7, "taco")
        s.addAnnotation(a)
        let path = SeedIcons.path(.taco)
        s.viewProvider = { _ in
            try? AnnotationView(
                contentsOfPNG: path, imageScale: 2, centerOffset: Point(x: 0, y: -16.5), reuseIdentifier: "taco")
        }
        let snapshot = try s.snapshot()
        let frame = try #require(snapshot.annotations.first?.frame)
        let p = snapshot.point(for: a.coordinate)
        #expect(frame.width == 33 && frame.height == 33)
        // The image's bottom center is the coordinate.
        #expect(abs(frame.midX - p.x) < 1e-9 && abs(frame.maxY - p.y) < 1e-9)
        // The badge's orange shows just above the anchor, the map just below it.
        let above = snapshot.image.pixel(x: Int(p.x.rounded()), y: Int(p.y) - 4)
        let below = snapshot.image.pixel(x: Int(p.x.rounded()), y: Int(p.y) + 3)
        #expect(above.red > 200 && above.green > 90 && above.green < 150 && above.blue < 60, "\(above)")
        #expect(!(below.red > 200 && below.blue < 60), "\(below)")
        #expect(s.annotationViewBitmapCounts.drawn == 1)
    }

    @Test("one annotation is shown at the deepest zoom at most")
    func fittingOne() throws {
        let s = try snapshotter()
        let a = point(45, 7)
        s.addAnnotation(a)
        try s.showAnnotations([a])
        #expect(abs(s.viewport.zoomLevel - MapSnapshotter.maximumZoomLevel) < 1e-9)
        let p = s.viewport.point(for: a.coordinate)
        // The pin (22x36, tip at the coordinate) is centered: its tip is 18 points below the middle.
        #expect(abs(p.x - 200) < 1e-6 && abs(p.y - 168) < 1e-6)
    }
}
