import Foundation
import MapData
import Testing

@testable import MapStyle

/// The `cubic-bezier` interpolation's curve against values known independently: CSS's named timing
/// functions (`ease` is cubic-bezier(0.25, 0.1, 0.25, 1)) and the curve's symmetries.
@Suite struct UnitBezierTests {
    @Test func straightLineIsTheIdentity() {
        let line = UnitBezier(x1: 0, y1: 0, x2: 1, y2: 1)
        for x in stride(from: 0.0, through: 1, by: 0.125) { #expect(abs(line.solve(x) - x) < 1e-9) }
    }

    @Test func easeAtHalfway() {
        // CSS `ease` at 50 % progress is 0.8024033877399112 (browsers' UnitBezier; checked with a 10^6-step
        // sampling of the parametric curve: y where x first passes 0.5).
        #expect(abs(UnitBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1).solve(0.5) - 0.8024033877399112) < 1e-6)
    }

    @Test func pointSymmetricCurvePassesThroughTheMiddle() {
        // Control points (a, b) and (1 - a, 1 - b) make a curve symmetric about (0.5, 0.5).
        let curve = UnitBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        #expect(abs(curve.solve(0.5) - 0.5) < 1e-9)
        #expect(abs(curve.solve(0.2) + curve.solve(0.8) - 1) < 1e-9)
    }

    @Test func endsAndOutOfRangeInputs() {
        let curve = UnitBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
        #expect(curve.solve(0) == 0 && curve.solve(1) == 1)
        #expect(curve.solve(-3) == 0 && curve.solve(7) == 1 && curve.solve(.nan) == 0)
    }

    @Test func interpolateDecodesAndRefusesBadControlPoints() throws {
        func decode(_ json: String) throws -> StyleExpression {
            try StyleExpression.decode(try JSONValue.parse(Data(json.utf8)), path: "layers.x.layout.text-size")
        }
        let good = try decode(#"["interpolate", ["cubic-bezier", 0.25, 0.1, 0.25, 1], ["zoom"], 0, 0, 10, 100]"#)
        // Zoom 5 is halfway: 100 x ease(0.5).
        #expect(abs((good.evaluate(EvaluationContext(zoom: 5)).number ?? 0) - 80.24033877399112) < 1e-4)
        #expect(good.evaluate(EvaluationContext(zoom: 10)).number == 100)
        #expect(throws: (any Error).self) {
            try decode(#"["interpolate", ["cubic-bezier", 0.25, 0.1, 1.5, 1], ["zoom"], 0, 0, 10, 100]"#)
        }
        #expect(throws: (any Error).self) {
            try decode(#"["interpolate", ["cubic-bezier", 0.25, 0.1], ["zoom"], 0, 0, 10, 100]"#)
        }
    }
}
