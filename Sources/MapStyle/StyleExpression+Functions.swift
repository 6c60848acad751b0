import Foundation
import MapGeometry

extension StyleExpression {
    /// The functions of MapLibre's expression set that compute a value from their operands' values:
    /// math, strings and arrays, types and colors, the feature's properties (``call(_:_:)``).
    ///
    /// An operand of the wrong type, or out of range, gives null (MapLibre's evaluation error: the property's
    /// default applies), as every other expression here does.
    public enum Function: String, Sendable, CaseIterable {
        /// `%`: the remainder of a division, with the sign of the dividend (JavaScript's `%`).
        case remainder = "%"
        /// `^`: a power.
        case power = "^"
        case sqrt, log10, ln, log2, sin, cos, tan, asin, acos, atan, abs, ceil, floor
        /// `round`: to the nearest integer, halves away from zero.
        case round
        /// `min`, `max` of one or more numbers.
        case min, max
        /// Constants: `ln2`, `pi`, `e`.
        case ln2, pi, e
        /// `typeof`: the type of a value as MapLibre names it (`number`, `array<string, 2>`, `object`...).
        case typeOf = "typeof"
        /// `length` of a string (in code points, as MapLibre counts) or an array.
        case length
        /// `at`: the item of an array at an integer index.
        case at
        /// `index-of`: the first position of a value in an array, or of a substring (in code points), from an
        /// optional start; -1 when absent.
        case indexOf = "index-of"
        /// `slice`: the items of an array, or the code points of a string, from a start to an optional end
        /// (negative positions count from the end).
        case slice
        /// `in` with an expression haystack: whether an array holds a value, or a string a substring.
        case contains = "in"
        /// `split`: a string cut at every occurrence of a separator.
        case split
        /// `join`: an array of strings joined with a separator.
        case join
        /// `to-boolean`: JavaScript truthiness (false for null, `false`, `0`, NaN and `""`).
        case toBoolean = "to-boolean"
        /// `to-rgba`: a color as `[r, g, b, a]`, channels 0...255 and alpha 0...1.
        case toRGBA = "to-rgba"
        /// `rgb`, `rgba`: a color from channels 0...255 (and alpha 0...1).
        case rgb, rgba
        /// `properties`: the feature's properties as an object.
        case properties
        /// `get` with a computed key or from an object (`["get", key, object]`).
        case get
        /// `has` with a computed key or in an object (`["has", key, object]`).
        case has
        /// `feature-state`: a feature's runtime state; a static render has none, so null.
        case featureState = "feature-state"

        /// The operand counts MapLibre accepts.
        var arity: ClosedRange<Int> {
            switch self {
            case .ln2, .pi, .e, .properties: return 0...0
            case .remainder, .power, .at, .contains, .split, .join: return 2...2
            case .min, .max: return 1...Int.max
            case .indexOf, .slice: return 2...3
            case .rgb: return 3...3
            case .rgba: return 4...4
            case .get, .has: return 1...2
            default: return 1...1
            }
        }

        /// Whether the value depends on the feature even when no operand does.
        var readsFeature: Bool {
            switch self {
            case .properties, .featureState: return true
            case .get, .has: return true  // one operand: the feature's properties
            default: return false
            }
        }
    }

    /// The longest string (in bytes of UTF-8) `concat` and `join` build; longer gives null. Shared `let`
    /// values could otherwise double a string at each level of nesting.
    public static let maximumTextLength = 1 << 20

    /// The value of a function on its operands' values (see ``Function``).
    static func call(_ function: Function, _ values: [StyleValue], _ context: EvaluationContext) -> StyleValue {
        func number(_ i: Int) -> Double? { i < values.count ? values[i].number : nil }
        func unary(_ f: (Double) -> Double) -> StyleValue { number(0).map { .number(f($0)) } ?? .null }
        switch function {
        case .remainder:
            guard let a = number(0), let b = number(1) else { return .null }
            return .number(a.truncatingRemainder(dividingBy: b))
        case .power:
            guard let a = number(0), let b = number(1) else { return .null }
            return .number(Foundation.pow(a, b))
        case .sqrt: return unary { $0.squareRoot() }
        case .log10: return unary(Foundation.log10)
        case .ln: return unary(Foundation.log)
        case .log2: return unary(Foundation.log2)
        case .sin: return unary(Foundation.sin)
        case .cos: return unary(Foundation.cos)
        case .tan: return unary(Foundation.tan)
        case .asin: return unary(Foundation.asin)
        case .acos: return unary(Foundation.acos)
        case .atan: return unary(Foundation.atan)
        case .abs: return unary { Swift.abs($0) }
        case .ceil: return unary { $0.rounded(.up) }
        case .floor: return unary { $0.rounded(.down) }
        case .round: return unary { $0.rounded(.toNearestOrAwayFromZero) }
        case .min, .max:
            let numbers = values.compactMap(\.number)
            guard numbers.count == values.count, let first = numbers.first else { return .null }
            // JavaScript's Math.min/max: NaN wins.
            if numbers.contains(where: \.isNaN) { return .number(.nan) }
            return .number(numbers.dropFirst().reduce(first, function == .min ? Swift.min : Swift.max))
        case .ln2: return .number(M_LN2)
        case .pi: return .number(Double.pi)
        case .e: return .number(M_E)
        case .typeOf: return .string(typeName(values.first ?? .null))
        case .length:
            switch values.first {
            case .string(let s)?: return .number(Double(s.unicodeScalars.count))
            case .array(let items)?: return .number(Double(items.count))
            default: return .null
            }
        case .at:
            guard let index = number(0), case .array(let items)? = values.count > 1 ? values[1] : nil,
                index == index.rounded(), index >= 0, index < Double(items.count)
            else { return .null }
            return items[Int(index)]
        case .indexOf: return indexOf(values)
        case .slice: return slice(values)
        case .contains:
            guard values.count == 2, isComparable(values[0]) else { return .null }
            switch values[1] {
            case .array(let items): return .bool(items.contains(values[0]))
            case .string(let haystack):
                // MapLibre: nothing is in the empty string, and the empty string is in any other.
                let needle = javaScriptString(values[0])
                return .bool(!haystack.isEmpty && (needle.isEmpty || haystack.contains(needle)))
            case .null: return .bool(false)
            default: return .null
            }
        case .split:
            guard let s = values.first?.string, let separator = values.last?.string, values.count == 2 else {
                return .null
            }
            // JavaScript's split: an empty separator cuts between UTF-16 code units; here between characters
            // of the string's scalars, which is the same for text without surrogate pairs.
            if separator.isEmpty { return .array(s.unicodeScalars.map { .string(String($0)) }) }
            return .array(s.components(separatedBy: separator).map(StyleValue.string))
        case .join:
            guard case .array(let items)? = values.first, let separator = values.last?.string, values.count == 2
            else { return .null }
            let strings = items.compactMap(\.string)
            guard strings.count == items.count else { return .null }
            let total = strings.reduce(0) { $0 + $1.utf8.count } + separator.utf8.count * Swift.max(0, items.count - 1)
            guard total <= maximumTextLength else { return .null }
            return .string(strings.joined(separator: separator))
        case .toBoolean:
            switch values.first ?? .null {
            case .null: return .bool(false)
            case .bool(let b): return .bool(b)
            case .number(let n): return .bool(n != 0 && !n.isNaN)
            case .string(let s): return .bool(!s.isEmpty)
            default: return .bool(true)
            }
        case .toRGBA:
            guard let c = values.first?.color else { return .null }
            return .array([c.red * 255, c.green * 255, c.blue * 255, c.alpha].map(StyleValue.number))
        case .rgb, .rgba:
            let channels = values.compactMap(\.number)
            guard channels.count == values.count, channels.count >= 3,
                channels.prefix(3).allSatisfy({ (0...255).contains($0) }),
                channels.count == 3 || (0...1).contains(channels[3])
            else { return .null }
            return .color(
                Color(
                    red: channels[0] / 255, green: channels[1] / 255, blue: channels[2] / 255,
                    alpha: channels.count == 4 ? channels[3] : 1))
        case .properties: return .object(context.properties)
        case .get, .has:
            guard let key = values.first?.string else { return .null }
            let object: [String: StyleValue]?
            if values.count == 2 { object = values[1].object } else { object = context.properties }
            guard let object else { return function == .has ? .bool(false) : .null }
            if function == .has { return .bool(object[key] != nil) }
            return object[key] ?? .null
        case .featureState: return .null
        }
    }

    /// Values `in` and `index-of` look for: booleans, strings, numbers and null.
    private static func isComparable(_ v: StyleValue) -> Bool {
        switch v {
        case .null, .bool, .number, .string: return true
        default: return false
        }
    }

    /// A boolean, number, string or null as JavaScript's `String()` writes it.
    private static func javaScriptString(_ v: StyleValue) -> String { v.isNull ? "null" : v.text }

    private static func indexOf(_ values: [StyleValue]) -> StyleValue {
        guard values.count >= 2, isComparable(values[0]) else { return .null }
        var from = 0
        if values.count == 3 {
            guard let n = values[2].number, n.isFinite else { return .null }
            from = Int(Swift.max(Swift.min(n, 1e9), -1e9))
        }
        switch values[1] {
        case .array(let items):
            if from < 0 { from = Swift.max(0, items.count + from) }
            guard from < items.count else { return .number(-1) }
            return .number(Double(items[from...].firstIndex(of: values[0]) ?? -1))
        case .string(let haystack):
            let needle = javaScriptString(values[0])
            let scalars = Array(haystack.unicodeScalars)
            let target = Array(needle.unicodeScalars)
            var start = Swift.max(0, from)
            while start + target.count <= scalars.count {
                if scalars[start..<start + target.count].elementsEqual(target) { return .number(Double(start)) }
                start += 1
            }
            return .number(-1)
        default: return .null
        }
    }

    private static func slice(_ values: [StyleValue]) -> StyleValue {
        guard values.count >= 2, let startValue = values[1].number else { return .null }
        var endValue: Double?
        if values.count == 3 {
            guard let n = values[2].number else { return .null }
            endValue = n
        }
        func bounds(_ count: Int) -> Range<Int> {
            func position(_ x: Double) -> Int {
                guard !x.isNaN else { return 0 }
                let n = Int(Swift.max(Swift.min(x.rounded(.towardZero), 1e9), -1e9))
                return n < 0 ? Swift.max(0, count + n) : Swift.min(n, count)
            }
            let start = position(startValue)
            let end = endValue.map(position) ?? count
            return start..<Swift.max(start, end)
        }
        switch values[0] {
        case .array(let items): return .array(Array(items[bounds(items.count)]))
        case .string(let s):
            let scalars = Array(s.unicodeScalars)
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[bounds(scalars.count)])
            return .string(String(out))
        default: return .null
        }
    }

    /// MapLibre's name of a value's type (`typeOf` in its `values.ts`, written as its `toString`).
    static func typeName(_ v: StyleValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .color: return "color"
        case .object: return "object"
        case .formatted: return "formatted"
        case .collator: return "collator"
        case .array(let items):
            // The items' common type, else `value`; two array types never count as the same (MapLibre
            // compares type objects, and each array's is its own).
            var itemType: String?
            for item in items {
                let t = typeName(item)
                guard let known = itemType else {
                    itemType = t
                    continue
                }
                if known != t || t.hasPrefix("array") {
                    itemType = "value"
                    break
                }
            }
            return "array<\(itemType ?? "value"), \(items.count)>"
        }
    }

    /// Whether `v` has the type `array<itemType, length>` (either may be nil: any).
    static func isArray(_ v: StyleValue, itemType: String?, length: Int?) -> Bool {
        guard case .array(let items) = v else { return false }
        if let length, items.count != length { return false }
        guard let itemType, itemType != "value" else { return true }
        return items.allSatisfy { typeName($0) == itemType }
    }
}
