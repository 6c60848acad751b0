import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Static-map grammar rendered: labelled pins, encoded paths, implicit positioning")
struct StaticMapRenderTests {
    @Test("labelled pins A-Z and 1-9 in Google's sizes (tiny, small, mid, normal), dark and light heads")
    func labelledPins() throws {
        let golden = try GoldenCase.load("staticmaps/labelled-pins")
        let s = try golden.snapshotter()
        // One row of pins a size, one column a label; the colors cycle along each row.
        let labels = Array(try #require(golden.value("labels").string)).map(String.init)
        let colors = try golden.value("colors").array?.compactMap(\.string) ?? []
        let sizes = try golden.value("sizes").array?.compactMap(\.string) ?? []
        let first = try golden.value("first", as: Point.self)
        let step = try golden.value("step", as: Point.self)
        var markers: [String] = []
        for (row, size) in sizes.enumerated() {
            for (column, label) in labels.enumerated() {
                let c = s.viewport.coordinate(
                    for: Point(x: first.x + Double(column) * step.x, y: first.y + Double(row) * step.y))
                let color = colors[column % colors.count]
                markers.append(
                    "\(size)color:\(color)|label:\(label)|"
                        + String(format: "%.9f,%.9f", c.latitude, c.longitude))
            }
        }
        var scene = Scene()
        try StaticMapParameters(markers: markers).add(to: &scene)
        #expect(scene.annotations.count == labels.count * sizes.count)
        scene.populate(s)
        let snapshot = try s.snapshot()
        #expect(snapshot.annotations.count == 140)
        // Sizes follow Google's order: tiny < small < mid < normal.
        let heights = Dictionary(grouping: snapshot.annotations.map(\.frame.height), by: { $0 }).keys.sorted()
        #expect(heights == [0.55, 0.7, 0.85, 1].map { $0 * PinAnnotationView.standardSize.height })
        // The labels are drawn: a labelled pin differs from the plain pin of its color.
        let plain = PinAnnotationView(pinTintColor: Color(red8: 255, green8: 0, blue8: 0))
        let labelled = PinAnnotationView(pinTintColor: Color(red8: 255, green8: 0, blue8: 0))
        labelled.glyphText = "A"
        #expect(plain.reuseContentKey != labelled.reuseContentKey)
        #expect(golden.check(snapshot.image) == nil)
    }

    func render(paths: [String], _ golden: GoldenCase) throws -> (png: Data, image: ImageSurface) {
        let s = try golden.snapshotter()
        var scene = Scene()
        try StaticMapParameters(paths: paths, syntax: .google).add(to: &scene)
        scene.populate(s)
        let image = try s.snapshot().image
        return (try image.pngData(), image)
    }

    @Test("a Google path given as an encoded polyline renders byte-identical to the same path given as points")
    func encodedEqualsPoints() throws {
        let golden = try GoldenCase.load("staticmaps/encoded-path")
        let encoded = try render(paths: [try #require(golden.value("encoded").string)], golden)
        let points = try render(paths: [try #require(golden.value("points").string)], golden)
        #expect(encoded.png == points.png)
        #expect(golden.check(encoded.image) == nil)
    }

    @Test("no area: the map fits lines, a polygon and a circle with padding (implicit positioning)")
    func autoFit() throws {
        // The scene of `fixtures/scenes/france-autofit.json` (`mapraster render --scene ... --padding 20`).
        let golden = try GoldenCase.load("staticmaps/autofit-shapes")
        let scene = try #require(try golden.loadScene())
        #expect(scene.positionsFromContent)
        let padding = try #require(golden.padding)
        let s = try golden.snapshotter()
        // Truth from the shapes themselves: the union of their bounding rects, widened by half their line
        // widths, fills the padded image on one axis and fits inside it on the other.
        let v = s.viewport
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (overlay, style) in scene.overlays {
            let r = overlay.boundingMapRect
            let a = v.point(for: MapPoint(x: r.minX, y: r.minY))
            let b = v.point(for: MapPoint(x: r.maxX, y: r.maxY))
            minX = min(minX, a.x - style.strokeWidth / 2)
            minY = min(minY, a.y - style.strokeWidth / 2)
            maxX = max(maxX, b.x + style.strokeWidth / 2)
            maxY = max(maxY, b.y + style.strokeWidth / 2)
        }
        let (e, w, h) = (1e-6, golden.pointSize.width, golden.pointSize.height)
        #expect(minX >= padding - e && minY >= padding - e && maxX <= w - padding + e && maxY <= h - padding + e)
        #expect(
            (abs(minX - padding) < e && abs(maxX - (w - padding)) < e)
                || (abs(minY - padding) < e && abs(maxY - (h - padding)) < e))
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
    }

    @Test("visible points: inside a given area passes, outside is an error naming the point; no area fits them")
    func visible() throws {
        var scene = Scene()
        try StaticMapParameters(visible: ["48.85,2.35|45.76,4.84"]).add(to: &scene)
        var options = MapSnapshotter.Options(size: Size(width: 200, height: 200))
        let s = try MapSnapshotter(options: options)
        s.baseMap = nil
        scene.populate(s)
        try scene.showContent(in: s)
        try scene.checkVisibleCoordinates(in: s)
        options.region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 48.85, longitude: 2.35),
            span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 1))
        let fixed = try MapSnapshotter(options: options)
        #expect(throws: SceneVisibilityError(coordinate: LocationCoordinate2D(latitude: 45.76, longitude: 4.84))) {
            try scene.checkVisibleCoordinates(in: fixed)
        }
    }
}
