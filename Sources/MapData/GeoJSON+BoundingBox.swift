import Foundation
import MapGeometry

// A file's declared extent (RFC 7946 §5, `bbox`), read without parsing the file: a view that does not
// meet it needs none of the file's features (issue #11, cold start: the Helsinki files of the `standard`
// style were parsed for a view of Andorra).

extension GeoBoundingBox {
    /// The first position of `geometry` outside the box (bounds included), or nil when all are inside; for
    /// a box with `west <= east` (as ``GeoJSON/declaredBoundingBox(_:)`` gives).
    public func firstPositionOutside(_ geometry: GeoJSONGeometry) -> LocationCoordinate2D? {
        func outside(_ c: LocationCoordinate2D) -> Bool {
            !(c.longitude >= west && c.longitude <= east && c.latitude >= south && c.latitude <= north)
        }
        func first(_ list: [LocationCoordinate2D]) -> LocationCoordinate2D? { list.first(where: outside) }
        switch geometry {
        case .point(let c): return outside(c) ? c : nil
        case .multiPoint(let c), .lineString(let c): return first(c)
        case .multiLineString(let lines), .polygon(let lines): return lines.lazy.compactMap(first).first
        case .multiPolygon(let polygons):
            return polygons.lazy.flatMap { $0 }.compactMap(first).first
        case .geometryCollection(let items): return items.lazy.compactMap(firstPositionOutside).first
        }
    }
}

extension GeoJSON {
    /// The `bbox` member of the top-level object when it comes before the object's `features` (or
    /// `geometry`) member, read from the start of `data` without parsing the rest.
    ///
    /// Nil when there is none there, when `data` ends or is invalid before it, or when it is not 4 (or 6,
    /// with altitudes) finite numbers with `south <= north` within ±90° and `west <= east`. A `bbox`
    /// elsewhere in the document is an ordinary foreign member. Work is bounded by the members before it.
    public static func declaredBoundingBox(_ data: Data) -> GeoBoundingBox? {
        struct Stop: Error {}
        var found: JSONValue?
        _ = data.withUnsafeBytes { raw -> Bool in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            let bytes = parser.bytes
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.i = 3 }
            parser.skipSpace()
            guard parser.i < bytes.count, bytes[parser.i] == UInt8(ascii: "{") else { return false }
            do {
                try parser.parseMembers { parser, key in
                    switch key {
                    case "bbox":
                        found = try parser.parseValue()
                        throw Stop()
                    case "features", "geometry", "geometries", "coordinates": throw Stop()
                    default: _ = try parser.parseValue()
                    }
                }
            } catch {}
            return true
        }
        return found.flatMap(boundingBox)
    }

    /// A `bbox` member's value as a box: 4 (or 6, with altitudes) finite numbers with `south <= north`
    /// within ±90° and `west <= east`; nil for anything else.
    static func boundingBox(_ value: JSONValue) -> GeoBoundingBox? {
        guard let numbers = value.array?.compactMap(\.number), value.array?.count == numbers.count,
            numbers.count == 4 || numbers.count == 6, numbers.allSatisfy(\.isFinite)
        else { return nil }
        let half = numbers.count / 2
        let box = GeoBoundingBox(west: numbers[0], south: numbers[1], east: numbers[half], north: numbers[half + 1])
        guard box.west <= box.east, box.south <= box.north, box.south >= -90, box.north <= 90 else { return nil }
        return box
    }
}
