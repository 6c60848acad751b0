/// A feature property value, keeping the protocol-buffers type it was stored with.
///
/// Styles compare numbers as numbers whatever their storage type: use ``number`` for that.
public enum VectorTileValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case float(Float)
    case double(Double)
    /// `int_value` (int64, two's complement varint).
    case int(Int64)
    /// `uint_value` (uint64).
    case uint(UInt64)
    /// `sint_value` (zigzag-encoded int64).
    case sint(Int64)
    case bool(Bool)

    /// The value as a number (integers converted to the nearest `Double`), or nil for strings and booleans.
    public var number: Double? {
        switch self {
        case let .float(value): return Double(value)
        case let .double(value): return value
        case let .int(value), let .sint(value): return Double(value)
        case let .uint(value): return Double(value)
        case .string, .bool: return nil
        }
    }

    /// The string, or nil for other types.
    public var string: String? { if case let .string(value) = self { return value } else { return nil } }

    /// The boolean, or nil for other types.
    public var bool: Bool? { if case let .bool(value) = self { return value } else { return nil } }

    public var description: String {
        switch self {
        case let .string(value): return value
        case let .float(value): return "\(value)"
        case let .double(value): return "\(value)"
        case let .int(value), let .sint(value): return "\(value)"
        case let .uint(value): return "\(value)"
        case let .bool(value): return "\(value)"
        }
    }
}
