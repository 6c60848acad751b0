import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

@Suite("The style property table: every name typed, every number ranged")
struct StylePropertyTableTests {
    @Test("every typed name is in the table of exactly the layer type its prefix names, and nowhere else")
    func namesMatchTable() {
        for key in StylePropertyName.allCases {
            for type in StyleLayerType.allCases {
                let listed = type.property(key) != nil
                let expected = key.layerType == nil || key.layerType == type
                #expect(listed == expected, "\(key.rawValue) in \(type.rawValue)")
                #expect(type.property(named: key.rawValue)?.key == type.property(key)?.key)
            }
        }
        // And the other way round: the table holds no name the enumeration lacks.
        for type in StyleLayerType.allCases {
            for spec in type.properties { #expect(StylePropertyName(rawValue: spec.name) == spec.key) }
        }
    }

    @Test("every number property has a range that holds its default; opacities are 0...1")
    func ranges() {
        for type in StyleLayerType.allCases {
            for spec in type.properties where spec.kind == .number || spec.kind == .numberArray {
                #expect(spec.range != nil, "\(spec.name) has no range")
                if let range = spec.range, let d = spec.defaultValue.number {
                    #expect(range.contains(d), "\(spec.name)")
                }
                if spec.name.hasSuffix("-opacity") { #expect(spec.range == 0...1) }
            }
        }
    }

    static func style(_ paint: String) -> Data {
        Data(
            """
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "roads", "type": "line", "source": "s", "paint": {\(paint)}}]}
            """.utf8)
    }

    @Test(
        "a literal outside its range is an error naming the layer, the property and the range",
        arguments: [
            ("\"line-width\": 1e9", "line-width", "0...1000"),
            ("\"line-gap-width\": -1", "line-gap-width", "0...1000"),
            ("\"line-opacity\": 2", "line-opacity", "0...1"),
            ("\"line-width\": [\"interpolate\", [\"linear\"], [\"zoom\"], 1, 1, 10, 1e20]", "line-width", "0...1000"),
            ("\"line-dasharray\": [1, -2]", "line-dasharray", "0...1000"),
        ])
    func refused(paint: String, property: String, range: String) {
        do {
            _ = try Style.decode(Self.style(paint), source: "t.json", baseURL: URL(fileURLWithPath: "/"))
            Issue.record("accepted \(paint)")
        } catch {
            let message = "\(error)"
            #expect(message.contains(property) && message.contains(range), "\(message)")
        }
    }

    @Test("a computed value outside the range is clamped: division by zero gives the default, huge gives the max")
    func clamped() throws {
        let style = try Style.decode(
            Self.style(#""line-width": ["/", ["get", "w"], ["get", "d"]]"#), source: "t.json",
            baseURL: URL(fileURLWithPath: "/"))
        let layer = style.layers[0]
        func width(_ w: Double, _ d: Double) -> Double {
            layer.number(.lineWidth, EvaluationContext(zoom: 1, properties: ["w": .number(w), "d": .number(d)]))
        }
        #expect(width(1e10, 1) == StyleLimits.maximumWidth)
        #expect(width(1, 0) == 1)  // infinite: the default
        #expect(width(0, 0) == 1)  // NaN: the default
        #expect(width(-5, 1) == 0)
        #expect(width(6, 2) == 3)
    }
}
