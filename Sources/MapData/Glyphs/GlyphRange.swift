import MapGeometry

/// The glyphs of one font stack for one range of 256 code points: the contents of one glyph PBF file
/// (`{fontstack}/{start}-{end}.pbf` under a style's `glyphs` URL; MapLibre's `glyphs.proto`).
///
/// Reading is as lenient as MapLibre Native's and as strict as safety needs: a broken protocol-buffers
/// structure is an error (``GlyphPBFError``), while a glyph that lacks a required field, lies outside the
/// range, has metrics out of range or a bitmap of the wrong size is left out and counted in
/// ``droppedGlyphs``. Writing (``pbfBytes()``) is deterministic: glyphs in code-point order.
///
/// ```swift
/// let range = try GlyphRange(pbf: bytes, index: 0)   // "0-255.pbf"
/// if let a = range.glyphs[0x61] { print(a.advance) }
/// ```
public struct GlyphRange: Sendable, Equatable {
    /// The number of ranges that cover the code points a glyph PBF can hold, U+0000...U+FFFF (MapLibre's limit).
    public static let count = 256

    /// The range's index: it holds code points `256 * index ..< 256 * (index + 1)`.
    public let index: Int
    /// The font stack name written in the file (informational; MapLibre ignores it).
    public var fontStack: String
    /// The glyphs by code point, all within ``codePoints``.
    public var glyphs: [UInt32: SDFGlyph]
    /// How many glyph messages were left out when reading (see the type's description).
    public private(set) var droppedGlyphs = 0

    /// The code points of range `index`.
    public static func codePoints(ofRange index: Int) -> ClosedRange<UInt32> {
        let start = UInt32(clamping: max(0, min(count - 1, index))) * 256
        return start...(start + 255)
    }

    /// The index of the range that holds `codePoint`, or nil past U+FFFF.
    public static func index(of codePoint: UInt32) -> Int? {
        codePoint <= 0xFFFF ? Int(codePoint >> 8) : nil
    }

    /// The file name of range `index` without its extension, as MapLibre asks for it: `"0-255"`, `"256-511"`.
    public static func name(ofRange index: Int) -> String {
        let range = codePoints(ofRange: index)
        return "\(range.lowerBound)-\(range.upperBound)"
    }

    /// The range index named by a file name such as `"512-767"` (with or without `.pbf`), or nil unless it names
    /// exactly one of the 256 ranges.
    public static func index(named name: String) -> Int? {
        var text = Substring(name)
        if text.hasSuffix(".pbf") { text = text.dropLast(4) }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.allSatisfy(\.isASCII) }),
            let start = Int(parts[0]), let end = Int(parts[1]), start % 256 == 0, end == start + 255,
            start / 256 < count
        else { return nil }
        return start / 256
    }

    /// The code points this range can hold.
    public var codePoints: ClosedRange<UInt32> { Self.codePoints(ofRange: index) }

    /// An empty or filled range; glyphs outside ``codePoints`` are left out.
    public init(index: Int, fontStack: String, glyphs: [SDFGlyph] = []) {
        self.index = max(0, min(Self.count - 1, index))
        self.fontStack = fontStack
        let codePoints = Self.codePoints(ofRange: self.index)
        var byID: [UInt32: SDFGlyph] = [:]
        for glyph in glyphs where codePoints.contains(glyph.id) { byID[glyph.id] = glyph }
        self.glyphs = byID
    }

    /// Reads a glyph PBF that should hold range `index` (`0..<256`).
    ///
    /// - Parameters:
    ///   - pbf: the file's bytes (uncompressed).
    ///   - index: the range the file was asked for; glyphs outside it are left out, as MapLibre does.
    /// - Throws: ``GlyphPBFError`` when the protocol-buffers structure is broken or `index` is out of range.
    public init(pbf: [UInt8], index: Int) throws(GlyphPBFError) {
        guard (0..<Self.count).contains(index) else { throw .badRange(index: index) }
        self.index = index
        self.fontStack = ""
        self.glyphs = [:]
        let codePoints = Self.codePoints(ofRange: index)
        do {
            var file = ProtobufReader(pbf, range: 0..<pbf.count)
            while let (field, wire) = try file.readTag() {
                guard field == 1, wire == .lengthDelimited else {
                    try file.skip(wire)
                    continue
                }
                var stack = file.nested(try file.readLengthDelimited())
                while let (stackField, stackWire) = try stack.readTag() {
                    switch (stackField, stackWire) {
                    case (1, .lengthDelimited):
                        let name = stack.string(try stack.readLengthDelimited())
                        if fontStack.isEmpty { fontStack = String(name.prefix(1024)) }
                    case (3, .lengthDelimited):
                        var message = stack.nested(try stack.readLengthDelimited())
                        if let glyph = try Self.readGlyph(&message), codePoints.contains(glyph.id) {
                            glyphs[glyph.id] = glyph
                        } else {
                            droppedGlyphs += 1
                        }
                    default:
                        try stack.skip(stackWire)
                    }
                }
            }
        } catch {
            throw .malformed(offset: error.offset, reason: error.reason)
        }
    }

    /// One `glyph` message, or nil when it lacks a required field, its metrics are out of range or its bitmap
    /// has the wrong size.
    private static func readGlyph(_ reader: inout ProtobufReader) throws(ProtobufReader.Malformed) -> SDFGlyph? {
        var id: UInt64?
        var width: UInt64?
        var height: UInt64?
        var left: Int64?
        var top: Int64?
        var advance: UInt64?
        var bitmap: Range<Int>?
        while let (field, wire) = try reader.readTag() {
            switch (field, wire) {
            case (1, .varint): id = try reader.readVarint()
            case (2, .lengthDelimited): bitmap = try reader.readLengthDelimited()
            case (3, .varint): width = try reader.readVarint()
            case (4, .varint): height = try reader.readVarint()
            case (5, .varint): left = zigZagDecode(try reader.readVarint())
            case (6, .varint): top = zigZagDecode(try reader.readVarint())
            case (7, .varint): advance = try reader.readVarint()
            default: try reader.skip(wire)
            }
        }
        guard let id, let width, let height, let left, let top, let advance,
            let id32 = UInt32(exactly: id), width <= 255, height <= 255, advance <= 255,
            (-128...127).contains(left), (-128...127).contains(top)
        else { return nil }
        var glyph = SDFGlyph(
            id: id32, width: Int(width), height: Int(height), left: Int(left), top: Int(top), advance: Int(advance),
            bitmap: [])
        let size = glyph.bitmapWidth * glyph.bitmapHeight
        if size > 0 {
            guard let bitmap, bitmap.count == size else { return nil }
            glyph.bitmap = Array(reader.bytes[bitmap])
        }
        return glyph
    }

    private static func zigZagDecode(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// The range as a glyph PBF: one `fontstack` message (``fontStack``, the range's name) with the glyphs in
    /// code-point order. Byte-identical for equal ranges.
    public func pbfBytes() -> [UInt8] {
        var stack = ProtobufWriter()
        stack.writeString(field: 1, fontStack)
        stack.writeString(field: 2, Self.name(ofRange: index))
        for id in glyphs.keys.sorted() {
            guard let glyph = glyphs[id] else { continue }
            var message = ProtobufWriter()
            message.writeVarint(field: 1, UInt64(glyph.id))
            if glyph.hasBitmap { message.writeBytes(field: 2, glyph.bitmap) }
            message.writeVarint(field: 3, UInt64(clamping: max(0, glyph.width)))
            message.writeVarint(field: 4, UInt64(clamping: max(0, glyph.height)))
            message.writeSignedVarint(field: 5, Int64(glyph.left))
            message.writeSignedVarint(field: 6, Int64(glyph.top))
            message.writeVarint(field: 7, UInt64(clamping: max(0, glyph.advance)))
            stack.writeBytes(field: 3, message.bytes)
        }
        var file = ProtobufWriter()
        file.writeBytes(field: 1, stack.bytes)
        return file.bytes
    }
}

/// A glyph PBF that cannot be read. Callers that know the file add its path, font stack and range.
public enum GlyphPBFError: MapRasterError, Equatable {
    /// The protocol-buffers encoding is broken at byte `offset`.
    case malformed(offset: Int, reason: String)
    /// A range index outside `0..<256` (code points past U+FFFF have no glyph PBF).
    case badRange(index: Int)

    public var description: String {
        switch self {
        case let .malformed(offset, reason): return "corrupt glyph PBF at byte \(offset): \(reason)"
        case let .badRange(index):
            return "glyph range \(index) is outside 0...255 (glyph PBFs cover U+0000...U+FFFF in ranges of 256)"
        }
    }
}

/// Where a renderer gets SDF glyphs: glyph PBFs (a style's local `glyphs` template, `--glyphs`, a fonts
/// folder) or distance fields made from installed fonts.
public protocol GlyphRangeProvider: Sendable {
    /// The glyphs of `fontStack` (the font names of a `text-font`, in order) in range `index` (`0..<256`),
    /// or nil when this provider has none for that stack and range.
    ///
    /// - Throws: an error naming the file and range when a file exists but cannot be read.
    func glyphRange(fontStack: [String], index: Int) throws -> GlyphRange?
}

/// A glyph provider that makes each glyph on demand (distance fields of installed fonts), so that a label
/// costs the glyphs it draws rather than whole 256-code-point ranges. ``GlyphStack`` asks it glyph by glyph.
public protocol GlyphProvider: GlyphRangeProvider {
    /// The glyph of `codePoint` in `fontStack`, or nil when no font of the stack (or its fallbacks) maps it.
    ///
    /// - Throws: an error naming the font file when one cannot be read.
    func glyph(fontStack: [String], codePoint: UInt32) throws -> SDFGlyph?

    /// Whether any font answers `fontStack` at all.
    func hasFont(fontStack: [String]) -> Bool
}
