import MapData

/// Reads the geocoding file's varints with checked bounds: every read past the end, every oversized count and
/// every coordinate out of range throws ``GeocodingError/badData(file:reason:)``.
struct ByteReader {
    let bytes: [UInt8]
    let file: String
    private(set) var offset: Int

    init(bytes: [UInt8], file: String, offset: Int = 0) {
        self.bytes = bytes
        self.file = file
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    func fail(_ reason: String) -> GeocodingError {
        GeocodingError.badData(file: file, reason: "\(reason) at byte \(offset)")
    }

    /// Checks and skips a fixed prefix.
    mutating func expect(_ prefix: [UInt8]) throws {
        guard remaining >= prefix.count, Array(bytes[offset..<offset + prefix.count]) == prefix else {
            throw fail("not a MapRaster geocoding file (bad magic)")
        }
        offset += prefix.count
    }

    /// An unsigned LEB128 varint of at most 64 bits.
    mutating func varint() throws -> UInt64 {
        do { return try Varint.read(bytes, at: &offset, end: bytes.count) } catch {
            switch error {
            case .truncated: throw fail("truncated varint")
            case .tooLong: throw fail("varint longer than 64 bits")
            }
        }
    }

    /// A zigzag-encoded signed varint.
    mutating func signed() throws -> Int64 {
        let raw = try varint()
        let magnitude = Int64(bitPattern: raw >> 1)
        return raw & 1 == 0 ? magnitude : -magnitude - 1
    }

    /// A count of items each taking at least `minimumBytes` bytes: rejected when the rest of the file cannot
    /// hold that many, so that memory stays proportional to the file.
    mutating func count(_ what: String, minimumBytes: Int = 1) throws -> Int {
        let raw = try varint()
        guard let value = Int(exactly: raw), value <= remaining / max(1, minimumBytes) else {
            throw fail("\(what) count \(raw) exceeds the \(remaining) bytes left")
        }
        return value
    }

    /// An index into a table of `limit` entries.
    mutating func index(_ what: String, limit: Int) throws -> Int32 {
        let raw = try varint()
        guard let value = Int32(exactly: raw), Int(value) < limit else {
            throw fail("\(what) index \(raw) is outside 0..<\(limit)")
        }
        return value
    }

    /// A UTF-8 string of the given byte length.
    mutating func string(length: Int) throws -> String {
        guard length >= 0, length <= remaining else { throw fail("string of \(length) bytes runs past the end") }
        let slice = bytes[offset..<offset + length]
        offset += length
        guard let text = String(validating: slice, as: UTF8.self) else { throw fail("string is not UTF-8") }
        return text
    }

    /// Applies a zigzag delta to a micro-degree coordinate and checks the result against `limit`.
    mutating func coordinate(after previous: Int32, limit: Int64, _ what: String) throws -> Int32 {
        let delta = try signed()
        let (sum, overflow) = Int64(previous).addingReportingOverflow(delta)
        guard !overflow, sum >= -limit, sum <= limit, let value = Int32(exactly: sum) else {
            throw fail("\(what) \(sum) micro-degrees is outside -\(limit)...\(limit)")
        }
        return value
    }
}
