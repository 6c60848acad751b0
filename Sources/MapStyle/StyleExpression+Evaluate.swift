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
    /// The feature's id (`["id"]`), null when it has none.
    public var id: StyleValue
    /// How far along its line the evaluated point is, 0...1 (`line-progress`).
    public var lineProgress = 0.0
    /// The largest width the layer accessors give for the widths of ``StyleLimits/widthProperties``, in
    /// points: the drawn image's ceiling (``StyleLimits/widthCeiling(width:height:)``) when drawing,
    /// ``StyleLimits/maximumWidth`` otherwise.
    public var maximumWidth: Double
    /// The names of the images the style's sprites have, for `["image", name]` in `coalesce`; nil: not
    /// known (every image counts as available).
    public var availableImages: Set<String>? = nil
    /// The feature's geometry, for `within`; nil when not known (`within` is then false).
    public var geometry: FeatureGeometry? = nil
    /// The zoom of the tile grid `within` rounds coordinates to (MapLibre's canonical tile zoom); nil:
    /// the zoom level rounded down, at least 0.
    public var tileZoom: Int? = nil
    /// The values `let` bound, innermost last.
    var scope: [(name: String, value: StyleValue)] = []

    /// Creates a context.
    public init(
        zoom: Double, properties: [String: StyleValue] = [:], geometryType: String = "Point", id: StyleValue = .null,
        maximumWidth: Double = StyleLimits.maximumWidth
    ) {
        self.zoom = zoom
        self.properties = properties
        self.geometryType = geometryType
        self.id = id
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
        case .lineProgress: return .number(context.lineProgress)
        case .geometryType: return .string(context.geometryType)
        case .featureID: return context.id
        case .compare(let op, let a, let b):
            return .bool(Self.compare(op, a.evaluate(context), b.evaluate(context)))
        case .compareCollated(let op, let a, let b, let collatorExpression):
            guard case .collator(let collator) = collatorExpression.evaluate(context),
                let x = a.evaluate(context).string, let y = b.evaluate(context).string
            else { return .bool(Self.compare(op, a.evaluate(context), b.evaluate(context))) }
            let order = collator.compare(x, y)
            switch op {
            case .equal: return .bool(order == 0)
            case .notEqual: return .bool(order != 0)
            case .less: return .bool(order < 0)
            case .lessOrEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            case .greaterOrEqual: return .bool(order >= 0)
            }
        case .format(let sections):
            var result: [FormattedSection] = []
            for section in sections {
                let scale = section.scale?.evaluate(context).number.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
                let font = section.font?.evaluate(context).array?.compactMap(\.string).nilIfEmpty
                let color = section.color?.evaluate(context).color
                if case .image(let nameExpression) = section.content {
                    // An inline image: its name, or nothing when the name is not a string.
                    guard let name = nameExpression.evaluate(context).string, !name.isEmpty else { continue }
                    result.append(
                        FormattedSection(
                            text: FormattedSection.imagePlaceholder, scale: scale, fontStack: font, color: color,
                            image: name))
                    continue
                }
                switch section.content.evaluate(context) {
                case .formatted(let inner):
                    for var piece in inner {
                        piece.scale = scale ?? piece.scale
                        piece.fontStack = font ?? piece.fontStack
                        piece.color = color ?? piece.color
                        result.append(piece)
                    }
                case .null: continue
                case let value:
                    result.append(FormattedSection(text: value.text, scale: scale, fontStack: font, color: color))
                }
            }
            return .formatted(result)
        case .numberFormat(let input, let options):
            guard let number = input.evaluate(context).number else { return .null }
            return .string(
                NumberFormat.format(
                    number, locale: options.locale?.evaluate(context).string,
                    currency: options.currency?.evaluate(context).string,
                    minFractionDigits: options.minFractionDigits?.evaluate(context).number,
                    maxFractionDigits: options.maxFractionDigits?.evaluate(context).number))
        case .collator(let caseSensitive, let diacriticSensitive, let locale):
            return .collator(
                Collator(
                    caseSensitive: caseSensitive.evaluate(context).isTrue,
                    diacriticSensitive: diacriticSensitive.evaluate(context).isTrue,
                    locale: locale?.evaluate(context).string))
        case .resolvedLocale(let c):
            guard case .collator(let collator) = c.evaluate(context) else { return .null }
            return .string(collator.resolvedLocale)
        case .image(let name):
            return name.evaluate(context).string.map(StyleValue.string) ?? .null
        case .call(let function, let operands):
            var values: [StyleValue] = []
            values.reserveCapacity(operands.count)
            for i in operands.indices { values.append(operands[i].evaluate(context)) }
            return Self.call(function, values, context)
        case .assertArray(let itemType, let length, let list):
            for item in list {
                let v = item.evaluate(context)
                if Self.isArray(v, itemType: itemType, length: length) { return v }
            }
            return .null
        case .bind(let names, let values, let body):
            var inner = context
            for i in names.indices { inner.scope.append((names[i], values[i].evaluate(context))) }
            return body.evaluate(inner)
        case .variable(let name):
            return context.scope.last(where: { $0.name == name })?.value ?? .null
        case .within(let region):
            guard let geometry = context.geometry else { return .bool(false) }
            let z = context.tileZoom ?? Int(max(0, min(context.zoom.rounded(.down), 30)))
            return .bool(region.contains(geometry, tileZoom: z))
        case .isSupportedScript(let text):
            // Every script is shaped by HarfBuzz and drawn by the font stack or its fallback chain.
            return text.evaluate(context).string == nil ? .null : .bool(true)
        case .isIn(let needle, let list, let negated):
            let value = needle.evaluate(context)
            return .bool(list.contains(value) != negated)
        case .all(let list):
            // Loops over indices rather than closures: no copy of the context or the operands per call.
            for i in list.indices where !list[i].evaluate(context).isTrue { return .bool(false) }
            return .bool(true)
        case .any(let list):
            for i in list.indices where list[i].evaluate(context).isTrue { return .bool(true) }
            return .bool(false)
        case .not(let a): return .bool(!a.evaluate(context).isTrue)
        case .match(let input, let branches, let fallback):
            let value = input.evaluate(context)
            for i in branches.indices where branches[i].labels.contains(value) {
                return branches[i].output.evaluate(context)
            }
            return fallback.evaluate(context)
        case .cond(let branches, let fallback):
            for branch in branches {
                switch branch.condition.evaluate(context) {
                case .bool(true): return branch.output.evaluate(context)
                case .bool(false): continue
                default: return .null  // MapLibre: a condition that is not a boolean is an evaluation error
                }
            }
            return fallback.evaluate(context)
        case .coalesce(let list):
            // MapLibre: an image the style lacks is skipped; when the last item is one, the first image
            // asked for is the result (so that it is reported missing).
            var requested: StyleValue?
            for item in list {
                let v = item.evaluate(context)
                if case .image = item, let name = v.string, let available = context.availableImages,
                    !available.contains(name)
                {
                    requested = requested ?? v
                    continue
                }
                if !v.isNull { return v }
            }
            if case .image = list.last, let requested { return requested }
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
        case .interpolateIn(let space, let kind, let input, let stops):
            let v = StyleExpression.interpolate(kind, input, stops).evaluate(context)
            guard case .color = v, let x = input.evaluate(context).number, stops.count > 1,
                x > stops[0].input, x < stops[stops.count - 1].input
            else { return v }
            var i = 0
            while stops[i + 1].input < x { i += 1 }
            let t = Self.interpolationFactor(kind, x: x, lower: stops[i].input, upper: stops[i + 1].input)
            guard let a = stops[i].output.evaluate(context).color, let b = stops[i + 1].output.evaluate(context).color
            else { return v }
            return .color(ColorSpaces.blend(a, b, t, in: space))
        case .step(let input, let base, let stops):
            guard let x = input.evaluate(context).number else { return .null }
            var result = base
            for stop in stops where x >= stop.input { result = stop.output }
            return result.evaluate(context)
        case .concat(let list):
            let parts = list.map { $0.evaluate(context).text }
            guard parts.reduce(0, { $0 + $1.utf8.count }) <= Self.maximumTextLength else { return .null }
            return .string(parts.joined())
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
            case .null: return .number(0)  // JavaScript's Number(null)
            case .string(let s):
                let trimmed = s.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { return .number(0) }
                return Double(trimmed).map(StyleValue.number) ?? .null
            case .bool(let b): return .number(b ? 1 : 0)
            default: return .null
            }
        case .assert(let type, let list):
            for item in list {
                let v = item.evaluate(context)
                switch (type, v) {
                case (.string, .string), (.number, .number), (.boolean, .bool), (.object, .object): return v
                case (.toColor, .color): return v
                case (.toColor, .string(let s)):
                    if let color = try? Color(parsing: s) { return .color(color) }
                case (.toColor, .array(let items)):
                    let c = items.compactMap(\.number)
                    guard c.count == items.count, c.count == 3 || c.count == 4 else { continue }
                    return .color(
                        Color(
                            red: Color.byte(c[0] / 255), green: Color.byte(c[1] / 255), blue: Color.byte(c[2] / 255),
                            alpha: c.count == 4 ? c[3] : 1))
                default: continue
                }
            }
            return .null
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
        case .cubicBezier(let curve): return curve.solve(p / d)
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

/// Color interpolation in CIE L*a*b* and HCL, with MapLibre's (d3-color's) constants: sRGB adapted to a
/// D50 white (Bradford).
enum ColorSpaces {
    static let xn = 0.96422
    static let yn = 1.0
    static let zn = 0.82521
    static let t0 = 4.0 / 29
    static let t1 = 6.0 / 29
    static let t2 = 3 * t1 * t1
    static let t3 = t1 * t1 * t1

    /// L, a, b of a color (alpha left out).
    static func lab(_ c: Color) -> (l: Double, a: Double, b: Double) {
        func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        func f(_ t: Double) -> Double { t > t3 ? pow(t, 1.0 / 3) : t / t2 + t0 }
        let r = linear(c.red)
        let g = linear(c.green)
        let b = linear(c.blue)
        let x = f((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / xn)
        let y = f((0.2225045 * r + 0.7168786 * g + 0.0606169 * b) / yn)
        let z = f((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / zn)
        return (116 * y - 16, 500 * (x - y), 200 * (y - z))
    }

    /// The sRGB color of L, a, b, each component clamped to 0...1.
    static func rgb(l: Double, a: Double, b: Double, alpha: Double) -> Color {
        func f(_ t: Double) -> Double { t > t1 ? t * t * t : t2 * (t - t0) }
        func gamma(_ v: Double) -> Double {
            let c = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return min(max(c, 0), 1)
        }
        let y0 = (l + 16) / 116
        let x = xn * f(y0 + a / 500)
        let y = yn * f(y0)
        let z = zn * f(y0 - b / 200)
        return Color(
            red: gamma(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
            green: gamma(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z),
            blue: gamma(0.0719453 * x - 0.2289914 * y + 1.4052427 * z), alpha: alpha)
    }

    static func blend(_ from: Color, _ to: Color, _ t: Double, in space: StyleExpression.ColorSpace) -> Color {
        let p = lab(from)
        let q = lab(to)
        let alpha = from.alpha + (to.alpha - from.alpha) * t
        switch space {
        case .lab:
            return rgb(l: p.l + (q.l - p.l) * t, a: p.a + (q.a - p.a) * t, b: p.b + (q.b - p.b) * t, alpha: alpha)
        case .hcl:
            func polar(_ c: (l: Double, a: Double, b: Double)) -> (h: Double, c: Double, l: Double) {
                var h = atan2(c.b, c.a) * 180 / .pi
                if h < 0 { h += 360 }
                return (h, (c.a * c.a + c.b * c.b).squareRoot(), c.l)
            }
            let a = polar(p)
            let b = polar(q)
            var dh = b.h - a.h
            if dh > 180 || dh < -180 { dh -= 360 * (dh / 360).rounded() }
            let h = (a.h + dh * t) * .pi / 180
            let c = a.c + (b.c - a.c) * t
            return rgb(l: a.l + (b.l - a.l) * t, a: cos(h) * c, b: sin(h) * c, alpha: alpha)
        }
    }
}

extension Array {
    /// nil for an empty array.
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
