import Foundation
import MapGeometry

/// What an expression is evaluated against: the zoom level and one feature.
public struct EvaluationContext {
    /// The zoom level (MapLibre's: 0 shows the world in 512 points... here in 256-point tiles' terms,
    /// as ``MapViewport/zoomLevel``).
    public var zoom: Double
    /// The feature's properties.
    public var properties: [String: StyleValue]
    /// `Point`, `LineString` or `Polygon`.
    public var geometryType: String
    /// The largest width the layer accessors give for the widths of ``StyleLimits/widthProperties``, in
    /// points: the drawn image's ceiling (``StyleLimits/widthCeiling(width:height:)``) when drawing,
    /// ``StyleLimits/maximumWidth`` otherwise.
    public var maximumWidth: Double

    /// Creates a context.
    public init(
        zoom: Double, properties: [String: StyleValue] = [:], geometryType: String = "Point",
        maximumWidth: Double = StyleLimits.maximumWidth
    ) {
        self.zoom = zoom
        self.properties = properties
        self.geometryType = geometryType
        self.maximumWidth = maximumWidth
    }
}

extension StyleExpression {
    /// Evaluates the expression. Type mismatches give null (callers fall back to the property default),
    /// as MapLibre does at run time.
    public func evaluate(_ context: EvaluationContext) -> StyleValue {
        switch self {
        case .literal(let v): return v
        case .get(let key): return context.properties[key] ?? .null
        case .has(let key): return .bool(context.properties[key] != nil)
        case .zoom: return .number(context.zoom)
        case .geometryType: return .string(context.geometryType)
        case .compare(let op, let a, let b):
            return .bool(Self.compare(op, a.evaluate(context), b.evaluate(context)))
        case .isIn(let needle, let list, let negated):
            let value = needle.evaluate(context)
            return .bool(list.contains(value) != negated)
        case .all(let list): return .bool(list.allSatisfy { $0.evaluate(context).isTrue })
        case .any(let list): return .bool(list.contains { $0.evaluate(context).isTrue })
        case .not(let a): return .bool(!a.evaluate(context).isTrue)
        case .match(let input, let branches, let fallback):
            let value = input.evaluate(context)
            for branch in branches where branch.labels.contains(value) { return branch.output.evaluate(context) }
            return fallback.evaluate(context)
        case .cond(let branches, let fallback):
            for branch in branches where branch.condition.evaluate(context).isTrue {
                return branch.output.evaluate(context)
            }
            return fallback.evaluate(context)
        case .coalesce(let list):
            for item in list {
                let v = item.evaluate(context)
                if v != .null { return v }
            }
            return .null
        case .interpolate(let kind, let input, let stops):
            guard let x = input.evaluate(context).number, !stops.isEmpty else { return .null }
            if x <= stops[0].input { return stops[0].output.evaluate(context) }
            if x >= stops[stops.count - 1].input { return stops[stops.count - 1].output.evaluate(context) }
            var i = 0
            while stops[i + 1].input < x { i += 1 }
            let lower = stops[i]
            let upper = stops[i + 1]
            let t = Self.interpolationFactor(kind, x: x, lower: lower.input, upper: upper.input)
            return Self.blend(lower.output.evaluate(context), upper.output.evaluate(context), t)
        case .step(let input, let base, let stops):
            guard let x = input.evaluate(context).number else { return .null }
            var result = base
            for stop in stops where x >= stop.input { result = stop.output }
            return result.evaluate(context)
        case .concat(let list): return .string(list.map { $0.evaluate(context).text }.joined())
        case .text(let function, let a):
            let s = a.evaluate(context).text
            switch function {
            case .toString: return .string(s)
            case .upcase: return .string(s.uppercased())
            case .downcase: return .string(s.lowercased())
            }
        case .toNumber(let a):
            let v = a.evaluate(context)
            switch v {
            case .number: return v
            case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces)).map(StyleValue.number) ?? .null
            case .bool(let b): return .number(b ? 1 : 0)
            default: return .null
            }
        case .arithmetic(let op, let list):
            let numbers = list.map { $0.evaluate(context).number }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { return .null }
            let values = numbers.map { $0! }
            switch op {
            case .plus: return .number(values.reduce(0, +))
            case .times: return .number(values.reduce(1, *))
            case .minus: return .number(values.count == 1 ? -values[0] : values.dropFirst().reduce(values[0], -))
            case .divide: return .number(values.dropFirst().reduce(values[0], /))
            }
        }
    }

    static func compare(_ op: ComparisonOperator, _ a: StyleValue, _ b: StyleValue) -> Bool {
        switch op {
        case .equal: return a == b
        case .notEqual: return a != b
        default: break
        }
        let order: Bool?
        switch (a, b) {
        case let (.number(x), .number(y)):
            order = op == .less ? x < y : op == .lessOrEqual ? x <= y : op == .greater ? x > y : x >= y
        case let (.string(x), .string(y)):
            order = op == .less ? x < y : op == .lessOrEqual ? x <= y : op == .greater ? x > y : x >= y
        default: order = nil
        }
        return order ?? false
    }

    static func interpolationFactor(_ kind: Interpolation, x: Double, lower: Double, upper: Double) -> Double {
        let d = upper - lower
        guard d > 0 else { return 0 }
        let p = x - lower
        switch kind {
        case .linear: return p / d
        case .exponential(let base):
            if base == 1 { return p / d }
            return (pow(base, p) - 1) / (pow(base, d) - 1)
        }
    }

    static func blend(_ a: StyleValue, _ b: StyleValue, _ t: Double) -> StyleValue {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x + (y - x) * t)
        case let (.array(x), .array(y)) where x.count == y.count:
            return .array(zip(x, y).map { blend($0, $1, t) })
        default:
            if let x = a.color, let y = b.color {
                return .color(
                    Color(
                        red: x.red + (y.red - x.red) * t, green: x.green + (y.green - x.green) * t,
                        blue: x.blue + (y.blue - x.blue) * t, alpha: x.alpha + (y.alpha - x.alpha) * t))
            }
            return t < 1 ? a : b
        }
    }
}
