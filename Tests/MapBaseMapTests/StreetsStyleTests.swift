import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("The streets style and standard over the shipped OpenMapTiles-schema vector tiles")
struct StreetsStyleTests {
    static func render(
        style: Style? = nil, mapType: MapType = .standard, center: LocationCoordinate2D, zoom: Double,
        size: Size = Size(width: 600, height: 450)
    ) throws -> Snapshot {
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: zoom).visibleMapRect
        options.mapType = mapType
        options.style = style
        return try MapSnapshotter(options: options).snapshot()
    }

    /// The seed views of issue #11 (MapRaster zoom levels), their parameters in each case's `case.json`.
    /// Zoom 15.1 draws zoom-14 tiles 549 points wide: the view's center (Monte Carlo) sits next to the corner of
    /// four tiles, and streets, buildings and the harbour cross their edges.
    static let views = [
        "andorra-la-vella-z14", "andorra-la-vella-z17", "monaco-z15", "monaco-z17", "helsinki-z16", "tile-edges-z15.1",
    ]

    @Test("golden: the seed views in the streets style", arguments: views)
    func goldens(name: String) throws {
        #expect(try GoldenCase.check("streets/\(name)").failure == nil)
    }

    @Test("no seams: a forest is one color on both sides of zoom-14 tile edges at zoom 15.1")
    func noSeams() throws {
        // The corner of tiles 14/8256/6050 to 14/8257/6051, west of Andorra la Vella, inside woods drawn at
        // opacity 0.9 (an edge drawn twice, or not at all, would show as a darker or lighter line).
        let n = 16384.0
        let corner = LocationCoordinate2D(
            latitude: atan(sinh(Double.pi * (1 - 2 * 6051 / n))) * 180 / Double.pi, longitude: 8257 / n * 360 - 180)
        let snapshot = try Self.render(
            style: try ShippedStyle.streets.style(),
            center: LocationCoordinate2D(latitude: corner.latitude - 0.0002, longitude: corner.longitude - 0.0003),
            zoom: 15.1)
        let edge = snapshot.point(for: corner)
        let image = snapshot.image
        #expect(edge.x > 10 && edge.x < Double(image.width - 10) && edge.y > 10 && edge.y < Double(image.height - 10))
        var checked = 0
        var seams: [String] = []
        // Across the vertical edge: where both sides have one color, the pixels on the edge have it too.
        let column = Int(edge.x.rounded(.down))
        // (Both sides over three rows, so that a real polygon edge crossing the tile edge is not counted.)
        for y in 1..<(image.height - 1) {
            let color = image.pixel(x: column - 3, y: y)
            guard
                (-1...1).allSatisfy({
                    image.pixel(x: column - 3, y: y + $0) == color && image.pixel(x: column + 3, y: y + $0) == color
                })
            else { continue }
            checked += 1
            for x in (column - 1)...(column + 1) where image.pixel(x: x, y: y) != color { seams.append("(\(x), \(y))") }
        }
        let row = Int(edge.y.rounded(.down))
        for x in 1..<(image.width - 1) {
            let color = image.pixel(x: x, y: row - 3)
            guard
                (-1...1).allSatisfy({
                    image.pixel(x: x + $0, y: row - 3) == color && image.pixel(x: x + $0, y: row + 3) == color
                })
            else { continue }
            checked += 1
            for y in (row - 1)...(row + 1) where image.pixel(x: x, y: y) != color { seams.append("(\(x), \(y))") }
        }
        #expect(checked > 500, "one color on both sides of the tile edges at \(checked) places")
        #expect(seams.isEmpty, "\(seams.count) pixels on the tile edges differ from both sides: \(seams.prefix(10))")
    }

    @Test("standard draws the tiles' streets in Andorra at zoom 16, with the OpenStreetMap credit")
    func standardStreets() throws {
        let center = LocationCoordinate2D(latitude: 42.5075, longitude: 1.5218)
        let size = Size(width: 300, height: 200)
        let standard = try Self.render(center: center, zoom: 16, size: size)
        var plain = try ShippedStyle.standard.style()
        plain.layers.removeAll { $0.source == "openmaptiles" }
        let without = try Self.render(style: plain, center: center, zoom: 16, size: size)
        // Without the tiles the city is bare Natural Earth land: the tiles change most of the image.
        let a = standard.image.rgbaBytes()
        let b = without.image.rgbaBytes()
        var changed = 0
        for i in stride(from: 0, to: a.count, by: 4) where a[i..<(i + 4)] != b[i..<(i + 4)] { changed += 1 }
        #expect(Double(changed) / Double(a.count / 4) > 0.5, "\(changed) of \(a.count / 4) pixels changed")
        let viewport = try MapViewport(size: size, center: center, zoomLevel: 16)
        let credits = try StyledBaseMap(style: try ShippedStyle.standard.style()).attribution(for: viewport)
        #expect(credits.contains("© OpenStreetMap contributors"), "\(credits)")
    }

    /// The share of an image's pixels that are exactly `color`.
    static func share(of color: ImageSurface.Pixel, in image: ImageSurface) -> Double {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y) == color { count += 1 }
        }
        return Double(count) / Double(image.width * image.height)
    }

    @Test(
        "the sea around Monaco: standard and streets agree on the coast at zoom 15, and the tiles' sea goes on past the extract at zoom 10"
    )
    func monacoSea() throws {
        // Two independent coasts: at zoom 15 OpenStreetMap's (streets draws only the tiles), at zoom 10 Natural
        // Earth's 1:50m (standard) against the tiles' ring from Natural Earth's 1:10m admin-1 land. Before the
        // fix standard painted 57 % of the zoom-15 view as sea (Natural Earth puts half of Monaco in it) and
        // streets drew no sea at all at zoom 10 outside the extract's small box.
        let center = LocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
        let ocean = ImageSurface.Pixel(red: 0xaa, green: 0xd3, blue: 0xdf, alpha: 255)  // standard's ocean
        let water = ImageSurface.Pixel(red: 0xa5, green: 0xc9, blue: 0xe0, alpha: 255)  // streets' water
        for zoom in [15.0, 10.0] {
            let standard = try Self.render(center: center, zoom: zoom)
            let streets = try Self.render(style: try ShippedStyle.streets.style(), center: center, zoom: zoom)
            let a = Self.share(of: ocean, in: standard.image)
            let b = Self.share(of: water, in: streets.image)
            #expect(a > 0.25 && b > 0.25, "zoom \(zoom): sea is \(a) of standard, \(b) of streets")
            #expect(Swift.abs(a - b) < 0.03, "zoom \(zoom): sea is \(a) of standard, \(b) of streets")
        }
    }

    @Test("the vector source's bounds in standard leave Helsinki to its own GeoJSON streets")
    func standardBounds() throws {
        // Helsinki at zoom 16: no tile layer draws, so standard equals standard without the vector layers.
        var style = try ShippedStyle.standard.style()
        style.layers.removeAll { $0.source == "openmaptiles" }
        let center = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9436)
        let with = try Self.render(center: center, zoom: 16, size: Size(width: 200, height: 150))
        let without = try Self.render(style: style, center: center, zoom: 16, size: Size(width: 200, height: 150))
        #expect(with.image.rgbaBytes() == without.image.rgbaBytes())
    }

    @Test("the decoded-tile cache stays within its byte limit, and the limit can be changed")
    func cacheLimit() throws {
        #expect(VectorTileCache.defaultByteLimit == 256 << 20)
        let saved = VectorTileCache.byteLimit
        defer { VectorTileCache.byteLimit = saved }
        _ = try Self.render(
            style: try ShippedStyle.streets.style(), center: LocationCoordinate2D(latitude: 42.5075, longitude: 1.5218),
            zoom: 15, size: Size(width: 256, height: 256))
        #expect(VectorTileCache.bytesInUse > 0)
        VectorTileCache.byteLimit = 1 << 20
        #expect(VectorTileCache.bytesInUse <= 1 << 20)
    }
}
