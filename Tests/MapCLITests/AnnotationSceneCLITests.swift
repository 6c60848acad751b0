import Foundation
import MapRaster
import MapTestSupport
import Testing

/// `mapraster render` with a scene of image markers, a selection, priorities, a user location and fitting.
@Suite("mapraster render: annotation scenes")
struct AnnotationSceneCLITests {
    @Test("the US south-west scene renders without a base map; the metadata lists states and the callout")
    func southWest() throws {
        let scene = Fixtures.url("annotations/southwest-scene.json").path
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["render", "--scene", scene, "--no-base-map", "-o", "s.png", "--metadata", "s.json"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let image = try ImageSurface(contentsOfPNG: dir.file("s.png"))
            #expect(image.width == 480 && image.height == 320)
            // No base map: the corners are transparent.
            #expect(image.pixel(x: 0, y: 0).alpha == 0)
            let json = try JSONValue.parse(try Data(contentsOf: dir.file("s.json")))
            let list = try #require(json["annotations"]?.array)
            #expect(list.count == 7)
            let states = Dictionary(
                list.map { ($0["title"]?.string ?? "?", $0["state"]?.string ?? "?") }, uniquingKeysWith: { a, _ in a })
            #expect(states["Arizona State University"] == "visible")
            #expect(states["Phoenix"] == "hidden")
            #expect(states["My Location"] == "visible")
            let asu = try #require(list.first { $0["title"]?.string == "Arizona State University" })
            #expect(asu["selected"]?.bool == true)
            #expect(asu["callout"]?["width"]?.number ?? 0 > 100)
            #expect(json["clusters"]?.array?.isEmpty == true)
        }
    }

    @Test("a scene whose marker image is missing fails naming the feature")
    func missingImage() throws {
        try withTemporaryDirectory { dir in
            let text = """
                {"features": {"type": "FeatureCollection", "features": [{"type": "Feature",
                  "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"marker-image": "nope.png"}}]}}
                """
            try Data(text.utf8).write(to: dir.file("scene.json"))
            let result = try CLI.run(["render", "--scene", "scene.json", "-o", "s.png"], in: dir.url)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.standardError.contains("features.features[0].properties.marker-image"), "\(result)")
            #expect(result.standardError.contains("nope.png': no such file"), "\(result)")
            #expect(try dir.listing() == ["scene.json"])
        }
    }
}
