import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("The iCodeBlog seed: 15 annotations of three types with image markers")
struct AnnotationSeedTests {
    @Test("the marker images are the committed PNGs of the drawing code", arguments: SeedAnnotation.Kind.allCases)
    func icons(kind: SeedAnnotation.Kind) throws {
        let drawn = try SeedIcons.draw(kind)
        if ProcessInfo.processInfo.environment["MAPRASTER_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(
                at: Fixtures.url("annotations/icons"), withIntermediateDirectories: true)
            try drawn.writePNG(to: URL(fileURLWithPath: SeedIcons.path(kind)))
        }
        let loaded = try SeedIcons.load(kind)
        #expect(loaded.width == 66 && loaded.height == 66)
        #expect(loaded.rgbaBytes() == drawn.rgbaBytes())
    }

    /// The golden case's snapshotter with the seed's 15 annotations and their image views.
    func snapshotter(_ golden: GoldenCase) throws -> MapSnapshotter {
        let snapshotter = try golden.snapshotter()
        snapshotter.addAnnotations(SeedAnnotation.all())
        snapshotter.viewProvider = try SeedIcons.provider()
        return snapshotter
    }

    @Test("world view: all 15 markers at their coordinates, southern ones in front")
    func world() throws {
        let golden = try GoldenCase.load("annotations/icodeblog-world")
        let snapshotter = try snapshotter(golden)
        let snapshot = try snapshotter.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        #expect(snapshot.annotations.count == 15)
        for placed in snapshot.annotations {
            let p = snapshot.viewport.point(for: placed.annotation.coordinate)
            // The seed's views are centered on the coordinate (no centerOffset): 37x40 around it.
            #expect(abs(placed.frame.midX - p.x) < 1e-9 && abs(placed.frame.midY - p.y) < 1e-9)
            #expect(placed.frame.width == 37 && placed.frame.height == 40)
            #expect(placed.visibility == .visible)
        }
        // Drawn north to south: the listed order has increasing y.
        let ys = snapshot.annotations.map(\.frame.midY)
        #expect(ys == ys.sorted())
        // One bitmap per type, reused for the other 12.
        #expect(snapshotter.annotationViewBitmapCounts.drawn == 3)
        #expect(snapshotter.annotationViewBitmapCounts.reused == 12)
    }

    @Test("zoom on the US south-west: tacos in San Diego and Tucson, schools in Tempe and Albuquerque")
    func southWest() throws {
        let golden = try GoldenCase.load("annotations/icodeblog-southwest")
        let snapshot = try snapshotter(golden).snapshot()
        #expect(golden.check(snapshot.image) == nil)
        let bounds = Rect(origin: Point(x: 0, y: 0), size: golden.pointSize)
        let inside = snapshot.annotations.filter { bounds.intersects($0.frame) }.compactMap(\.annotation.title)
        #expect(
            Set(inside) == [
                "Nico's Taco Shop", "Lucha Libre Gourmet", "El Ranchero Taco Shop", "Arizona State University",
                "University of New Mexico",
            ])
    }

    @Test("metadata frames agree with the viewport's conversions")
    func metadataFrames() throws {
        var options = MapSnapshotter.Options(size: Size(width: 500, height: 400), scale: 1)
        options.region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 40, longitude: -100),
            span: CoordinateSpan(latitudeDelta: 30, longitudeDelta: 60))
        let snapshotter = try MapSnapshotter(options: options).pinnedToPlainBaseMap()
        snapshotter.addAnnotations(SeedAnnotation.all())
        snapshotter.viewProvider = try SeedIcons.provider()
        let snapshot = try snapshotter.snapshot()
        let json = snapshot.metadata()
        let list = try #require(json["annotations"]?.array)
        #expect(list.count == 15)
        let viewport = try MapViewport(size: Size(width: 500, height: 400), scale: 1, region: options.region!)
        for entry in list {
            let lat = try #require(entry["coordinate"]?["latitude"]?.number)
            let lon = try #require(entry["coordinate"]?["longitude"]?.number)
            // An independent route: map point of the coordinate, minus the rect origin, over map points per point.
            var mp = MapPoint(LocationCoordinate2D(latitude: lat, longitude: lon))
            let rect = viewport.visibleMapRect
            // The copy of the world nearest the center (Tokyo and India sit west of the Americas here).
            mp.x += ((rect.midX - mp.x) / WebMercator.worldSize).rounded() * WebMercator.worldSize
            let perPoint = rect.width / 500
            let px = (mp.x - rect.minX) / perPoint
            let py = (mp.y - rect.minY) / perPoint
            let x = try #require(entry["frame"]?["x"]?.number)
            let y = try #require(entry["frame"]?["y"]?.number)
            #expect(abs(x - (px - 18.5)) < 1e-6 && abs(y - (py - 20)) < 1e-6, "\(entry)")
            // And back: the frame's center converts to the coordinate.
            let back = viewport.coordinate(for: Point(x: x + 18.5, y: y + 20))
            #expect(abs(back.latitude - lat) < 1e-9 && abs(back.longitude - lon) < 1e-9)
            #expect(entry["state"]?.string == "visible")
        }
    }
}
