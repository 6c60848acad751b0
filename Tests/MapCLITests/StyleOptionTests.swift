import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("mapraster render --map-type and --style")
struct StyleOptionTests {
    @Test(
        "--map-type satellite and hybrid render the Blue Marble; standard does not", arguments: ["satellite", "hybrid"])
    func mapTypes(type: String) throws {
        try withTemporaryDirectory { dir in
            let args = ["render", "--center", "0,-30", "--zoom", "2", "--size", "128x128", "--no-attribution"]
            let result = try CLI.run(args + ["--map-type", type, "-o", "a.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let standard = try CLI.run(args + ["-o", "b.png"], in: dir.url)
            #expect(standard.exitCode == 0, "\(standard)")
            // Mid-Atlantic: dark blue imagery, not the standard style's pale blue.
            let a = try ImageSurface(contentsOfPNG: dir.file("a.png")).pixel(x: 64, y: 64)
            let b = try ImageSurface(contentsOfPNG: dir.file("b.png")).pixel(x: 64, y: 64)
            #expect(a.red < 60 && a.blue > a.red, "\(a)")
            #expect(b == ImageSurface.Pixel(red: 0xaa, green: 0xd3, blue: 0xdf, alpha: 255), "\(b)")
        }
    }

    @Test("--style FILE draws the style, with GeoJSON paths relative to the style file")
    func styleFile() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.file("style"), withIntermediateDirectories: true)
            try dir.write(
                "style/square.geojson",
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}}"#
            )
            try dir.write(
                "style/s.json",
                ##"{"version": 8, "sources": {"sq": {"type": "geojson", "data": "square.geojson", "attribution": "test square"}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#000000"}}, {"id": "sq", "type": "fill", "source": "sq", "paint": {"fill-color": "#ff0000"}}]}"##
            )
            let result = try CLI.run(
                [
                    "render", "--style", "style/s.json", "--center", "0,0", "--zoom", "1", "--size", "64x64", "-o",
                    "o.png",
                ],
                in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let image = try ImageSurface(contentsOfPNG: dir.file("o.png"))
            #expect(image.pixel(x: 32, y: 32) == ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
            #expect(image.pixel(x: 2, y: 2) == ImageSurface.Pixel(red: 0, green: 0, blue: 0, alpha: 255))
        }
    }

    @Test("--source NAME=PATH points a style's source at another file, relative to the working directory")
    func sourceReplacement() throws {
        try withTemporaryDirectory { dir in
            let style = Fixtures.root.appendingPathComponent("render/vector/style.json").path
            let tiles = Fixtures.root.appendingPathComponent("vectortiles/osm-omt.pmtiles")
            try FileManager.default.copyItem(at: tiles, to: dir.file("mine.pmtiles"))
            let view = ["--center", "43.7384,7.4246", "--zoom", "16", "--size", "200x150", "--no-attribution"]
            let a = try CLI.run(["render", "--style", style] + view + ["-o", "a.png"], in: dir.url)
            let b = try CLI.run(
                ["render", "--style", style, "--source", "omt=mine.pmtiles"] + view + ["-o", "b.png"], in: dir.url)
            #expect(a.exitCode == 0 && b.exitCode == 0, "\(a)\n\(b)")
            // The PMTiles copy holds the same tiles as the style's MBTiles file.
            #expect(try Data(contentsOf: dir.file("a.png")) == Data(contentsOf: dir.file("b.png")))
            let unknown = try CLI.run(
                ["render", "--style", style, "--source", "roads=mine.pmtiles"] + view + ["-o", "c.png"], in: dir.url)
            #expect(unknown.exitCode == 64 && unknown.standardError.contains("the style's sources: omt"), "\(unknown)")
            let malformed = try CLI.run(
                ["render", "--style", style, "--source", "mine.pmtiles"] + view + ["-o", "c.png"], in: dir.url)
            #expect(malformed.exitCode == 64 && malformed.standardError.contains("NAME=PATH"), "\(malformed)")
            let missing = try CLI.run(
                ["render", "--style", style, "--source", "omt=nowhere.mbtiles"] + view + ["-o", "c.png"], in: dir.url)
            #expect(missing.exitCode == 1 && missing.standardError.contains("nowhere.mbtiles"), "\(missing)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("c.png").path))
        }
    }
}
