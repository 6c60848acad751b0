import MapData
import MapGeometry

/// A value produced by evaluating a style expression.
///
/// Mirrors the value types of the MapLibre style specification: null, boolean, number, string, color
/// arrays, formatted text and collators.
public enum StyleValue: Sendable, Equatable {
    /// No value (a missing property).
    case null
    /// A boolean.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// A color (parsed when a style is read).
    case color(Color)
    /// An array.
    case array([StyleValue])
    /// Formatted text, the value of a `format` expression: sections of text, each with its own font
    /// stack, scale and color.
    case formatted([FormattedSection])
    /// A collator, the value of a `collator` expression, for string comparisons.
    case collator(Collator)
    /// An object: a JSON object of a literal or a feature property, `properties` (member order is not
    /// kept; `to-string` writes the members sorted by name).
    case object([String: StyleValue])

    /// Converts decoded JSON (of a duplicated object member, the last).
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(StyleValue.init))
        case .object(let members):
            var object: [String: StyleValue] = [:]
            for (key, value) in members { object[key] = StyleValue(value) }
            self = .object(object)
        }
    }

    /// The number, or nil.
    public var number: Double? { if case .number(let v) = self { return v } else { return nil } }
    /// The string, or nil.
    public var string: String? { if case .string(let v) = self { return v } else { return nil } }
    /// The boolean, or nil.
    public var bool: Bool? { if case .bool(let v) = self { return v } else { return nil } }
    /// The array, or nil.
    public var array: [StyleValue]? { if case .array(let v) = self { return v } else { return nil } }
    /// The object's members, or nil.
    public var object: [String: StyleValue]? { if case .object(let v) = self { return v } else { return nil } }

    /// The color, parsing a string when needed; nil when the value is not a color.
    public var color: Color? {
        switch self {
        case .color(let c): return c
        case .string(let s): return try? Color(parsing: s)
        default: return nil
        }
    }

    /// JavaScript-like truthiness used by `!`, `all`, `any` and `case`: only `true` is true.
    public var isTrue: Bool {
        if case .bool(true) = self { return true }
        return false
    }

    /// Whether the value is null (a pattern match, cheaper than `== .null`).
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as text, as `to-string` and `{field}` tokens show it (MapLibre's `toString`: a color as
    /// `rgba(r,g,b,a)`, arrays and objects as JSON).
    public var text: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return Self.numberText(n)
        case .string(let s): return s
        case .color(let c):
            let channels = [c.red, c.green, c.blue].map { String(Int((min(max($0, 0), 1) * 255).rounded())) }
            return "rgba(\(channels.joined(separator: ",")),\(Self.numberText(c.alpha)))"
        case .array, .object: return json
        case .formatted(let sections): return sections.map(\.text).joined()
        case .collator(let c): return "[collator \(c.locale ?? "default")]"
        }
    }

    /// A number as JavaScript writes it for integers and plain decimals (`3`, `0.5`, `-2.25`).
    static func numberText(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }

    /// The value as JSON text (`JSON.stringify`): strings quoted, members sorted by name, a color as its
    /// `rgba(...)` string, null for what JSON cannot write.
    var json: String {
        switch self {
        case .null: return "null"
        case .bool: return text
        case .number(let n): return n.isFinite ? text : "null"
        case .string(let s): return JSONValue.string(s).serialized(pretty: false)
        case .color, .formatted, .collator: return JSONValue.string(text).serialized(pretty: false)
        case .array(let items): return "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            let body = members.keys.sorted().map {
                JSONValue.string($0).serialized(pretty: false) + ":" + (members[$0]?.json ?? "null")
            }
            return "{" + body.joined(separator: ",") + "}"
        }
    }
}
