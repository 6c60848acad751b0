import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("The geometry pipeline at street zoom: huge shapes clipped exactly")
struct OverlayPipelineTests {
    static let center = coord(60.17, 24.94)

    @Test("a continent-sized polygon edge, a world-long dashed line and a 3,000 km circle's edge at zoom 17")
    func streetZoom() throws {
        let golden = try GoldenCase.load("overlays/pipeline-street-zoom")
        let center = try #require(golden.centerCoordinate)
        // A triangle thousands of km across whose west edge is the meridian 24.9392 (45 m west of the
        // view's center).
        let triangle = Polygon(coordinates: try golden.list("triangle", of: LocationCoordinate2D.self))
        // A dashed line from 10 W to 60 E through the view's center.
        let line = Polyline(coordinates: try golden.list("line", of: LocationCoordinate2D.self))
        // A circle whose center is 3,000 km away; its outline passes 60 m west of the view's center.
        let radius = try golden.number("circleRadius")
        let offset = try golden.number("circleOffset")
        let circleCenter = WebMercator.destination(from: center, bearing: 270, meters: radius + offset)
        let circle = Circle(center: circleCenter, radius: radius)
        let snapshot = try overlaySnapshot(
            golden, overlays: [triangle, line, circle],
            provider: { overlay in
                switch overlay {
                case let p as Polygon:
                    let r = PolygonRenderer(polygon: p)
                    r.fillColor = Color(red8: 40, green8: 160, blue8: 80, alpha: 0.5)
                    r.strokeColor = Color(red8: 20, green8: 90, blue8: 40)
                    r.lineWidth = 4
                    return r
                case let l as Polyline:
                    let r = PolylineRenderer(polyline: l)
                    r.lineDashPattern = [20, 10]
                    r.lineCap = .butt
                    return r
                case let c as Circle:
                    let r = CircleRenderer(circle: c)
                    r.fillColor = Color(red8: 200, green8: 40, blue8: 40, alpha: 0.3)
                    r.strokeColor = Color(red8: 200, green8: 40, blue8: 40)
                    r.lineWidth = 3
                    return r
                default: return nil
                }
            })
        #expect(snapshot.viewport.zoomLevel > 16.5)
        #expect(golden.check(snapshot.image) == nil)
        // The circle's outline is 60 m west of the center: the center is outside it (only the triangle's
        // green), 100 m west is inside (only the circle's red).
        let outside = pixel(snapshot, coord(60.1706, 24.94))
        let inside = pixel(snapshot, WebMercator.destination(from: coord(60.1706, 24.94), bearing: 270, meters: 100))
        #expect(inside.red > inside.green && inside.alpha > 60, "inside \(inside)")
        #expect(outside.green > outside.red, "outside \(outside)")
        // The circle's outline on the center row is where spherical geometry puts it, within 0.3 points.
        let expectedX = snapshot.point(for: WebMercator.destination(from: center, bearing: 270, meters: offset)).x
        let strokeColumns = (0..<400).filter { x in
            let p = snapshot.image.pixel(x: x, y: 150)
            return p.red > 150 && p.green < 110 && p.alpha > 200
        }
        let strokeCenter = Double(strokeColumns.reduce(0, +)) / Double(max(1, strokeColumns.count)) + 0.5
        #expect(!strokeColumns.isEmpty && abs(strokeCenter - expectedX) < 0.3, "\(strokeColumns) vs \(expectedX)")
    }

    /// The work is bounded by counts the pipeline reports, not by the clock: one world copy meets the view,
    /// and what reaches Cairo is the part inside the view, simplified to a budget per image column.
    @Test("a 200,000-point line: one world copy drawn, Cairo gets a bounded number of points, all in the view")
    func manyPoints() throws {
        let n = 200_000
        let line = Polyline(
            coordinates: (0..<n).map { i in
                let t = Double(i) / Double(n - 1)
                return coord(60.17 + 0.0004 * sin(t * 3000), 24.90 + 0.08 * t)
            })
        let region = CoordinateRegion(center: Self.center, latitudinalMeters: 1_000, longitudinalMeters: 1_000)
        let snapshot = try overlaySnapshot(
            size: Size(width: 300, height: 300), region: region, baseMap: false, overlays: [line])
        // The line crosses the view from west to east near the middle.
        var hits = 0
        for x in stride(from: 5, to: 295, by: 10) {
            if (0..<300).contains(where: { snapshot.image.pixel(x: x, y: $0).alpha > 0 }) { hits += 1 }
        }
        #expect(hits == 29)
        // The pipeline the renderer runs (margin for the 3-point stroke, 1/8 device pixel tolerance).
        let pipeline = GeometryPipeline(
            viewport: snapshot.viewport, margin: PolylineRenderer(polyline: line).marginInPoints + 2, tolerance: 0.125)
        #expect(pipeline.worldOffsets(for: line.boundingMapRect) == [0])
        let prepared = pipeline.prepare(ShapeGeometry(parts: [.line(line.points)]), fills: false, strokes: true)
        let drawn = prepared.strokes.reduce(0) { $0 + $1.points.count }
        // About 45,000 input points lie in the view (1 km of the line's 4.4 km); simplified, Cairo gets a few per
        // image column (682 today; the budget is 4 per column).
        let inView = line.points.filter { pipeline.clipMapRect.contains($0) }.count
        #expect(inView > 40_000, "\(inView) points in the view")
        #expect(drawn > 0 && drawn <= 300 * 4, "\(drawn) points drawn of \(inView) in the view")
        let outside = prepared.strokes.flatMap(\.points).filter { !pipeline.clipRect.contains($0) }
        #expect(outside.isEmpty, "\(outside.count) points drawn outside the clip rect")
    }
}
