import Foundation
import MapCompression
import MapData
import MapGeometry

/// A PMTiles version 3 archive read as a ``TileSource``: the 127-byte header, the root directory (kept in
/// memory), leaf directories (read on demand, a bounded number cached), run-length entries, and internal
/// gzip compression through MapCompression.
///
/// Nothing in the file is trusted: every offset and length is checked against its section and the file
/// size before it is read, directory entry counts against the bytes that hold them, and leaf directories
/// may nest at most ``maximumDirectoryDepth`` deep. Wrong magic bytes or version throw
/// ``StorageError/notPMTiles(path:reason:)``; inconsistencies throw ``StorageError/corruptPMTiles(path:reason:)``.
///
/// ```swift
/// let archive = try PMTilesFile(path: "osm.pmtiles")
/// let bytes = try archive.tile(TileID(z: 14, x: 8529, y: 5974))   // nil where the archive has no tile
/// ```
public final class PMTilesFile: TileSource, @unchecked Sendable {
    /// The deepest chain of leaf directories followed (the specification's writers use one level).
    public static let maximumDirectoryDepth = 4
    /// The largest directory accepted after decompression: 64 MiB (planet archives have leaf
    /// directories of a few hundred kilobytes).
    public static let maximumDirectoryBytes = 64 << 20

    /// Compression codes of the header.
    enum Compression: UInt8 {
        case unknown = 0
        case none = 1
        case gzip = 2
        case brotli = 3
        case zstd = 4
    }

    struct Header {
        var rootOffset: Int, rootLength: Int
        var metadataOffset: Int, metadataLength: Int
        var leavesOffset: Int, leavesLength: Int
        var dataOffset: Int, dataLength: Int
        var internalCompression: Compression
        var tileCompression: Compression
        var tileType: UInt8
        var minZoom: Int, maxZoom: Int
        var bounds: [Double]
    }

    struct Entry {
        var tileID: UInt64
        var offset: Int
        var length: Int
        var runLength: UInt64
    }

    private let reader: RangeReader
    private let header: Header
    private let root: [Entry]
    /// Leaf directories read so far, by offset (at most 64).
    private let leafCache = Locked([Int: [Entry]]())

    public let info: TileSourceInfo
    public var location: String { reader.path }

    /// Opens an archive, reading its header, root directory and metadata.
    ///
    /// - Throws: ``StorageError/unreadable(path:reason:)``, ``StorageError/notPMTiles(path:reason:)``,
    ///   ``StorageError/corruptPMTiles(path:reason:)``.
    public init(path: String) throws {
        let reader = try RangeReader(path: path)
        self.reader = reader
        guard reader.size >= 127 else {
            throw StorageError.notPMTiles(
                path: path, reason: "it has \(reader.size) bytes, less than the 127-byte header")
        }
        let bytes = [UInt8](try reader.read(offset: 0, count: 127))
        guard bytes[0..<7].elementsEqual("PMTiles".utf8) else {
            throw StorageError.notPMTiles(path: path, reason: "it does not start with the magic bytes 'PMTiles'")
        }
        guard bytes[7] == 3 else {
            throw StorageError.notPMTiles(
                path: path,
                reason: "it is version \(bytes[7]); MapRaster reads version 3 (convert older ones with pmtiles convert)"
            )
        }
        let header = try Self.parseHeader(bytes, path: path, fileSize: reader.size)
        self.header = header
        guard header.internalCompression == .none || header.internalCompression == .gzip else {
            throw StorageError.corruptPMTiles(
                path: path,
                reason: "internal compression \(header.internalCompression) is not supported (only none and gzip)")
        }
        var root: [Entry] = []
        var vectorLayers: [String] = []
        var attribution: String?
        var name: String?
        root = try Self.readDirectory(
            reader: reader, header: header, offset: header.rootOffset, length: header.rootLength,
            what: "the root directory")
        if header.metadataLength > 0 {
            let raw = try reader.read(offset: header.metadataOffset, count: header.metadataLength)
            let json = try Self.decompress(raw, header.internalCompression, path: path, what: "the metadata")
            if let parsed = try? JSONValue.parse(json) {
                vectorLayers = vectorLayerIDs(parsed)
                attribution = parsed["attribution"]?.string
                name = parsed["name"]?.string
            }
        }
        self.root = root
        let format: TileDataFormat =
            switch header.tileType {
            case 1: .mvt
            case 2: .png
            case 3: .jpeg
            case 4: .webp
            case 5: .avif
            default: .unknown
            }
        info = TileSourceInfo(
            format: format, minZoom: header.minZoom, maxZoom: header.maxZoom, bounds: header.bounds,
            attribution: attribution, name: name, vectorLayers: vectorLayers)
    }

    /// PMTiles' id of a tile: the tiles of all lower zooms, (4^z - 1) / 3, plus the tile's index along the
    /// Hilbert curve of its zoom.
    public static func tileID(_ tile: TileID) -> UInt64 { PMTilesTileID.id(tile) }

    public func tile(_ id: TileID) throws -> Data? {
        let target = PMTilesTileID.id(id)
        var entries = root
        for depth in 0...Self.maximumDirectoryDepth {
            guard let entry = Self.find(target, in: entries) else { return nil }
            if entry.runLength > 0 {
                let offset = header.dataOffset + entry.offset
                let data = try reader.read(offset: offset, count: entry.length)
                return try tileData(data, id: id)
            }
            guard depth < Self.maximumDirectoryDepth else { break }
            entries = try leaf(offset: entry.offset, length: entry.length)
        }
        throw StorageError.corruptPMTiles(
            path: reader.path,
            reason: "leaf directories nest deeper than \(Self.maximumDirectoryDepth) levels for tile \(id)")
    }

    private func tileData(_ data: Data, id: TileID) throws -> Data? {
        switch header.tileCompression {
        case .gzip:
            do {
                return try Deflate.gunzip(data, limit: TileSourceLimits.inflatedTileBytes)
            } catch {
                throw StorageError.badTile(path: reader.path, tile: "\(id)", reason: "\(error)")
            }
        case .none: return data
        case .unknown: return try inflatedTile(data, path: reader.path, tile: id)
        case .brotli, .zstd:
            throw StorageError.badTile(
                path: reader.path, tile: "\(id)",
                reason:
                    "tiles are \(header.tileCompression)-compressed, which MapRaster cannot inflate (use gzip or none)")
        }
    }

    private func leaf(offset: Int, length: Int) throws -> [Entry] {
        if let cached = leafCache.withLock({ $0[offset] }) { return cached }
        guard offset <= header.leavesLength, length <= header.leavesLength - offset else {
            throw StorageError.corruptPMTiles(
                path: reader.path,
                reason:
                    "a leaf directory at \(offset)+\(length) lies past the end of the leaf section (\(header.leavesLength) bytes)"
            )
        }
        let entries = try Self.readDirectory(
            reader: reader, header: header, offset: header.leavesOffset + offset, length: length,
            what: "the leaf directory at \(offset)")
        leafCache.withLock { cache in
            if cache.count >= 64 { cache.removeAll(keepingCapacity: true) }
            cache[offset] = entries
        }
        return entries
    }

    /// The entry whose tile range holds `target`, or the leaf directory entry that may hold it.
    static func find(_ target: UInt64, in entries: [Entry]) -> Entry? {
        var low = 0
        var high = entries.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if entries[middle].tileID < target {
                low = middle + 1
            } else if entries[middle].tileID > target {
                high = middle - 1
            } else {
                return entries[middle]
            }
        }
        // high is now the last entry with a smaller id.
        guard high >= 0 else { return nil }
        let entry = entries[high]
        if entry.runLength == 0 { return entry }
        return target - entry.tileID < entry.runLength ? entry : nil
    }

    private static func parseHeader(_ bytes: [UInt8], path: String, fileSize: Int) throws -> Header {
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) })
        }
        func section(_ at: Int, _ name: String) throws -> (Int, Int) {
            let offset = u64(at)
            let length = u64(at + 8)
            guard let o = Int(exactly: offset), let l = Int(exactly: length), o <= fileSize, l <= fileSize - o else {
                throw StorageError.corruptPMTiles(
                    path: path,
                    reason: "the \(name) at \(offset)+\(length) lies past the end of the file (\(fileSize) bytes)")
            }
            return (o, l)
        }
        let (rootOffset, rootLength) = try section(8, "root directory")
        let (metadataOffset, metadataLength) = try section(24, "metadata")
        let (leavesOffset, leavesLength) = try section(40, "leaf directories")
        let (dataOffset, dataLength) = try section(56, "tile data")
        guard let internalCompression = Compression(rawValue: bytes[97]),
            let tileCompression = Compression(rawValue: bytes[98])
        else {
            throw StorageError.corruptPMTiles(
                path: path, reason: "unknown compression codes \(bytes[97]), \(bytes[98])")
        }
        let minZoom = Int(bytes[100])
        let maxZoom = Int(bytes[101])
        guard minZoom <= maxZoom, maxZoom <= TileID.maximumZoom else {
            throw StorageError.corruptPMTiles(
                path: path, reason: "zooms \(minZoom)...\(maxZoom) are not within 0...\(TileID.maximumZoom)")
        }
        let bounds = [102, 106, 110, 114].map { Double(i32($0)) / 10_000_000 }
        return Header(
            rootOffset: rootOffset, rootLength: rootLength, metadataOffset: metadataOffset,
            metadataLength: metadataLength, leavesOffset: leavesOffset, leavesLength: leavesLength,
            dataOffset: dataOffset, dataLength: dataLength, internalCompression: internalCompression,
            tileCompression: tileCompression, tileType: bytes[99], minZoom: minZoom, maxZoom: maxZoom, bounds: bounds)
    }

    private static func decompress(_ data: Data, _ compression: Compression, path: String, what: String) throws -> Data
    {
        guard compression == .gzip else { return data }
        do {
            return try Deflate.gunzip(data, limit: maximumDirectoryBytes)
        } catch {
            throw StorageError.corruptPMTiles(path: path, reason: "\(what): \(error)")
        }
    }

    /// Reads and decodes one directory: entry count, then tile id deltas, run lengths, lengths and offsets,
    /// each a column of varints; checks every tile entry against the data section and every leaf entry
    /// against the leaf section.
    static func readDirectory(reader: RangeReader, header: Header, offset: Int, length: Int, what: String) throws
        -> [Entry]
    {
        let path = reader.path
        let raw = try reader.read(offset: offset, count: length)
        let bytes = [UInt8](try decompress(raw, header.internalCompression, path: path, what: what))
        var position = 0
        func corrupt(_ reason: String) -> StorageError { .corruptPMTiles(path: path, reason: "\(what): \(reason)") }
        func varint() throws -> UInt64 {
            do { return try Varint.read(bytes, at: &position, end: bytes.count) } catch {
                switch error {
                case .truncated: throw corrupt("it ends in the middle of a number")
                case .tooLong: throw corrupt("a number is longer than 64 bits")
                }
            }
        }
        let count = try varint()
        // Four varints of at least one byte each per entry.
        guard let n = Int(exactly: count), n <= (bytes.count - position) / 4 else {
            throw corrupt("it claims \(count) entries but holds \(bytes.count) bytes")
        }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
        var last: UInt64 = 0
        for i in 0..<n {
            let (next, overflow) = last.addingReportingOverflow(try varint())
            guard !overflow, i == 0 || next > last else {
                throw corrupt("tile ids do not increase at entry \(i)")
            }
            entries[i].tileID = next
            last = next
        }
        for i in 0..<n { entries[i].runLength = try varint() }
        for i in 0..<n {
            guard let value = Int(exactly: try varint()) else { throw corrupt("entry \(i) has an impossible length") }
            entries[i].length = value
        }
        for i in 0..<n {
            let value = try varint()
            if value == 0 && i > 0 {
                entries[i].offset = entries[i - 1].offset + entries[i - 1].length
            } else {
                guard value > 0, let offset = Int(exactly: value - 1) else {
                    throw corrupt("entry 0 has offset code \(value), which needs a previous entry or fits no file")
                }
                entries[i].offset = offset
            }
            let (section, sectionName) =
                entries[i].runLength > 0
                ? (header.dataLength, "tile data") : (header.leavesLength, "leaf directories")
            guard entries[i].offset <= section, entries[i].length <= section - entries[i].offset else {
                throw corrupt(
                    "entry \(i) points at \(entries[i].offset)+\(entries[i].length), past the end of the \(sectionName) section (\(section) bytes)"
                )
            }
        }
        return entries
    }
}
