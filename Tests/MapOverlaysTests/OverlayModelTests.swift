import Foundation
import MapRaster
import MapTestSupport
import Testing

private func coordinate(_ lat: Double, _ lon: Double) -> LocationCoordinate2D {
    LocationCoordinate2D(latitude: lat, longitude: lon)
}

private func snapshotter() throws -> MapSnapshotter {
    try MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 64, height: 64)))
}

private func line(_ name: String) -> Polyline {
    let l = Polyline(coordinates: [coordinate(0, 0), coordinate(1, 1)])
    l.title = name
    return l
}

private func names(_ list: [Overlay]) -> [String] { list.map { ($0 as! Polyline).title! } }

@Suite("The overlays array: MKMapView's operations and levels")
struct OverlayArrayTests {
    @Test("add appends; insert at an index, past the end appends; index 0 is the back")
    func insertAtIndex() throws {
        let s = try snapshotter()
        s.addOverlay(line("a"))
        s.addOverlays([line("b"), line("c")])
        s.insertOverlay(line("front"), at: 0)
        s.insertOverlay(line("mid"), at: 2)
        s.insertOverlay(line("end"), at: 99)
        #expect(names(s.overlays) == ["front", "a", "mid", "b", "c", "end"])
    }

    @Test("insert above and below a sibling; a sibling not on the map is an error and changes nothing")
    func siblings() throws {
        let s = try snapshotter()
        let a = line("a")
        let b = line("b")
        s.addOverlays([a, b])
        try s.insertOverlay(line("above-a"), above: a)
        try s.insertOverlay(line("below-a"), below: a)
        try s.insertOverlay(line("above-b"), above: b)
        #expect(names(s.overlays) == ["below-a", "a", "above-a", "b", "above-b"])
        let stranger = line("stranger")
        #expect(throws: OverlayError.siblingNotOnMap(sibling: "Polyline \"stranger\"")) {
            try s.insertOverlay(line("x"), above: stranger)
        }
        #expect(throws: OverlayError.self) { try s.insertOverlay(line("x"), below: stranger) }
        #expect(s.overlays.count == 5)
        let message = OverlayError.siblingNotOnMap(sibling: "Polyline \"stranger\"").description
        #expect(message.contains("stranger") && message.contains("not on the map"))
    }

    @Test("exchange two indices; an index out of range is an error")
    func exchange() throws {
        let s = try snapshotter()
        s.addOverlays([line("a"), line("b"), line("c")])
        try s.exchangeOverlay(at: 0, withOverlayAt: 2)
        #expect(names(s.overlays) == ["c", "b", "a"])
        #expect(throws: OverlayError.indexOutOfRange(index: 3, count: 3)) {
            try s.exchangeOverlay(at: 0, withOverlayAt: 3)
        }
        #expect(names(s.overlays) == ["c", "b", "a"])
    }

    @Test("remove one or many; removing an overlay not on the map does nothing")
    func remove() throws {
        let s = try snapshotter()
        let a = line("a")
        let b = line("b")
        let c = line("c")
        s.addOverlays([a, b, c])
        s.removeOverlay(line("stranger"))
        #expect(s.overlays.count == 3)
        s.removeOverlay(b)
        #expect(names(s.overlays) == ["a", "c"])
        s.removeOverlays([a, c, line("other")])
        #expect(s.overlays.isEmpty)
        #expect(s.level(of: a) == nil)
    }

    @Test("levels: default above labels; insert at an index of a level; exchange across levels swaps levels")
    func levels() throws {
        let s = try snapshotter()
        let a = line("a")
        let r1 = line("r1")
        let r2 = line("r2")
        s.addOverlay(a)
        s.addOverlay(r1, level: .aboveRoads)
        s.addOverlay(r2, level: .aboveRoads)
        #expect(s.level(of: a) == .aboveLabels)
        #expect(names(s.overlays(in: .aboveRoads)) == ["r1", "r2"])
        #expect(names(s.overlays(in: .aboveLabels)) == ["a"])
        s.insertOverlay(line("r0"), at: 0, level: .aboveRoads)
        s.insertOverlay(line("rEnd"), at: 10, level: .aboveRoads)
        #expect(names(s.overlays(in: .aboveRoads)) == ["r0", "r1", "r2", "rEnd"])
        let r3 = line("r3")
        try s.insertOverlay(r3, above: r1)
        #expect(s.level(of: r3) == .aboveRoads)
        #expect(names(s.overlays(in: .aboveRoads)) == ["r0", "r1", "r3", "r2", "rEnd"])
        try s.exchangeOverlay(a, with: r1)
        #expect(s.level(of: a) == .aboveRoads && s.level(of: r1) == .aboveLabels)
        #expect(names(s.overlays(in: .aboveLabels)) == ["r1"])
        #expect(throws: OverlayError.self) { try s.exchangeOverlay(a, with: line("stranger")) }
    }
}

final class ZoomLimitedRenderer: OverlayRenderer {
    var drawn = 0
    override func canDraw(_ mapRect: MapRect, zoomScale: Double) -> Bool { zoomScale > 1e-5 }
    override func draw(in context: GraphicsContext, viewport: MapViewport, worldOffset: Double) { drawn += 1 }
}

@Suite("Renderers: canDraw")
struct OverlayCanDrawTests {
    @Test("a renderer whose canDraw(_:zoomScale:) is false is left out")
    func canDraw() throws {
        for (zoom, expected) in [(1.0, 0), (6.0, 1)] {
            var options = MapSnapshotter.Options(size: Size(width: 64, height: 64))
            options.region = CoordinateRegion(
                center: coordinate(0, 0),
                span: CoordinateSpan(latitudeDelta: 1 / pow(2, zoom) * 100, longitudeDelta: 1 / pow(2, zoom) * 100))
            let s = try MapSnapshotter(options: options)
            s.baseMap = nil
            let renderer = ZoomLimitedRenderer(overlay: line("x"))
            s.addOverlay(renderer.overlay)
            s.rendererProvider = { _ in renderer }
            _ = try s.snapshot()
            #expect(renderer.drawn == expected, "zoom \(s.viewport.zoomLevel)")
        }
    }
}

@Suite("Overlays across the 180th meridian")
struct OverlayAntimeridianTests {
    @Test("a polyline from 170 E to 170 W crosses 180 the short way: its bounds span the 180th meridian")
    func shortWay() {
        let l = Polyline(coordinates: [coordinate(10, 170), coordinate(10, -170)])
        #expect(l.boundingMapRect.spans180thMeridian)
        #expect(abs(l.boundingMapRect.width - WebMercator.worldSize * 20 / 360) < 1e-6)
        #expect(abs(l.boundingMapRect.remainder.width - WebMercator.worldSize * 10 / 360) < 1e-6)
    }

    @Test("a route across 180 intersects map rects around either end, in world coordinates")
    func intersectsAcross180() {
        let route = Polyline(coordinates: [coordinate(35.55, 139.78), coordinate(37.62, -122.38)])
        let aroundSanFrancisco = MapRect(
            corner: MapPoint(coordinate(38, -123)), corner: MapPoint(coordinate(37, -122)))
        let aroundTokyo = MapRect(corner: MapPoint(coordinate(36, 139)), corner: MapPoint(coordinate(35, 140)))
        let atlantic = MapRect(corner: MapPoint(coordinate(40, -40)), corner: MapPoint(coordinate(30, -30)))
        #expect(route.intersects(aroundSanFrancisco) && route.intersects(aroundTokyo))
        #expect(!route.intersects(atlantic))
    }

    @Test("a polygon around Fiji across 180 has a narrow bounding rect, not a world-wide one")
    func fiji() {
        let p = Polygon(coordinates: [
            coordinate(-15, 176), coordinate(-15, -178), coordinate(-20, -178), coordinate(-20, 176),
        ])
        #expect(abs(p.boundingMapRect.width - WebMercator.worldSize * 6 / 360) < 1e-6)
        #expect(p.boundingMapRect.spans180thMeridian)
        #expect(abs(p.coordinate.longitude - 179) < 1e-9 || abs(p.coordinate.longitude + 181) < 1e-9)
    }

    @Test("a ring round the north pole reaches the map's top edge")
    func poleRing() {
        let ring = stride(from: -180.0, to: 180, by: 30).map { coordinate(75, $0) }
        let p = Polygon(coordinates: ring)
        #expect(p.boundingMapRect.minY == 0)
        #expect(abs(Antimeridian.netEastwardTravel(ofRing: p.points)) == WebMercator.worldSize)
    }

    @Test("a circle centered on 180 degrees has an outline that never jumps across the world")
    func circleOn180() {
        let c = Circle(center: coordinate(-17, 180), radius: 800_000)
        let outline = c.outline(vertices: 256)
        for (p, q) in zip(outline, outline.dropFirst()) { #expect(abs(q.x - p.x) < WebMercator.worldSize / 100) }
        #expect(c.boundingMapRect.spans180thMeridian)
    }
}

@Suite("Bad overlays are refused with an error naming the overlay")
struct OverlayBadInputTests {
    func snapshotError(_ overlay: Overlay) throws -> String? {
        let s = try snapshotter()
        s.baseMap = nil
        s.addOverlay(line("fine"))
        s.addOverlay(overlay)
        do {
            _ = try s.snapshot()
            return nil
        } catch let error as OverlayError {
            return error.description
        }
    }

    @Test("a polygon with 2 distinct points")
    func shortPolygon() throws {
        let p = Polygon(coordinates: [coordinate(0, 0), coordinate(1, 1), coordinate(0, 0)])
        p.title = "Tiny"
        let message = try #require(try snapshotError(p))
        #expect(message.contains("overlays[1] Polygon \"Tiny\""))
        #expect(message.contains("2 distinct vertices") && message.contains("at least 3"))
    }

    @Test("a hole with too few points")
    func shortHole() throws {
        let p = Polygon(
            coordinates: [coordinate(0, 0), coordinate(0, 5), coordinate(5, 5)],
            interiorPolygons: [Polygon(coordinates: [coordinate(1, 1)])])
        let message = try #require(try snapshotError(p))
        #expect(message.contains("interior polygon 0") && message.contains("1 distinct"))
    }

    @Test("a polyline with 1 point")
    func shortLine() throws {
        let message = try #require(try snapshotError(Polyline(coordinates: [coordinate(3, 4), coordinate(3, 4)])))
        #expect(message.contains("Polyline starting at 3.0,4.0") && message.contains("at least 2"))
    }

    @Test("NaN coordinates")
    func nan() throws {
        let message = try #require(
            try snapshotError(GeodesicPolyline(controlCoordinates: [coordinate(0, 0), coordinate(.nan, 10)])))
        #expect(message.contains("GeodesicPolyline") && message.contains("vertex 1 is nan,10.0"))
    }

    @Test(
        "circle radius <= 0, infinite, or more than half the earth's circumference",
        arguments: [0, -5, .infinity, 20_037_509.0])
    func badRadius(_ radius: Double) throws {
        let message = try #require(try snapshotError(Circle(center: coordinate(10, 20), radius: radius)))
        #expect(message.contains("Circle starting at 10.0,20.0") && message.contains("radius \(radius) m"))
        #expect(message.contains("20037508.34"))
    }

    @Test("empty multi-shapes")
    func emptyMulti() throws {
        #expect(try snapshotError(MultiPolygon([]))?.contains("no polygons") == true)
        #expect(try snapshotError(MultiPolyline([]))?.contains("no polylines") == true)
    }

    @Test("a tile folder that does not exist, or is a file")
    func badFolder() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/tiles")
        #expect(throws: OverlayError.unreadableTileFolder(path: "/nonexistent/tiles", reason: "it does not exist")) {
            _ = try TileOverlay(folder: missing)
        }
        let file = Fixtures.url("overlays/truth.json")
        #expect(throws: OverlayError.unreadableTileFolder(path: file.path, reason: "it is a file, not a folder")) {
            _ = try TileOverlay(folder: file)
        }
    }

    @Test("a tile that is not a PNG is an error naming its path")
    func badTile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-badtile-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("0/0"), withIntermediateDirectories: true)
        try Data("not a png".utf8).write(to: folder.appendingPathComponent("0/0/0.png"))
        let s = try MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 256, height: 256)))
        s.addOverlay(try TileOverlay(folder: folder))
        #expect {
            _ = try s.snapshot()
        } throws: { error in
            (error as? OverlayError)?.description.contains("0/0/0.png") == true
        }
    }
}

/// A base map that paints white and draws one "label": a black bar across the middle.
struct BarLabelsBaseMap: BaseMap {
    var attribution: [String] { [] }
    func draw(in context: GraphicsContext, viewport: MapViewport) throws { context.clear(to: .white) }
    func drawLabels(in context: GraphicsContext, viewport: MapViewport) throws {
        context.setFillColor(.black)
        context.fill(Rect(x: 0, y: 28, width: 64, height: 8))
    }
}

@Suite("Overlay levels against the base map's labels")
struct OverlayLevelDrawingTests {
    @Test("above roads is drawn under the labels, above labels over them")
    func levels() throws {
        var options = MapSnapshotter.Options(size: Size(width: 64, height: 64))
        options.region = CoordinateRegion(
            center: coordinate(0, 0), span: CoordinateSpan(latitudeDelta: 10, longitudeDelta: 10))
        let s = try MapSnapshotter(options: options)
        s.baseMap = BarLabelsBaseMap()
        let west = Polygon(coordinates: [coordinate(-4, -4), coordinate(4, -4), coordinate(4, -1), coordinate(-4, -1)])
        let east = Polygon(coordinates: [coordinate(-4, 1), coordinate(4, 1), coordinate(4, 4), coordinate(-4, 4)])
        s.addOverlay(west, level: .aboveRoads)
        s.addOverlay(east)
        s.rendererProvider = { overlay in
            let r = PolygonRenderer(polygon: overlay as! Polygon)
            r.fillColor = Color(red8: 255, green8: 0, blue8: 0)
            r.strokeColor = nil
            return r
        }
        let image = try s.snapshot().image
        let red = ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255)
        let black = ImageSurface.Pixel(red: 0, green: 0, blue: 0, alpha: 255)
        #expect(image.pixel(x: 20, y: 32) == black)  // the label bar over the west (above roads) square
        #expect(image.pixel(x: 44, y: 32) == red)  // the east (above labels) square over the bar
        #expect(image.pixel(x: 20, y: 20) == red)
    }
}
