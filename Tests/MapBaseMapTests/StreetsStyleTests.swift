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

    /// The seed views of issue #11 (MapRaster zoom levels).
    static let views: [(name: String, latitude: Double, longitude: Double, zoom: Double)] = [
        ("andorra-la-vella-z14", 42.5075, 1.5218, 14),
        ("andorra-la-vella-z17", 42.5075, 1.5218, 17),
        ("monaco-z15", 43.7384, 7.4246, 15),
        ("monaco-z17", 43.7325, 7.4189, 17),
        ("helsinki-z16", 60.1699, 24.9436, 16),
        // Zoom 15.1 draws zoom-14 tiles 549 points wide: the view's center (Monte Carlo) sits next to the
        // corner of four tiles, and streets, buildings and the harbour cross their edges.
        ("tile-edges-z15.1", 43.7390, 7.4262, 15.1),
    ]

    @Test("golden: the seed views in the streets style", arguments: views.map(\.name))
    func goldens(name: String) throws {
        let view = try #require(Self.views.first { $0.name == name })
        let snapshot = try Self.render(
            style: try ShippedStyle.streets.style(),
            center: LocationCoordinate2D(latitude: view.latitude, longitude: view.longitude), zoom: view.zoom)
        #expect(GoldenImage.check(snapshot.image, golden: "streets/\(name)") == nil)
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
