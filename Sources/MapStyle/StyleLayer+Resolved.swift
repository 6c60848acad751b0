import MapGeometry

extension StyleExpression {
    /// Whether the expression gives the same value for every feature at one zoom: nothing in it reads
    /// the feature (`get`, `has`, `id`, `geometry-type`), the point along a line (`line-progress`) or the
    /// images a context has (`image`). Such an expression is evaluated once per layer and zoom.
    public var isFeatureConstant: Bool {
        !contains { expression in
            switch expression {
            case .get, .has, .lineProgress, .geometryType, .featureID, .image, .within, .variable: return true
            case .call(let function, let operands): return function.readsFeature && operands.count < 2
            default: return false
            }
        }
    }

    /// Whether the expression reads the feature's geometry (`within`): only then does a renderer give the
    /// evaluation context the feature's ``EvaluationContext/geometry``.
    public var readsGeometry: Bool {
        contains { if case .within = $0 { return true } else { return false } }
    }

    /// Whether the expression may tell `-0` from `0`, which compare equal: it divides (`1 / -0` is
    /// negative infinity) or formats numbers (`number-format` may write `-0`). Equal (`==`) expressions
    /// of this kind may evaluate to different values.
    public var canShowSignOfZero: Bool {
        contains { expression in
            switch expression {
            case .arithmetic(.divide, _), .numberFormat: return true
            default: return false
            }
        }
    }

    /// Whether the expression, or an expression anywhere inside it, satisfies `predicate`.
    public func contains(where predicate: (StyleExpression) -> Bool) -> Bool {
        if predicate(self) { return true }
        func any(_ list: [StyleExpression]) -> Bool { list.contains { $0.contains(where: predicate) } }
        func any(_ optional: StyleExpression?) -> Bool { optional?.contains(where: predicate) ?? false }
        switch self {
        case .literal, .zoom, .get, .has, .lineProgress, .geometryType, .featureID, .variable, .within: return false
        case .image(let a), .not(let a), .text(_, let a), .toNumber(let a), .resolvedLocale(let a),
            .isSupportedScript(let a):
            return a.contains(where: predicate)
        case .call(_, let list), .assertArray(_, _, let list): return any(list)
        case .bind(_, let values, let body): return any(values) || body.contains(where: predicate)
        case .compare(_, let a, let b): return any([a, b])
        case .compareCollated(_, let a, let b, let collator): return any([a, b, collator])
        case .isIn(let needle, _, _): return needle.contains(where: predicate)
        case .all(let list), .any(let list), .coalesce(let list), .concat(let list), .arithmetic(_, let list),
            .assert(_, let list):
            return any(list)
        case .match(let input, let branches, let fallback):
            return any([input, fallback]) || any(branches.map(\.output))
        case .cond(let branches, let fallback):
            return fallback.contains(where: predicate) || any(branches.flatMap { [$0.condition, $0.output] })
        case .interpolate(_, let input, let stops), .interpolateIn(_, _, let input, let stops):
            return input.contains(where: predicate) || any(stops.map(\.output))
        case .step(let input, let base, let stops):
            return any([input, base]) || any(stops.map(\.output))
        case .format(let sections):
            return sections.contains {
                $0.content.contains(where: predicate) || any($0.scale) || any($0.font) || any($0.color)
            }
        case .numberFormat(let input, let options):
            return input.contains(where: predicate) || any(options.locale) || any(options.currency)
                || any(options.minFractionDigits) || any(options.maxFractionDigits)
        case .collator(let caseSensitive, let diacriticSensitive, let locale):
            return any([caseSensitive, diacriticSensitive]) || any(locale)
        }
    }
}

extension StyleExpression {
    /// The expression with what depends only on the zoom worked out at `zoom`: feature-constant parts
    /// become literals, zoom `interpolate`, `step` and `match` keep only the stops or branch the zoom
    /// selects (two `match`es over the same labels blended into one). Evaluated in any context at `zoom`,
    /// it gives exactly what the expression gives; the expression itself for a zoom that is not finite.
    public func specialized(atZoom zoom: Double) -> StyleExpression {
        guard zoom.isFinite else { return self }
        return specialize(EvaluationContext(zoom: zoom)).expression
    }

    /// ``specialized(atZoom:)`` and whether the result is feature-constant, in one pass: a node that is
    /// not a zoom function is tested once (linear in its size) and kept or folded whole.
    private func specialize(_ context: EvaluationContext) -> (expression: StyleExpression, constant: Bool) {
        switch self {
        case .literal: return (self, true)
        case .get, .has, .lineProgress, .geometryType, .featureID, .image, .within, .variable, .bind:
            return (self, false)
        case .interpolate(let kind, let input, let stops):
            let (specializedInput, inputConstant) = input.specialize(context)
            let outputs = stops.map { $0.output.specialize(context) }
            let specializedStops = zip(stops, outputs).map { Stop(input: $0.input, output: $1.expression) }
            guard inputConstant else {
                return (.interpolate(kind, specializedInput, specializedStops), false)
            }
            // Evaluated with the stops already folded: each nested level is worked out once.
            if outputs.allSatisfy(\.constant) {
                return (
                    .literal(StyleExpression.interpolate(kind, specializedInput, specializedStops).evaluate(context)),
                    true
                )
            }
            // As `evaluate` picks the stops.
            guard let x = specializedInput.evaluate(context).number, !stops.isEmpty else {
                return (.literal(.null), true)
            }
            if x <= stops[0].input { return outputs[0] }
            if x >= stops[stops.count - 1].input { return outputs[stops.count - 1] }
            var i = 0
            while stops[i + 1].input < x { i += 1 }
            let t = Self.interpolationFactor(kind, x: x, lower: stops[i].input, upper: stops[i + 1].input)
            if let blended = Self.blendedMatch(outputs[i].expression, outputs[i + 1].expression, t) {
                return (blended, false)
            }
            return (.interpolate(kind, .literal(.number(x)), [specializedStops[i], specializedStops[i + 1]]), false)
        case .step(let input, let base, let stops):
            let (specializedInput, inputConstant) = input.specialize(context)
            guard inputConstant else {
                return (
                    .step(
                        specializedInput, base: base.specialize(context).expression,
                        stops.map { Stop(input: $0.input, output: $0.output.specialize(context).expression) }),
                    false
                )
            }
            guard let x = specializedInput.evaluate(context).number else { return (.literal(.null), true) }
            var result = base
            for stop in stops where x >= stop.input { result = stop.output }
            return result.specialize(context)
        case .match(let input, let branches, let fallback):
            let (specializedInput, inputConstant) = input.specialize(context)
            guard inputConstant else {
                return (
                    .match(
                        specializedInput,
                        branches.map {
                            MatchBranch(labels: $0.labels, output: $0.output.specialize(context).expression)
                        }, fallback: fallback.specialize(context).expression),
                    false
                )
            }
            let value = specializedInput.evaluate(context)
            for branch in branches where branch.labels.contains(value) { return branch.output.specialize(context) }
            return fallback.specialize(context)
        default:
            return isFeatureConstant ? (.literal(evaluate(context)), true) : (self, false)
        }
    }

    /// Two `match`es over the same input and labels with literal outputs, interpolated at `t`: one
    /// `match` of the blended outputs (the same branch is taken in both for any feature: equal inputs
    /// give equal values unless a sign of zero shows). Nil otherwise.
    private static func blendedMatch(_ lower: StyleExpression, _ upper: StyleExpression, _ t: Double)
        -> StyleExpression?
    {
        guard case .match(let input, let a, let fallbackA) = lower,
            case .match(let inputB, let b, let fallbackB) = upper,
            input == inputB, !input.canShowSignOfZero, a.count == b.count, case .literal(let lowFallback) = fallbackA,
            case .literal(let highFallback) = fallbackB
        else { return nil }
        var branches: [MatchBranch] = []
        branches.reserveCapacity(a.count)
        for (x, y) in zip(a, b) {
            guard x.labels == y.labels, case .literal(let low) = x.output, case .literal(let high) = y.output else {
                return nil
            }
            branches.append(MatchBranch(labels: x.labels, output: .literal(blend(low, high, t))))
        }
        return .match(input, branches, fallback: .literal(blend(lowFallback, highFallback, t)))
    }
}

/// One property of a layer looked up once for drawing the layer at one zoom: its spec and expression
/// found once, and its value computed once when it is the same for every feature
/// (``StyleExpression/isFeatureConstant``). Its accessors give exactly what the layer's
/// (``StyleLayer/number(_:_:)``, ``StyleLayer/color(_:_:)``, ...) give for the same context.
///
/// ```swift
/// let width = ResolvedStyleProperty(layer, .lineWidth, at: EvaluationContext(zoom: 14))
/// let w = width.number(featureContext)  // no look-up; evaluated only when the width reads the feature
/// ```
public struct ResolvedStyleProperty: Sendable {
    /// The property.
    public let key: StylePropertyName
    private let spec: StylePropertySpec?
    private let expression: StyleExpression?
    /// ``expression`` specialized at ``zoom`` (``StyleExpression/specialized(atZoom:)``).
    private let specialized: StyleExpression?
    /// The zoom the constant value holds at.
    private let zoom: Double
    /// The value for every feature at ``zoom`` (the default when unset), nil when it depends on the feature.
    private let constant: StyleValue?
    /// ``constant`` as ``StyleLayer/number(_:_:)`` gives it before capping widths.
    private let constantNumber: Double
    private let isWidth: Bool

    /// Resolves `key` of `layer` for contexts at the zoom (and with the available images) of `context`.
    public init(_ layer: StyleLayer, _ key: StylePropertyName, at context: EvaluationContext) {
        self.key = key
        spec = layer.type.property(key)
        expression = layer.properties[key.rawValue]?.expression
        specialized = expression?.specialized(atZoom: context.zoom)
        zoom = context.zoom
        isWidth = StyleLimits.isWidth(key)
        if expression?.isFeatureConstant ?? true {
            let v = StyleLayer.value(expression, spec: spec, context)
            constant = v
            constantNumber = StyleLayer.unclampedNumber(v, spec: spec)
        } else {
            constant = nil
            constantNumber = 0
        }
    }

    /// Whether the style sets the property.
    public var isSet: Bool { expression != nil }

    /// Whether the value is the same for every feature at the resolved zoom.
    public var isFeatureConstant: Bool { constant != nil }

    /// The value for a feature, as ``StyleLayer/value(_:_:)``.
    public func value(_ context: EvaluationContext) -> StyleValue {
        guard context.zoom == zoom else { return StyleLayer.value(expression, spec: spec, context) }
        return constant ?? StyleLayer.value(specialized, spec: spec, context)
    }

    /// A number, as ``StyleLayer/number(_:_:)``.
    public func number(_ context: EvaluationContext) -> Double {
        let clamped =
            constant != nil && context.zoom == zoom
            ? constantNumber : StyleLayer.unclampedNumber(value(context), spec: spec)
        guard isWidth, context.maximumWidth >= 0 else { return clamped }
        return min(clamped, context.maximumWidth)
    }

    /// A number array, as ``StyleLayer/numbers(_:_:)``.
    public func numbers(_ context: EvaluationContext) -> [Double]? {
        StyleLayer.numbers(value(context), spec: spec)
    }

    /// A color, as ``StyleLayer/color(_:_:)``.
    public func color(_ context: EvaluationContext) -> Color? { value(context).color }

    /// A string or enumeration, as ``StyleLayer/string(_:_:)``.
    public func string(_ context: EvaluationContext) -> String {
        let v = value(context)
        return v.isNull ? "" : v.text
    }
}

/// The properties of one layer as a renderer reads them for many features at one zoom: each property the first
/// time it is read is found to be the same for every feature (``StyleExpression/isFeatureConstant``) or not, and
/// the value of one that is is kept. Its accessors give exactly what the layer's (``StyleLayer/number(_:_:)``,
/// ``StyleLayer/value(_:_:)``, ...) give for the same context; a context at another zoom, or a property that
/// reads the feature, is handed to the layer.
///
/// Symbol placement reads dozens of properties per feature and per candidate anchor, most of them constants.
/// Not for sharing between threads: one per drawing of a layer.
public final class ResolvedStyleProperties {
    /// The layer.
    public let layer: StyleLayer
    private let context: EvaluationContext
    /// By ``StylePropertyName/index``: 0 not yet read, 1 the same for every feature, 2 not.
    private var states: [UInt8]
    /// By index, a constant property's value (``StyleLayer/value(_:_:)``'s) and its number before widths are capped.
    private var values: [StyleValue]
    private var numbers: [Double]
    /// By index, a constant property's number array (``StyleLayer/numbers(_:_:)``'s).
    private var arrays: [[Double]?]

    /// The properties of `layer` for contexts at the zoom of `context`, a layer-wide context (no feature).
    public init(_ layer: StyleLayer, at context: EvaluationContext) {
        self.layer = layer
        self.context = context
        let count = StylePropertyName.allCases.count
        states = Array(repeating: 0, count: count)
        values = Array(repeating: .null, count: count)
        numbers = Array(repeating: 0, count: count)
        arrays = Array(repeating: nil, count: count)
    }

    /// The index of `key` when it is the same for every feature at `context`'s zoom; nil otherwise.
    @inline(__always)
    private func constant(_ key: StylePropertyName, _ context: EvaluationContext) -> Int? {
        guard context.zoom == self.context.zoom, let i = key.index, i < states.count else { return nil }
        if states[i] == 0 {
            let resolved = ResolvedStyleProperty(layer, key, at: self.context)
            if resolved.isFeatureConstant {
                values[i] = layer.value(key, self.context)
                numbers[i] = StyleLayer.unclampedNumber(values[i], spec: layer.type.property(key))
                arrays[i] = StyleLayer.numbers(values[i], spec: layer.type.property(key))
                states[i] = 1
            } else {
                states[i] = 2
            }
        }
        return states[i] == 1 ? i : nil
    }

    /// As ``StyleLayer/value(_:_:)``.
    public func value(_ key: StylePropertyName, _ context: EvaluationContext) -> StyleValue {
        guard let i = constant(key, context) else { return layer.value(key, context) }
        return values[i]
    }

    /// As ``StyleLayer/number(_:_:)``.
    public func number(_ key: StylePropertyName, _ context: EvaluationContext) -> Double {
        guard let i = constant(key, context) else { return layer.number(key, context) }
        let clamped = numbers[i]
        guard StyleLimits.isWidth(key), context.maximumWidth >= 0 else { return clamped }
        return min(clamped, context.maximumWidth)
    }

    /// As ``StyleLayer/numbers(_:_:)``.
    public func numbers(_ key: StylePropertyName, _ context: EvaluationContext) -> [Double]? {
        guard let i = constant(key, context) else { return layer.numbers(key, context) }
        return arrays[i]
    }

    /// As ``StyleLayer/color(_:_:)``.
    public func color(_ key: StylePropertyName, _ context: EvaluationContext) -> Color? {
        guard let i = constant(key, context) else { return layer.color(key, context) }
        return values[i].color
    }

    /// As ``StyleLayer/string(_:_:)``.
    public func string(_ key: StylePropertyName, _ context: EvaluationContext) -> String {
        guard let i = constant(key, context) else { return layer.string(key, context) }
        return values[i].isNull ? "" : values[i].text
    }

    /// As ``StyleLayer/bool(_:_:)``.
    public func bool(_ key: StylePropertyName, _ context: EvaluationContext) -> Bool {
        guard let i = constant(key, context) else { return layer.bool(key, context) }
        return values[i] == .bool(true)
    }
}
