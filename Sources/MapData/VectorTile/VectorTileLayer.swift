/// One decoded layer of a vector tile: its features with their properties and geometries in tile
/// coordinates (0...``extent`` across the tile, y down).
public struct VectorTileLayer: Sendable, Hashable {
    /// The layer's name (a style's `source-layer`).
    public var name: String
    /// The size of the tile in the layer's coordinates (4096 unless the encoder chose otherwise).
    public var extent: Int
    /// The specification version the layer says it follows: 1 or 2.
    public var version: Int
    /// The features in file order. Features of the UNKNOWN geometry type (0) and features without
    /// geometry commands are left out, as the specification allows.
    public var features: [VectorTileFeature]

    /// A layer with the given parts.
    public init(name: String, extent: Int, version: Int, features: [VectorTileFeature]) {
        self.name = name
        self.extent = extent
        self.version = version
        self.features = features
    }

    init(decoding message: ProtobufReader, name: String) throws(VectorTileError) {
        var reader = message
        var featureRanges: [Range<Int>] = []
        var keys: [String] = []
        var values: [VectorTileValue] = []
        var extent: UInt64 = 4096
        var version: UInt64 = 1
        do {
            while let (field, wireType) = try reader.readTag() {
                switch (field, wireType) {
                case (2, .lengthDelimited): featureRanges.append(try reader.readLengthDelimited())
                case (3, .lengthDelimited): keys.append(reader.string(try reader.readLengthDelimited()))
                case (4, .lengthDelimited):
                    let valueRange = try reader.readLengthDelimited()
                    guard let value = try Self.decodeValue(reader.nested(valueRange)) else {
                        throw VectorTileError.badLayer(
                            layer: name, reason: "value \(values.count) has none of the 7 value types")
                    }
                    values.append(value)
                case (5, .varint): extent = try reader.readVarint()
                case (15, .varint): version = try reader.readVarint()
                case (1, .lengthDelimited): _ = try reader.readLengthDelimited()
                case (1...5, _), (15, _):
                    throw ProtobufReader.Malformed(
                        offset: reader.position, reason: "layer field \(field) has the wrong wire type")
                default: try reader.skip(wireType)
                }
            }
        } catch let error as ProtobufReader.Malformed {
            throw .malformed(offset: error.offset, reason: "in layer '\(name)': \(error.reason)")
        } catch let error as VectorTileError {
            throw error
        } catch {
            throw .badLayer(layer: name, reason: "\(error)")
        }
        guard (1...Self.maximumExtent).contains(extent), let extentInt = Int(exactly: extent) else {
            throw .badExtent(layer: name, extent: extent)
        }
        guard version == 1 || version == 2 else {
            throw .badLayer(layer: name, reason: "version \(version) is not supported (expected 1 or 2)")
        }
        var features: [VectorTileFeature] = []
        features.reserveCapacity(featureRanges.count)
        for (number, range) in featureRanges.enumerated() {
            if let feature = try Self.decodeFeature(
                reader.nested(range), number: number, layer: name, keys: keys, values: values,
                legacyWinding: version == 1)
            {
                features.append(feature)
            }
        }
        self.init(name: name, extent: extentInt, version: Int(version), features: features)
    }

    private static var maximumExtent: UInt64 { VectorTile.maximumExtent }

    private static func decodeValue(_ message: ProtobufReader) throws -> VectorTileValue? {
        var reader = message
        var value: VectorTileValue?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (1, .lengthDelimited): value = .string(reader.string(try reader.readLengthDelimited()))
            case (2, .fixed32): value = .float(Float(bitPattern: try reader.readFixed32()))
            case (3, .fixed64): value = .double(Double(bitPattern: try reader.readFixed64()))
            case (4, .varint): value = .int(Int64(bitPattern: try reader.readVarint()))
            case (5, .varint): value = .uint(try reader.readVarint())
            case (6, .varint):
                let raw = try reader.readVarint()
                value = .sint(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
            case (7, .varint): value = .bool(try reader.readVarint() != 0)
            case (1...7, _):
                throw ProtobufReader.Malformed(
                    offset: reader.position, reason: "value field \(field) has the wrong wire type")
            default: try reader.skip(wireType)
            }
        }
        return value
    }

    private static func decodeFeature(
        _ message: ProtobufReader, number: Int, layer: String, keys: [String], values: [VectorTileValue],
        legacyWinding: Bool
    ) throws(VectorTileError) -> VectorTileFeature? {
        var reader = message
        var id: UInt64?
        var type: UInt64 = 0
        var tags: [UInt32] = []
        var commands: [UInt32] = []
        do throws(ProtobufReader.Malformed) {
            while let (field, wireType) = try reader.readTag() {
                switch (field, wireType) {
                case (1, .varint): id = try reader.readVarint()
                case (2, _): try reader.readPackedVarints(wireType, into: &tags, fieldName: "tags")
                case (3, .varint): type = try reader.readVarint()
                case (4, _): try reader.readPackedVarints(wireType, into: &commands, fieldName: "geometry")
                case (1, _), (3, _):
                    throw ProtobufReader.Malformed(
                        offset: reader.position, reason: "feature field \(field) has the wrong wire type")
                default: try reader.skip(wireType)
                }
            }
        } catch {
            throw .malformed(offset: error.offset, reason: "in layer '\(layer)', feature \(number): \(error.reason)")
        }
        guard type <= 3 else { throw .unknownGeometryType(layer: layer, feature: number, type: type) }
        guard type != 0, !commands.isEmpty else { return nil }

        guard tags.count % 2 == 0 else {
            throw .badTags(layer: layer, feature: number, reason: "\(tags.count) tags is not an even number")
        }
        var properties: [String: VectorTileValue] = [:]
        properties.reserveCapacity(tags.count / 2)
        var tagIndex = 0
        while tagIndex < tags.count {
            let key = Int(tags[tagIndex])
            let value = Int(tags[tagIndex + 1])
            guard key < keys.count else {
                throw .badTags(
                    layer: layer, feature: number, reason: "key index \(key) is past the layer's \(keys.count) keys")
            }
            guard value < values.count else {
                throw .badTags(
                    layer: layer, feature: number,
                    reason: "value index \(value) is past the layer's \(values.count) values")
            }
            properties[keys[key]] = values[value]
            tagIndex += 2
        }
        let geometry: VectorTileGeometry
        do throws(GeometryDecoder.Problem) {
            geometry = try GeometryDecoder.decode(commands, type: type, legacyWinding: legacyWinding)
        } catch {
            throw .badGeometry(layer: layer, feature: number, reason: error.reason)
        }
        return VectorTileFeature(id: id, properties: properties, geometry: geometry)
    }
}
