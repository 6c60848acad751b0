import Foundation
import MapGeometry
import Testing

/// Table-driven tests against `fixtures/geometry/truth.json` (pyproj and mercantile; see its README).
/// Each case is one test argument, shown by its id.
@Suite("Truth table (pyproj, mercantile)")
struct TruthTableTests {
    @Test("The table is complete: at least 250 cases, unique ids, every kind tested")
    func tableIsComplete() throws {
        let document = try Truth.document()
        #expect(document.cases.count >= 250)
        let ids = document.cases.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate case ids")
        #expect(Set(document.cases.map(\.kind)) == Truth.kinds, "a kind without a test, or a tested kind without cases")
        #expect(document.tools["mercantile"] == "1.2.1")
    }

    @Test("project: coordinate to map point", arguments: try Truth.cases("project"))
    func project(_ c: TruthCase) {
        let point = MapPoint(c.coordinate())
        expectMapPoints(point.x, c.expected("x"), "\(c.id) x")
        expectMapPoints(point.y, c.expected("y"), "\(c.id) y")
    }

    @Test("unproject: map point to coordinate", arguments: try Truth.cases("unproject"))
    func unproject(_ c: TruthCase) {
        let coordinate = MapPoint(x: c.input("x"), y: c.input("y")).coordinate
        expectClose(coordinate.latitude, c.expected("latitude"), absolute: Tolerance.degrees, "\(c.id) latitude")
        expectLongitude(coordinate.longitude, c.expected("longitude"), "\(c.id) longitude")
    }

    @Test("pointsPerMeter: map points per meter at a latitude", arguments: try Truth.cases("pointsPerMeter"))
    func pointsPerMeter(_ c: TruthCase) {
        let latitude = c.input("latitude")
        let expected = c.expected("pointsPerMeter")
        expectClose(
            MapPoint.pointsPerMeter(atLatitude: latitude), expected, absolute: 0, relative: Tolerance.relative,
            "\(c.id) pointsPerMeter")
        expectClose(
            MapPoint.metersPerMapPoint(atLatitude: latitude), 1 / expected, absolute: 0, relative: Tolerance.relative,
            "\(c.id) metersPerMapPoint")
    }

    @Test("distance: great-circle meters on the sphere", arguments: try Truth.cases("distance"))
    func distance(_ c: TruthCase) {
        let a = c.coordinate("latitude1", "longitude1")
        let b = c.coordinate("latitude2", "longitude2")
        let expected = c.expected("meters")
        expectClose(
            WebMercator.distance(from: a, to: b), expected, absolute: Tolerance.meters, relative: Tolerance.relative,
            "\(c.id) WebMercator.distance")
        expectClose(
            WebMercator.distance(from: b, to: a), expected, absolute: Tolerance.meters, relative: Tolerance.relative,
            "\(c.id) WebMercator.distance reversed")
        // Map points exist only within the poles' limit; beyond it MapPoint clamps and the distance differs.
        if abs(a.latitude) < WebMercator.maxLatitude && abs(b.latitude) < WebMercator.maxLatitude {
            expectClose(
                MapPoint(a).meters(to: MapPoint(b)), expected, absolute: Tolerance.meters, relative: Tolerance.relative,
                "\(c.id) MapPoint.meters(to:)")
        }
    }

    @Test("regionWithDistance: span of a region given in meters", arguments: try Truth.cases("regionWithDistance"))
    func regionWithDistance(_ c: TruthCase) {
        let center = c.coordinate()
        let region = CoordinateRegion(
            center: center, latitudinalMeters: c.input("latitudinalMeters"),
            longitudinalMeters: c.input("longitudinalMeters"))
        #expect(region.center == center, "\(c.id) center")
        expectClose(
            region.span.latitudeDelta, c.expected("latitudeDelta"), absolute: 0, relative: Tolerance.relative,
            "\(c.id) latitudeDelta")
        expectClose(
            region.span.longitudeDelta, c.expected("longitudeDelta"), absolute: 0, relative: Tolerance.relative,
            "\(c.id) longitudeDelta")
    }

    @Test("regionForMapRect: region a map rect covers", arguments: try Truth.cases("regionForMapRect"))
    func regionForMapRect(_ c: TruthCase) {
        let rect = MapRect(x: c.input("x"), y: c.input("y"), width: c.input("width"), height: c.input("height"))
        let region = CoordinateRegion(rect)
        expectClose(
            region.center.latitude, c.expected("latitude"), absolute: Tolerance.degrees, "\(c.id) center latitude")
        expectLongitude(region.center.longitude, c.expected("longitude"), "\(c.id) center longitude")
        expectClose(
            region.span.latitudeDelta, c.expected("latitudeDelta"), absolute: Tolerance.degrees,
            "\(c.id) latitudeDelta")
        expectClose(
            region.span.longitudeDelta, c.expected("longitudeDelta"), absolute: Tolerance.degrees,
            "\(c.id) longitudeDelta")
    }

    @Test(
        "viewportRegion: visible map rect and zoom of an image showing a region",
        arguments: try Truth.cases("viewportRegion"))
    func viewportRegion(_ c: TruthCase) throws {
        let region = CoordinateRegion(
            center: c.coordinate(),
            span: CoordinateSpan(latitudeDelta: c.input("latitudeDelta"), longitudeDelta: c.input("longitudeDelta")))
        let viewport = try MapViewport(
            size: Size(width: c.input("width"), height: c.input("height")), scale: c.input("scale"), region: region)
        let rect = viewport.visibleMapRect
        expectMapPoints(rect.minX, c.expected("x"), "\(c.id) visibleMapRect x")
        expectMapPoints(rect.minY, c.expected("y"), "\(c.id) visibleMapRect y")
        expectMapPoints(rect.width, c.expected("width"), "\(c.id) visibleMapRect width")
        expectMapPoints(rect.height, c.expected("height"), "\(c.id) visibleMapRect height")
        expectClose(viewport.zoomLevel, c.expected("zoomLevel"), absolute: Tolerance.zoom, "\(c.id) zoomLevel")
    }

    @Test("tileBounds: a tile's bounds in degrees and map points", arguments: try Truth.cases("tileBounds"))
    func tileBounds(_ c: TruthCase) throws {
        let tile = try TileID(z: c.intInput("z"), x: c.intInput("x"), y: c.intInput("y"))
        let box = tile.boundingBox
        expectClose(box.west, c.expected("west"), absolute: Tolerance.degrees, "\(c.id) west")
        expectClose(box.south, c.expected("south"), absolute: Tolerance.degrees, "\(c.id) south")
        expectClose(box.east, c.expected("east"), absolute: Tolerance.degrees, "\(c.id) east")
        expectClose(box.north, c.expected("north"), absolute: Tolerance.degrees, "\(c.id) north")
        let rect = tile.mapRect
        expectMapPoints(rect.minX, c.expected("mapX"), "\(c.id) mapRect x")
        expectMapPoints(rect.minY, c.expected("mapY"), "\(c.id) mapRect y")
        expectMapPoints(rect.width, c.expected("mapWidth"), "\(c.id) mapRect width")
        expectMapPoints(rect.height, c.expected("mapHeight"), "\(c.id) mapRect height")
    }

    @Test("tilesCovering: the tiles a bounding box overlaps", arguments: try Truth.cases("tilesCovering"))
    func tilesCovering(_ c: TruthCase) throws {
        let box = try GeoBoundingBox(
            validatingWest: c.input("west"), south: c.input("south"), east: c.input("east"), north: c.input("north"))
        let tiles = TileID.tiles(covering: box.mapRect, zoom: c.intInput("zoom")).map(\.description)
        let expected = try #require(c.expected.tiles, "\(c.id) has no expected tiles")
        #expect(Set(tiles).count == tiles.count, "\(c.id): a tile is listed twice")
        let missing = Set(expected).subtracting(tiles).sorted()
        let extra = Set(tiles).subtracting(expected).sorted()
        #expect(missing.isEmpty && extra.isEmpty, "\(c.id): missing \(missing), extra \(extra)")
    }

    @Test("tms: the tile containing a coordinate, and its TMS row", arguments: try Truth.cases("tms"))
    func tms(_ c: TruthCase) throws {
        let zoom = c.intInput("zoom")
        let tile = TileID.containing(c.coordinate(), zoom: zoom)
        #expect(
            [tile.z, tile.x, tile.y] == [c.expected("z"), c.expected("x"), c.expected("y")].map { Int($0) },
            "\(c.id): got tile \(tile)")
        #expect(tile.tmsY == Int(c.expected("tmsY")), "\(c.id) tmsY")
        #expect(try TileID(z: zoom, x: tile.x, tmsY: Int(c.expected("tmsY"))) == tile, "\(c.id) TileID(z:x:tmsY:)")
    }

    @Test("destination: the point a distance and bearing away", arguments: try Truth.cases("destination"))
    func destination(_ c: TruthCase) {
        let end = WebMercator.destination(from: c.coordinate(), bearing: c.input("bearing"), meters: c.input("meters"))
        expectClose(end.latitude, c.expected("latitude"), absolute: Tolerance.degrees, "\(c.id) latitude")
        // The longitude is not wrapped by WebMercator.destination, so only compare it around the circle.
        expectLongitude(end.longitude, c.expected("longitude"), wrapped: false, "\(c.id) longitude")
    }
}
