import Foundation
import MapRaster
import MapTestSupport
import Testing

/// Maps seen from a camera: turned (a route map facing the direction of travel) and tilted (Monaco's buildings
/// in 3D), as goldens looked at, and what MapKit promises of annotations under a heading.
@Suite("The camera: turned and tilted maps")
struct CameraGoldenTests {
    @Test("golden: a route map turned to its direction of travel (heading 35), pins upright, a callout")
    func routeHeading() throws {
        let (_, snapshot, failure) = try GoldenCase.check("camera/route-heading")
        #expect(failure == nil, "\(failure ?? "")")
        #expect(snapshot.viewport.heading == 35)
        // MapKit: annotation views stay upright at their projected points: each pin's frame is the unturned
        // pin image placed by its anchor over the coordinate's image point.
        for placed in snapshot.annotations where placed.visibility == .visible {
            let p = snapshot.viewport.point(for: placed.annotation.coordinate)
            #expect(placed.frame.minX < p.x && placed.frame.maxX > p.x, "pin centred over its point")
            #expect(abs(placed.frame.maxY - p.y) < placed.frame.height, "pin standing on its point")
        }
        #expect(snapshot.annotations.contains { $0.calloutFrame != nil }, "the selected pin shows its callout")
    }

    @Test("golden: Monaco at zoom 17 from heading 30, pitch 60, maptiler-3d's buildings in 3D")
    func monaco3D() throws {
        let golden = try GoldenCase.load("camera/monaco-3d-pitch")
        let tiles = Fixtures.packageRoot.appendingPathComponent(
            "Sources/MapBaseMap/Resources/vectortiles/osm-omt.mbtiles")
        // The published style (its source a MapTiler URL) over the shipped OpenMapTiles-schema tiles.
        let style = try Style.load(
            contentsOf: Fixtures.url("styles/openmaptiles/maptiler-3d/style.json"),
            options: StyleLoadOptions(sources: ["openmaptiles": tiles.path]))
        let snapshotter = try golden.snapshotter { options in options.style = style }
        #expect(snapshotter.viewport.pitch == 60 && snapshotter.viewport.heading == 30)
        let snapshot = try snapshotter.snapshot()
        let failure = golden.check(snapshot.image)
        #expect(failure == nil, "\(failure ?? "")")
    }
}
