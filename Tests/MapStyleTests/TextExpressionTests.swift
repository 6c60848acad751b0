import Foundation
import MapData
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

/// `format`, `number-format`, `collator` and friends. Truth: the MapLibre style specification's
/// examples and render tests (collator/default), and Babel's CLDR formatting for `number-format`
/// (fixtures/fonts/number-format.tsv, made by Scripts/prepare-number-format.py).
@Suite("Text expressions")
struct TextExpressionTests {
    func expression(_ json: String) throws -> StyleExpression {
        try StyleExpression.decode(try JSONValue.parse(Data(json.utf8)), path: "layers.names.layout.text-field")
    }

    func evaluate(_ json: String, _ properties: [String: StyleValue] = [:]) throws -> StyleValue {
        try expression(json).evaluate(EvaluationContext(zoom: 5, properties: properties))
    }

    @Test("format: bilingual sections with scale, font and color; to-string is the concatenation")
    func format() throws {
        let value = try evaluate(
            ##"["format", ["get", "name:latin"], {"font-scale": 1.2, "text-font": ["literal", ["DejaVu Sans Bold"]]}, "\n", {}, ["get", "name:nonlatin"], {"font-scale": 0.8, "text-color": "#ff0000"}]"##,
            ["name:latin": .string("Tokyo"), "name:nonlatin": .string("東京")])
        guard case .formatted(let sections) = value else {
            Issue.record("not formatted: \(value)")
            return
        }
        #expect(
            sections == [
                FormattedSection(text: "Tokyo", scale: 1.2, fontStack: ["DejaVu Sans Bold"]),
                FormattedSection(text: "\n"),
                FormattedSection(text: "東京", scale: 0.8, color: Color(red: 1, green: 0, blue: 0)),
            ])
        #expect(value.text == "Tokyo\n東京")
        let toString = try evaluate(#"["to-string", ["format", "a", {}, 12, {}]]"#)
        #expect(toString == .string("a12"))
        // A missing property is left out (MapLibre drops null sections).
        #expect(try evaluate(#"["format", ["get", "nope"], {}, "x", {}]"#).text == "x")
    }

    @Test(
        "format with wrong section types is a StyleError naming the layer and the section",
        arguments: [
            (#"["format", "a", {"font-scale": "big"}]"#, "font-scale"),
            (#"["format", "a", {"text-font": "DejaVu Sans"}]"#, "text-font"),
            (#"["format", "a", {"text-font": ["literal", [1, 2]]}]"#, "text-font"),
            (#"["format", "a", {"text-color": "not-a-color"}]"#, "text-color"),
            (#"["format", "a", {"font-size": 2}]"#, "font-size"),
            (#"["format", true, {}]"#, "must be a string"),
            (#"["format", {"font-scale": 1}]"#, "options object"),
            (#"["format"]"#, "sections"),
        ])
    func formatErrors(json: String, mention: String) {
        do {
            _ = try expression(json)
            Issue.record("no error for \(json)")
        } catch {
            let message = "\(error)"
            #expect(message.contains("layers.names"), "\(message)")
            #expect(message.contains(mention), "\(message)")
        }
    }

    @Test("A symbol layer's text-field may be formatted text; the layer gives its concatenation")
    func layerText() throws {
        let style = try Style.decode(
            Data(
                #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": ["format", ["get", "a"], {}, " / ", {}, ["get", "b"], {"font-scale": 0.5}]}}]}"#
                    .utf8), source: "t", baseURL: URL(fileURLWithPath: "/"))
        let context = EvaluationContext(zoom: 1, properties: ["a": .string("Wien"), "b": .string("Vienna")])
        #expect(style.layers[0].string(.textField, context) == "Wien / Vienna")
    }

    struct NumberCase: Sendable, CustomStringConvertible {
        var value: Double
        var locale: String
        var currency: String?
        var min: Double?
        var max: Double?
        var expected: String
        var description: String {
            "\(value) \(locale) \(currency ?? "") \(min.map { "\($0)" } ?? "")-\(max.map { "\($0)" } ?? "")"
        }
    }

    static let numberCases: [NumberCase] = {
        guard let text = try? String(contentsOf: Fixtures.url("fonts/number-format.tsv"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 6, let v = Double(f[0]) else { return nil }
            return NumberCase(
                value: v, locale: f[1], currency: f[2].isEmpty ? nil : f[2], min: Double(f[3]), max: Double(f[4]),
                expected: f[5])
        }
    }()

    @Test("number-format table from Babel is there") func numberTable() { #expect(Self.numberCases.count == 224) }

    @Test("number-format writes numbers as CLDR does for en, de, fr, ja", arguments: numberCases)
    func numberFormat(c: NumberCase) {
        let text = NumberFormat.format(
            c.value, locale: c.locale, currency: c.currency, minFractionDigits: c.min, maxFractionDigits: c.max)
        #expect(
            text == c.expected,
            "\(text.unicodeScalars.map { String($0.value, radix: 16) }) vs \(c.expected.unicodeScalars.map { String($0.value, radix: 16) })"
        )
    }

    @Test("number-format as an expression, the style spec's example")
    func numberFormatExpression() throws {
        let v = try evaluate(
            #"["number-format", ["get", "price"], {"locale": "de-DE", "currency": "EUR", "min-fraction-digits": 2}]"#,
            ["price": .number(1234.5)])
        #expect(v == .string("1.234,50\u{00A0}€"))
        #expect(try evaluate(#"["number-format", "x", {}]"#) == .null)
        #expect(throws: StyleError.self) { try expression(#"["number-format", 1, {"digits": 2}]"#) }
    }

    /// MapLibre's render test collator/default: "a" against "Â" with each operator and sensitivity.
    @Test(
        "collator comparisons (MapLibre render test collator/default)",
        arguments: [
            ("==", false, false, true), ("!=", false, false, false), ("<=", true, false, true),
            ("==", true, false, false), ("==", false, true, false), ("<", false, true, true),
            (">", true, true, false),
        ])
    func collator(op: String, caseSensitive: Bool, diacriticSensitive: Bool, expected: Bool) throws {
        let json =
            #"["\#(op)", "a", "Â", ["collator", {"case-sensitive": \#(caseSensitive), "diacritic-sensitive": \#(diacriticSensitive)}]]"#
        #expect(try evaluate(json) == .bool(expected), "\(json)")
    }

    @Test("collator ordering: letters first, then diacritics, then lowercase before uppercase")
    func collatorOrder() {
        let c = Collator(caseSensitive: true, diacriticSensitive: true)
        let words = ["résumé", "Resume", "resume", "apple", "Zebra"]
        let sorted = words.sorted { c.compare($0, $1) < 0 }
        #expect(sorted == ["apple", "resume", "Resume", "résumé", "Zebra"], "\(sorted)")
    }

    @Test("resolved-locale and is-supported-script")
    func locale() throws {
        #expect(
            try evaluate(
                #"["resolved-locale", ["collator", {"case-sensitive": true, "diacritic-sensitive": true, "locale": "en"}]]"#
            )
                == .string("en"))
        #expect(try evaluate(#"["resolved-locale", ["collator", {"locale": "de-AT"}]]"#) == .string("de"))
        #expect(try evaluate(#"["resolved-locale", ["collator", {"locale": "xx"}]]"#) == .string("en"))
        #expect(try evaluate(#"["is-supported-script", "القاهرة"]"#) == .bool(true))
        #expect(throws: StyleError.self) { try expression(#"["collator", {"case": true}]"#) }
    }
}
