import Foundation
import MapGeometry

/// A parsed JSON value.
///
/// MapRaster parses JSON itself so that errors can name the line and column of the mistake and large
/// GeoJSON files load without boxing every number.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order; look-ups take the last of duplicate keys.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member named `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.0 == key })?.1
    }

    /// The number, or nil.
    public var number: Double? { if case .number(let v) = self { return v } else { return nil } }
    /// The string, or nil.
    public var string: String? { if case .string(let v) = self { return v } else { return nil } }
    /// The array, or nil.
    public var array: [JSONValue]? { if case .array(let v) = self { return v } else { return nil } }
    /// The object's members, or nil.
    public var members: [(String, JSONValue)]? { if case .object(let v) = self { return v } else { return nil } }
    /// The bool, or nil.
    public var bool: Bool? { if case .bool(let v) = self { return v } else { return nil } }

    /// A short name of the value's kind for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses a JSON text.
    ///
    /// - Throws: ``JSONError`` with the 1-based line and column of the first mistake.
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return try parser.parseDocument()
        }
    }
}

/// A JSON syntax error at a line and column (both 1-based; columns count bytes).
public struct JSONError: MapRasterError, Equatable {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        skipSpace()
        let value = try parseValue()
        skipSpace()
        guard i == bytes.count else { throw error("unexpected \(describeCurrent()) after the end of the JSON value") }
        return value
    }

    func error(_ message: String, at position: Int? = nil) -> JSONError {
        let end = min(position ?? i, bytes.count)
        var line = 1
        var lineStart = 0
        for k in 0..<end where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return JSONError(line: line, column: end - lineStart + 1, message: message)
    }

    func describeCurrent() -> String {
        guard i < bytes.count else { return "end of file" }
        let b = bytes[i]
        if b >= 0x20 && b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
        }
    }

    mutating func parseValue() throws -> JSONValue {
        guard i < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    mutating func expectWord(_ word: String) throws {
        for b in word.utf8 {
            guard i < bytes.count, bytes[i] == b else { throw error("invalid literal, expected '\(word)'") }
            i += 1
        }
    }

    mutating func enter() throws {
        depth += 1
        guard depth <= 512 else { throw error("nesting deeper than 512 levels") }
    }

    mutating func parseObject() throws -> JSONValue {
        var members: [(String, JSONValue)] = []
        try parseMembers { parser, key in members.append((key, try parser.parseValue())) }
        return .object(members)
    }

    /// Reads an object (at its `{`) member by member: `member` reads the value of each key (the parser is
    /// at the value). The one place that knows the object grammar and its error messages.
    mutating func parseMembers(_ member: (inout JSONParser, String) throws -> Void) throws {
        try enter()
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            let key = try parseString()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after member name \"\(key)\"")
            }
            i += 1
            skipSpace()
            try member(&self, key)
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
        depth -= 1
    }

    mutating func parseArray() throws -> JSONValue {
        var items: [JSONValue] = []
        try parseItems { parser in items.append(try parser.parseValue()) }
        return .array(items)
    }

    /// Reads an array (at its `[`) item by item: `item` reads each one (the parser is at it). The one
    /// place that knows the array grammar and its error messages.
    mutating func parseItems(_ item: (inout JSONParser) throws -> Void) throws {
        try enter()
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            try item(&self)
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
        depth -= 1
    }

    mutating func parseString() throws -> String {
        let start = i
        i += 1
        var scalars = String.UnicodeScalarView()
        var runStart = i
        var plain = true
        while true {
            guard i < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                if plain {
                    let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<i]), as: UTF8.self)
                    i += 1
                    return s
                }
                scalars.append(
                    contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<i]), as: UTF8.self)
                        .unicodeScalars)
                i += 1
                return String(scalars)
            }
            if b < 0x20 { throw error("control character in string; escape it") }
            if b == UInt8(ascii: "\\") {
                plain = false
                scalars.append(
                    contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<i]), as: UTF8.self)
                        .unicodeScalars)
                i += 1
                guard i < bytes.count else { throw error("unterminated string", at: start) }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if code >= 0xD800 && code < 0xDC00 {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                        else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        i += 2
                        let low = try parseHex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    i -= 1
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
                runStart = i
                continue
            }
            i += 1
        }
    }

    mutating func parseHex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    mutating func parseNumber() throws -> Double {
        let start = i
        let end = bytes.count
        var k = i
        let negative = bytes[k] == UInt8(ascii: "-")
        if negative { k += 1 }
        // One pass checks the grammar and gathers the digits for the fast path below. Past 15 digits the
        // mantissa stops growing (before it could overflow): such numbers go to strtod.
        var mantissa = 0
        var digitCount = 0
        let integerStart = k
        while k < end {
            let b = bytes[k]
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { break }
            if digitCount < 15 { mantissa = mantissa * 10 + Int(b - UInt8(ascii: "0")) }
            digitCount += 1
            k += 1
        }
        guard k > integerStart else {
            i = k
            throw error("invalid number: expected a digit")
        }
        if bytes[integerStart] == UInt8(ascii: "0"), k - integerStart > 1 {
            throw error("invalid number: leading zeros are not allowed in JSON (RFC 8259)", at: integerStart)
        }
        var fractionDigits = 0
        if k < end, bytes[k] == UInt8(ascii: ".") {
            k += 1
            let fractionStart = k
            while k < end {
                let b = bytes[k]
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { break }
                if digitCount < 15 { mantissa = mantissa * 10 + Int(b - UInt8(ascii: "0")) }
                digitCount += 1
                k += 1
            }
            fractionDigits = k - fractionStart
            guard fractionDigits > 0 else {
                i = k
                throw error("invalid number: expected a digit after '.'")
            }
        }
        var exponent = false
        if k < end, bytes[k] == UInt8(ascii: "e") || bytes[k] == UInt8(ascii: "E") {
            exponent = true
            k += 1
            if k < end, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") { k += 1 }
            let exponentStart = k
            while k < end, bytes[k] >= UInt8(ascii: "0"), bytes[k] <= UInt8(ascii: "9") { k += 1 }
            guard k > exponentStart else {
                i = k
                throw error("invalid number: expected an exponent")
            }
        }
        i = k
        // Clinger's fast path for plain decimals (no exponent, at most 15 significant digits, at most 22
        // after the point): the digits as an integer divided by an exact power of ten. Both are exact
        // Doubles and IEEE division rounds correctly, so the result equals strtod's.
        if !exponent, digitCount <= 15, fractionDigits <= 22 {
            let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        // Anything else (more digits, an exponent) goes through the standard library's correctly rounded
        // conversion; the grammar was checked above, so only overflow to infinity can fail.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            let shown = text.utf8.count > 40 ? "\(text.prefix(20))...\(text.suffix(10))" : text
            throw error(
                "number \(shown) is out of range: JSON numbers must be within +-1.7976931348623157e308", at: start)
        }
        return value
    }

    /// Exact powers of ten up to 10^22 (every one is a Double exactly).
    private static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }
}
