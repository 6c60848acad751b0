import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Line labels across tile edges: a road cut into tiles is labelled as the uncut road is")
struct CrossTileLabelTests {
    static let folder = Fixtures.root.appendingPathComponent("vectortiles/split-road")

    static func style(source: String, sourceLayer: String) throws -> Style {
        let text = #"""
            {"version": 8, "sources": {"s": \#(source)},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "names", "type": "symbol", "source": "s"\#(sourceLayer),
                         "layout": {"symbol-placement": "line", "text-field": "{name}", "text-size": 14,
                                    "symbol-spacing": 300},
                         "paint": {"text-color": "#202020"}}]}
            """#
        return try Style.decode(Data(text.utf8), source: "test", baseURL: folder)
    }

    @Test("the labels along a road cut across three zoom-14 tiles match those of the same road as one GeoJSON line")
    func splitRoadLabelledOnce() throws {
        // fixtures/vectortiles/split-road: Scripts/make-split-road-tiles.py cut one road into three tiles
        // (with a buffer, as tippecanoe does) and wrote the uncut road, same vertices, as road.geojson.
        let tiles = try Self.style(
            source: #"{"type": "vector", "tiles": ["{z}/{x}/{y}.pbf"], "maxzoom": 14}"#,
            sourceLayer: #", "source-layer": "transportation_name""#)
        let whole = try Self.style(source: #"{"type": "geojson", "data": "road.geojson"}"#, sourceLayer: "")
        let center = LocationCoordinate2D(latitude: 0.012, longitude: 0.0345)
        let size = Size(width: 1400, height: 300)
        func render(_ style: Style) throws -> ImageSurface {
            var options = MapSnapshotter.Options(size: size)
            options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: 15).visibleMapRect
            options.style = style
            options.showsAttribution = false
            return try MapSnapshotter(options: options).snapshot().image
        }
        let fromTiles = try render(tiles)
        let fromLine = try render(whole)
        var inked = 0
        var differing = 0
        let a = fromTiles.rgbaBytes()
        let b = fromLine.rgbaBytes()
        for i in stride(from: 0, to: a.count, by: 4) {
            if b[i] < 128 { inked += 1 }
            if abs(Int(a[i]) - Int(b[i])) > 64 { differing += 1 }
        }
        // Several labels' worth of ink, and the same glyphs in the same places (sub-pixel differences of
        // coordinates projected from tile units and from degrees aside).
        #expect(inked > 900, "\(inked) dark pixels: the uncut road should have four labels (about 290 each)")
        #expect(differing < inked / 50, "\(differing) of \(inked) inked pixels differ")
    }
}
