import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

/// The expression forms added for MapLibre conformance, against the style specification's definitions
/// and MapLibre's own rendered values.
@Suite("Legacy property functions, type assertions, line-progress and color spaces")
struct ConformanceExpressionTests {
    func expr(_ text: String) throws -> StyleExpression {
        try StyleExpression.decode(try JSONValue.parse(Data(text.utf8)), path: "p")
    }
    func value(_ text: String, zoom: Double = 0, _ properties: [String: StyleValue] = [:]) throws -> StyleValue {
        try expr(text).evaluate(EvaluationContext(zoom: zoom, properties: properties))
    }

    @Test("property functions as the spec defines identity, exponential, interval and categorical")
    func propertyFunctions() throws {
        // Spec, "Function": identity returns the property; exponential interpolates on the property.
        #expect(try value(#"{"type": "identity", "property": "w"}"#, ["w": .number(7)]) == .number(7))
        #expect(try value(#"{"type": "identity", "property": "w", "default": 3}"#) == .number(3))
        #expect(try value(#"{"property": "w", "stops": [[0, 0], [10, 100]]}"#, ["w": .number(2.5)]) == .number(25))
        // base 2 between 0 and 2 at 1: (2^1 - 1) / (2^2 - 1) = 1/3 of the way.
        let exponential =
            try value(
                #"{"property": "w", "base": 2, "stops": [[0, 0], [2, 3]]}"#, ["w": .number(1)]
            ).number ?? .nan
        #expect(abs(exponential - 1) < 1e-12)
        #expect(
            try value(#"{"property": "w", "type": "interval", "stops": [[0, "a"], [5, "b"]]}"#, ["w": .number(7)])
                == .string("b"))
        #expect(
            try value(
                #"{"property": "k", "type": "categorical", "stops": [["x", 1], ["y", 2]], "default": 9}"#,
                ["k": .string("y")]) == .number(2))
        #expect(
            try value(#"{"property": "k", "type": "categorical", "stops": [["x", 1]], "default": 9}"#) == .number(9))
    }

    @Test("zoom-and-property functions interpolate over zoom between the per-zoom property functions")
    func compositeFunctions() throws {
        let text = #"""
            {"property": "v", "stops": [[{"zoom": 0, "value": 0}, 0], [{"zoom": 0, "value": 10}, 10],
                                        [{"zoom": 2, "value": 0}, 100], [{"zoom": 2, "value": 10}, 200]]}
            """#
        // At zoom 1, value 5: halfway between 5 (zoom 0) and 150 (zoom 2).
        #expect(try value(text, zoom: 1, ["v": .number(5)]) == .number(77.5))
        #expect(try value(text, zoom: 3, ["v": .number(10)]) == .number(200))
        #expect(throws: StyleError.self) { try expr(#"{"stops": [[{"zoom": 0, "value": 0}, 0]]}"#) }
    }

    /// MapLibre's render test line-dasharray/literal/line-width-composite-function: a categorical
    /// zoom-and-property width is still linear over zoom (style spec: the zoom dimension interpolates for
    /// properties that interpolate, whatever `type` says of the property dimension); string outputs step.
    @Test(
        "categorical zoom-and-property functions: linear over zoom for numbers, a step for strings",
        arguments: [
            (1, 0.5, StyleValue.number(2.5)), (2, 0.5, .number(3.5)), (3, 0.25, .number(3.75)), (3, 1, .number(6)),
        ])
    func categoricalComposite(property: Int, zoom: Double, expected: StyleValue) throws {
        let text = #"""
            {"property": "p", "type": "categorical", "stops": [[{"zoom": 0, "value": 1}, 1], [{"zoom": 0, "value": 2}, 2],
             [{"zoom": 0, "value": 3}, 3], [{"zoom": 1, "value": 1}, 4], [{"zoom": 1, "value": 2}, 5],
             [{"zoom": 1, "value": 3}, 6]]}
            """#
        #expect(try value(text, zoom: zoom, ["p": .number(Double(property))]) == expected)
        let strings = #"""
            {"property": "p", "type": "categorical", "stops": [[{"zoom": 0, "value": 1}, "a"], [{"zoom": 1, "value": 1}, "b"]]}
            """#
        #expect(try value(strings, zoom: 0.9, ["p": .number(1)]) == .string("a"))
    }

    /// The style spec marks `icon-offset` (and the other offsets, translations and paddings) "interpolated":
    /// a legacy zoom function of number arrays blends them (MapLibre's icon-offset/property-function cases);
    /// `line-dasharray` is not interpolated and steps.
    @Test("legacy functions of number arrays interpolate for icon-offset and step for line-dasharray")
    func arrayFunctions() throws {
        let text = #"{"stops": [[0, [0, 0]], [2, [10, -4]]]}"#
        func at(_ property: String, zoom: Double) throws -> StyleValue {
            try StyleExpression.decode(try JSONValue.parse(Data(text.utf8)), path: "layers[0].layout.\(property)")
                .evaluate(EvaluationContext(zoom: zoom))
        }
        #expect(try at("icon-offset", zoom: 1) == .array([.number(5), .number(-2)]))
        #expect(try at("line-dasharray", zoom: 1) == .array([.number(0), .number(0)]))
        #expect(try at("line-dasharray", zoom: 2) == .array([.number(10), .number(-4)]))
    }

    @Test("string, number and boolean give the first operand of their type, else null")
    func assertions() throws {
        #expect(try value(#"["string", ["get", "n"], "fallback"]"#, ["n": .number(1)]) == .string("fallback"))
        #expect(try value(#"["number", ["get", "n"]]"#, ["n": .number(1)]) == .number(1))
        #expect(try value(#"["boolean", ["get", "n"]]"#, ["n": .number(1)]) == .null)
    }

    @Test("line-progress reads the context")
    func lineProgress() throws {
        var context = EvaluationContext(zoom: 0)
        context.lineProgress = 0.25
        let gradient = try expr(#"["interpolate", ["linear"], ["line-progress"], 0, 0, 1, 8]"#)
        #expect(gradient.evaluate(context) == .number(2))
    }

    @Test("Lab interpolation gives MapLibre's color (its colorSpace-lab render test at zoom 5)")
    func lab() throws {
        // MapLibre's expected.png of background-color/colorSpace-lab: rgb(191,86,85).
        let c = try colorSpaceMidpoint("lab")
        let got = [c.red * 255, c.green * 255, c.blue * 255]
        #expect(zip(got, [191.0, 86, 85]).allSatisfy { abs($0 - $1) <= 1.5 }, "\(got)")
        #expect(throws: StyleError.self) { try expr(#"{"stops": [[0, "red"]], "colorSpace": "xyz"}"#) }
    }

    @Test("HCL interpolation keeps ends, lightness and hue the short way round (d3's definition)")
    func hcl() throws {
        // Purple (hue 327 degrees) to orange (67): the short way passes 360, so the middle is a red
        // (hue about 17), not a cyan (about 197). MapLibre's own picture of this case is redder
        // (rgb(245,7,53)); see Notes/maplibre-conformance.md.
        let c = try colorSpaceMidpoint("hcl")
        #expect(c.red > 0.8 && c.green < 0.25 && c.blue < 0.45, "\(c)")
        let ends = try expr(#"["interpolate-hcl", ["linear"], ["zoom"], 0, "red", 10, "blue"]"#)
        #expect(ends.evaluate(EvaluationContext(zoom: 0)).color?.hexString == "#ff0000")
    }

    /// The color at zoom 5 of MapLibre's colorSpace test function (rgb(118,0,118) at 0, rgb(255,155,0) at 10).
    func colorSpaceMidpoint(_ space: String) throws -> Color {
        let e = try expr(#"{"stops": [[0, "rgb(118,0,118)"], [10, "rgb(255,155,0)"]], "colorSpace": "\#(space)"}"#)
        return try #require(e.evaluate(EvaluationContext(zoom: 5)).color)
    }

    @Test("CSS color names and the space-separated rgb() form (CSS Color 4)")
    func cssColors() throws {
        #expect(try Color(parsing: "royalblue").hexString == "#4169e1")
        #expect(try Color(parsing: "rebeccapurple").hexString == "#663399")
        #expect(try Color(parsing: "rgb(0 0 0 / 0)") == Color(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(try Color(parsing: "rgb(255 0 0)") == Color(red: 1, green: 0, blue: 0))
        #expect(try Color(parsing: "rgb(100% 0% 0%)") == Color(red: 1, green: 0, blue: 0))
        #expect(throws: ColorError.self) { try Color(parsing: "rgb(1 2)") }
    }

    @Test("new properties are range-checked where they enter")
    func ranges() throws {
        func layer(_ paint: String) throws -> Style {
            let text =
                #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "#
                + #""features": []}}}, "layers": [{"id": "l", "type": "line", "source": "s", "paint": {\#(paint)}}]}"#
            return try Style.decode(Data(text.utf8), source: "t", baseURL: URL(fileURLWithPath: "/"))
        }
        #expect(throws: StyleError.self) { try layer(#""line-translate": [0, 1e9]"#) }
        #expect(throws: StyleError.self) { try layer(#""line-blur": -1"#) }
        #expect(throws: StyleError.self) { try layer(#""line-offset": 5000"#) }
        #expect(try layer(#""line-offset": -5, "line-blur": 2, "line-translate": [1, 2]"#).layers.count == 1)
    }
}
