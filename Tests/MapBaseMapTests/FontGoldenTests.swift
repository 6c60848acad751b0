import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Golden images of font stacks")
struct FontGoldenTests {
    @Test("The Tokyo area labelled in Japanese (GeoNames names), a DejaVu-only stack falling back to IPAex Gothic")
    func tokyo() throws {
        let style = try Style.load(contentsOf: Fixtures.url("render/labels/tokyo-ja/style.json"))
        let size = Size(width: 512, height: 384)
        let viewport = try MapViewport(
            size: size, center: LocationCoordinate2D(latitude: 35.62, longitude: 139.62), zoomLevel: 9)
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = viewport.visibleMapRect
        options.style = style
        let snapshot = try MapSnapshotter(options: options).snapshot()
        #expect(GoldenImage.check(snapshot.image, golden: "labels/tokyo-ja") == nil)
    }

    @Test("A style whose text-font names no installed family is refused when prepared, listing the families")
    func unknownStack() throws {
        let json = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "names", "type": "symbol", "source": "s", "layout": {"text-font": ["Comic Sans MS"]}}]}
            """#
        let style = try Style.decode(Data(json.utf8), source: "t.json", baseURL: URL(fileURLWithPath: "/"))
        do {
            _ = try StyledBaseMap(style: style)
            Issue.record("no error")
        } catch {
            let message = "\(error)"
            #expect(message.contains("names") && message.contains("Comic Sans MS") && message.contains("DejaVu Sans"))
        }
        let fallback = try FontCatalog(directories: [], fallbackStack: ["DejaVu Sans"])
        _ = try StyledBaseMap(style: style, fonts: fallback)
    }
}
