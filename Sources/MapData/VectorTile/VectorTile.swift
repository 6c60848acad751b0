import Foundation

/// A Mapbox Vector Tile (specification 2.1), decoded lazily: opening a tile reads only its layer names,
/// and ``layer(named:)`` decodes one layer's features when asked (a style draws a few of a tile's layers).
///
/// The decoder trusts no count or length in the data: every read is bounds-checked, nested messages stay
/// within their parent, and coordinates are checked to fit in 32 bits. Broken data throws
/// ``VectorTileError``; it never traps. The input must already be decompressed (storage readers such as
/// MapStorage's tile sources inflate gzip tiles).
///
/// ```swift
/// let tile = try VectorTile(data: bytes)
/// if let roads = try tile.layer(named: "transportation") {
///     for feature in roads.features where feature.properties["class"]?.string == "primary" { ... }
/// }
/// ```
public struct VectorTile: Sendable {
    /// The largest layer extent accepted: 2^24. Real encoders use 4096 (the default), 512 to 16384;
    /// anything far larger is hostile or broken.
    public static let maximumExtent: UInt64 = 1 << 24

    private let bytes: [UInt8]
    private let index: [(name: String, range: Range<Int>)]

    /// The names of the tile's layers, in file order (a name repeated in a broken tile is listed once;
    /// the first layer of that name is used).
    public let layerNames: [String]

    /// Opens a tile, reading its layer names.
    ///
    /// - Parameter data: the uncompressed protocol-buffers bytes.
    /// - Throws: ``VectorTileError/malformed(offset:reason:)`` when the tile's structure is broken,
    ///   ``VectorTileError/badLayer(layer:reason:)`` for a layer without a name.
    public init(data: Data) throws(VectorTileError) {
        try self.init(bytes: [UInt8](data))
    }

    /// Opens a tile from its bytes, reading its layer names.
    ///
    /// - Throws: as ``init(data:)``.
    public init(bytes: [UInt8]) throws(VectorTileError) {
        self.bytes = bytes
        var index: [(name: String, range: Range<Int>)] = []
        var seen = Set<String>()
        var names: [String] = []
        do {
            var reader = ProtobufReader(bytes, range: 0..<bytes.count)
            while let (field, wireType) = try reader.readTag() {
                guard field == 3 else {
                    try reader.skip(wireType)
                    continue
                }
                guard wireType == .lengthDelimited else {
                    throw ProtobufReader.Malformed(offset: reader.position, reason: "a layer is not a message")
                }
                let range = try reader.readLengthDelimited()
                var layer = reader.nested(range)
                var name: String?
                while let (layerField, layerWire) = try layer.readTag() {
                    if layerField == 1, layerWire == .lengthDelimited {
                        name = layer.string(try layer.readLengthDelimited())
                    } else {
                        try layer.skip(layerWire)
                    }
                }
                guard let name else {
                    throw VectorTileError.badLayer(layer: "#\(index.count + 1)", reason: "the layer has no name")
                }
                if seen.insert(name).inserted {
                    names.append(name)
                    index.append((name, range))
                }
            }
        } catch let error as ProtobufReader.Malformed {
            throw .malformed(offset: error.offset, reason: error.reason)
        } catch let error as VectorTileError {
            throw error
        } catch {
            throw .malformed(offset: 0, reason: "\(error)")
        }
        self.index = index
        self.layerNames = names
    }

    /// Decodes the layer named `name`, or returns nil when the tile has no such layer.
    ///
    /// Each call decodes again: keep the result rather than asking twice.
    ///
    /// - Throws: ``VectorTileError`` when the layer's data is broken.
    public func layer(named name: String) throws(VectorTileError) -> VectorTileLayer? {
        guard let entry = index.first(where: { $0.name == name }) else { return nil }
        return try VectorTileLayer(decoding: ProtobufReader(bytes, range: entry.range), name: name)
    }

    /// Decodes every layer, in file order.
    ///
    /// - Throws: ``VectorTileError`` when any layer's data is broken.
    public func layers() throws(VectorTileError) -> [VectorTileLayer] {
        var layers: [VectorTileLayer] = []
        for entry in index {
            layers.append(try VectorTileLayer(decoding: ProtobufReader(bytes, range: entry.range), name: entry.name))
        }
        return layers
    }
}
