import Foundation
import MapRaster
import Testing

@Suite("Scene areas are range-checked where they enter")
struct SceneAreaTests {
    @Test("a span of 5e-324 degrees is refused naming the span and the minimum, not drawn as the world")
    func tinySpan() {
        let data = Data(#"{"center": [0, 0], "span": [5e-324, 5e-324]}"#.utf8)
        do {
            _ = try Scene.decode(data, source: "s.json")
            Issue.record("accepted a span of 5e-324")
        } catch {
            #expect("\(error)".contains("s.json: span") && "\(error)".contains("0.000001"), "\(error)")
        }
        #expect(
            (try? Scene.decode(Data(#"{"center": [0, 0], "span": [0.000001, 0.000001]}"#.utf8), source: "s")) != nil)
    }

    @Test("fitting a user location with 1 km accuracy shows the whole accuracy circle, not a refused view size")
    func fitUserLocation() throws {
        let data = Data(
            #"""
            {"size": [400, 300], "userLocation": {"coordinate": [60.17, 24.94], "accuracy": 1000},
             "fitAnnotations": {"padding": 20}}
            """#.utf8)
        let scene = try Scene.decode(data, source: "s.json")
        var options = try scene.options(defaults: MapSnapshotter.Options(size: Size(width: 400, height: 300)))
        options.showsAttribution = false
        let snapshotter = try MapSnapshotter(options: options)
        scene.populate(snapshotter)
        let snapshot = try snapshotter.snapshot()
        // The circle's 2 km diameter fits in the 260 points left between the paddings, and nearly fills them.
        let metersPerPoint = snapshot.viewport.mapPointsPerPoint / MapPoint.pointsPerMeter(atLatitude: 60.17)
        #expect(2000 / metersPerPoint <= 260 + 1e-6 && 2000 / metersPerPoint > 240, "\(2000 / metersPerPoint)")
    }
}
