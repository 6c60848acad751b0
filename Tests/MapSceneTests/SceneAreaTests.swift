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

    @Test("a scene's fitAnnotations fits its lines and polygons too, not only its pins (issue 13)")
    func fitAnnotationsFitsShapes() throws {
        let data = Data(
            #"""
            {"size": [400, 300], "fitAnnotations": {"padding": 10},
             "features": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"title": "Start"}, "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}},
              {"type": "Feature", "properties": {"stroke": "#d00"}, "geometry": {"type": "LineString",
               "coordinates": [[2.35, 48.85], [4.83, 45.76], [5.37, 43.30]]}}]}}
            """#.utf8)
        let scene = try Scene.decode(data, source: "route.json")
        var options = try scene.options(defaults: MapSnapshotter.Options(size: Size(width: 400, height: 300)))
        options.showsAttribution = false
        let snapshotter = try MapSnapshotter(options: options)
        scene.populate(snapshotter)
        let viewport = try snapshotter.snapshot().viewport
        // Marseille, the route's far end, is inside the image, 10 points or more from its edges.
        let end = viewport.point(for: MapPoint(LocationCoordinate2D(latitude: 43.30, longitude: 5.37)))
        #expect(end.x >= 10 - 1e-6 && end.x <= 390 + 1e-6 && end.y >= 10 - 1e-6 && end.y <= 290 + 1e-6, "\(end)")
    }
}
