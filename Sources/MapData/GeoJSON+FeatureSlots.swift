import Foundation
import MapGeometry

// Reading a FeatureCollection one feature at a time (issue #11, cold start). A view of Andorra at zoom 16
// needs one of the 241 countries of Natural Earth's 1:50m file, but reading the file converted every
// coordinate of every country. A feature that declares its own extent (RFC 7946 §5 `bbox`) can be located in
// the bytes by a walk that checks the JSON grammar without converting coordinates, and decoded later, alone,
// when a view meets that extent. The grammar is `JSONParser`'s (the walk uses its member and item readers), so
// a text this walk accepts is one `JSONValue.parse` accepts; the GeoJSON checks run when a feature is decoded.

extension GeoJSON {
    /// Where one feature of a FeatureCollection lies in a file's bytes (see ``GeoJSON/featureSlots(_:)``).
    public struct FeatureSlot: Sendable, Equatable {
        /// The feature object's bytes, from its `{` to its `}` (offsets from the start of the data).
        public var bytes: Range<Int>
        /// The feature's own `bbox` member when it can be decoded later, on its own: it has exactly one `bbox`
        /// (4 or 6 finite numbers, `west <= east`, `south <= north` within ±90°) and exactly one `geometry`, an
        /// object with one `type` member naming a geometry type other than GeometryCollection (so that it
        /// decodes to one geometry or to an error). Nil otherwise: decode such a feature at once.
        public var boundingBox: GeoBoundingBox?

        /// Creates a slot.
        public init(bytes: Range<Int>, boundingBox: GeoBoundingBox?) {
            self.bytes = bytes
            self.boundingBox = boundingBox
        }
    }

    /// The features of a FeatureCollection located in `data` without converting their geometry: the whole
    /// text is checked against the JSON grammar, the members of features other than `type` and `bbox` are
    /// skipped.
    ///
    /// Nil unless `data` is valid JSON (as ``JSONValue/parse(_:)`` reads it) whose top level is an object with
    /// exactly one `"type": "FeatureCollection"` member and one `features` array whose every item is an object
    /// with exactly one `"type": "Feature"` member, the first of them with a `bbox` (as ``FeatureSlot/boundingBox``
    /// says: a file whose first feature declares no extent is not walked further); otherwise
    /// ``decodeFeatures(_:source:)`` is the way to read the text (it decodes it or says what is wrong). Work is
    /// proportional to the size of `data`.
    public static func featureSlots(_ data: Data) -> [FeatureSlot]? {
        data.withUnsafeBytes { raw -> [FeatureSlot]? in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            let bytes = parser.bytes
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.i = 3 }
            parser.skipSpace()
            guard parser.i < bytes.count, bytes[parser.i] == UInt8(ascii: "{") else { return nil }
            var slots: [FeatureSlot]?
            var types = 0
            do {
                try parser.parseMembers { parser, key in
                    switch key {
                    case "type":
                        types += 1
                        guard try parser.parseValue() == .string("FeatureCollection") else { throw SlotRefusal() }
                    case "features":
                        guard slots == nil, parser.i < bytes.count, bytes[parser.i] == UInt8(ascii: "[") else {
                            throw SlotRefusal()
                        }
                        var found: [FeatureSlot] = []
                        try parser.parseItems { parser in
                            let slot = try parser.featureSlot()
                            // A file whose first feature declares no extent is not worth walking twice.
                            guard !found.isEmpty || slot.boundingBox != nil else { throw SlotRefusal() }
                            found.append(slot)
                        }
                        slots = found
                    default: try parser.skipValue()
                    }
                }
                parser.skipSpace()
            } catch { return nil }
            guard parser.i == bytes.count, types == 1 else { return nil }
            return slots
        }
    }

    /// Decodes the feature at `slot` of `data` (a slot ``featureSlots(_:)`` gave for the same data), the
    /// `index`th feature of the collection: the feature ``decodeFeatures(_:source:)`` gives for it.
    ///
    /// - Throws: ``GeoJSONError`` naming `source` and `features[index]`; a syntax error's line and column are
    ///   counted from the start of the feature's text, and one not in `data` at all is reported as such.
    public static func decodeFeature(_ data: Data, slot: FeatureSlot, index: Int, source: String) throws
        -> GeoJSONFeature
    {
        let path = "features[\(index)]"
        let node: Node
        do {
            node = try data.withUnsafeBytes { raw throws -> Node in
                let all = raw.bindMemory(to: UInt8.self)
                guard slot.bytes.lowerBound >= 0, slot.bytes.upperBound <= all.count else {
                    throw GeoJSONError.invalid(
                        source: source, path: path, message: "the feature's byte range \(slot.bytes) is not in the data"
                    )
                }
                var parser = JSONParser(bytes: UnsafeBufferPointer(rebasing: all[slot.bytes]))
                guard parser.bytes.first == UInt8(ascii: "{") else {
                    throw GeoJSONError.invalid(source: source, path: path, message: "expected a feature object")
                }
                let node = try parser.parseGeoJSONObject()
                guard parser.i == parser.bytes.count else {
                    throw parser.error("unexpected \(parser.describeCurrent()) after the end of the feature")
                }
                return node
            }
        } catch let error as JSONError {
            throw GeoJSONError.syntax(source: source, error)
        }
        return try Decoder(source: source).feature(node, path: path)
    }
}

/// The walk of ``GeoJSON/featureSlots(_:)`` found a text it leaves to the full decoder.
private struct SlotRefusal: Error {}

extension JSONParser {
    /// Skips any JSON value, checking it as `parseValue` would read it.
    mutating func skipValue() throws {
        guard i < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): try parseMembers { parser, _ in try parser.skipValue() }
        case UInt8(ascii: "["): try parseItems { parser in try parser.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
        default: _ = try parseValue()
        }
    }

    /// Skips a string; one with escapes or a control byte is read by `parseString` (its checks and errors).
    mutating func skipString() throws {
        var k = i + 1
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") {
                i = k + 1
                return
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            k += 1
        }
        _ = try parseString()
    }

    /// Skips a `coordinates` value: nested arrays of plain numbers (no exponent) in one loop, anything else
    /// (or any irregularity) again from its start by `skipValue`, whose checks and errors are the grammar's.
    mutating func skipCoordinates() throws {
        let start = i
        if skipNumberArrays() { return }
        i = start
        try skipValue()
    }

    /// Skips the nested arrays of numbers at `i` when they are valid JSON and every number is plain (no
    /// exponent, at most 300 integer digits: finite as a Double) and the nesting stays within the parser's
    /// limit; true when it did (then `i` is past them), false otherwise (`i` anywhere).
    private mutating func skipNumberArrays() -> Bool {
        let end = bytes.count
        var k = i
        var level = 0
        // After `[` or `,` a value must come (right after `[`, `]` may).
        var expectValue = true
        var afterOpen = false
        while k < end {
            let b = bytes[k]
            if expectValue {
                if b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "-") {
                    // A number: -? (0 | [1-9][0-9]*) (. [0-9]+)?, no exponent.
                    guard level > 0, let after = plainNumberEnd(from: k) else { return false }
                    k = after
                    expectValue = false
                } else if b == UInt8(ascii: "[") {
                    level += 1
                    guard depth + level <= 512 else { return false }
                    k += 1
                    afterOpen = true
                    continue
                } else if b == UInt8(ascii: "]"), afterOpen {
                    level -= 1
                    k += 1
                    expectValue = false
                    if level == 0 { break }
                } else if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                    k += 1
                    continue
                } else {
                    return false
                }
                afterOpen = false
            } else if b == UInt8(ascii: ",") {
                k += 1
                expectValue = true
            } else if b == UInt8(ascii: "]") {
                level -= 1
                k += 1
                if level == 0 { break }
            } else if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                k += 1
            } else {
                return false
            }
        }
        guard level == 0, k > i else { return false }
        i = k
        return true
    }

    /// Skips any value: in one loop when it is plain JSON (strings without escapes or control bytes, numbers
    /// without exponent, at most 64 levels), otherwise (or on any irregularity) again from its start by
    /// `skipValue`, whose checks and errors are the grammar's.
    mutating func skipMember() throws {
        let start = i
        if skipPlainValue() { return }
        i = start
        try skipValue()
    }

    /// Skips the plain value at `i` (see ``skipMember()``); true when it did (then `i` is past it), false
    /// otherwise (`i` anywhere).
    private mutating func skipPlainValue() -> Bool {
        let end = bytes.count
        var k = i
        // One bit per open container, the innermost lowest: 1 for an object.
        var objects: UInt64 = 0
        var level = 0
        var afterOpen = false
        enum Expect { case value, key, colon, comma }
        var expect = Expect.value
        while k < end {
            let b = bytes[k]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                k += 1
                continue
            }
            switch expect {
            case .value:
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                    level += 1
                    guard level <= 64, depth + level <= 512 else { return false }
                    objects = objects << 1 | (b == UInt8(ascii: "{") ? 1 : 0)
                    k += 1
                    afterOpen = true
                    expect = b == UInt8(ascii: "{") ? .key : .value
                    continue
                }
                if b == UInt8(ascii: "]"), afterOpen, objects & 1 == 0 {
                    // An empty array closes: handled as a comma-state close below.
                    expect = .comma
                    continue
                }
                if b == UInt8(ascii: "\"") {
                    guard let after = plainStringEnd(from: k) else { return false }
                    k = after
                } else if b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "-") {
                    guard let after = plainNumberEnd(from: k) else { return false }
                    k = after
                } else {
                    let word: StaticString =
                        b == UInt8(ascii: "t") ? "true" : b == UInt8(ascii: "f") ? "false" : "null"
                    let count = word.utf8CodeUnitCount
                    guard k + count <= end else { return false }
                    for n in 0..<count where bytes[k + n] != word.utf8Start[n] { return false }
                    k += count
                }
                afterOpen = false
                if level == 0 {
                    i = k
                    return true
                }
                expect = .comma
            case .key:
                if b == UInt8(ascii: "}"), afterOpen {
                    expect = .comma
                    continue
                }
                guard b == UInt8(ascii: "\""), let after = plainStringEnd(from: k) else { return false }
                k = after
                afterOpen = false
                expect = .colon
            case .colon:
                guard b == UInt8(ascii: ":") else { return false }
                k += 1
                expect = .value
            case .comma:
                if b == UInt8(ascii: ",") {
                    k += 1
                    expect = objects & 1 == 1 ? .key : .value
                    afterOpen = false
                    continue
                }
                guard b == (objects & 1 == 1 ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                k += 1
                level -= 1
                objects >>= 1
                afterOpen = false
                if level == 0 {
                    i = k
                    return true
                }
            }
        }
        return false
    }

    /// The index after the string starting at `k` (its `"`) when it has no escape and no control byte; nil
    /// otherwise (or when it does not end).
    private func plainStringEnd(from start: Int) -> Int? {
        var k = start + 1
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") { return k + 1 }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            k += 1
        }
        return nil
    }

    /// The index after the plain number starting at `start` (its `-` or first digit): `-? (0 | [1-9][0-9]*)
    /// (. [0-9]+)?` with at most 300 integer digits (finite as a Double) and no exponent; nil when the text
    /// there is not such a number (then the grammar's own reader must look at it).
    @inline(__always) private func plainNumberEnd(from start: Int) -> Int? {
        let end = bytes.count
        var k = start
        if k < end, bytes[k] == UInt8(ascii: "-") { k += 1 }
        let integerStart = k
        k = digitsEnd(from: k)
        let integerDigits = k - integerStart
        guard integerDigits > 0, integerDigits <= 300,
            integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0")
        else { return nil }
        if k < end, bytes[k] == UInt8(ascii: ".") {
            k += 1
            let fractionStart = k
            k = digitsEnd(from: k)
            guard k > fractionStart else { return nil }
        }
        if k < end, bytes[k] | 0x20 == UInt8(ascii: "e") { return nil }
        return k
    }

    /// The index of the first byte at or after `k` that is not an ASCII digit (the end when none): eight
    /// bytes at a time while eight remain (a byte x is a digit when x ^ 0x30 is at most 9: its high nibble
    /// is 0 and adding 6 does not carry into it; bytes before the first non-digit never carry).
    @inline(__always) private func digitsEnd(from start: Int) -> Int {
        var k = start
        let end = bytes.count
        if let base = bytes.baseAddress {
            while k + 8 <= end {
                let t =
                    UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self))
                    ^ 0x3030_3030_3030_3030
                let nonDigits = (t | (t &+ 0x0606_0606_0606_0606)) & 0xF0F0_F0F0_F0F0_F0F0
                if nonDigits != 0 { return k + nonDigits.trailingZeroBitCount / 8 }
                k += 8
            }
        }
        while k < end, bytes[k] &- UInt8(ascii: "0") < 10 { k += 1 }
        return k
    }

    /// One item of a `features` array (see ``GeoJSON/FeatureSlot``).
    fileprivate mutating func featureSlot() throws -> GeoJSON.FeatureSlot {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw SlotRefusal() }
        let start = i
        var types = 0
        var boxes = 0
        var geometries = 0
        var box: GeoBoundingBox?
        var single = false
        try parseMembers { parser, key in
            switch key {
            case "type":
                types += 1
                guard try parser.parseValue() == .string("Feature") else { throw SlotRefusal() }
            case "bbox":
                boxes += 1
                box = GeoJSON.boundingBox(try parser.parseValue())
            case "geometry":
                geometries += 1
                single = try parser.skipGeometry()
            default: try parser.skipMember()
            }
        }
        guard types == 1 else { throw SlotRefusal() }
        return GeoJSON.FeatureSlot(bytes: start..<i, boundingBox: boxes == 1 && geometries == 1 && single ? box : nil)
    }

    /// Skips a feature's `geometry`; true when it is an object with exactly one `type` member, a string naming
    /// a geometry type other than GeometryCollection.
    private mutating func skipGeometry() throws -> Bool {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else {
            try skipValue()
            return false
        }
        var types: [JSONValue] = []
        try parseMembers { parser, key in
            switch key {
            case "type": types.append(try parser.parseValue())
            case "coordinates": try parser.skipCoordinates()
            default: try parser.skipValue()
            }
        }
        guard types.count == 1, case .string(let type) = types[0] else { return false }
        return ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"].contains(type)
    }
}
