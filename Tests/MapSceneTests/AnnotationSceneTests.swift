import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Scene files: image markers, selection, priorities, clustering, user location, fitting")
struct AnnotationSceneTests {
    static let path = Fixtures.url("annotations/southwest-scene.json").path

    func render(_ scene: Scene) throws -> (MapSnapshotter, Snapshot) {
        let s = try MapSnapshotter(
            options: try scene.options(defaults: MapSnapshotter.Options(size: Size(width: 480, height: 320)))
        )
        .pinnedToPlainBaseMap()
        scene.populate(s)
        return (s, try s.snapshot())
    }

    @Test("the US south-west scene: image markers fitted with padding, a callout, a user location")
    func southWest() throws {
        let scene = try Scene.decode(try Data(contentsOf: URL(fileURLWithPath: Self.path)), source: Self.path)
        #expect(scene.annotations.count == 6)
        #expect(scene.markerImages.count == 2)
        #expect(scene.fitAnnotations == EdgeInsets(top: 10, left: 10, bottom: 10, right: 10))
        #expect(scene.userLocation?.horizontalAccuracy == 15000)
        // The golden case names the same scene file: the CLI (`mapraster render --scene`) and the case share it.
        let golden = try GoldenCase.load("annotations/scene-southwest")
        #expect(golden.url(try #require(golden.scene)).path == Self.path)
        let s = try golden.snapshotter()
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        #expect(s.selectedAnnotations.first?.title == "Arizona State University")
        #expect(s.isUserLocationVisible)
        // Image markers: 66x66 pixels at scale 2 in the file: 33x33 points.
        let asu = try #require(snapshot.annotations.first { $0.annotation.title == "Arizona State University" })
        #expect(asu.frame.width == 33 && asu.frame.height == 33)
        #expect(asu.isSelected && asu.calloutFrame != nil)
        #expect(s.view(for: asu.annotation).rightCalloutAccessoryImage != nil)
        // Fitted: every view and the callout inside the padded image, one axis touching the padding.
        var frames = snapshot.annotations.filter { !($0.annotation is UserLocation) }.map(\.frame)
        frames.append(asu.calloutFrame!)
        let minX = frames.map(\.minX).min()!
        let maxX = frames.map(\.maxX).max()!
        let minY = frames.map(\.minY).min()!
        let maxY = frames.map(\.maxY).max()!
        #expect(minX >= 10 - 1e-6 && maxX <= 470 + 1e-6 && minY >= 10 - 1e-6 && maxY <= 310 + 1e-6)
        #expect((abs(minX - 10) < 1e-6 && abs(maxX - 470) < 1e-6) || (abs(minY - 10) < 1e-6 && abs(maxY - 310) < 1e-6))
        let json = snapshot.metadata()
        #expect(json["annotations"]?.array?.count == 7)
    }

    @Test(
        "decoding errors name the feature and the property",
        arguments: [
            (
                #"{"marker-image": "icons/NoSuch.png"}"#,
                "features.features[0].properties.marker-image: annotation image '"
            ),
            (#"{"marker-image": "not-a-png.png"}"#, "not a PNG"),
            (
                #"{"pin-color": "blue"}"#,
                "properties.pin-color: unknown pin color 'blue'; expected one of red, green, purple"
            ),
            (
                #"{"title": "Taco", "pin-color": "blue"}"#,
                "properties.pin-color: annotation 'Taco': unknown pin color 'blue'; expected one of red, green, purple"
            ),
            (
                #"{"title": "Nico's", "marker-image": "none.png"}"#,
                "features.features[0].properties.marker-image: annotation 'Nico's': annotation image '"
            ),
            (
                #"{"display-priority": 1001}"#,
                "properties.display-priority: expected \"required\", \"high\", \"low\" or a number in 0...1000, got 1001"
            ),
            (
                #"{"collision-mode": "square"}"#,
                "properties.collision-mode: expected \"rectangle\", \"circle\" or \"none\""
            ),
            (#"{"selected": "yes"}"#, "properties.selected: must be true or false"),
            (#"{"callout-left-image": "x.png"}"#, "properties.callout-left-image: annotation image '"),
            (
                #"{"clustering-identifier": 3}"#,
                "properties.clustering-identifier: expected a non-empty string, got a number"
            ),
        ])
    func featureErrors(properties: String, message: String) throws {
        let text = """
            {"features": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": \(properties)}]}}
            """
        let source = Fixtures.url("annotations/test.json").path
        let error = try #require(throws: SceneError.self) { try Scene.decode(Data(text.utf8), source: source) }
        #expect(error.description.contains(message), "\(error)")
        #expect(error.description.hasPrefix(source))
    }

    @Test(
        "top-level errors",
        arguments: [
            (#""userLocation": {"coordinate": [95, 0]}"#, "userLocation.coordinate: "),
            (
                #""userLocation": {"coordinate": [1, 0], "accuracy": -5}"#,
                "userLocation.accuracy: expected meters >= 0, got -5"
            ),
            (#""userLocation": {"coordinate": [1, 0], "tracking": "chase"}"#, "userLocation.tracking: expected"),
            (#""fitAnnotations": "yes""#, "fitAnnotations: expected true, false, or"),
            (#""fitAnnotations": {"padding": -3}"#, "fitAnnotations.padding: each side must be"),
        ])
    func topLevelErrors(member: String, message: String) throws {
        let text = "{\(member)}"
        let error = try #require(throws: SceneError.self) { try Scene.decode(Data(text.utf8), source: "t.json") }
        #expect(error.description.hasPrefix("t.json: \(message)"), "\(error)")
    }

    @Test("clustering identifiers, priorities and tracking from a scene")
    func clusteringAndTracking() throws {
        let text = """
            {"center": [60.17, 24.94], "zoom": 3, "size": [300, 200],
             "userLocation": {"coordinate": [60.17, 24.94], "accuracy": 20, "tracking": "follow"},
             "features": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": [[24.9, 60.1], [24.95, 60.2], [25, 60.15]]},
               "properties": {"clustering-identifier": "shops", "collision-mode": "circle"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.94, 60.17]},
               "properties": {"display-priority": "low", "title": "hidden by the cluster? no: follow zooms in"}}]}}
            """
        let scene = try Scene.decode(Data(text.utf8), source: "t.json")
        #expect(scene.annotations.map(\.pin.marker.clusteringIdentifier) == ["shops", "shops", "shops", nil])
        #expect(scene.annotations[3].pin.marker.displayPriority == .defaultLow)
        let (s, snapshot) = try render(scene)
        // Following the user from zoom 3 zooms in to a 1 km square around them.
        #expect(s.viewport.zoomLevel > 10)
        #expect(abs(s.viewport.centerCoordinate.latitude - 60.17) < 1e-9)
        #expect(snapshot.annotations.count == 5)
    }
}
