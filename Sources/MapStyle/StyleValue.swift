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

    /// Converts decoded JSON; objects become null (the subset has no object values).
    public init(_ json: JSONValue) {
        switch json {
        case .null, .object: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(StyleValue.init))
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

    /// The value as text, as `to-string` and `{field}` tokens show it.
    public var text: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n):
            return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return s
        case .color(let c): return c.hexString
        case .array(let items): return items.map(\.text).joined(separator: ",")
        case .formatted(let sections): return sections.map(\.text).joined()
        case .collator(let c): return "[collator \(c.locale ?? "default")]"
        }
    }
}
