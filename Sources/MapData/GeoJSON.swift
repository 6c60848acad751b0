import Foundation
import MapGeometry

/// A GeoJSON geometry (RFC 7946) with WGS 84 coordinates.
public indirect enum GeoJSONGeometry: Sendable, Equatable {
    case point(LocationCoordinate2D)
    case multiPoint([LocationCoordinate2D])
    case lineString([LocationCoordinate2D])
    case multiLineString([[LocationCoordinate2D]])
    /// Rings: the exterior first, then holes.
    case polygon([[LocationCoordinate2D]])
    case multiPolygon([[[LocationCoordinate2D]]])
    case geometryCollection([GeoJSONGeometry])
}

/// A GeoJSON feature: a geometry (or none) and its properties.
public struct GeoJSONFeature: Sendable, Equatable {
    /// The geometry; nil for a feature with `"geometry": null`.
    public var geometry: GeoJSONGeometry?
    /// The `properties` object; `.null` when absent.
    public var properties: JSONValue
    /// Where the feature sits in its file, such as `features[3]`, for error messages.
    public var location: String
    /// The feature's `id` (a string or a number, RFC 7946 3.2), nil when absent.
    public var id: JSONValue?

    /// Creates a feature.
    public init(geometry: GeoJSONGeometry?, properties: JSONValue, location: String, id: JSONValue? = nil) {
        self.geometry = geometry
        self.properties = properties
        self.location = location
        self.id = id
    }
}

/// A GeoJSON text that is not valid GeoJSON (see ``DocumentError``).
public typealias GeoJSONError = DocumentError

/// Decodes GeoJSON.
public enum GeoJSON {
    /// Decodes a FeatureCollection, a single Feature, or a bare geometry into features.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - source: a name for error messages, usually the file's path.
    /// - Throws: ``GeoJSONError`` naming the source, the place and what is wrong.
    public static func decodeFeatures(_ data: Data, source: String) throws -> [GeoJSONFeature] {
        try decodeFeatures(try document(data, source: source), source: source, path: "")
    }

    /// The parsed document of a GeoJSON file's bytes; a syntax error names `source`.
    static func document(_ data: Data, source: String) throws -> Node {
        do {
            return try data.withUnsafeBytes { raw in
                var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
                return try parser.parseGeoJSONDocument()
            }
        } catch let error as JSONError {
            throw GeoJSONError.syntax(source: source, error)
        }
    }

    /// Decodes an already parsed FeatureCollection, Feature or geometry; `path` prefixes error locations.
    public static func decodeFeatures(_ json: JSONValue, source: String, path: String) throws -> [GeoJSONFeature] {
        try decodeFeatures(Node.value(json), source: source, path: path)
    }

    static func decodeFeatures(_ json: Node, source: String, path: String) throws -> [GeoJSONFeature] {
        let decoder = Decoder(source: source)
        guard let type = json["type"]?.string else {
            throw decoder.invalid(
                path.isEmpty ? "(top level)" : path, "expected a GeoJSON object with a \"type\" member")
        }
        switch type {
        case "FeatureCollection":
            guard let features = json["features"]?.array else {
                throw decoder.invalid(join(path, "features"), "a FeatureCollection needs a \"features\" array")
            }
            return try features.enumerated().map { index, feature in
                try decoder.feature(feature, path: join(path, "features[\(index)]"))
            }
        case "Feature":
            return [try decoder.feature(json, path: path.isEmpty ? "(feature)" : path)]
        default:
            return [GeoJSONFeature(geometry: try decoder.geometry(json, path: path), properties: .null, location: path)]
        }
    }

    /// What ``decodeFeaturesSkippingInvalid(_:source:)`` gives: the valid features, and how many invalid
    /// ones were left out with the first one's error.
    public struct LenientDecoding: Sendable, Equatable {
        /// The valid features, in file order.
        public var features: [GeoJSONFeature] = []
        /// How many features were left out (invalid geometry, coordinates, properties or id).
        public var skipped = 0
        /// The error of the first feature left out.
        public var firstError: GeoJSONError?
        /// How many positions had a latitude beyond ±90° and were kept, folded back as MapLibre projects
        /// them (the latitude with the same sine: 100° is drawn at 80°).
        public var foldedPositions = 0
        /// Where the first folded position is, as `path: [lon, lat]`.
        public var firstFolded: String?
    }

    /// Decodes as ``decodeFeatures(_:source:)`` does, leaving out each invalid feature of a FeatureCollection
    /// (or an invalid single Feature) instead of failing, as MapLibre draws the rest of a source.
    ///
    /// - Throws: ``GeoJSONError`` when the document as a whole is not GeoJSON: not JSON, no `type`, a
    ///   FeatureCollection without a `features` array, an invalid bare geometry.
    public static func decodeFeaturesSkippingInvalid(_ data: Data, source: String) throws -> LenientDecoding {
        try decodeFeaturesSkippingInvalid(try document(data, source: source), source: source, path: "")
    }

    /// ``decodeFeaturesSkippingInvalid(_:source:)`` of an already parsed document; `path` prefixes error
    /// locations.
    public static func decodeFeaturesSkippingInvalid(_ json: JSONValue, source: String, path: String) throws
        -> LenientDecoding
    {
        try decodeFeaturesSkippingInvalid(Node.value(json), source: source, path: path)
    }

    static func decodeFeaturesSkippingInvalid(_ json: Node, source: String, path: String) throws -> LenientDecoding {
        let folds = FoldedLatitudes()
        let decoder = Decoder(source: source, foldedLatitudes: folds)
        var result = LenientDecoding()
        func attempt(_ node: Node, path: String) {
            do { result.features.append(try decoder.feature(node, path: path)) } catch let error as GeoJSONError {
                result.skipped += 1
                if result.firstError == nil { result.firstError = error }
            } catch {
                result.skipped += 1
            }
        }
        switch json["type"]?.string {
        case "FeatureCollection":
            guard let features = json["features"]?.array else {
                throw decoder.invalid(join(path, "features"), "a FeatureCollection needs a \"features\" array")
            }
            result.features.reserveCapacity(features.count)
            for (index, feature) in features.enumerated() { attempt(feature, path: join(path, "features[\(index)]")) }
        case "Feature": attempt(json, path: path.isEmpty ? "(feature)" : path)
        default:
            if json["type"]?.string == nil {
                throw decoder.invalid(
                    path.isEmpty ? "(top level)" : path, "expected a GeoJSON object with a \"type\" member")
            }
            result.features = [
                GeoJSONFeature(geometry: try decoder.geometry(json, path: path), properties: .null, location: path)
            ]
        }
        result.foldedPositions = folds.count
        result.firstFolded = folds.first
        return result
    }

    /// Counts the positions a lenient decoding folded (see ``LenientDecoding/foldedPositions``).
    final class FoldedLatitudes {
        var count = 0
        var first: String?
    }

    static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "." + b }

    struct Decoder {
        let source: String
        /// Set by the lenient decoding: a finite latitude beyond ±90° (with the longitude in range) is kept
        /// as the latitude of the same sine, as MapLibre's GeoJSON tiler projects it, and counted here.
        var foldedLatitudes: FoldedLatitudes? = nil

        func invalid(_ path: String, _ message: String) -> GeoJSONError {
            .invalid(source: source, path: path.isEmpty ? "(top level)" : path, message: message)
        }

        func feature(_ json: Node, path: String) throws -> GeoJSONFeature {
            guard json["type"]?.string == "Feature" else {
                throw invalid(path, "expected an object with \"type\": \"Feature\"")
            }
            let geometryNode = json["geometry"] ?? .value(.null)
            let geometry = geometryNode.isNull ? nil : try self.geometry(geometryNode, path: join(path, "geometry"))
            let properties = json["properties"]?.json ?? .null
            guard properties == .null || properties.members != nil else {
                throw invalid(join(path, "properties"), "must be an object or null, got \(properties.kindName)")
            }
            let id = json["id"].flatMap { $0.isNull ? nil : $0.json }
            if let id, id.string == nil, id.number == nil {
                throw invalid(join(path, "id"), "must be a string or a number, got \(id.kindName)")
            }
            return GeoJSONFeature(geometry: geometry, properties: properties, location: path, id: id)
        }

        func geometry(_ json: Node, path: String) throws -> GeoJSONGeometry {
            guard let type = json["type"]?.string else { throw invalid(path, "a geometry needs a \"type\" member") }
            if type == "GeometryCollection" {
                guard let items = json["geometries"]?.array else {
                    throw invalid(join(path, "geometries"), "a GeometryCollection needs a \"geometries\" array")
                }
                return .geometryCollection(
                    try items.enumerated().map { try geometry($1, path: join(path, "geometries[\($0)]")) })
            }
            if case .coordinates(let packed)? = json["coordinates"], let geometry = packed.geometry(type: type) {
                return geometry  // the common, valid case; anything else is decoded below for its error
            }
            let cpath = join(path, "coordinates")
            guard let coordinates = json["coordinates"]?.json else { throw invalid(cpath, "missing") }
            switch type {
            case "Point": return .point(try position(coordinates, path: cpath))
            case "MultiPoint": return .multiPoint(try positions(coordinates, path: cpath))
            case "LineString": return .lineString(try positions(coordinates, path: cpath))
            case "MultiLineString":
                return .multiLineString(try list(coordinates, path: cpath) { try positions($0, path: $1) })
            case "Polygon": return .polygon(try list(coordinates, path: cpath) { try positions($0, path: $1) })
            case "MultiPolygon":
                return .multiPolygon(
                    try list(coordinates, path: cpath) { polygon, p in
                        try list(polygon, path: p) { try positions($0, path: $1) }
                    })
            default:
                throw invalid(
                    join(path, "type"),
                    "unknown geometry type \"\(type)\"; expected Point, MultiPoint, "
                        + "LineString, MultiLineString, Polygon, MultiPolygon or GeometryCollection")
            }
        }

        func list<T>(_ json: JSONValue, path: String, _ item: (JSONValue, String) throws -> T) throws -> [T] {
            guard let array = json.array else { throw invalid(path, "expected an array, got \(json.kindName)") }
            return try array.enumerated().map { try item($1, "\(path)[\($0)]") }
        }

        func positions(_ json: JSONValue, path: String) throws -> [LocationCoordinate2D] {
            guard let array = json.array else { throw invalid(path, "expected an array, got \(json.kindName)") }
            var out: [LocationCoordinate2D] = []
            out.reserveCapacity(array.count)
            for (i, item) in array.enumerated() {
                // The common, valid case without building the element's path (large files have
                // hundreds of thousands of positions); anything else goes through `position` for its error.
                if let pair = item.array, pair.count >= 2, let lon = pair[0].number, let lat = pair[1].number {
                    let coordinate = LocationCoordinate2D(latitude: lat, longitude: lon)
                    if coordinate.isValid {
                        out.append(coordinate)
                        continue
                    }
                }
                out.append(try position(item, path: "\(path)[\(i)]"))
            }
            return out
        }

        func position(_ json: JSONValue, path: String) throws -> LocationCoordinate2D {
            guard let array = json.array, array.count >= 2, let lon = array[0].number, let lat = array[1].number else {
                throw invalid(path, "expected a position [longitude, latitude]")
            }
            let coordinate = LocationCoordinate2D(latitude: lat, longitude: lon)
            if !coordinate.isValid, let folds = foldedLatitudes, lat.isFinite, abs(lat) <= 1e6,
                (-180.0...180.0).contains(lon)
            {
                // MapLibre projects y from sin(latitude) (geojson-vt), so 100° lands where 80° does.
                let folded = asin(sin(lat * .pi / 180)) * 180 / .pi
                folds.count += 1
                if folds.first == nil { folds.first = "\(path): [\(lon), \(lat)]" }
                return LocationCoordinate2D(latitude: max(-90, min(90, folded)), longitude: lon)
            }
            guard coordinate.isValid else {
                throw invalid(
                    path,
                    "position [\(lon), \(lat)] is out of range: longitude must be within -180...180 "
                        + "and latitude within -90...90")
            }
            return coordinate
        }
    }
}
