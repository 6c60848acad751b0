/// The one decoder of unsigned LEB128 varints (7 bits a byte, low first, high bit set on all but the last):
/// protocol buffers (vector tiles), PMTiles directories and the geocoding file all read them through it.
package enum Varint {
    /// Why a varint could not be read.
    package enum Failure: Error, Equatable {
        /// The bytes end before the varint's last byte.
        case truncated
        /// More than 64 bits (a tenth byte above 1, or an eleventh byte).
        case tooLong
    }

    /// Reads the varint at `bytes[position]`, at most up to `end`, and moves `position` past what it read.
    ///
    /// - Throws: ``Failure`` when the bytes end first or the value needs more than 64 bits.
    @inlinable
    package static func read(_ bytes: [UInt8], at position: inout Int, end: Int) throws(Failure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw .truncated }
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 { throw .tooLong }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }
}
