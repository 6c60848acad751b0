import Foundation
import MapRaster
import MapTestSupport
import Testing

/// `mapraster render` over a style whose GeoJSON sources are invalid, as MapLibre treats them: one warning
/// naming the source on standard error and exit 0 with the rest drawn; `--strict` exits 1. Also a fractional
/// `--scale`.
@Suite("Source data warnings: invalid GeoJSON warned about once, --strict refuses; fractional --scale")
struct SourceDataWarningsTests {
    static func style(bad: String) -> String {
        #"{"version": 8, "sources": {"good": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}}, "#
            + #""bad": {"type": "geojson", "data": \#(bad)}}, "layers": ["#
            + #"{"id": "bg", "type": "background", "paint": {"background-color": "rgb(0, 0, 255)"}}, "#
            + #"{"id": "good", "type": "circle", "source": "good", "paint": {"circle-radius": 6, "circle-color": "rgb(255, 0, 0)"}}, "#
            + #"{"id": "bad", "type": "circle", "source": "bad", "paint": {"circle-radius": 6}}]}"#
    }

    @Test(
        "a malformed source and invalid features: one warning naming the source, exit 0; --strict exits 1",
        arguments: [
            (#"{"type": "FeatureCollection", "features": 3}"#, #"source "bad": data.features"#),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [200, 0]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": ["x", 0]}}]}"#,
                #"source "bad": 2 invalid features left out; the first: source "bad": data.features[0].geometry.coordinates"#
            ),
        ])
    func warnings(bad: String, fragment: String) throws {
        try withTemporaryDirectory { dir in
            _ = try dir.write("s.json", Self.style(bad: bad))
            let base = ["render", "--style", "s.json", "--center", "0,0", "--zoom", "3", "--size", "64x64"]
            let result = try CLI.run(base + ["-o", "m.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let warnings = result.standardError.split(separator: "\n").filter { $0.contains("warning:") }
            #expect(warnings.count == 1 && warnings.first?.contains(fragment) == true, "\(result.standardError)")
            let image = try RGBAImage(contentsOfPNG: dir.file("m.png"))
            #expect(image.pixel(x: 32, y: 32) == ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
            let strict = try CLI.run(base + ["--strict", "-o", "n.png"], in: dir.url)
            #expect(strict.exitCode == 1 && strict.standardError.contains("invalid GeoJSON"), "\(strict)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("n.png").path))
        }
    }

    @Test("--scale 1.5 writes an image of 1.5 device pixels a point; 4.5 is a usage error")
    func fractionalScale() throws {
        try withTemporaryDirectory { dir in
            _ = try dir.write("s.json", Self.style(bad: #"{"type": "FeatureCollection", "features": []}"#))
            let base = ["render", "--style", "s.json", "--center", "0,0", "--zoom", "3", "--size", "64x64"]
            let result = try CLI.run(base + ["--scale", "1.5", "-o", "m.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let image = try RGBAImage(contentsOfPNG: dir.file("m.png"))
            #expect(image.width == 96 && image.height == 96)
            #expect(image.pixel(x: 48, y: 48) == ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
            #expect(image.pixel(x: 48 + 12, y: 48) == ImageSurface.Pixel(red: 0, green: 0, blue: 255, alpha: 255))
            #expect(try CLI.run(base + ["--scale", "4.5", "-o", "n.png"], in: dir.url).exitCode == 64)
        }
    }
}
