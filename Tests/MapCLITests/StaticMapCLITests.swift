import Foundation
import MapRaster
import MapTestSupport
import Testing

/// `mapraster render --marker/--path/--visible/--padding` and `--scene -`.
@Suite("mapraster render: static-map options")
struct StaticMapCLITests {
    @Test("markers and a path with no area: the map fits them with the padding, pins whole inside")
    func markersFit() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                [
                    "render", "--no-base-map", "--size", "400x300", "--padding", "24",
                    "--marker", "color:blue|label:S|40.702147,-74.015794",
                    "--marker", "color:green|label:G|40.711614,-74.012318",
                    "--marker=color:red|label:C|40.718217,-73.998284",
                    "--path", "color:0xff0000ff|weight:5|40.737102,-73.990318|40.749825,-73.987963",
                    "-o", "m.png", "--metadata", "m.json",
                ], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let meta = try Metadata.load(dir.file("m.json"))
            #expect(meta.annotations.count == 3)
            let frames = meta.annotations.map(\.frame)
            let minX = frames.map(\.x).min()!
            let minY = frames.map(\.y).min()!
            let maxX = frames.map { $0.x + $0.width }.max()!
            let maxY = frames.map { $0.y + $0.height }.max()!
            // Everything inside the padded image; the path's end (40.749825 N) is the northern edge.
            #expect(minX >= 24 - 1e-6 && maxX <= 376 + 1e-6 && minY >= 24 - 1e-6 && maxY <= 276 + 1e-6, "\(frames)")
            let north = Mercator.imagePoint(latitude: 40.749825, longitude: -73.987963, in: meta)
            #expect(north.y >= 24 - 2.5 - 1e-6)
        }
    }

    @Test("--visible outside a given area is a usage error naming the point; inside it renders")
    func visible() throws {
        try withTemporaryDirectory { dir in
            let outside = try CLI.run(
                [
                    "render", "--no-base-map", "--center", "48.85,2.35", "--zoom", "10", "--visible", "45.76,4.84",
                    "-o", "v.png",
                ], in: dir.url)
            #expect(outside.exitCode == 64, "\(outside)")
            #expect(outside.standardError.contains("--visible: the visible point 45.76,4.84 is outside the image"))
            #expect(try dir.listing().isEmpty)
            let inside = try CLI.run(
                [
                    "render", "--no-base-map", "--center", "48.85,2.35", "--zoom", "10", "--visible", "48.86,2.36",
                    "-o", "v.png",
                ], in: dir.url)
            #expect(inside.exitCode == 0, "\(inside)")
        }
    }

    @Test(
        "bad static-map options are usage errors naming the option, the part and the grammar",
        arguments: [
            (["--marker", "color:bleu|1,2"], "--marker markers: 'color:bleu': unknown color"),
            (["--path", "weight:500|0,0|1,1"], "--path path: 'weight:500': the weight must be pixels in 0...100"),
            (["--path", "stroke:red|0,0|1,95"], "--path path: '1,95': latitude 95.0 is outside -90...90"),
            (["--visible", "here"], "--visible visible: 'here'"),
            (["--padding", "-3"], "--padding '-3' is invalid"),
            (["--padding", "8", "--center", "0,0", "--zoom", "3"], "--padding applies when the map fits its content"),
            (["--marker", "1,2|pin.png"], "--marker marker: 'pin.png': annotation image"),
        ])
    func badOptions(arguments: [String], expected: String) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["render", "--no-base-map", "-o", "x.png"] + arguments, in: dir.url)
            #expect(result.exitCode == (expected.contains("annotation image") ? 1 : 64), "\(result)")
            #expect(result.standardError.contains(expected), "\(result)")
            #expect(result.standardError.contains("expected ") || expected.hasPrefix("--padding"), "\(result)")
            #expect(try dir.listing().isEmpty)
        }
    }

    @Test("--scene - reads the scene from standard input")
    func sceneFromStandardInput() throws {
        try withTemporaryDirectory { dir in
            let input = dir.file("in.json")
            try Data(#"{"center": [60.17, 24.94], "zoom": 12, "size": [200, 100]}"#.utf8).write(to: input)
            let result = try CLI.run(
                ["render", "--no-base-map", "--scene", "-", "-o", "s.png", "--metadata", "s.json"], in: dir.url,
                standardInput: input)
            #expect(result.exitCode == 0, "\(result)")
            let meta = try Metadata.load(dir.file("s.json"))
            #expect(meta.size.width == 200 && meta.size.height == 100)
            #expect(abs(meta.zoomLevel - 12) < 1e-9)
        }
    }
}
