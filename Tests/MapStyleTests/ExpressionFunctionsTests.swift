import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

/// The expression operators added beside MapLibre's own test cases (MapLibreExpressionTests): a style's
/// `state` read by `global-state`, the bound on text that shared `let` values could double, `in` in both
/// its forms, and `within` with a hole and across the antimeridian (the spec's definitions: a point in a hole
/// is outside; a point a world away is compared with the polygon's copy next to it).
@Suite("Expression functions: global-state, bounded text, in, within")
struct ExpressionFunctionsTests {
    func expr(_ text: String) throws -> StyleExpression {
        try StyleExpression.decode(try JSONValue.parse(Data(text.utf8)), path: "p")
    }

    @Test("global-state reads the default of the style's state member")
    func globalState() throws {
        let text = #"""
            {"version": 8, "state": {"dark": {"default": true}}, "sources": {},
             "layers": [{"id": "b", "type": "background",
                         "paint": {"background-opacity": ["case", ["global-state", "dark"], 0.25, 1]}}]}
            """#
        let style = try Style.decode(Data(text.utf8), source: "s", baseURL: URL(fileURLWithPath: "/"))
        #expect(style.warnings.isEmpty)
        #expect(style.layers[0].number(.backgroundOpacity, EvaluationContext(zoom: 1)) == 0.25)
    }

    @Test("a string doubled by nested let values stops at the text bound (null), in work linear in the nesting")
    func boundedText() throws {
        var text = #"["concat", ["var", "s"], ["var", "s"]]"#
        for _ in 0..<40 { text = #"["let", "s", ["concat", ["var", "s"], ["var", "s"]], \#(text)]"# }
        text = #"["let", "s", "abcdefgh", \#(text)]"#
        let value = try expr(text).evaluate(EvaluationContext(zoom: 0))
        #expect((value.string?.utf8.count ?? 0) <= StyleExpression.maximumTextLength)
        let short = try expr(#"["let", "s", "ab", ["concat", ["var", "s"], ["var", "s"]]]"#)
        #expect(short.evaluate(EvaluationContext(zoom: 0)) == .string("abab"))
    }

    @Test("in: a literal list, a computed array, a substring")
    func inForms() throws {
        let context = EvaluationContext(zoom: 0, properties: ["k": .string("b"), "list": .array([.string("b")])])
        #expect(try expr(#"["in", ["get", "k"], ["literal", ["a", "b"]]]"#).evaluate(context) == .bool(true))
        #expect(try expr(#"["in", ["get", "k"], ["get", "list"]]"#).evaluate(context) == .bool(true))
        #expect(try expr(#"["in", "bc", "abcd"]"#).evaluate(context) == .bool(true))
        #expect(try expr(#"["in", "x", "abcd"]"#).evaluate(context) == .bool(false))
    }

    @Test("within: a point in a hole is outside; a point a world away compares with the copy beside it")
    func withinHolesAndWrap() throws {
        let region = try #require(
            WithinRegion(
                geoJSON: try JSONValue.parse(
                    Data(
                        #"{"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]], [[-2, -2], [2, -2], [2, 2], [-2, 2], [-2, -2]]]}"#
                            .utf8))))
        func point(_ lon: Double, _ lat: Double) -> FeatureGeometry {
            .points([MapPoint(LocationCoordinate2D(latitude: lat, longitude: lon))])
        }
        #expect(region.contains(point(5, 5), tileZoom: 3))
        #expect(!region.contains(point(0, 0), tileZoom: 3))  // in the hole
        #expect(!region.contains(point(10, 0), tileZoom: 3))  // on the edge
        let shifted = MapPoint(LocationCoordinate2D(latitude: 5, longitude: 5))
        let aWorldAway = MapPoint(x: shifted.x + WebMercator.worldSize, y: shifted.y)
        #expect(region.contains(.points([aWorldAway]), tileZoom: 3))
        // A line from inside the ring across the hole crosses its edges.
        let across = FeatureGeometry.lines([
            [
                MapPoint(LocationCoordinate2D(latitude: 0, longitude: -5)),
                MapPoint(LocationCoordinate2D(latitude: 0, longitude: 5)),
            ]
        ])
        #expect(!region.contains(across, tileZoom: 3))
        #expect(!region.contains(.polygons, tileZoom: 3))
    }
}
