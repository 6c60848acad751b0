import Foundation
import MapData
import MapStyle
import Testing

@Suite("Filters, expressions and zoom functions")
struct ExpressionTests {
    func expr(_ text: String) throws -> StyleExpression {
        try StyleExpression.decode(try JSONValue.parse(Data(text.utf8)), path: "p")
    }
    func filter(_ text: String) throws -> StyleExpression {
        try StyleExpression.decodeFilter(try JSONValue.parse(Data(text.utf8)), path: "f")
    }
    let river = EvaluationContext(
        zoom: 5, properties: ["class": .string("river"), "rank": .number(3), "name": .string("Seine")],
        geometryType: "LineString")

    @Test("legacy and expression filters agree on a feature")
    func filters() throws {
        let cases: [(String, Bool)] = [
            (#"["==", "class", "river"]"#, true), (#"["==", ["get", "class"], "river"]"#, true),
            (#"["!=", "class", "river"]"#, false), (#"["<", "rank", 4]"#, true), (#"["<=", "rank", 3]"#, true),
            (#"[">", ["get", "rank"], 3]"#, false), (#"[">=", "rank", 3]"#, true),
            (#"["in", "class", "lake", "river"]"#, true), (#"["!in", "class", "lake", "river"]"#, false),
            (#"["in", ["get", "class"], ["literal", ["lake", "sea"]]]"#, false), (#"["has", "name"]"#, true),
            (#"["!has", "name"]"#, false), (#"["!", ["has", "ref"]]"#, true),
            (#"["all", ["==", "class", "river"], [">", "rank", 1]]"#, true),
            (#"["any", ["==", "class", "lake"], ["==", "rank", 2]]"#, false),
            (#"["none", ["==", "class", "lake"]]"#, true), (#"["==", "$type", "LineString"]"#, true),
            (#"["==", ["geometry-type"], "Polygon"]"#, false), (#"["==", "missing", "x"]"#, false),
            (#"["<", "name", 4]"#, false),
        ]
        for (text, expected) in cases {
            #expect(try filter(text).evaluate(river).isTrue == expected, "\(text)")
        }
    }

    @Test("match, case and coalesce pick outputs")
    func decisions() throws {
        #expect(
            try expr(#"["match", ["get", "class"], ["lake", "river"], 1, "sea", 2, 0]"#).evaluate(river) == .number(1))
        #expect(try expr(#"["match", ["get", "class"], "sea", 2, 0]"#).evaluate(river) == .number(0))
        #expect(
            try expr(#"["case", ["<", ["get", "rank"], 2], "big", ["<", ["get", "rank"], 5], "mid", "small"]"#)
                .evaluate(river) == .string("mid"))
        #expect(try expr(#"["coalesce", ["get", "name_ja"], ["get", "name"]]"#).evaluate(river) == .string("Seine"))
        #expect(try expr(#"["concat", ["upcase", ["get", "name"]], "!"]"#).evaluate(river) == .string("SEINE!"))
    }

    @Test("interpolate linear and exponential, step and legacy stops, by hand-computed values")
    func zoomFunctions() throws {
        let linear = try expr(#"["interpolate", ["linear"], ["zoom"], 2, 1, 6, 5]"#)
        #expect(linear.evaluate(EvaluationContext(zoom: 1)) == .number(1))
        #expect(linear.evaluate(EvaluationContext(zoom: 3)) == .number(2))
        #expect(linear.evaluate(EvaluationContext(zoom: 9)) == .number(5))
        // base 2 between 0 and 2: t = (2^1 - 1) / (2^2 - 1) = 1/3 at zoom 1.
        let exponential = try expr(#"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 2, 3]"#)
        #expect(abs(exponential.evaluate(EvaluationContext(zoom: 1)).number! - 1) < 1e-12)
        let legacy = try expr(#"{"base": 2, "stops": [[0, 0], [2, 3]]}"#)
        #expect(abs(legacy.evaluate(EvaluationContext(zoom: 1)).number! - 1) < 1e-12)
        let step = try expr(#"["step", ["zoom"], 1, 4, 2, 8, 3]"#)
        #expect(step.evaluate(EvaluationContext(zoom: 3.9)) == .number(1))
        #expect(step.evaluate(EvaluationContext(zoom: 4)) == .number(2))
        #expect(step.evaluate(EvaluationContext(zoom: 12)) == .number(3))
        let legacyStrings = try expr(#"{"stops": [[0, "a"], [5, "b"]]}"#)
        #expect(legacyStrings.evaluate(EvaluationContext(zoom: 4)) == .string("a"))
        #expect(legacyStrings.evaluate(EvaluationContext(zoom: 6)) == .string("b"))
    }

    @Test("colors interpolate component-wise")
    func colorInterpolation() throws {
        let e = try expr(##"["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ff0080"]"##)
        let c = e.evaluate(EvaluationContext(zoom: 5)).color!
        #expect(abs(c.red - 0.5) < 1e-12 && c.green == 0 && abs(c.blue - 128.0 / 255 / 2) < 1e-12)
    }

    @Test("bad expressions name the place and the valid choices")
    func errors() throws {
        do {
            _ = try filter(#"["all", ["near", "x", 1]]"#)
            Issue.record("accepted an unknown operator")
        } catch let error as StyleError {
            #expect(error.description.contains("f[1]") && error.description.contains("\"near\""))
            #expect(error.description.contains("match"))
        }
        #expect(throws: StyleError.self) { try expr(#"["interpolate", ["cubic"], ["zoom"], 1, 1, 2, 2]"#) }
        #expect(throws: StyleError.self) { try expr(#"["step", ["zoom"], 1, 4, 2, 3, 3]"#) }
        #expect(throws: StyleError.self) { try expr(#"{"stops": []}"#) }
        #expect(throws: StyleError.self) { try expr(#"{"stops": [[1, 2]], "bse": 2}"#) }
    }
}
