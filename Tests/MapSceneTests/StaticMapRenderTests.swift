import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Static-map grammar rendered: labelled pins, encoded paths, implicit positioning")
struct StaticMapRenderTests {
    static let labels = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789").map(String.init)
    static let colors = ["red", "blue", "green", "yellow", "purple", "orange", "white", "black", "gray", "brown"]

    @Test("labelled pins A-Z and 1-9 in Google's sizes (tiny, small, mid, normal), dark and light heads")
    func labelledPins() throws {
        var options = MapSnapshotter.Options(size: Size(width: 920, height: 190))
        options.region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 0, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 5, longitudeDelta: 25))
        let s = try MapSnapshotter(options: options)
        s.baseMap = nil
        var markers: [String] = []
        for (row, size) in ["size:tiny|", "size:small|", "size:mid|", ""].enumerated() {
            for (column, label) in Self.labels.enumerated() {
                let c = s.viewport.coordinate(for: Point(x: 16 + Double(column) * 25.7, y: 40 + Double(row) * 46))
                let color = Self.colors[column % Self.colors.count]
                markers.append(
                    "\(size)color:\(color)|label:\(label)|"
                        + String(format: "%.9f,%.9f", c.latitude, c.longitude))
            }
        }
        var scene = Scene()
        try StaticMapParameters(markers: markers).add(to: &scene)
        #expect(scene.annotations.count == 35 * 4)
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
        #expect(GoldenImage.check(snapshot.image, golden: "staticmaps/labelled-pins") == nil)
    }

    func render(paths: [String], region: CoordinateRegion) throws -> (png: Data, image: ImageSurface) {
        var options = MapSnapshotter.Options(size: Size(width: 400, height: 300))
        options.region = region
        let s = try MapSnapshotter(options: options).pinnedToPlainBaseMap()
        var scene = Scene()
        try StaticMapParameters(paths: paths, syntax: .google).add(to: &scene)
        scene.populate(s)
        let image = try s.snapshot().image
        return (try image.pngData(), image)
    }

    @Test("a Google path given as an encoded polyline renders byte-identical to the same path given as points")
    func encodedEqualsPoints() throws {
        let region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: 40.9, longitude: -123.3),
            span: CoordinateSpan(latitudeDelta: 6, longitudeDelta: 9))
        let encoded = try render(paths: ["color:0xff0000cc|weight:6|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@"], region: region)
        let points = try render(
            paths: ["color:0xff0000cc|weight:6|38.5,-120.2|40.7,-120.95|43.252,-126.453"], region: region)
        #expect(encoded.png == points.png)
        #expect(GoldenImage.check(encoded.image, golden: "staticmaps/encoded-path") == nil)
    }

    @Test("no area: the map fits lines, a polygon and a circle with padding (implicit positioning)")
    func autoFit() throws {
        let json = """
            {"size": [480, 320], "features": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[2.35, 48.85], [4.84, 45.76], [5.37, 43.30]]},
               "properties": {"stroke": "#d03020", "stroke-width": 4}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[-1.55, 47.22], [-0.58, 44.84]]},
               "properties": {"stroke": "#2050d0", "stroke-width": 3}},
              {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[6.0, 49.0], [8.0, 49.0], [7.0, 50.5], [6.0, 49.0]]]},
               "properties": {"fill": "#20a040", "stroke": "#106020"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-3.0, 43.5]},
               "properties": {"radius": 80000, "fill": "#e0a000", "stroke": "#805000"}}
            ]}}
            """
        let scene = try Scene.decode(Data(json.utf8), source: "autofit.json")
        #expect(scene.positionsFromContent)
        let s = try MapSnapshotter(
            options: try scene.options(defaults: MapSnapshotter.Options(size: Size(width: 1, height: 1)))
        )
        .pinnedToPlainBaseMap()
        scene.populate(s)
        try scene.showContent(in: s, edgePadding: EdgeInsets(top: 20, left: 20, bottom: 20, right: 20))
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
        let e = 1e-6
        #expect(minX >= 20 - e && minY >= 20 - e && maxX <= 460 + e && maxY <= 300 + e)
        #expect((abs(minX - 20) < 1e-6 && abs(maxX - 460) < 1e-6) || (abs(minY - 20) < 1e-6 && abs(maxY - 300) < 1e-6))
        let snapshot = try s.snapshot()
        #expect(GoldenImage.check(snapshot.image, golden: "staticmaps/autofit-shapes") == nil)
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
