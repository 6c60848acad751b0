/// A 128-bit content hash (two FNV-1a 64 lanes with different offsets), as hex; used to store identical
/// tiles once. Not cryptographic: a collision is detected by comparing bytes before reuse.
enum ContentHash {
    static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        // Over contiguous memory when the collection has it (`Data` does): iterating `Data` byte by byte
        // through its iterator cost 3 % of a tile pyramid's instructions.
        bytes.withContiguousStorageIfAvailable { hex(buffer: $0) } ?? hex(buffer: Array(bytes))
    }

    private static func hex<C: Collection>(buffer bytes: C) -> String where C.Element == UInt8 {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte ^ 0x5a)) &* 0x0000_0100_0000_01b3
        }
        func h(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return h(a) + h(b)
    }
}
