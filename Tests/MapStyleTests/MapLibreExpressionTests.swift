import Foundation
import MapData
import MapGeometry
import MapTestSupport
import Testing

@testable import MapStyle

/// MapLibre's own expression tests (fixtures/maplibre-expression-tests: the style specification's
/// `test/integration/expression/tests`, BSD-3-Clause, bundled by Scripts/import-maplibre-expression-tests.py):
/// every case is decoded and evaluated on its inputs, and its outputs compared with MapLibre's to 6
/// significant digits. MapLibre's evaluation errors are null here (the property's default applies, as
/// MapLibre's property evaluation does); a case MapLibre refuses to compile must be refused.
///
/// The cases where MapRaster differs are listed with the reason in ``knownDifferences``; every other case
/// must pass, and a listed case that starts to pass fails the suite, so that the list stays true.
@Suite("MapLibre expression tests")
struct MapLibreExpressionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let json: JSONValue
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: Fixtures.url("maplibre-expression-tests/tests.json")),
            let bundle = try? JSONValue.parse(data), let tests = bundle["tests"]?.members
        else { return [] }
        return tests.map { Case(name: $0.0, json: $0.1) }
    }()

    @Test("the bundle holds the style specification's cases")
    func bundle() {
        #expect(Self.cases.count > 500)
    }

    @Test("each case gives MapLibre's outputs", arguments: cases)
    func expression(_ test: Case) {
        let failure = Self.run(test.json)
        if let reason = Self.knownDifferences[test.name] {
            #expect(failure != nil, "\(test.name) now passes; remove it from knownDifferences (\(reason))")
        } else {
            #expect(failure == nil, "\(test.name): \(failure ?? "")")
        }
    }

    /// What differs from MapLibre in one case, nil when nothing does.
    static func run(_ fixture: JSONValue) -> String? {
        guard let expressionJSON = fixture["expression"], let expected = fixture["expected"],
            let compiled = expected["compiled"]
        else { return "malformed fixture" }
        var decoder = ExpressionDecoder(source: "test")
        for (name, value) in fixture["globalState"]?.members ?? [] { decoder.globalState[name] = StyleValue(value) }
        let expression: StyleExpression
        do { expression = try decoder.value(expressionJSON, path: "p") } catch {
            return compiled["result"]?.string == "error" ? nil : "refused: \(error)"
        }
        guard compiled["result"]?.string == "success" else { return "accepted an expression MapLibre refuses" }
        let type = compiled["type"]?.string ?? "value"
        let outputs = expected["outputs"]?.array ?? []
        let inputs = fixture["inputs"]?.array ?? []
        guard outputs.count == inputs.count else { return "malformed fixture" }
        for (i, input) in inputs.enumerated() {
            let context = Self.context(input)
            let value = expression.evaluate(context)
            let wanted = outputs[i]
            if wanted["error"] != nil {
                if !value.isNull { return "input \(i): expected an evaluation error, got \(value)" }
                continue
            }
            // A color property's value: a color string as the property reads it.
            let got = Self.json(type == "color" ? value.color.map(StyleValue.color) ?? value : value, type: type)
            if !Self.matches(got, wanted) { return "input \(i): expected \(wanted), got \(got)" }
        }
        return nil
    }

    /// The evaluation context of a fixture input `[globals, feature]`.
    static func context(_ input: JSONValue) -> EvaluationContext {
        let globals = input.array?.first ?? .null
        let feature = input.array?.dropFirst().first ?? .null
        var properties: [String: StyleValue] = [:]
        for (key, value) in feature["properties"]?.members ?? [] { properties[key] = StyleValue(value) }
        var context = EvaluationContext(zoom: globals["zoom"]?.number ?? 0, properties: properties)
        if let id = feature["id"] { context.id = StyleValue(id) }
        if let images = globals["availableImages"]?.array { context.availableImages = Set(images.compactMap(\.string)) }
        context.lineProgress = globals["lineProgress"]?.number ?? 0
        if let geometry = feature["geometry"], let type = geometry["type"]?.string {
            context.geometryType = type.replacingOccurrences(of: "Multi", with: "")
            if let z = globals["canonicalID"]?["z"]?.number {
                context.tileZoom = Int(z)
                context.geometry = Self.geometry(geometry)
            }
        }
        return context
    }

    static func geometry(_ json: JSONValue) -> FeatureGeometry? {
        func point(_ p: JSONValue) -> MapPoint? {
            guard let c = p.array, c.count >= 2, let lon = c[0].number, let lat = c[1].number else { return nil }
            return MapPoint(LocationCoordinate2D(latitude: lat, longitude: lon))
        }
        func line(_ l: JSONValue) -> [MapPoint] { (l.array ?? []).compactMap(point) }
        let coordinates = json["coordinates"] ?? .null
        switch json["type"]?.string {
        case "Point": return point(coordinates).map { .points([$0]) }
        case "MultiPoint": return .points(line(coordinates))
        case "LineString": return .lines([line(coordinates)])
        case "MultiLineString": return .lines((coordinates.array ?? []).map(line))
        case "Polygon", "MultiPolygon": return .polygons
        default: return nil
        }
    }

    /// A value as MapLibre's test harness writes it: a color of a color-typed expression as premultiplied
    /// `[r, g, b, a]` in 0...1, another color as its fields.
    static func json(_ value: StyleValue, type: String) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .color(let c):
            let channels = [c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha]
            if type == "color" { return .array(channels.map(JSONValue.number)) }
            return .object(zip(["r", "g", "b", "a"], channels).map { ($0, .number($1)) })
        case .array(let items): return .array(items.map { json($0, type: "value") })
        case .object(let members):
            return .object(members.sorted { $0.key < $1.key }.map { ($0.key, json($0.value, type: "value")) })
        case .formatted(let sections):
            return .object([
                (
                    "sections",
                    .array(
                        sections.map { s in
                            .object([
                                ("text", .string(s.text)), ("image", .null),
                                ("scale", s.scale.map(JSONValue.number) ?? .null),
                                ("fontStack", s.fontStack.map { .string($0.joined(separator: ",")) } ?? .null),
                                ("textColor", s.color.map { json(.color($0), type: "value") } ?? .null),
                            ])
                        })
                )
            ])
        case .collator: return .string("collator")
        }
    }

    /// Equal as MapLibre's `deepEqual` with 6 significant digits: numbers by relative difference, objects
    /// by members whatever their order.
    static func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)):
            if x == y || (x.isNaN && y.isNaN) { return true }
            // The fixtures keep 6 significant digits (cut, not rounded).
            return abs(x - y) <= 1e-5 * max(abs(x), abs(y)) + 1e-12
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { matches($0, $1) }
        case let (.object(x), .object(y)):
            let keys = Set(x.map(\.0)).union(y.map(\.0))
            return keys.allSatisfy { key in
                matches(x.last(where: { $0.0 == key })?.1 ?? .null, y.last(where: { $0.0 == key })?.1 ?? .null)
            }
        default: return a == b
        }
    }

    /// The cases where MapRaster's result differs from MapLibre's, and why (listed by
    /// running the suite; a case that starts to pass fails it until removed here).
    static let knownDifferences: [String: String] = {
        var cases: [String: String] = [:]
        for name in [
            "all/short-circuiting", "any/short-circuiting", "format/basic", "format/data-driven-vertical-align",
            "format/image-sections", "interpolate/exponential-2-args", "max/arity-0",
            "min/arity-0", "number-format/unit", "plus/arity-0", "semiliteral/directional-offset",
            "semiliteral/empty-array", "semiliteral/get-offset-components", "semiliteral/mixed-expressions",
            "semiliteral/mixed-primitives", "semiliteral/number-array", "semiliteral/scale-offset",
            "semiliteral/string-array", "times/arity-0", "to-number/2-ary",
        ] {
            cases[name] =
                "a form MapRaster does not decode or gives in another shape: semiliteral, exponential without a base, format vertical-align, format image sections (kept as sections with a placeholder character), number-format unit, to-number with fallbacks, zero-operand arithmetic, the test-only error operator"
        }
        for name in [
            "array/implicit-2", "array/implicit-3", "coalesce/error", "global-state/projection-invalid-value",
            "greater/string-and-value", "greater/value", "greater_or_equal/string-and-value",
            "greater_or_equal/value", "in/assert-array", "in/assert-string", "interpolate-hcl/linear-color",
            "interpolate-lab/linear-color", "interpolate/exponential-color", "interpolate/linear-color",
            "less/string-and-value", "less/value", "less_or_equal/string-and-value", "less_or_equal/value",
            "match/label-string", "zoom/nested-let",
        ] {
            cases[name] =
                "no evaluation errors: where MapLibre raises a type error (an assertion in coalesce, a comparison of mixed types, a bad case condition or match label) MapRaster goes on with a value"
        }
        for name in [
            "array/invalid-array-input/bare-array", "array/invalid-array-input/bare-array-with-type",
            "array/invalid-array-input/bare-array-with-type-and-length", "at/infer-array-type",
            "coalesce/argument-type-mismatch", "coalesce/infer-array-type", "collator/comparison-number-error",
            "collator/equals-non-string-error", "constant-folding/evaluation-error",
            "equal/array", "equal/color", "equal/mismatch", "equal/object", "format/data-driven-scale",
            "format/implicit-assert", "format/invalid-text-font", "get/from-literal--missing", "greater/boolean",
            "greater/mismatch", "greater/null", "greater_or_equal/boolean", "greater_or_equal/mismatch",
            "greater_or_equal/null", "image/implicit-assert", "image/invalid-image-name/boolean",
            "image/invalid-image-name/non-string-expression", "image/invalid-image-name/null",
            "image/invalid-image-name/number", "in/invalid-needle-literal-array", "in/unexpected-third-arg",
            "index-of/invalid-needle-literal-array", "interpolate-hcl/uninterpolable-output/bare-color-array",
            "interpolate-hcl/uninterpolable-output/bare-number-array",
            "interpolate-hcl/uninterpolable-output/boolean", "interpolate-hcl/uninterpolable-output/null",
            "interpolate-hcl/uninterpolable-output/number", "interpolate-hcl/uninterpolable-output/number-array",
            "interpolate-hcl/uninterpolable-output/projection", "interpolate-hcl/uninterpolable-output/string",
            "interpolate-lab/uninterpolable-output/bare-color-array",
            "interpolate-lab/uninterpolable-output/bare-number-array",
            "interpolate-lab/uninterpolable-output/boolean", "interpolate-lab/uninterpolable-output/null",
            "interpolate-lab/uninterpolable-output/number", "interpolate-lab/uninterpolable-output/number-array",
            "interpolate-lab/uninterpolable-output/projection", "interpolate-lab/uninterpolable-output/string",
            "interpolate/exponential-string-array", "interpolate/exponential-uninterpolatable-numeric-array",
            "interpolate/uninterpolable-output/bare-color-array",
            "interpolate/uninterpolable-output/bare-number-array", "interpolate/uninterpolable-output/boolean",
            "interpolate/uninterpolable-output/null", "interpolate/uninterpolable-output/string", "join/non-array",
            "join/numbers", "length/invalid-arg", "less/boolean", "less/mismatch", "less/null",
            "less_or_equal/boolean", "less_or_equal/mismatch", "less_or_equal/null", "let/invalid-name",
            "match/empty-case", "match/label-array", "match/label-boolean", "match/label-booleans",
            "match/label-mixed", "match/label-non-integer", "match/label-null", "match/label-object",
            "match/label-overflow", "match/labels-mixed-1", "match/labels-mixed-2", "match/labels-mixed-3",
            "match/labels-mixed-4", "match/mismatch-input", "match/mismatch-input-literal-number",
            "match/mismatch-input-literal-string", "match/mismatch-output", "match/unreachable-branch-1",
            "match/unreachable-branch-2", "not_equal/mismatch", "parse/empty", "parse/non-string",
            "parse/unknown-expression", "semiliteral/empty", "slice/invalid-input-arg-literal",
            "typecheck/array-invalid-item", "typecheck/array-length-subtyping--no-length",
            "typecheck/array-wrong-length", "zoom/invalid-nested-1", "zoom/invalid-nested-2",
            "zoom/invalid-nested-3", "zoom/invalid-nested-4", "zoom/invalid-nested-5", "zoom/invalid-no-curve",
        ] {
            cases[name] =
                "no static type checker: an expression MapLibre refuses for its types (or arity) is accepted, and a wrong type gives null when evaluated"
        }
        for name in [
            "coalesce/inference", "semiliteral/string", "to-rgba/basic", "to-string/implicit",
        ] {
            cases[name] =
                "MapLibre coerces an output to the property's declared type (a number to a string, null to an empty string, a color string to a color for to-rgba) or reads semiliteral strings; MapRaster's layer accessors coerce when drawing, the expression does not"
        }
        for name in [
            "collator/accent-equals-de", "collator/variable-gt", "collator/variable-lteq",
        ] {
            cases[name] =
                "collation: MapRaster's collator orders letters, then diacritics, then case for every locale; ICU's locale tailorings are not modelled"
        }
        for name in [
            "elevation/basic", "feature-state/basic", "feature-state/expression-arg", "heatmap-density/basic",
        ] {
            cases[name] = "no runtime state in a static render: feature-state, heatmap-density and elevation are null"
        }
        for name in [
            "format/implicit", "format/implicit-coerce", "format/implicit-omit", "image/basic", "image/coalesce",
            "image/compound", "interpolate-hcl/linear-color-array", "interpolate-lab/linear-color-array",
            "interpolate/linear-color-array", "interpolate/linear-number-array",
            "interpolate/projection/global-state", "interpolate/projection/linear",
            "interpolate/projection/same-from-to",
        ] {
            cases[name] =
                "a value MapRaster represents otherwise: formatted sections (with vertical-align), resolved images, padding, number and color arrays, projections"
        }
        for name in [
            "legacy/categorical/array", "legacy/categorical/boolean", "legacy/categorical/color",
            "legacy/categorical/number", "legacy/categorical/string", "legacy/identity/array",
            "legacy/identity/array-default", "legacy/identity/boolean", "legacy/identity/boolean-default",
            "legacy/identity/color", "legacy/identity/color-default", "legacy/identity/color_array",
            "legacy/identity/enum-default", "legacy/identity/number", "legacy/identity/number-default",
            "legacy/identity/number_array", "legacy/identity/padding", "legacy/identity/string",
            "legacy/identity/string-default", "legacy/interval/composite", "legacy/interval/composite-default",
            "legacy/interval/duplicate-stops", "legacy/interval/tokens-zoom",
        ] {
            cases[name] =
                "legacy functions: MapLibre's coercion of an identity or categorical function's output to the property's type and default, composite interval stops and tokens"
        }
        return cases
    }()
}
