import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Vector tile sources in styles: MBTiles and PMTiles, source-layer, overzoom, seams")
struct VectorSourceTests {
    static let styleURL = Fixtures.root.appendingPathComponent("render/vector/style.json")

    static func render(
        style: Style, center: LocationCoordinate2D, zoom: Double, size: Size = Size(width: 800, height: 600)
    ) throws -> Snapshot {
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: zoom).visibleMapRect
        options.style = style
        options.showsAttribution = false
        return try MapSnapshotter(options: options).snapshot()
    }

    @Test("golden: Monaco at zoom 16 and Andorra la Vella at 15.6 from the shipped OpenMapTiles-schema tiles")
    func goldens() throws {
        #expect(try GoldenCase.check("vector/monaco-z16").failure == nil)
        #expect(try GoldenCase.check("vector/andorra-z15.6").failure == nil)
    }

    @Test("the PMTiles copy draws the same image as the MBTiles file; zoom 19 overzooms the zoom-14 tiles")
    func pmtilesAndOverzoom() throws {
        let text = try String(contentsOf: Self.styleURL, encoding: .utf8)
        let mbtiles = try Style.load(contentsOf: Self.styleURL)
        let pmtiles = try Style.decode(
            Data(
                text.replacingOccurrences(
                    of: "mbtiles://../../../Sources/MapBaseMap/Resources/vectortiles/osm-omt.mbtiles",
                    with: "pmtiles://../../vectortiles/osm-omt.pmtiles"
                ).utf8),
            source: "pm.json", baseURL: Self.styleURL.deletingLastPathComponent())
        let center = LocationCoordinate2D(latitude: 43.7325, longitude: 7.4189)
        let a = try Self.render(style: mbtiles, center: center, zoom: 19, size: Size(width: 300, height: 200))
        let b = try Self.render(style: pmtiles, center: center, zoom: 19, size: Size(width: 300, height: 200))
        #expect(a.image.rgbaBytes() == b.image.rgbaBytes())
        // Zoom 19 has no tiles of its own: buildings still cover part of the view.
        let background = ImageSurface.Pixel(red: 0xf2, green: 0xef, blue: 0xe9, alpha: 255)
        var other = 0
        for y in stride(from: 0, to: 200, by: 10) {
            for x in stride(from: 0, to: 300, by: 10) where a.image.pixel(x: x, y: y) != background { other += 1 }
        }
        #expect(other > 60, "\(other) of 600 sampled pixels are not background")
    }

    @Test("outside the tileset the map is its background, not an error")
    func missingTilesAreEmpty() throws {
        let style = try Style.load(contentsOf: Self.styleURL)
        let far = try Self.render(
            style: style, center: LocationCoordinate2D(latitude: -33.9, longitude: 18.4), zoom: 15,
            size: Size(width: 64, height: 64))
        #expect(far.image.pixel(x: 32, y: 32) == ImageSurface.Pixel(red: 0xf2, green: 0xef, blue: 0xe9, alpha: 255))
    }

    @Test(
        "bad vector sources are errors naming the place",
        arguments: [
            (#""url": "https://example.com/tiles.json""#, #""source-layer": "water","#, "no network"),
            (#""tiles": ["http://x/{z}/{x}/{y}.pbf"]"#, #""source-layer": "water","#, "no network"),
            (#""url": "mbtiles://tiles.mbtiles""#, "", "source-layer"),
            (#""url": "mbtiles://tiles.mbtiles", "maxzoom": 30"#, #""source-layer": "water","#, "0...24"),
        ])
    func refused(source: String, sourceLayer: String, fragment: String) {
        let text = """
            {"version": 8, "sources": {"v": {"type": "vector", \(source)}},
             "layers": [{"id": "w", "type": "fill", "source": "v", \(sourceLayer) "paint": {}}]}
            """
        do {
            _ = try Style.decode(Data(text.utf8), source: "s.json", baseURL: URL(fileURLWithPath: "/tmp"))
            Issue.record("accepted \(source)")
        } catch {
            #expect("\(error)".contains(fragment), "\(error)")
        }
    }

    @Test("a missing tile file is an error naming it when the style is prepared")
    func missingFile() throws {
        let text = #"""
            {"version": 8, "sources": {"v": {"type": "vector", "url": "mbtiles://nowhere.mbtiles"}},
             "layers": [{"id": "w", "type": "fill", "source": "v", "source-layer": "water"}]}
            """#
        let style = try Style.decode(Data(text.utf8), source: "s.json", baseURL: URL(fileURLWithPath: "/tmp"))
        #expect(throws: RenderError.self) { _ = try StyledBaseMap(style: style) }
    }
}
