import Foundation
import MapRaster
import MapTestSupport
import Testing

/// `mapraster render --scene FILE`: area, size and GeoJSON features from a JSON file.
@Suite("mapraster render --scene")
struct SceneFileTests {
    static let scene = Fixtures.url("scenes/cli-all-shapes.json")
    static let cityHall = (latitude: 34.0528873, longitude: -118.2434255)

    @Test(
        "A scene with a pin, a circle, a dashed line and a polygon with a hole renders with the scene's area and size")
    func fullScene() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["render", "--scene", Self.scene.path, "-o", "s.png", "--metadata", "s.json"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError == "", "\(result)")
            #expect(result.standardOutput.hasPrefix("wrote \(dir.file("s.png").path) (300x200 px, zoom "), "\(result)")
            #expect(try dir.listing() == ["s.json", "s.png"])

            let image = try ImageSurface(contentsOfPNG: dir.file("s.png"))
            #expect(image.width == 300 && image.height == 200)

            let meta = try Metadata.load(dir.file("s.json"))
            #expect(meta.size.width == 300 && meta.size.height == 200)
            #expect(meta.scale == 1)
            #expect(approx(meta.region.center.latitude, 34.05, 1e-9))
            #expect(approx(meta.region.center.longitude, -118.25, 1e-9))
            // Only the Point without a radius is an annotation; the circle, line and polygon are overlays.
            try #require(meta.annotations.count == 1, "annotations: \(meta.annotations)")
            let pin = meta.annotations[0]
            #expect(pin.title == "City Hall")
            #expect(pin.subtitle == "200 N Spring St")
            #expect(approx(pin.coordinate.latitude, Self.cityHall.latitude))
            #expect(approx(pin.coordinate.longitude, Self.cityHall.longitude))
            // A medium pin is 22x36 points and its needle's tip, the frame's bottom center, is the coordinate.
            #expect(pin.frame.width == 22)
            #expect(pin.frame.height == 36)
            let tip = Mercator.imagePoint(
                latitude: Self.cityHall.latitude, longitude: Self.cityHall.longitude, in: meta)
            #expect(approx(pin.frame.x + pin.frame.width / 2, tip.x, 1e-6), "frame \(pin.frame), tip \(tip)")
            #expect(approx(pin.frame.y + pin.frame.height, tip.y, 1e-6), "frame \(pin.frame), tip \(tip)")
            // The pin is not at the image center, so the check above is not trivially true.
            #expect(abs(tip.x - 150) > 5 && abs(tip.y - 100) > 5, "tip \(tip)")
        }
    }

    @Test("The overlays are drawn: the scene differs from the same area without features")
    func overlaysAreDrawn() throws {
        try withTemporaryDirectory { dir in
            let withFeatures = try CLI.run(["--scene", Self.scene.path, "-o", "a.png"], in: dir.url)
            let bare = try CLI.run(
                ["--center", "34.05,-118.25", "--span", "0.05,0.08", "--size", "300x200", "-o", "b.png"], in: dir.url)
            #expect(withFeatures.exitCode == 0, "\(withFeatures)")
            #expect(bare.exitCode == 0, "\(bare)")
            let a = try ImageSurface(contentsOfPNG: dir.file("a.png"))
            let b = try ImageSurface(contentsOfPNG: dir.file("b.png"))
            try #require(a.width == b.width && a.height == b.height)
            // Inside the polygon's hole, away from the line, the circle and the pin, nothing is drawn over the
            // base map; inside the polygon's ring the orange fill shows.
            let meta = try CLI.run(
                ["--scene", Self.scene.path, "-o", "c.png", "--metadata", "c.json"], in: dir.url)
            #expect(meta.exitCode == 0, "\(meta)")
            let m = try Metadata.load(dir.file("c.json"))
            func pixel(_ image: ImageSurface, _ lat: Double, _ lon: Double) -> ImageSurface.Pixel {
                let p = Mercator.imagePoint(latitude: lat, longitude: lon, in: m)
                return image.pixel(x: Int(p.x), y: Int(p.y))
            }
            // In the ring (between outer and inner boundary), far from other shapes: filled.
            #expect(pixel(a, 34.035, -118.225) != pixel(b, 34.035, -118.225), "the polygon's ring should be filled")
            // In the hole, away from the line (which runs along the diagonal) and the circle: not filled.
            #expect(
                pixel(a, 34.055, -118.2575) == pixel(b, 34.055, -118.2575), "the polygon's hole should not be filled")
        }
    }

    /// A `--size` and what the image and metadata must be.
    @Test(
        "Command-line --size and --scale override the scene's size and scale",
        arguments: [
            (["--size", "100x80"], 100, 80, 1),
            (["--size", "120x90", "--scale", "2"], 120, 90, 2),
            (["--scale", "3"], 300, 200, 3),
        ])
    func sizeOverride(arguments: [String], width: Int, height: Int, scale: Int) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["render", "--scene", Self.scene.path, "-o", "s.png", "--metadata", "s.json"] + arguments, in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let image = try ImageSurface(contentsOfPNG: dir.file("s.png"))
            #expect(image.width == width * scale && image.height == height * scale)
            let meta = try Metadata.load(dir.file("s.json"))
            #expect(meta.size.width == Double(width) && meta.size.height == Double(height))
            #expect(meta.scale == Double(scale))
            // The pin is still there, with its tip at the coordinate.
            try #require(meta.annotations.count == 1)
            let frame = meta.annotations[0].frame
            let tip = Mercator.imagePoint(
                latitude: Self.cityHall.latitude, longitude: Self.cityHall.longitude, in: meta)
            #expect(approx(frame.x + frame.width / 2, tip.x, 1e-6) && approx(frame.y + frame.height, tip.y, 1e-6))
        }
    }

    @Test("Command-line area options override the scene's area")
    func areaOverride() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                [
                    "--scene", Self.scene.path, "--center", "34.06,-118.24", "--zoom", "14", "-o", "s.png",
                    "--metadata", "s.json",
                ],
                in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let meta = try Metadata.load(dir.file("s.json"))
            #expect(meta.zoomLevel == 14)
            #expect(
                approx(meta.region.center.latitude, 34.06, 1e-9) && approx(meta.region.center.longitude, -118.24, 1e-9))
            #expect(meta.size.width == 300, "the scene's size still applies")
        }
    }

    @Test(
        "marker-size small, medium and large give 0.75x, 1x and 1.35x pins",
        arguments: [
            ("small", 16.5, 27.0), ("medium", 22.0, 36.0), ("large", 29.7, 48.6),
        ])
    func markerSize(size: String, width: Double, height: Double) throws {
        try withTemporaryDirectory { dir in
            try dir.write(
                "pin.json",
                """
                { "center": [10, 20], "zoom": 5, "size": [64, 64],
                  "features": { "type": "FeatureCollection", "features": [
                    { "type": "Feature", "geometry": { "type": "Point", "coordinates": [20.5, 10.5] },
                      "properties": { "title": "P", "marker-size": "\(size)" } } ] } }
                """)
            let result = try CLI.run(["--scene", "pin.json", "-o", "p.png", "--metadata", "p.json"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let meta = try Metadata.load(dir.file("p.json"))
            try #require(meta.annotations.count == 1)
            let frame = meta.annotations[0].frame
            #expect(approx(frame.width, width, 1e-9) && approx(frame.height, height, 1e-9), "\(frame)")
            let tip = Mercator.imagePoint(latitude: 10.5, longitude: 20.5, in: meta)
            #expect(
                approx(frame.x + frame.width / 2, tip.x, 1e-6) && approx(frame.y + frame.height, tip.y, 1e-6),
                "\(frame) \(tip)")
        }
    }

    @Test("Place names in a scene go through the geocoder: a center and a marker given by name")
    func placeNames() throws {
        try withTemporaryDirectory { dir in
            let scene = """
                {"center": "Tempe, Arizona", "zoom": 10, "size": [200, 150], "features": {"type": "FeatureCollection",
                 "features": [{"type": "Feature", "geometry": null, "properties": {"place": "Phoenix, Arizona", "title": "PHX"}}]}}
                """
            try Data(scene.utf8).write(to: dir.file("s.json"))
            let result = try CLI.run(
                ["render", "--scene", "s.json", "-o", "s.png", "--metadata", "m.json", "--no-attribution"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let meta = try Metadata.load(dir.file("m.json"))
            // Tempe 33.41 N, 111.91 W; Phoenix 33.45 N, 112.07 W (GeoNames).
            #expect(
                approx(meta.region.center.latitude, 33.41, 0.05) && approx(meta.region.center.longitude, -111.91, 0.05))
            try #require(meta.annotations.count == 1)
            #expect(meta.annotations[0].title == "PHX")
            #expect(approx(meta.annotations[0].coordinate.latitude, 33.45, 0.05))
            #expect(approx(meta.annotations[0].coordinate.longitude, -112.07, 0.05))
            // An unknown name is an error naming the member; nothing is written.
            try Data(#"{"center": "Nowhereville Qqq", "zoom": 3}"#.utf8).write(to: dir.file("bad.json"))
            let bad = try CLI.run(["render", "--scene", "bad.json", "-o", "b.png"], in: dir.url)
            #expect(
                bad.exitCode == 1 && bad.standardError.contains("center") && bad.standardError.contains("Nowhereville"))
            #expect(!FileManager.default.fileExists(atPath: dir.file("b.png").path))
        }
    }
}
