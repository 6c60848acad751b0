import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

@Suite("Style decoding, errors and round trip")
struct StyleDecodingTests {
    static let base = URL(fileURLWithPath: "/styles")

    func decode(_ text: String) throws -> Style {
        try Style.decode(Data(text.utf8), source: "test.json", baseURL: Self.base)
    }

    /// The error of a strict read (`--strict`: today's refusals; lenient reads warn, see StyleLeniencyTests).
    func error(_ text: String) -> String {
        do {
            _ = try Style.decode(
                Data(text.utf8), source: "test.json", baseURL: Self.base, options: StyleLoadOptions(strict: true))
            return "(no error)"
        } catch { return "\(error)" }
    }

    static let sample = #"""
        {"version": 8, "name": "sample", "metadata": {"x": 1}, "center": [0, 0],
         "sources": {"land": {"type": "geojson", "data": "../data/land.geojson", "attribution": "NE"},
                     "img": {"type": "raster", "url": "/abs/world.png"}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#aad3df"}},
          {"id": "img", "type": "raster", "source": "img", "paint": {"raster-opacity": 0.5}},
          {"id": "land", "type": "fill", "source": "land", "minzoom": 1, "maxzoom": 10,
           "filter": ["==", "kind", "land"],
           "paint": {"fill-color": {"stops": [[1, "#ffffff"], [5, "rgb(240,230,220)"]]}, "fill-opacity": 0.9}},
          {"id": "roads", "type": "line", "source": "land",
           "layout": {"line-cap": "round", "line-join": "round"},
           "paint": {"line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 10, 1, 18, 12],
                     "line-dasharray": [2, 1], "line-gap-width": 1, "line-color": "red"}},
          {"id": "dots", "type": "circle", "source": "land", "paint": {"circle-radius": 3, "circle-stroke-width": 1}},
          {"id": "labels", "type": "symbol", "source": "land",
           "layout": {"text-field": "{name}", "text-font": ["DejaVu Sans Bold"], "text-size": 12,
                      "symbol-sort-key": ["-", ["get", "pop"]], "text-anchor": "top", "text-offset": [0, 0.5]},
           "paint": {"text-halo-color": "#fff", "text-halo-width": 1.5}}
         ]}
        """#

    @Test("a style with every layer type decodes, resolving paths against the style's folder")
    func decodes() throws {
        let style = try decode(Self.sample)
        #expect(style.layers.map(\.type) == [.background, .raster, .fill, .line, .circle, .symbol])
        #expect(style.sources["land"]?.kind == .geojsonFile(URL(fileURLWithPath: "/data/land.geojson")))
        #expect(style.sources["img"]?.kind == .raster(URL(fileURLWithPath: "/abs/world.png")))
        #expect(style.attribution == ["NE"])
        let fill = style.layers[2]
        #expect(fill.isVisible(atZoom: 1) && !fill.isVisible(atZoom: 0.99) && !fill.isVisible(atZoom: 10))
        #expect(fill.accepts(EvaluationContext(zoom: 3, properties: ["kind": .string("land")])))
        #expect(fill.color(.fillColor, EvaluationContext(zoom: 5)) == Color(red8: 240, green8: 230, blue8: 220))
        let line = style.layers[3]
        #expect(line.number(.lineWidth, EvaluationContext(zoom: 18)) == 12)
        #expect(line.number(.lineOpacity, EvaluationContext(zoom: 18)) == 1)
        #expect(line.string(.lineJoin, EvaluationContext(zoom: 1)) == "round")
    }

    @Test("round trip: decoding the written style gives the same style")
    func roundTrip() throws {
        let style = try decode(Self.sample)
        let text = style.jsonValue.serialized()
        let again = try decode(text)
        #expect(again == style)
        #expect(again.jsonValue.serialized() == text)
    }

    @Test("bad styles give errors naming the place, the value and the valid choices")
    func errors() {
        let cases: [(String, [String])] = [
            (#"{"version": 8, "layers": [}"#, ["test.json", "line 1", "column"]),
            (#"{"version": 7, "layers": []}"#, ["version", "must be 8"]),
            (#"{"version": 8, "layers": [], "sprites": "x"}"#, ["sprites", "unknown style member"]),
            (
                #"{"version": 8, "layers": [{"id": "a", "type": "hillshade"}]}"#,
                ["layers[0].type", "hillshade", "symbol"]
            ),
            (
                #"{"version": 8, "layers": [{"id": "a", "type": "background", "paint": {"background-colour": "red"}}]}"#,
                ["layers[0].paint.background-colour", "background-color"]
            ),
            (
                ##"{"version": 8, "layers": [{"id": "a", "type": "background", "paint": {"background-color": "#ggg"}}]}"##,
                ["#ggg", "layers[0].paint.background-color"]
            ),
            (
                #"{"version": 8, "layers": [{"id": "a", "type": "background", "paint": {"background-opacity": "half"}}]}"#,
                ["background-opacity", "must be a number", "\"half\""]
            ),
            (#"{"version": 8, "layers": [{"id": "a", "type": "fill", "source": "nope"}]}"#, ["no source \"nope\""]),
            (
                #"{"version": 8, "sources": {"s": {"type": "raster-dem", "url": "x"}}, "layers": []}"#,
                ["sources.s.type", "raster-dem", "geojson, raster, vector"]
            ),
            (
                #"{"version": 8, "sources": {"s": {"type": "geojson", "data": "a.json", "cluster": true}}, "layers": []}"#,
                ["sources.s.cluster"]
            ),
            (
                #"{"version": 8, "sources": {"s": {"type": "geojson", "data": "a"}}, "layers": [{"id": "a", "type": "line", "source": "s", "layout": {"line-cap": "pointy"}}]}"#,
                ["line-cap", "\"pointy\"", "\"round\""]
            ),
        ]
        for (text, mentions) in cases {
            let message = error(text)
            for m in mentions { #expect(message.contains(m), "\(message) should mention \(m)") }
        }
    }
}

@Suite("Style properties given by expressions")
struct StyleExpressionPropertyTests {
    @Test("text-font chosen by an expression decodes, and each layer's properties evaluate per feature")
    func fontExpression() throws {
        let text = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "l", "type": "symbol", "source": "s",
               "layout": {"text-font": ["match", ["get", "lang"], "ja", ["literal", ["IPAexGothic"]], ["literal", ["DejaVu Sans"]]],
                          "text-field": ["coalesce", ["get", "name_ja"], ["get", "name"]]}}]}
            """#
        let style = try Style.decode(Data(text.utf8), source: "t", baseURL: URL(fileURLWithPath: "/"))
        let layer = style.layers[0]
        let ja = EvaluationContext(zoom: 3, properties: ["lang": .string("ja"), "name_ja": .string("日本")])
        #expect(layer.value(.textFont, ja) == .array([.string("IPAexGothic")]))
        #expect(layer.string(.textField, ja) == "日本")
        #expect(
            layer.string(.textField, EvaluationContext(zoom: 3, properties: ["name": .string("Japan")])) == "Japan")
    }
}
