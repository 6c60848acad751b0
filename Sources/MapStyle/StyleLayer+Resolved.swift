import MapGeometry

extension StyleExpression {
    /// Whether the expression gives the same value for every feature at one zoom: nothing in it reads
    /// the feature (`get`, `has`, `id`, `geometry-type`), the point along a line (`line-progress`) or the
    /// images a context has (`image`). Such an expression is evaluated once per layer and zoom.
    public var isFeatureConstant: Bool {
        switch self {
        case .literal, .zoom: return true
        case .get, .has, .lineProgress, .geometryType, .featureID, .image: return false
        case .compare(_, let a, let b): return a.isFeatureConstant && b.isFeatureConstant
        case .compareCollated(_, let a, let b, let collator):
            return a.isFeatureConstant && b.isFeatureConstant && collator.isFeatureConstant
        case .isIn(let needle, _, _): return needle.isFeatureConstant
        case .all(let list), .any(let list), .coalesce(let list), .concat(let list), .arithmetic(_, let list),
            .assert(_, let list):
            return list.allSatisfy(\.isFeatureConstant)
        case .not(let a), .text(_, let a), .toNumber(let a), .resolvedLocale(let a), .isSupportedScript(let a):
            return a.isFeatureConstant
        case .match(let input, let branches, let fallback):
            return input.isFeatureConstant && fallback.isFeatureConstant
                && branches.allSatisfy(\.output.isFeatureConstant)
        case .cond(let branches, let fallback):
            return fallback.isFeatureConstant
                && branches.allSatisfy { $0.condition.isFeatureConstant && $0.output.isFeatureConstant }
        case .interpolate(_, let input, let stops), .interpolateIn(_, _, let input, let stops):
            return input.isFeatureConstant && stops.allSatisfy(\.output.isFeatureConstant)
        case .step(let input, let base, let stops):
            return input.isFeatureConstant && base.isFeatureConstant && stops.allSatisfy(\.output.isFeatureConstant)
        case .format(let sections):
            return sections.allSatisfy {
                $0.content.isFeatureConstant && $0.scale?.isFeatureConstant != false
                    && $0.font?.isFeatureConstant != false && $0.color?.isFeatureConstant != false
            }
        case .numberFormat(let input, let options):
            return input.isFeatureConstant && options.locale?.isFeatureConstant != false
                && options.currency?.isFeatureConstant != false
                && options.minFractionDigits?.isFeatureConstant != false
                && options.maxFractionDigits?.isFeatureConstant != false
        case .collator(let caseSensitive, let diacriticSensitive, let locale):
            return caseSensitive.isFeatureConstant && diacriticSensitive.isFeatureConstant
                && locale?.isFeatureConstant != false
        }
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
        if let constant, context.zoom == zoom { return constant }
        return StyleLayer.value(expression, spec: spec, context)
    }

    /// A number, as ``StyleLayer/number(_:_:)``.
    public func number(_ context: EvaluationContext) -> Double {
        let clamped =
            constant != nil && context.zoom == zoom
            ? constantNumber : StyleLayer.unclampedNumber(StyleLayer.value(expression, spec: spec, context), spec: spec)
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
        return v == .null ? "" : v.text
    }
}
