/// A protocol-buffers wire-format writer (varints, zigzag varints and length-delimited fields), the
/// counterpart of ``ProtobufReader`` for the formats MapRaster writes (glyph PBFs).
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    mutating func writeRawVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    private mutating func writeTag(field: UInt64, wireType: ProtobufReader.WireType) {
        writeRawVarint(field << 3 | wireType.rawValue)
    }

    mutating func writeVarint(field: UInt64, _ value: UInt64) {
        writeTag(field: field, wireType: .varint)
        writeRawVarint(value)
    }

    /// A `sint32`/`sint64` value (zigzag-encoded).
    mutating func writeSignedVarint(field: UInt64, _ value: Int64) {
        writeVarint(field: field, UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func writeBytes(field: UInt64, _ value: [UInt8]) {
        writeTag(field: field, wireType: .lengthDelimited)
        writeRawVarint(UInt64(value.count))
        bytes += value
    }

    mutating func writeString(field: UInt64, _ value: String) {
        writeBytes(field: field, Array(value.utf8))
    }
}
