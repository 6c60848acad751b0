import Foundation
import MapGeometry
import MapRaster
import MapTestSupport
import Testing

@testable import MapBaseMap

/// Fill and line buckets made on a second thread while earlier layers are drawn (``BucketPipeline``): the
/// same bytes as buckets made inline, errors thrown as inline, the helper joined and its lead bounded.
/// Truth is the one-thread render of the same view (``DrawingThreads/forced`` picks the way).
@Suite("Bucket pipeline: buckets made on a second thread draw the same image")
struct BucketPipelineTests {
    static func render(
        _ style: Style, center: LocationCoordinate2D, zoom: Double, size: Size, pitch: Double = 0,
        heading: Double = 0, helper: Bool
    ) throws -> Data {
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: zoom).visibleMapRect
        if pitch != 0 || heading != 0 {
            options.camera = try MapCamera(
                lookingAtCenter: center,
                fromDistance: MapCamera.distance(forZoomLevel: zoom, latitude: center.latitude, height: size.height),
                pitch: pitch, heading: heading)
        }
        options.style = style
        return try DrawingThreads.$forced.withValue(helper) {
            try MapSnapshotter(options: options).snapshot().image.pngData()
        }
    }

    static let monaco = LocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)

    @Test(
        "the shipped styles over Monaco, north up and tilted: byte-identical with and without the helper",
        arguments: [(ShippedStyle.streets, 0.0, 0.0), (.streets, 55, 30), (.standard, 0, 0)])
    func sameBytes(style: ShippedStyle, pitch: Double, heading: Double) throws {
        let style = try style.style()
        let size = Size(width: 500, height: 200)
        let inline = try Self.render(
            style, center: Self.monaco, zoom: 16, size: size, pitch: pitch, heading: heading, helper: false)
        for _ in 0..<2 {
            let pipelined = try Self.render(
                style, center: Self.monaco, zoom: 16, size: size, pitch: pitch, heading: heading, helper: true)
            #expect(pipelined == inline)
        }
    }

    @Test("a strict style whose line source is not GeoJSON: the render throws with and without the helper")
    func errorsThrown() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bucket-pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"type": "FeatureCollection", "features": 3}"#.utf8).write(
            to: directory.appendingPathComponent("bad.geojson"))
        let line =
            #"{"type": "Feature", "properties": {}, "#
            + #""geometry": {"type": "LineString", "coordinates": [[-5, 0], [5, 0]]}}"#
        let layers = (0..<6).map { i in
            #"{"id": "l\#(i)", "type": "line", "source": "\#(i == 4 ? "bad" : "good")", "paint": {"line-width": 3}}"#
        }
        let text =
            #"{"version": 8, "sources": {"good": {"type": "geojson", "#
            + #""data": {"type": "FeatureCollection", "features": [\#(line)]}}, "#
            + #""bad": {"type": "geojson", "data": "bad.geojson"}}, "layers": [\#(layers.joined(separator: ", "))]}"#
        let style = try Style.decode(
            Data(text.utf8), source: "test", baseURL: directory, options: StyleLoadOptions(strict: true))
        for helper in [false, true] {
            #expect(throws: (any Error).self) {
                try Self.render(
                    style, center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 4,
                    size: Size(width: 100, height: 100), helper: helper)
            }
        }
    }

    @Test("limited to one drawing thread (`tiles --threads 1`), a render takes no helper")
    func limitedThreads() {
        DrawingThreads.limit(to: 1)
        defer { DrawingThreads.limit(to: 0) }
        let helper = DrawingThreads.$forced.withValue(nil) { DrawingThreads.enter() }
        DrawingThreads.leave(helper: helper)
        #expect(!helper)
    }

    @Test("the helper runs at most its byte bound ahead, and stops when the drawing thread finishes early")
    func boundedLead() throws {
        let state = Locked((made: 0, taken: 0, lead: 0))
        // 8 buckets of an eighth of the bound each: at most 8 made and not taken.
        let weight = BucketPipeline<Int>.bytesAhead / 8
        let pipeline = BucketPipeline<Int>(
            indices: Array(0..<200),
            make: { i in
                state.withLock { s in
                    s.made += 1
                    s.lead = max(s.lead, s.made - s.taken)
                }
                return i
            }, weigh: { _ in weight })
        for i in 0..<50 {
            #expect(try pipeline.take(i) == i)
            state.withLock { $0.taken += 1 }
        }
        pipeline.finish()
        let final = state.withLock { $0 }
        #expect(final.lead <= 9)
        #expect(final.made < 200)
    }
}
