import Foundation
import MapRaster
import MapTestSupport
import Testing

/// Goldens of issue #12 drawn from the shipped streets sprite: SDF images tinted by `icon-color` with halos.
@Suite("Symbol goldens from the streets sprite")
struct SymbolGoldenTests {
    @Test("SDF icons: the dot and the shield tinted in three colours, with halos 0, 1 and 2 points wide")
    func sdfTinted() throws {
        // A 3x3 grid in the case's style.json: columns by tint, rows by halo width; the dot in the top rows,
        // the shield at the bottom.
        let (golden, snapshot, failure) = try GoldenCase.check("symbols/sdf-tinted")
        let style = try JSONValue.parse(Data(contentsOf: golden.url(try #require(golden.style))))
        let features = try #require(style["sources"]?["p"]?["data"]?["features"]?.array)
        #expect(features.count == 9)
        // Independent of the golden: the middle of each image is its tint (the SDF is fully inside there).
        for feature in features {
            let lonLat = try #require(feature["geometry"]?["coordinates"]?.array?.compactMap { $0.number })
            let tintText = try #require(feature["properties"]?["tint"]?.string)
            let halo = feature["properties"]?["halo"]?.number ?? -1
            let tint = try Color(parsing: tintText)
            let p = snapshot.point(for: LocationCoordinate2D(latitude: lonLat[1], longitude: lonLat[0]))
            let pixel = snapshot.image.pixel(x: Int((p.x * 2).rounded(.down)), y: Int((p.y * 2).rounded(.down)))
            let expected = ImageSurface.Pixel(
                red: UInt8((tint.red * 255).rounded()), green: UInt8((tint.green * 255).rounded()),
                blue: UInt8((tint.blue * 255).rounded()), alpha: 255)
            #expect(pixel == expected, "\(tintText), halo \(halo): \(pixel)")
        }
        #expect(failure == nil)
    }
}
