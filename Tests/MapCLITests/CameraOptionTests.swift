import Foundation
import MapRaster
import MapTestSupport
import Testing

/// `--heading`/`--bearing` and `--pitch`, scene cameras and a style's root bearing, as a user runs them.
@Suite("mapraster render: the camera")
struct CameraOptionTests {
    struct CameraMetadata: Decodable {
        struct Camera: Decodable {
            var heading: Double
            var pitch: Double
            var centerCoordinateDistance: Double
            var altitude: Double
        }
        var camera: Camera
        var zoomLevel: Double
    }

    static func camera(_ dir: TemporaryDirectory) throws -> CameraMetadata {
        try JSONDecoder().decode(CameraMetadata.self, from: Data(contentsOf: dir.file("a.json")))
    }

    @Test("--heading (and its alias --bearing) and --pitch reach the metadata; the zoom stays exact")
    func flags() throws {
        for flag in ["--heading", "--bearing"] {
            try withTemporaryDirectory { dir in
                let result = try CLI.run(
                    [
                        "--center", "60.17,24.94", "--zoom", "12", flag, "-30", "--pitch", "45", "--size", "64x48",
                        "-o", "a.png", "--metadata", "a.json",
                    ], in: dir.url)
                #expect(result.exitCode == 0, "\(result)")
                let meta = try Self.camera(dir)
                #expect(meta.camera.heading == 330 && meta.camera.pitch == 45)
                #expect(meta.zoomLevel == 12)
                // 1.5 view heights x metres per point at 60.17 N, zoom 12 (MapLibre's camera distance).
                let expected = 1.5 * 48 * 2 * Double.pi * 6_378_137 * cos(60.17 * .pi / 180) / (256 * 4096)
                #expect(abs(meta.camera.centerCoordinateDistance - expected) < 1e-6)
                #expect(abs(meta.camera.altitude - expected * cos(Double.pi / 4)) < 1e-6)
            }
        }
    }

    @Test(
        "Bad headings and pitches are usage errors naming the range",
        arguments: [
            (["--heading", "nan"], "not a finite number"), (["--pitch", "61"], "0...60"),
            (["--pitch", "-1"], "0...60"),
            (["--bearing", "inf"], "not a finite number"),
        ])
    func refused(_ arguments: [String], _ message: String) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["--center", "0,0", "--zoom", "2", "-o", "a.png"] + arguments, in: dir.url)
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.standardError.contains(message), "\(result)")
            #expect(try dir.listing().isEmpty)
        }
    }

    @Test("A scene's camera: heading and pitch, altitude instead of a zoom; the command line wins")
    func sceneCamera() throws {
        try withTemporaryDirectory { dir in
            let scene = #"{"center": [43.7384, 7.4246], "camera": {"heading": 90, "pitch": 30, "altitude": 1000}}"#
            try Data(scene.utf8).write(to: dir.file("s.json"))
            var result = try CLI.run(
                ["--scene", "s.json", "--size", "64x64", "-o", "a.png", "--metadata", "a.json"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            var meta = try Self.camera(dir)
            #expect(meta.camera.heading == 90 && meta.camera.pitch == 30)
            #expect(abs(meta.camera.altitude - 1000) < 1e-6)
            result = try CLI.run(
                ["--scene", "s.json", "--heading", "10", "--size", "64x64", "-o", "a.png", "--metadata", "a.json"],
                in: dir.url)
            meta = try Self.camera(dir)
            #expect(meta.camera.heading == 10 && meta.camera.pitch == 30)
            let bad = #"{"center": [0, 0], "zoom": 3, "camera": {"altitude": 1000}}"#
            try Data(bad.utf8).write(to: dir.file("b.json"))
            result = try CLI.run(["--scene", "b.json", "-o", "b.png"], in: dir.url)
            #expect(result.exitCode != 0 && result.standardError.contains("camera.altitude"), "\(result)")
        }
    }

    @Test("A style's root bearing and pitch apply when nothing else says; tiles says it draws north up")
    func styleRoot() throws {
        try withTemporaryDirectory { dir in
            let style =
                ##"{"version": 8, "bearing": -20, "pitch": 10, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#abc"}}]}"##
            try Data(style.utf8).write(to: dir.file("style.json"))
            var result = try CLI.run(
                [
                    "--style", "style.json", "--center", "0,0", "--zoom", "3", "--size", "32x32", "-o", "a.png",
                    "--metadata", "a.json",
                ], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            var meta = try Self.camera(dir)
            #expect(meta.camera.heading == 340 && meta.camera.pitch == 10)
            result = try CLI.run(
                [
                    "--style", "style.json", "--center", "0,0", "--zoom", "3", "--pitch", "0", "--size", "32x32",
                    "-o", "a.png", "--metadata", "a.json",
                ], in: dir.url)
            meta = try Self.camera(dir)
            #expect(meta.camera.heading == 340 && meta.camera.pitch == 0)
            result = try CLI.run(["tiles", "--style", "style.json", "--zoom", "0", "-o", "t"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardError.contains("north up"), "\(result)")
        }
    }
}
