import Foundation
import MapGraphics
import MapRaster
import MapStyle
import MapTestSupport
import Testing

/// Text work bounded by the text drawn, not by the text given: counted in UTF-8 bytes shaped, never timed.
@Suite struct BoundedTextTests {
    static let megabyte = String(repeating: "Lorem ipsum dolor sit amet ", count: 40_000)

    @Test("a 1 MB annotation title and subtitle: a callout cut with an ellipsis, a few kB shaped")
    func megabyteTitle() throws {
        let center = LocationCoordinate2D(latitude: 43.73, longitude: 7.42)
        var options = MapSnapshotter.Options(size: Size(width: 400, height: 300))
        options.region = CoordinateRegion(center: center, latitudinalMeters: 2000, longitudinalMeters: 2000)
        let snapshotter = try MapSnapshotter(options: options).pinnedToPlainBaseMap()
        let annotation = PointAnnotation(coordinate: center, title: Self.megabyte, subtitle: Self.megabyte)
        snapshotter.addAnnotation(annotation)
        snapshotter.selectAnnotation(annotation)
        let count = Font.ShapingCount()
        let snapshot = try Font.$shapingCount.withValue(count) { try snapshotter.snapshot() }
        let bubble = try #require(snapshot.annotations.first?.calloutFrame)
        #expect(bubble.minX >= 0 && bubble.maxX <= 400, "\(bubble)")
        // Each line holds at most 400 / (0.25 x its size) characters; a binary search shapes each ~8 times.
        #expect(count.value > 0 && count.value < 20_000, "\(count.value) bytes shaped")

        var callout = CalloutView(title: Self.megabyte, subtitle: nil)
        #expect(callout.title.utf8.count == TextLimit.maximumBytes)
        try callout.place(
            pointingAt: Rect(x: 190, y: 150, width: 20, height: 30), imageSize: Size(width: 400, height: 300))
        #expect(callout.shownTitle.hasSuffix("…") && callout.shownTitle.hasPrefix("Lorem ipsum dolor"))
        #expect(callout.bubble.width <= 392)
        // A title that fits is shown whole.
        var short = CalloutView(title: "Monaco", subtitle: "Monte Carlo")
        try short.place(
            pointingAt: Rect(x: 190, y: 150, width: 20, height: 30), imageSize: Size(width: 400, height: 300))
        #expect(short.shownTitle == "Monaco" && short.shownSubtitle == "Monte Carlo")
    }

    @Test("text is cut at 64 KiB on a character boundary")
    func cutAtCharacters() {
        // "é" as e + combining acute: two scalars, three bytes, one character; the cut never splits it.
        let text = String(repeating: "e\u{301}", count: 30_000)
        let cut = TextLimit.cut(text, what: "test text")
        #expect(cut.utf8.count <= TextLimit.maximumBytes && cut.utf8.count > TextLimit.maximumBytes - 3)
        #expect(cut.utf8.count % 3 == 0 && text.hasPrefix(cut))
        #expect(TextLimit.cut("short", what: "test text") == "short")
    }

    @Test("a label's text-field over 64 KiB is cut where it is evaluated, sections counted together")
    func labelText() throws {
        let style = try Style.decode(
            Data(
                #"""
                {"version": 8, "sources": {"x": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
                 "layers": [
                  {"id": "a", "type": "symbol", "source": "x", "layout": {"text-field": ["get", "name"]}},
                  {"id": "b", "type": "symbol", "source": "x",
                   "layout": {"text-field": ["format", ["get", "name"], {}, ["get", "name"], {"font-scale": 0.5}]}}]}
                """#.utf8), source: "s", baseURL: URL(fileURLWithPath: "/"))
        let context = EvaluationContext(zoom: 1, properties: ["name": .string(Self.megabyte)])
        let plain = style.layers[0].string(.textField, context)
        #expect(plain.utf8.count <= TextLimit.maximumBytes && plain.utf8.count > TextLimit.maximumBytes - 27)
        guard case .formatted(let sections) = style.layers[1].value(.textField, context) else {
            Issue.record("not formatted")
            return
        }
        #expect(sections.reduce(0) { $0 + $1.text.utf8.count } <= TextLimit.maximumBytes)
        #expect(sections.count == 1)
    }
}
