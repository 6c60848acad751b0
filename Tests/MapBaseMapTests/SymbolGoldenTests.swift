import Foundation
import MapRaster
import MapTestSupport
import Testing

/// Goldens of issue #12 drawn from the shipped streets sprite: SDF images tinted by `icon-color` with halos.
@Suite("Symbol goldens from the streets sprite")
struct SymbolGoldenTests {
    /// A style over the shipped styles folder (so that `"sprite": "sprites/streets"` is the streets sprite).
    static func style(_ json: String) throws -> Style {
        let folder = try #require(ShippedStyle.streets.url).deletingLastPathComponent()
        return try Style.decode(Data(json.utf8), source: "test", baseURL: folder)
    }

    static let tints: [(color: String, red: UInt8, green: UInt8, blue: UInt8)] = [
        ("#d62728", 0xd6, 0x27, 0x28), ("#2ca02c", 0x2c, 0xa0, 0x2c), ("#1f77b4", 0x1f, 0x77, 0xb4),
    ]

    @Test("SDF icons: the dot and the shield tinted in three colours, with halos 0, 1 and 2 points wide")
    func sdfTinted() throws {
        // A 3x3 grid: columns by tint, rows by halo width; the dot in the top rows, the shield at the bottom.
        var features: [String] = []
        for (column, tint) in Self.tints.enumerated() {
            for row in 0..<3 {
                let lon = -0.02 + Double(column) * 0.02
                let lat = 0.015 - Double(row) * 0.015
                features.append(
                    #"{"type": "Feature", "properties": {"tint": "\#(tint.color)", "halo": \#(row), "#
                        + #""image": "\#(row == 2 ? "shield" : "dot")"}, "#
                        + #""geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#)
            }
        }
        let json = #"""
            {"version": 8, "sprite": "sprites/streets",
             "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(features.joined(separator: ", "))]}}},
             "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#f2efe9"}},
              {"id": "icons", "type": "symbol", "source": "p",
               "layout": {"icon-image": ["get", "image"], "icon-size": 2, "icon-allow-overlap": true},
               "paint": {"icon-color": ["get", "tint"], "icon-halo-color": "#202020",
                         "icon-halo-width": ["get", "halo"]}}]}
            """#
        var options = MapSnapshotter.Options(size: Size(width: 180, height: 150), scale: 2)
        options.visibleMapRect = try MapViewport(
            size: Size(width: 180, height: 150), center: LocationCoordinate2D(latitude: 0, longitude: 0),
            zoomLevel: 12
        ).visibleMapRect
        options.style = try Self.style(json)
        options.showsAttribution = false
        let snapshot = try MapSnapshotter(options: options).snapshot()
        // Independent of the golden: the middle of each image is its tint (the SDF is fully inside there).
        for (column, tint) in Self.tints.enumerated() {
            for row in 0..<3 {
                let p = snapshot.point(
                    for: LocationCoordinate2D(
                        latitude: 0.015 - Double(row) * 0.015, longitude: -0.02 + Double(column) * 0.02))
                let pixel = snapshot.image.pixel(x: Int((p.x * 2).rounded(.down)), y: Int((p.y * 2).rounded(.down)))
                let expected = ImageSurface.Pixel(red: tint.red, green: tint.green, blue: tint.blue, alpha: 255)
                #expect(pixel == expected, "row \(row), \(tint.color): \(pixel)")
            }
        }
        #expect(GoldenImage.check(snapshot.image, golden: "symbols/sdf-tinted") == nil)
    }
}
