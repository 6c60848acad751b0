import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

/// Expressions specialized at a zoom (``StyleExpression/specialized(atZoom:)``) and layer properties
/// resolved once per draw (``ResolvedStyleProperty``), against the plain evaluator and the layer's own
/// accessors (a second method: every value must be exactly the same), and the spec's arithmetic.
@Suite("Expressions specialized at a zoom and properties resolved per draw")
struct SpecializationTests {
    func expr(_ text: String) throws -> StyleExpression {
        try StyleExpression.decode(try JSONValue.parse(Data(text.utf8)), path: "p")
    }

    /// Feature-dependent, zoom-dependent and mixed expressions, in the shapes the shipped styles use.
    static let expressions: [String] = [
        ##"7"##,
        ##""#ff0000""##,
        ##"["zoom"]"##,
        ##"["interpolate", ["linear"], ["zoom"], 10, 1, 14, 3]"##,
        ##"["interpolate", ["exponential", 1.3], ["zoom"], 8, 0.5, 13, 2, 18, 8]"##,
        ##"["interpolate", ["linear"], ["zoom"], 10, "#000000", 14, "#ffffff"]"##,
        ##"{"stops": [[10, 1], [14, 3]]}"##,
        ##"{"base": 1.5, "stops": [[10, 1], [14, 3]]}"##,
        ##"["step", ["zoom"], 1, 11, 2, 13, 3]"##,
        ##"["step", ["zoom"], ["get", "w"], 12, ["*", 2, ["get", "w"]]]"##,
        ##"["match", ["get", "class"], "a", 1, "b", 2, 3]"##,
        ##"["match", ["get", "class"], ["a", "b"], "#111111", "#222222"]"##,
        // Two matches over the same labels: blended into one.
        ##"["interpolate", ["exponential", 1.3], ["zoom"], 8, ["match", ["get", "class"], "a", 0.9, "b", 1.2, 0.5], 13, ["match", ["get", "class"], "a", 3, "b", 4, 2], 18, ["match", ["get", "class"], "a", 9, "b", 12, 6]]"##,
        // Inputs that divide: not blended (equal inputs may differ by a sign of zero).
        ##"["interpolate", ["linear"], ["zoom"], 10, ["match", ["/", 1, ["get", "w"]], [0.5], 1, 2], 14, ["match", ["/", 1, ["get", "w"]], [0.5], 3, 4]]"##,
        // Labels that differ: kept as an interpolation of the two stops.
        ##"["interpolate", ["linear"], ["zoom"], 10, ["match", ["get", "class"], "a", 1, 2], 14, ["match", ["get", "class"], "b", 5, 6]]"##,
        // A feature-dependent interpolation input: not specialized on it, outputs specialized.
        ##"["interpolate", ["linear"], ["get", "w"], 0, ["zoom"], 10, ["*", 2, ["zoom"]]]"##,
        ##"["match", ["get", "class"], "a", ["interpolate", ["linear"], ["zoom"], 10, 1, 14, 3], ["step", ["zoom"], 0, 12, 5]]"##,
        ##"["match", ["step", ["zoom"], "low", 12, "high"], "low", ["get", "w"], "high", 1, 0]"##,
        ##"["all", ["==", ["geometry-type"], "LineString"], ["match", ["get", "class"], ["a", "b"], true, false], [">=", ["zoom"], 12]]"##,
        ##"["case", [">", ["zoom"], 12], ["get", "w"], 4]"##,
        ##"["coalesce", ["get", "missing"], ["interpolate", ["linear"], ["zoom"], 10, 1, 14, 3]]"##,
        ##"["interpolate", ["linear"], ["zoom"], 10, ["get", "w"], 14, ["*", ["get", "w"], 2]]"##,
        ##"["interpolate-hcl", ["linear"], ["zoom"], 10, "#ff0000", 14, "#0000ff"]"##,
        ##"["==", ["get", "class"], "a"]"##,
        ##"["!=", ["get", "w"], 1]"##,
    ]

    static let zooms: [Double] = [0, 7.5, 8, 10, 10.25, 11, 12, 12.999, 13, 14, 15.5, 18, 22]

    static let features: [[String: StyleValue]] = [
        [:], ["class": .string("a"), "w": .number(2)], ["class": .string("b"), "w": .number(7.5)],
        ["class": .string("c"), "w": .number(0)], ["class": .number(1), "w": .string("x")],
    ]

    @Test("a specialized expression gives exactly what the expression gives at its zoom", arguments: expressions)
    func sameValues(_ text: String) throws {
        let e = try expr(text)
        for zoom in Self.zooms {
            let s = e.specialized(atZoom: zoom)
            for properties in Self.features {
                for geometryType in ["Point", "LineString"] {
                    let context = EvaluationContext(zoom: zoom, properties: properties, geometryType: geometryType)
                    #expect(s.evaluate(context) == e.evaluate(context), "\(text) at zoom \(zoom), \(properties)")
                }
            }
        }
    }

    @Test("zoom functions reduce to the spec's values, and matches over the same labels to one match")
    func shapes() throws {
        // Linear halfway between (10, 1) and (14, 3): 2; outside the stops, the end values.
        #expect(
            try expr(##"["interpolate", ["linear"], ["zoom"], 10, 1, 14, 3]"##).specialized(atZoom: 12)
                == .literal(.number(2)))
        #expect(
            try expr(##"["interpolate", ["linear"], ["zoom"], 10, 1, 14, 3]"##).specialized(atZoom: 3)
                == .literal(.number(1)))
        #expect(try expr(##"["step", ["zoom"], 1, 11, 2, 13, 3]"##).specialized(atZoom: 12) == .literal(.number(2)))
        // Halfway between two matches over the same labels: one match of the midpoints.
        let blended = try expr(
            ##"["interpolate", ["linear"], ["zoom"], 10, ["match", ["get", "class"], "a", 1, 5], 14, ["match", ["get", "class"], "a", 3, 9]]"##
        ).specialized(atZoom: 12)
        #expect(blended == (try expr(##"["match", ["get", "class"], "a", 2, 7]"##)))
        // Feature data is never folded; a zoom that is not finite leaves the expression as it is.
        let match = try expr(##"["match", ["get", "class"], "a", 1, 2]"##)
        #expect(match.specialized(atZoom: 12) == match)
        let zoomFunction = try expr(##"["interpolate", ["linear"], ["zoom"], 10, 1, 14, 3]"##)
        #expect(zoomFunction.specialized(atZoom: .nan) == zoomFunction)
        #expect(zoomFunction.specialized(atZoom: .infinity) == zoomFunction)
    }

    @Test("expressions nested as deep as a style file may nest them specialize without trouble")
    func deepNesting() throws {
        // JSON is refused beyond 512 levels of arrays; each level here is one.
        var zoomFunction = "1"
        var featureFunction = "1"
        for level in 0..<500 {
            zoomFunction = "[\"interpolate\", [\"linear\"], [\"zoom\"], \(level % 20), \(zoomFunction), 30, 2]"
            featureFunction = "[\"match\", [\"get\", \"class\"], \"a\", \(featureFunction), [\"zoom\"]]"
        }
        for text in [zoomFunction, featureFunction] {
            let e = try expr(text)
            for zoom in [3.0, 12.5] {
                let context = EvaluationContext(zoom: zoom, properties: ["class": .string("a")])
                #expect(e.specialized(atZoom: zoom).evaluate(context) == e.evaluate(context))
            }
        }
    }

    @Test(
        "feature-constant expressions read nothing of the feature",
        arguments: [
            (##"1"##, true), (##"["zoom"]"##, true), (##"["interpolate", ["linear"], ["zoom"], 1, 2, 3, 4]"##, true),
            (##"["get", "a"]"##, false), (##"["has", "a"]"##, false), (##"["id"]"##, false),
            (##"["geometry-type"]"##, false), (##"["line-progress"]"##, false), (##"["image", "x"]"##, false),
            (##"["match", ["get", "a"], "x", 1, 2]"##, false), (##"["step", ["zoom"], 1, 5, ["get", "a"]]"##, false),
            (##"["concat", "a", ["to-string", ["zoom"]]]"##, true),
        ])
    func featureConstant(_ text: String, _ constant: Bool) throws {
        #expect(try expr(text).isFeatureConstant == constant)
    }

    @Test("resolved properties give what the layer's accessors give, at the resolved zoom and at others")
    func resolvedMatchesLayer() throws {
        func property(_ text: String) throws -> StyleProperty {
            StyleProperty(json: try JSONValue.parse(Data(text.utf8)), expression: try expr(text))
        }
        let layer = StyleLayer(
            id: "roads", type: .line, source: "s",
            properties: [
                "line-color": try property(
                    ##"["match", ["get", "class"], "a", "#ff0000", "b", "not a color", "#00ff00"]"##),
                "line-width": try property(
                    ##"["interpolate", ["exponential", 1.3], ["zoom"], 8, ["match", ["get", "class"], "a", 0.9, 200000], 18, ["match", ["get", "class"], "a", 9, 400000]]"##
                ),
                "line-opacity": try property(##"["interpolate", ["linear"], ["zoom"], 10, -1, 14, 3]"##),
                "line-dasharray": try property(##"["step", ["zoom"], ["literal", [2, 1]], 12, ["literal", [4, -2]]]"##),
                "line-cap": try property(##""round""##),
                "line-join": try property(##"["match", ["get", "class"], "a", "bevel", "nonsense"]"##),
            ])
        let keys: [StylePropertyName] = [
            .lineColor, .lineWidth, .lineOpacity, .lineDasharray, .lineCap, .lineJoin, .lineBlur, .lineGapWidth,
        ]
        for resolvedZoom in [9.0, 12, 13.5] {
            let resolved = keys.map { ResolvedStyleProperty(layer, $0, at: EvaluationContext(zoom: resolvedZoom)) }
            for zoom in [resolvedZoom, resolvedZoom.rounded(.down) - 1] {
                for properties in Self.features {
                    for maximumWidth in [-1.0, 5, StyleLimits.maximumWidth] {
                        let c = EvaluationContext(zoom: zoom, properties: properties, maximumWidth: maximumWidth)
                        for (key, r) in zip(keys, resolved) {
                            #expect(r.value(c) == layer.value(key, c), "\(key) at \(zoom)")
                            #expect(r.number(c) == layer.number(key, c), "\(key) at \(zoom)")
                            #expect(r.numbers(c) == layer.numbers(key, c), "\(key) at \(zoom)")
                            #expect(r.color(c) == layer.color(key, c), "\(key) at \(zoom)")
                            #expect(r.string(c) == layer.string(key, c), "\(key) at \(zoom)")
                        }
                    }
                }
            }
            #expect(resolved[4].isFeatureConstant && resolved[6].isFeatureConstant && !resolved[0].isFeatureConstant)
            #expect(resolved[4].isSet && !resolved[6].isSet)
        }
    }

    @Test("a layer's resolved properties give what its accessors give, read in any order, at the zoom and at others")
    func resolvedPropertiesMatchLayer() throws {
        func property(_ text: String) throws -> StyleProperty {
            StyleProperty(json: try JSONValue.parse(Data(text.utf8)), expression: try expr(text))
        }
        let long = String(repeating: "x", count: TextLimit.maximumBytes + 10)
        let layer = StyleLayer(
            id: "labels", type: .symbol, source: "s",
            properties: [
                "text-field": try property(##"["get", "name"]"##),
                "text-size": try property(##"["interpolate", ["linear"], ["zoom"], 10, 10, 16, 16]"##),
                "text-color": try property(##"["step", ["zoom"], "#111111", 12, "not a color"]"##),
                "text-halo-color": try property(##"["match", ["get", "class"], "a", "#ff0000", "#00ff00"]"##),
                "text-halo-width": try property(##"["interpolate", ["linear"], ["zoom"], 8, 0.5, 14, 40]"##),
                "text-anchor": try property(##""top-left""##),
                "text-offset": try property(##"["literal", [1, -2]]"##),
                "text-allow-overlap": try property(##"["step", ["zoom"], false, 12, true]"##),
                "icon-image": try property(##"["coalesce", ["image", "shop"], ["image", "dot"]]"##),
                "symbol-placement": try property(##"["step", ["zoom"], "point", 13, "line"]"##),
            ])
        let longLayer = StyleLayer(
            id: "long", type: .symbol, source: "s", properties: ["text-field": try property("\"\(long)\"")])
        let keys: [StylePropertyName] = [
            .textField, .textSize, .textColor, .textHaloColor, .textHaloWidth, .textAnchor, .textOffset,
            .textAllowOverlap, .iconImage, .symbolPlacement, .textPadding, .textRotate, .textMaxWidth,
        ]
        for layer in [layer, longLayer] {
            for resolvedZoom in [9.0, 12, 13.5] {
                // Read in two orders (the first read of a property decides whether it is kept).
                for order in [keys, keys.reversed()] {
                    let resolved = ResolvedStyleProperties(layer, at: EvaluationContext(zoom: resolvedZoom))
                    for zoom in [resolvedZoom, resolvedZoom.rounded(.down) - 1] {
                        for properties in Self.features + [["name": .string("Main Street"), "class": .string("a")]] {
                            for maximumWidth in [-1.0, 5, StyleLimits.maximumWidth] {
                                var c = EvaluationContext(
                                    zoom: zoom, properties: properties, maximumWidth: maximumWidth)
                                c.availableImages = ["dot"]
                                for key in order {
                                    #expect(resolved.value(key, c) == layer.value(key, c), "\(key) at \(zoom)")
                                    #expect(resolved.number(key, c) == layer.number(key, c), "\(key) at \(zoom)")
                                    #expect(resolved.numbers(key, c) == layer.numbers(key, c), "\(key) at \(zoom)")
                                    #expect(resolved.color(key, c) == layer.color(key, c), "\(key) at \(zoom)")
                                    #expect(resolved.string(key, c) == layer.string(key, c), "\(key) at \(zoom)")
                                    #expect(resolved.bool(key, c) == layer.bool(key, c), "\(key) at \(zoom)")
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
