import Foundation
import MapRaster
import MapTestSupport
import Testing

/// `mapraster` and `mapraster render` run as a process: files written, stdout, exit code and metadata.
@Suite("mapraster render")
struct RenderCommandTests {
    @Test("No arguments renders the world to ./mapraster.png at 512x512")
    func noArguments() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run([], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError == "", "\(result)")
            let png = dir.file("mapraster.png")
            #expect(result.standardOutput == "wrote \(png.path) (512x512 px, zoom 1.00)\n", "\(result)")
            #expect(try dir.listing() == ["mapraster.png"])
            let image = try ImageSurface(contentsOfPNG: png)
            #expect(image.width == 512)
            #expect(image.height == 512)
        }
    }

    @Test("Los Angeles City Hall, half a mile across, 400x300 points at scale 2")
    func regionWithMetadata() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                [
                    "render", "--center", "34.0528873,-118.2434255", "--meters", "804.672", "--size", "400x300",
                    "--scale", "2", "-o", "out.png", "--metadata", "meta.json",
                ], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError == "", "\(result)")
            let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3, "\(result)")
            #expect(
                lines.first?.hasPrefix("wrote \(dir.file("out.png").path) (800x600 px, zoom 15.") == true, "\(result)")
            #expect(lines.dropFirst().first.map(String.init) == "wrote \(dir.file("meta.json").path)", "\(result)")
            #expect(try dir.listing() == ["meta.json", "out.png"])

            let image = try ImageSurface(contentsOfPNG: dir.file("out.png"))
            #expect(image.width == 800)
            #expect(image.height == 600)

            let meta = try Metadata.load(dir.file("meta.json"))
            #expect(meta.size.width == 400)
            #expect(meta.size.height == 300)
            #expect(meta.scale == 2)
            #expect(meta.pixelSize.width == 800)
            #expect(meta.pixelSize.height == 600)
            #expect(approx(meta.region.center.latitude, 34.0528873), "\(meta.region.center)")
            #expect(approx(meta.region.center.longitude, -118.2434255), "\(meta.region.center)")
            // 804.672 m is about 0.00723 degrees of latitude; the region is widened to the 4:3 image.
            #expect(
                meta.region.span.latitudeDelta > 0.0070 && meta.region.span.latitudeDelta < 0.0075,
                "\(meta.region.span)")
            #expect(meta.region.span.longitudeDelta > meta.region.span.latitudeDelta, "\(meta.region.span)")
            let rect = meta.visibleMapRect
            #expect(rect.width > 0 && rect.height > 0)
            #expect(approx(rect.width / rect.height, 400.0 / 300.0), "\(rect)")
            // The visible map rect is centered on the requested center.
            #expect(approx(rect.x + rect.width / 2, Mercator.x(longitude: -118.2434255), 1e-3), "\(rect)")
            #expect(approx(rect.y + rect.height / 2, Mercator.y(latitude: 34.0528873), 1e-3), "\(rect)")
            #expect(meta.zoomLevel > 15.5 && meta.zoomLevel < 16, "zoom \(meta.zoomLevel)")
            #expect(meta.annotations.isEmpty)
        }
    }

    /// An area option and what the metadata must show for it.
    struct AreaCase: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var check: @Sendable (Metadata) -> Void
        var testDescription: String { name }
    }

    static let areaCases: [AreaCase] = [
        AreaCase(name: "--center with --zoom 3", arguments: ["--center", "0,0", "--zoom", "3"]) { meta in
            #expect(meta.zoomLevel == 3)
            #expect(meta.tileZoom == 3)
            // Zoom z shows 256 * 2^z points for the whole world: 64 points are 2^(20-3) map points each.
            #expect(meta.visibleMapRect.width == 64 * 131_072)
            #expect(meta.visibleMapRect.height == 64 * 131_072)
            #expect(approx(meta.region.center.latitude, 0))
            #expect(approx(meta.region.center.longitude, 0))
        },
        AreaCase(
            name: "--center with fractional --zoom 12.5", arguments: ["--center", "48.8584,2.2945", "--zoom", "12.5"]
        ) { meta in
            #expect(approx(meta.zoomLevel, 12.5))
            #expect(approx(meta.region.center.latitude, 48.8584))
            #expect(approx(meta.region.center.longitude, 2.2945))
        },
        AreaCase(name: "--center with --span 10,20", arguments: ["--center", "10,20", "--span", "10,20"]) { meta in
            #expect(approx(meta.region.center.latitude, 10, 1e-6))
            #expect(approx(meta.region.center.longitude, 20))
            // Fitted to the square image: at least the requested span, one side exactly.
            #expect(meta.region.span.latitudeDelta >= 10 - 1e-9, "\(meta.region.span)")
            #expect(meta.region.span.longitudeDelta >= 20 - 1e-9, "\(meta.region.span)")
            #expect(
                approx(meta.region.span.longitudeDelta, 20, 1e-9) || approx(meta.region.span.latitudeDelta, 10, 1e-9))
        },
        AreaCase(name: "--bbox 5,45,15,55", arguments: ["--bbox", "5,45,15,55"]) { meta in
            let rect = meta.visibleMapRect
            #expect(rect.x <= Mercator.x(longitude: 5) + 1e-6)
            #expect(rect.x + rect.width >= Mercator.x(longitude: 15) - 1e-6)
            #expect(rect.y <= Mercator.y(latitude: 55) + 1e-6)
            #expect(rect.y + rect.height >= Mercator.y(latitude: 45) - 1e-6)
            #expect(approx(meta.region.center.longitude, 10, 1e-9))
        },
        AreaCase(name: "--bbox across the antimeridian 170,-20,-170,0", arguments: ["--bbox", "170,-20,-170,0"]) {
            meta in
            // The box is 20 degrees wide around the 180th meridian, not 340 degrees around Greenwich.
            #expect(approx(abs(meta.region.center.longitude), 180, 1e-9), "\(meta.region.center)")
            #expect(
                meta.region.span.longitudeDelta >= 20 - 1e-9 && meta.region.span.longitudeDelta < 25,
                "\(meta.region.span)")
            #expect(
                meta.region.span.latitudeDelta >= 20 - 1e-9 && meta.region.span.latitudeDelta < 25,
                "\(meta.region.span)")
            let rect = meta.visibleMapRect
            #expect(
                approx(rect.x + rect.width / 2, Mercator.world, 1e-3) || approx(rect.x + rect.width / 2, 0, 1e-3),
                "\(rect)")
            #expect(meta.zoomLevel > 1.5 && meta.zoomLevel < 3, "zoom \(meta.zoomLevel)")
        },
        AreaCase(name: "--span 180,360 shows the world", arguments: ["--center", "0,0", "--span", "180,360"]) { meta in
            #expect(approx(meta.visibleMapRect.width, Mercator.world, 1e-3))
            #expect(approx(meta.zoomLevel, -2), "64 points for the whole world is zoom log2(64/256)")
        },
    ]

    @Test("Area options give the region, map rect and zoom in the metadata", arguments: areaCases)
    func areaOptions(_ area: AreaCase) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["render"] + area.arguments + ["--size", "64x64", "-o", "a.png", "--metadata", "a.json"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError == "", "\(result)")
            #expect(try dir.listing() == ["a.json", "a.png"])
            let image = try ImageSurface(contentsOfPNG: dir.file("a.png"))
            #expect(image.width == 64 && image.height == 64)
            let meta = try Metadata.load(dir.file("a.json"))
            #expect(meta.size.width == 64 && meta.size.height == 64)
            area.check(meta)
        }
    }

    @Test("Options also work without the 'render' command and as --name=value")
    func implicitRenderAndInlineValues() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["--center=0,0", "--zoom=3", "--size=64x32", "--output=x.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardOutput == "wrote \(dir.file("x.png").path) (64x32 px, zoom 3.00)\n", "\(result)")
            let image = try ImageSurface(contentsOfPNG: dir.file("x.png"))
            #expect(image.width == 64 && image.height == 32)
        }
    }

    @Test("--no-attribution only changes the bottom of the image")
    func noAttribution() throws {
        try withTemporaryDirectory { dir in
            let common = ["render", "--center", "48.8584,2.2945", "--zoom", "4", "--size", "256x128"]
            let with = try CLI.run(common + ["-o", "with.png"], in: dir.url)
            let without = try CLI.run(common + ["--no-attribution", "-o", "without.png"], in: dir.url)
            #expect(with.exitCode == 0, "\(with)")
            #expect(without.exitCode == 0, "\(without)")
            let a = try ImageSurface(contentsOfPNG: dir.file("with.png"))
            let b = try ImageSurface(contentsOfPNG: dir.file("without.png"))
            try #require(a.width == 256 && a.height == 128 && b.width == 256 && b.height == 128)
            var changed: [(Int, Int)] = []
            for y in 0..<128 {
                for x in 0..<256 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { changed.append((x, y)) }
            }
            #expect(!changed.isEmpty, "the attribution should be visible without --no-attribution")
            // The credits (Natural Earth, GeoNames) are wider than a quarter of a 256-point image: they wrap
            // onto two right-aligned lines at the bottom.
            let outside = changed.filter { $0.1 < 64 }
            #expect(outside.isEmpty, "pixels outside the bottom half changed: \(outside.prefix(5))")
        }
    }

    /// Commands whose output must be identical from run to run.
    static let deterministicCommands: [[String]] = [
        [],
        ["render", "--center", "34.0528873,-118.2434255", "--meters", "804.672", "--size", "200x150", "--scale", "2"],
        ["render", "--scene", Fixtures.url("scenes/cli-all-shapes.json").path, "--scale", "2"],
    ]

    @Test("The same command twice writes byte-identical PNG files", arguments: deterministicCommands)
    func deterministic(_ arguments: [String]) throws {
        try withTemporaryDirectory { first in
            try withTemporaryDirectory { second in
                let a = try CLI.run(arguments, in: first.url)
                let b = try CLI.run(arguments, in: second.url)
                #expect(a.exitCode == 0, "\(a)")
                #expect(b.exitCode == 0, "\(b)")
                let name = "mapraster.png"
                let dataA = try Data(contentsOf: first.file(name))
                let dataB = try Data(contentsOf: second.file(name))
                #expect(dataA.count > 0)
                #expect(
                    dataA == dataB, "PNG bytes differ between two runs of mapraster \(arguments.joined(separator: " "))"
                )
            }
        }
    }

    @Test("Rendering again over an existing PNG replaces it and leaves no temporary file")
    func overwrite() throws {
        try withTemporaryDirectory { dir in
            try dir.write("out.png", "not a png")
            let result = try CLI.run(["--size", "64x64", "-o", "out.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(try dir.listing() == ["out.png"])
            let image = try ImageSurface(contentsOfPNG: dir.file("out.png"))
            #expect(image.width == 64)
        }
    }
}
