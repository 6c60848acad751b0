/// A protocol-buffers wire-format reader over one message's bytes that trusts nothing it reads: every
/// varint is at most 10 bytes, every length and fixed-width value lies within the message, and nested
/// messages are read by readers limited to their parent's bounds.
struct ProtobufReader {
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    /// A malformed message; `offset` is the byte offset in the whole buffer.
    struct Malformed: Error {
        var offset: Int
        var reason: String
    }

    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    /// A reader over `bytes[range]`; the range must lie within `bytes` (checked by the callers that make it).
    init(_ bytes: [UInt8], range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "reader range outside the buffer")
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    mutating func readVarint() throws(Malformed) -> UInt64 {
        let start = position
        do { return try Varint.read(bytes, at: &position, end: end) } catch {
            switch error {
            case .truncated: throw Malformed(offset: start, reason: "a varint runs past the end")
            case .tooLong: throw Malformed(offset: start, reason: "a varint is longer than 64 bits")
            }
        }
    }

    /// The next field's number and wire type, or nil at the end of the message.
    mutating func readTag() throws(Malformed) -> (field: UInt64, wireType: WireType)? {
        guard !isAtEnd else { return nil }
        let start = position
        let key = try readVarint()
        guard let wireType = WireType(rawValue: key & 7) else {
            throw Malformed(
                offset: start, reason: "unsupported wire type \(key & 7) (groups are not used by vector tiles)")
        }
        let field = key >> 3
        guard field > 0 else { throw Malformed(offset: start, reason: "field number 0") }
        return (field, wireType)
    }

    /// The byte range of a length-delimited field's contents, checked to lie within this message.
    mutating func readLengthDelimited() throws(Malformed) -> Range<Int> {
        let start = position
        let length = try readVarint()
        guard let count = Int(exactly: length), count <= end - position else {
            throw Malformed(
                offset: start, reason: "a length of \(length) bytes runs past the end (\(end - position) bytes left)")
        }
        defer { position += count }
        return position..<(position + count)
    }

    mutating func readFixed32() throws(Malformed) -> UInt32 {
        guard end - position >= 4 else { throw Malformed(offset: position, reason: "a 32-bit value runs past the end") }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(bytes[position + i]) << (8 * UInt32(i)) }
        position += 4
        return value
    }

    mutating func readFixed64() throws(Malformed) -> UInt64 {
        guard end - position >= 8 else { throw Malformed(offset: position, reason: "a 64-bit value runs past the end") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
        position += 8
        return value
    }

    /// Skips a field's value of the given wire type.
    mutating func skip(_ wireType: WireType) throws(Malformed) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        }
    }

    /// A reader limited to a range this reader returned.
    func nested(_ range: Range<Int>) -> ProtobufReader { ProtobufReader(bytes, range: range) }

    /// The UTF-8 text in `range` (invalid sequences become U+FFFD, as in every MVT reader).
    func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// Reads a packed repeated varint field (or a single unpacked value) into `values`; the caller checks counts.
    mutating func readPackedVarints(
        _ wireType: WireType, into values: inout [UInt32], fieldName: String
    ) throws(Malformed) {
        switch wireType {
        case .lengthDelimited:
            var packed = nested(try readLengthDelimited())
            // Each varint takes at least one byte: reserving by byte count is bounded by the input.
            values.reserveCapacity(values.count + (packed.end - packed.position))
            while !packed.isAtEnd {
                let start = packed.position
                let value = try packed.readVarint()
                guard let value32 = UInt32(exactly: value) else {
                    throw Malformed(offset: start, reason: "\(fieldName) value \(value) does not fit in 32 bits")
                }
                values.append(value32)
            }
        case .varint:
            let start = position
            let value = try readVarint()
            guard let value32 = UInt32(exactly: value) else {
                throw Malformed(offset: start, reason: "\(fieldName) value \(value) does not fit in 32 bits")
            }
            values.append(value32)
        default:
            throw Malformed(
                offset: position, reason: "\(fieldName) has wire type \(wireType.rawValue), expected packed varints")
        }
    }
}
