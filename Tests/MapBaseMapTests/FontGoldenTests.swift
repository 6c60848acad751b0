import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Golden images of font stacks")
struct FontGoldenTests {
    @Test("The Tokyo area labelled in Japanese (GeoNames names), a DejaVu-only stack falling back to IPAex Gothic")
    func tokyo() throws {
        #expect(try GoldenCase.check("labels/tokyo-ja").failure == nil)
    }

    @Test("A style whose text-font names no installed family is prepared: the stack falls back (issue 25)")
    func unknownStack() throws {
        let json = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "names", "type": "symbol", "source": "s", "layout": {"text-font": ["Comic Sans MS"]}}]}
            """#
        let style = try Style.decode(Data(json.utf8), source: "t.json", baseURL: URL(fileURLWithPath: "/"))
        _ = try StyledBaseMap(style: style)
        #expect(FontCatalog.default.fallback(for: ["Comic Sans MS"]) != nil)
        let fallback = try FontCatalog(directories: [], fallbackStack: ["DejaVu Sans"])
        _ = try StyledBaseMap(style: style, fonts: fallback)
    }
}

@Suite("Formatted text to sections")
struct FormattedTextTests {
    @Test("A bilingual format value becomes sections with their own stacks, scales and colors")
    func sections() throws {
        let style = try Style.decode(
            Data(
                ##"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": ["format", ["get", "name:latin"], {"text-font": ["literal", ["DejaVu Sans Bold"]]}, "\n", {}, ["get", "name:nonlatin"], {"font-scale": 0.8, "text-color": "#c00000"}]}}]}"##
                    .utf8), source: "t", baseURL: URL(fileURLWithPath: "/"))
        let context = EvaluationContext(
            zoom: 1, properties: ["name:latin": .string("Tokyo"), "name:nonlatin": .string("東京")])
        guard case .formatted(let parts) = style.layers[0].value(.textField, context) else {
            Issue.record("not formatted")
            return
        }
        let sections = try FontCatalog.default.textSections(parts, stack: ["DejaVu Sans"])
        #expect(sections.map(\.text) == ["Tokyo", "\n", "東京"])
        #expect(sections[0].font.path.hasSuffix("DejaVuSans-Bold.ttf"))
        #expect(sections[2].font.path.hasSuffix("DejaVuSans.ttf") && sections[2].scale == 0.8)
        #expect(sections[2].color == Color(red8: 192, green8: 0, blue8: 0))
        let shaped = Font.shape(sections: sections, size: 20, lineHeight: 24)
        #expect(shaped.height == 48)
        #expect(shaped.glyphs.last?.face.path.hasSuffix("ipaexg.ttf") == true)
        // A section's stack of no installed font falls back to the closest installed face (issue 25).
        let fallback = try FontCatalog.default.textSections(
            [FormattedSection(text: "x", fontStack: ["Nope"])], stack: ["DejaVu Sans"])
        #expect(fallback[0].font.path == FontCatalog.default.fallback(for: ["Nope"])?.face.path)
    }
}
