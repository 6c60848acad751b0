import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Golden images of styled base maps")
struct StyleGoldenTests {
    static func render(
        style: Style? = nil, mapType: MapType = .standard, center: LocationCoordinate2D, zoom: Double,
        size: Size = Size(width: 512, height: 384), scale: Double = 1
    ) throws -> Snapshot {
        let viewport = try MapViewport(size: size, scale: scale, center: center, zoomLevel: zoom)
        var options = MapSnapshotter.Options(size: size, scale: scale)
        options.visibleMapRect = viewport.visibleMapRect
        options.mapType = mapType
        options.style = style
        return try MapSnapshotter(options: options).snapshot()
    }

    /// Renders the case (its parameters are in `case.json` beside the golden) and checks it against the golden.
    static func check(_ name: String) throws -> (GoldenCase, Snapshot) {
        let (golden, snapshot, failure) = try GoldenCase.check(name)
        #expect(failure == nil, "\(name)")
        return (golden, snapshot)
    }

    @Test(
        "every layer type and the main paint properties from inline GeoJSON",
        arguments: ["styles/layers-scale1", "styles/layers-scale2"])
    func layers(_ name: String) throws {
        let (golden, snapshot) = try Self.check(name)
        let scale = golden.pixelScale
        // Background where nothing else is drawn, and the hole of the square field shows it too.
        let corner = snapshot.image.pixel(x: Int(5 * scale), y: Int(5 * scale))
        #expect(corner == ImageSurface.Pixel(red: 0xee, green: 0xf3, blue: 0xe6, alpha: 255))
        let hole = snapshot.point(for: LocationCoordinate2D(latitude: -9, longitude: -19))
        #expect(
            snapshot.image.pixel(x: Int(hole.x * scale), y: Int(hole.y * scale))
                == ImageSurface.Pixel(red: 0xee, green: 0xf3, blue: 0xe6, alpha: 255))
    }

    @Test(
        "standard, satellite and hybrid at zoom 2 and 5",
        arguments: MapType.allCases.flatMap { type in [2, 5].map { "styles/\(type.rawValue)-z\($0)" } })
    func mapTypes(_ name: String) throws {
        _ = try Self.check(name)
    }

    @Test("the muted style at zoom 5")
    func muted() throws {
        _ = try Self.check("styles/muted-z5")
    }

    @Test(
        "Helsinki at zoom 15 and 17 with street names along the streets",
        arguments: ["labels/helsinki-z15", "labels/helsinki-z17"])
    func helsinki(_ name: String) throws {
        _ = try Self.check(name)
    }

    @Test("the OpenStreetMap credit is on every image drawn from the Helsinki data, and only there")
    func osmAttribution() throws {
        let map = try StyledBaseMap(style: try ShippedStyle.standard.style())
        let helsinki = try MapViewport(
            size: Size(width: 256, height: 256), center: LocationCoordinate2D(latitude: 60.17, longitude: 24.94),
            zoomLevel: 16)
        let world = try MapViewport(size: Size(width: 256, height: 256))
        let paris = try MapViewport(
            size: Size(width: 256, height: 256), center: LocationCoordinate2D(latitude: 48.85, longitude: 2.35),
            zoomLevel: 16)
        #expect(map.attribution(for: helsinki).contains("© OpenStreetMap contributors"))
        #expect(!map.attribution(for: world).contains("© OpenStreetMap contributors"))
        #expect(map.attribution(for: world).contains("GeoNames (www.geonames.org), CC BY 4.0") == false)
        #expect(!map.attribution(for: paris).contains("© OpenStreetMap contributors"))
        let europe = try MapViewport(
            size: Size(width: 512, height: 512), center: LocationCoordinate2D(latitude: 50, longitude: 10),
            zoomLevel: 5)
        #expect(map.attribution(for: europe).contains("GeoNames (www.geonames.org), CC BY 4.0"))
    }

    @Test("Japan labelled in Japanese from NAME_JA with IPAex Gothic")
    func japan() throws {
        _ = try Self.check("labels/japan")
    }
}

@Suite("Golden images of raster layers")
struct StyleRasterGoldenTests {
    @Test(
        "a raster layer at 60 % opacity over white, reprojected, with the equator on top",
        arguments: ["styles/raster-scale1", "styles/raster-scale2"])
    func rasterOpacity(_ name: String) throws {
        let (golden, snapshot) = try StyleGoldenTests.check(name)
        let scale = golden.pixelScale
        // 60 % of the northern color (230, 160, 60) over white: 255 - 0.6 * (255 - c).
        let p = snapshot.point(for: LocationCoordinate2D(latitude: 15, longitude: 12.5))
        let pixel = snapshot.image.pixel(x: Int(p.x * scale), y: Int(p.y * scale))
        #expect(abs(Int(pixel.red) - 240) <= 2 && abs(Int(pixel.green) - 198) <= 2 && abs(Int(pixel.blue) - 138) <= 2)
    }
}

@Suite("Styled rendering is deterministic")
struct StyleDeterminismTests {
    @Test("the same styled view rendered on four threads at once gives byte-identical PNGs")
    func threads() throws {
        @Sendable func render() throws -> Data {
            try StyleGoldenTests.render(
                center: LocationCoordinate2D(latitude: 60.1699, longitude: 24.9436), zoom: 16,
                size: Size(width: 256, height: 256)
            ).image.pngData()
        }
        let serial = try render()
        let results = ResultBox(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { i in results.set(i, Result { try render() }) }
        for result in results.values { #expect(try #require(result).get() == serial) }
    }
}

/// Results written from several threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Result<Data, Error>?]
    init(count: Int) { storage = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: Result<Data, Error>) {
        lock.lock()
        storage[i] = value
        lock.unlock()
    }
    var values: [Result<Data, Error>?] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
