import Foundation
import MapRaster
import MapTestSupport
import Testing

/// `--poi`, `--no-buildings` and `--appearance`, and the scene file's `pointOfInterestFilter`, `showsBuildings`
/// and `appearance`, as a user runs them: each image is the library's with the same options.
@Suite("mapraster render: POI filter, buildings, appearance")
struct MapContentOptionTests {
    static let view = ["--style", "streets", "--center", "42.507,1.522", "--zoom", "17", "--size", "300x200"]

    static func labels(_ dir: TemporaryDirectory, _ name: String) throws -> Int {
        try JSONValue.parse(Data(contentsOf: dir.file(name)))["labels"]?.array?.count ?? -1
    }

    @Test("--poi excludingAll and a scene's pointOfInterestFilter draw fewer labels; both ways give the same image")
    func poi() throws {
        try withTemporaryDirectory { dir in
            var result = try CLI.run(Self.view + ["-o", "all.png", "--metadata", "all.json"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            result = try CLI.run(
                Self.view + ["--poi", "excludingAll", "-o", "none.png", "--metadata", "none.json"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(try Self.labels(dir, "none.json") < Self.labels(dir, "all.json"))
            try Data(#"{"pointOfInterestFilter": "excludingAll", "showsBuildings": true}"#.utf8).write(
                to: dir.file("scene.json"))
            result = try CLI.run(Self.view + ["--scene", "scene.json", "-o", "scene.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(try Data(contentsOf: dir.file("scene.png")) == Data(contentsOf: dir.file("none.png")))
        }
    }

    @Test("--no-buildings and --appearance dark: the library's images with showsBuildings false, streets-dark")
    func buildingsAndAppearance() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                Self.view + ["--no-buildings", "--appearance", "dark", "--no-attribution", "-o", "a.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let size = Size(width: 300, height: 200)
            var options = MapSnapshotter.Options(size: size)
            options.visibleMapRect = try MapViewport(
                size: size, center: LocationCoordinate2D(latitude: 42.507, longitude: 1.522), zoomLevel: 17
            ).visibleMapRect
            options.style = try ShippedStyle.streetsDark.style()
            options.showsBuildings = false
            options.showsAttribution = false
            let expected = try MapSnapshotter(options: options).snapshot().image.pngData()
            #expect(try Data(contentsOf: dir.file("a.png")) == expected)
        }
    }

    @Test(
        "Bad values are usage errors (scene: failures) naming what is accepted",
        arguments: [
            (["--poi", "including:pizza"], 64, "unknown category 'pizza'"),
            (["--poi", "some"], 64, "including:CATEGORY"),
            (["--appearance", "dim"], 64, "light"),
        ])
    func refused(_ arguments: [String], _ code: Int32, _ message: String) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(Self.view + ["-o", "a.png"] + arguments, in: dir.url)
            #expect(result.exitCode == code, "\(result)")
            #expect(result.standardError.contains(message), "\(result)")
        }
    }

    @Test("scene files: bad pointOfInterestFilter, showsBuildings and appearance name the member")
    func badScenes() throws {
        for (json, member) in [
            (#"{"pointOfInterestFilter": ["cafe"]}"#, "pointOfInterestFilter"),
            (#"{"pointOfInterestFilter": "including:bar"}"#, "pointOfInterestFilter"),
            (#"{"showsBuildings": "no"}"#, "showsBuildings"), (#"{"appearance": "night"}"#, "appearance"),
        ] {
            #expect(throws: SceneError.self) { try Scene.decode(Data(json.utf8), source: "s.json") }
            do { _ = try Scene.decode(Data(json.utf8), source: "s.json") } catch {
                #expect("\(error)".contains(member), "\(error)")
            }
        }
        let scene = try Scene.decode(
            Data(#"{"pointOfInterestFilter": "including:cafe", "showsBuildings": false, "appearance": "dark"}"#.utf8),
            source: "s.json")
        let options = try scene.options(defaults: MapSnapshotter.Options(size: Size(width: 10, height: 10)))
        #expect(options.pointOfInterestFilter == PointOfInterestFilter(including: [.cafe]))
        #expect(options.showsBuildings == false && options.userInterfaceStyle == .dark)
    }
}
