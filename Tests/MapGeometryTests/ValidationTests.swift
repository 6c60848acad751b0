import Foundation
import MapGeometry
import Testing

/// User input is rejected with an error that names the bad value, instead of drawing a wrong map.
@Suite("Validation of user input")
struct ValidationTests {
    @Test(
        "TileID rejects x or y outside 0..<2^z, negative zoom and zoom above 30",
        arguments: [
            (1, 2, 0), (1, 0, 2), (0, 1, 0), (0, 0, 1), (3, -1, 0), (3, 0, -1), (-1, 0, 0), (31, 0, 0),
            (30, 1 << 30, 0),
        ])
    func tileRejects(z: Int, x: Int, y: Int) {
        #expect(throws: GeometryError.invalidTile(z: z, x: x, y: y)) { try TileID(z: z, x: x, y: y) }
    }

    @Test("TileID accepts the corners of each zoom's grid")
    func tileAccepts() throws {
        for z in [0, 1, 10, 30] {
            let last = (1 << z) - 1
            #expect(try TileID(z: z, x: last, y: 0).x == last)
            #expect(try TileID(z: z, x: 0, y: last).y == last)
        }
    }

    @Test("TileID from a TMS row rejects rows outside 0..<2^z and counts rows from the south")
    func tmsRows() throws {
        #expect(throws: GeometryError.self) { try TileID(z: 2, x: 0, tmsY: 4) }
        #expect(throws: GeometryError.self) { try TileID(z: 2, x: 0, tmsY: -1) }
        #expect(throws: GeometryError.self) { try TileID(z: -1, x: 0, tmsY: 0) }
        // The northern-most XYZ row is the last TMS row.
        #expect(try TileID(z: 3, x: 5, tmsY: 7) == TileID(z: 3, x: 5, y: 0))
        #expect(try TileID(z: 3, x: 5, y: 2).tmsY == 5)
    }

    @Test("An invalid TMS row is reported as the row that was given, not as a converted XYZ row")
    func tmsRowMessage() {
        // GeometryError promises to quote the offending values. TileID(z: 2, x: 0, tmsY: 4) throws
        // invalidTile(z: 2, x: 0, y: -1), whose message "tile 2/0/-1 is invalid" names a row nobody typed.
        do {
            _ = try TileID(z: 2, x: 0, tmsY: 4)
            Issue.record("TMS row 4 at zoom 2 was accepted")
        } catch {
            let message = String(describing: error)
            #expect(!message.contains("-1") && message.contains("4"), "message: \(message)")
        }
    }

    @Test(
        "CoordinateSpan rejects zero, negative, too large and non-finite deltas",
        arguments: [
            (0.0, 1.0), (1.0, 0.0), (-1.0, 1.0), (1.0, -1.0), (180.000001, 1.0), (1.0, 360.000001), (.nan, 1.0),
            (1.0, .nan),
            (.infinity, 1.0), (1.0, .infinity),
        ])
    func spanRejects(latitudeDelta: Double, longitudeDelta: Double) {
        #expect(throws: GeometryError.self) {
            try CoordinateSpan(validatingLatitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
        }
    }

    @Test("CoordinateSpan accepts the whole globe and tiny spans")
    func spanAccepts() throws {
        #expect(try CoordinateSpan(validatingLatitudeDelta: 180, longitudeDelta: 360).longitudeDelta == 360)
        #expect(try CoordinateSpan(validatingLatitudeDelta: 1e-9, longitudeDelta: 1e-9).latitudeDelta == 1e-9)
        #expect(throws: GeometryError.invalidSpan(latitudeDelta: 0, longitudeDelta: 10)) {
            try CoordinateSpan(validatingLatitudeDelta: 0, longitudeDelta: 10)
        }
    }

    @Test(
        "LocationCoordinate2D rejects latitudes beyond 90, longitudes beyond 180, NaN and infinity",
        arguments: [
            (90.000001, 0.0), (-90.000001, 0.0), (0.0, 180.000001), (0.0, -180.000001), (.nan, 0.0), (0.0, .nan),
            (.infinity, 0.0), (0.0, -.infinity),
        ])
    func coordinateRejects(latitude: Double, longitude: Double) {
        #expect(throws: GeometryError.self) {
            try LocationCoordinate2D(validatingLatitude: latitude, longitude: longitude)
        }
        #expect(!LocationCoordinate2D(latitude: latitude, longitude: longitude).isValid)
    }

    @Test("LocationCoordinate2D accepts the poles and the 180th meridian")
    func coordinateAccepts() throws {
        for (latitude, longitude) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)] {
            let c = try LocationCoordinate2D(validatingLatitude: latitude, longitude: longitude)
            #expect(c.latitude == latitude && c.longitude == longitude)
        }
        #expect(throws: GeometryError.invalidCoordinate(latitude: 91, longitude: 0)) {
            try LocationCoordinate2D(validatingLatitude: 91, longitude: 0)
        }
    }

    @Test("A region validates both its center and its span")
    func regionValidates() {
        let badCenter = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 95, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 1))
        #expect(throws: GeometryError.self) { try badCenter.validated() }
        let badSpan = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 0, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 0, longitudeDelta: 1))
        #expect(throws: GeometryError.self) { try badSpan.validated() }
    }

    @Test("PixelSize rejects 0 and 16385 pixels and accepts 1 and 16384")
    func pixelSizeLimits() throws {
        #expect(throws: GeometryError.self) { try PixelSize(width: 0, height: 10) }
        #expect(throws: GeometryError.self) { try PixelSize(width: 10, height: 0) }
        #expect(throws: GeometryError.self) { try PixelSize(width: 16_385, height: 10) }
        #expect(throws: GeometryError.self) { try PixelSize(width: 10, height: 16_385) }
        #expect(throws: GeometryError.self) { try PixelSize(points: Size(width: 16_385, height: 10), scale: 1) }
        #expect(throws: GeometryError.self) { try PixelSize(points: Size(width: 8_192.5, height: 10), scale: 2) }
        #expect(throws: GeometryError.self) { try PixelSize(points: Size(width: 0, height: 10), scale: 1) }
        #expect(try PixelSize(width: 1, height: 16_384) == PixelSize(width: 1, height: 16_384))
        let big = try PixelSize(points: Size(width: 8_192, height: 5_461), scale: 2)
        #expect(big.width == 16_384 && big.height == 10_922)
    }

    @Test("PixelSize rejects sizes that are not a whole number of device pixels")
    func pixelSizeWhole() throws {
        #expect(throws: GeometryError.self) { try PixelSize(points: Size(width: 100.5, height: 100), scale: 1) }
        #expect(throws: GeometryError.self) { try PixelSize(points: Size(width: 100, height: 100.25), scale: 2) }
        #expect(throws: GeometryError.self) { try PixelSize(points: Size(width: .nan, height: 100), scale: 1) }
        #expect(throws: GeometryError.self) { try PixelSize(points: Size(width: .infinity, height: 100), scale: 1) }
        let half = try PixelSize(points: Size(width: 100.5, height: 100), scale: 2)
        #expect(half.width == 201 && half.height == 200)
    }

    @Test("A viewport rejects scales outside 0.5...4, and zoom levels outside 0...22")
    func viewportRejects() throws {
        for scale in [0.0, 0.49, 4.01, -1.0, .nan, .infinity] {
            #expect(throws: GeometryError.self) { try MapViewport(size: Size(width: 256, height: 256), scale: scale) }
        }
        for scale in [0.5, 1.5, 2.5, 4.0] {
            let viewport = try MapViewport(size: Size(width: 256, height: 256), scale: scale)
            #expect(viewport.pixelSize.width == Int(256 * scale) && viewport.zoomLevel == 0)
        }
        #expect(throws: GeometryError.self) { try MapViewport(size: Size(width: 0, height: 256)) }
        let center = LocationCoordinate2D(latitude: 0, longitude: 0)
        for zoom in [-0.1, 22.1, .nan, .infinity] {
            #expect(throws: GeometryError.self) {
                try MapViewport(size: Size(width: 256, height: 256), center: center, zoomLevel: zoom)
            }
        }
    }

    @Test("Error messages quote the bad value and say what is valid")
    func messages() {
        #expect(GeometryError.invalidTile(z: 1, x: 2, y: 0).description.contains("1/2/0"))
        #expect(GeometryError.invalidCoordinate(latitude: 91, longitude: 0).description.contains("91,0"))
        #expect(
            GeometryError.invalidSize(width: 16_385, height: 1, scale: 1, maximum: 16_384).description.contains(
                "16385x1"))
    }
}
