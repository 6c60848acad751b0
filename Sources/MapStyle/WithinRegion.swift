import Foundation
import MapData
import MapGeometry

/// A feature's geometry as `within` sees it, in map points: its points, or its lines (a polygon is never
/// within, as in MapLibre).
public enum FeatureGeometry: Sendable {
    /// A Point or MultiPoint feature.
    case points([MapPoint])
    /// A LineString or MultiLineString feature.
    case lines([[MapPoint]])
    /// A Polygon or MultiPolygon feature.
    case polygons
}

/// The polygons of a `within` expression, and the test MapLibre applies to a feature.
///
/// As MapLibre (`within.ts` in the style specification, `within.cpp` in MapLibre Native) the test runs on
/// integer tile coordinates: the polygons and the feature are rounded to a grid of 8192 units per tile at
/// the zoom of the tile the feature is drawn from (``EvaluationContext/tileZoom``). A point is within when
/// it is strictly inside a polygon (not on its boundary, not in a hole); a line when all its vertices are
/// and no segment crosses a ring. Points and lines a world away are moved next to the polygons first.
public struct WithinRegion: Sendable, Equatable {
    /// Polygons (exterior ring, then holes) in map points, as given (rings closed or not).
    public let polygons: [[[MapPoint]]]

    /// The number of tile units across a tile.
    static let extent = 8192.0

    /// The polygons of a GeoJSON Polygon or MultiPolygon, a Feature with one, or the polygons of a
    /// FeatureCollection's features; nil when there is none or a position is not `[longitude, latitude]`.
    public init?(geoJSON json: JSONValue) {
        func ring(_ json: JSONValue) -> [MapPoint]? {
            guard let items = json.array else { return nil }
            var points: [MapPoint] = []
            points.reserveCapacity(items.count)
            for item in items {
                guard let pair = item.array, pair.count >= 2, let lon = pair[0].number, let lat = pair[1].number,
                    lon.isFinite, lat.isFinite, abs(lat) <= 90, abs(lon) <= 360
                else { return nil }
                points.append(MapPoint(LocationCoordinate2D(latitude: lat, longitude: lon)))
            }
            return points
        }
        func polygon(_ json: JSONValue) -> [[MapPoint]]? {
            guard let rings = json.array else { return nil }
            var result: [[MapPoint]] = []
            for r in rings {
                guard let points = ring(r) else { return nil }
                result.append(points)
            }
            return result
        }
        func polygons(ofGeometry geometry: JSONValue) -> [[[MapPoint]]]? {
            switch geometry["type"]?.string {
            case "Polygon": return geometry["coordinates"].flatMap(polygon).map { [$0] }
            case "MultiPolygon":
                guard let items = geometry["coordinates"]?.array else { return nil }
                var result: [[[MapPoint]]] = []
                for item in items {
                    guard let p = polygon(item) else { return nil }
                    result.append(p)
                }
                return result
            default: return nil
            }
        }
        var found: [[[MapPoint]]]?
        switch json["type"]?.string {
        case "FeatureCollection":
            var all: [[[MapPoint]]] = []
            for feature in json["features"]?.array ?? [] {
                if let geometry = feature["geometry"], let p = polygons(ofGeometry: geometry) { all += p }
            }
            found = all.isEmpty ? nil : all
        case "Feature": found = json["geometry"].flatMap(polygons(ofGeometry:))
        default: found = polygons(ofGeometry: json)
        }
        guard let found else { return nil }
        self.polygons = found
    }

    /// Whether the feature's geometry lies within the polygons at tile zoom `z` (MapLibre's `within`).
    public func contains(_ geometry: FeatureGeometry, tileZoom z: Int) -> Bool {
        let worldSize = Self.extent * Foundation.pow(2, Double(z))
        let scale = worldSize / WebMercator.worldSize
        func tile(_ p: MapPoint) -> Point { Point(x: (p.x * scale).rounded(), y: (p.y * scale).rounded()) }
        var polygonBox = Box()
        let tilePolygons = polygons.map { polygon in
            polygon.map { ring in
                ring.map { p -> Point in
                    let q = tile(p)
                    polygonBox.add(q)
                    return q
                }
            }
        }
        guard !polygonBox.isEmpty else { return false }
        switch geometry {
        case .polygons: return false
        case .points(let points):
            var box = Box()
            var shifted: [Point] = []
            shifted.reserveCapacity(points.count)
            for p in points {
                let q = Self.nearest(tile(p), to: polygonBox, worldSize: worldSize)
                box.add(q)
                shifted.append(q)
            }
            guard !shifted.isEmpty, box.isStrictlyInside(polygonBox) else { return false }
            return shifted.allSatisfy { p in tilePolygons.contains { Self.isInside(p, $0) } }
        case .lines(let lines):
            var box = Box()
            var tileLines = lines.map { line in
                line.map { p -> Point in
                    let q = tile(p)
                    box.add(q)
                    return q
                }
            }
            // A line less than half a world wide is moved, point by point, next to the polygons.
            if box.maxX - box.minX <= worldSize / 2 {
                box = Box()
                for i in tileLines.indices {
                    for j in tileLines[i].indices {
                        let q = Self.nearest(tileLines[i][j], to: polygonBox, worldSize: worldSize)
                        tileLines[i][j] = q
                        box.add(q)
                    }
                }
            }
            guard !box.isEmpty, box.isStrictlyInside(polygonBox) else { return false }
            return tileLines.allSatisfy { line in tilePolygons.contains { Self.lineIsInside(line, $0) } }
        }
    }

    /// A bounding box in tile units.
    struct Box {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var isEmpty: Bool { minX > maxX }
        mutating func add(_ p: Point) {
            minX = min(minX, p.x)
            minY = min(minY, p.y)
            maxX = max(maxX, p.x)
            maxY = max(maxY, p.y)
        }
        /// Inside `other` without touching its sides.
        func isStrictlyInside(_ other: Box) -> Bool {
            minX > other.minX && maxX < other.maxX && minY > other.minY && maxY < other.maxY
        }
    }

    /// `p` moved by a world width when it lies outside the polygons' box by more than half a world.
    static func nearest(_ p: Point, to box: Box, worldSize: Double) -> Point {
        guard p.x < box.minX || p.x > box.maxX else { return p }
        let half = worldSize / 2
        for edge in [box.minX, box.maxX] {
            if p.x - edge > half { return Point(x: p.x - worldSize, y: p.y) }
            if edge - p.x > half { return Point(x: p.x + worldSize, y: p.y) }
        }
        return p
    }

    /// Even-odd ray casting over every ring; a point on a ring's edge is not inside.
    static func isInside(_ p: Point, _ rings: [[Point]]) -> Bool {
        var inside = false
        for ring in rings where ring.count > 1 {
            for j in 0..<ring.count - 1 {
                let a = ring[j]
                let b = ring[j + 1]
                if isOnSegment(p, a, b) { return false }
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            }
        }
        return inside
    }

    static func isOnSegment(_ p: Point, _ a: Point, _ b: Point) -> Bool {
        let x1 = p.x - a.x
        let y1 = p.y - a.y
        let x2 = p.x - b.x
        let y2 = p.y - b.y
        return x1 * y2 - x2 * y1 == 0 && x1 * x2 <= 0 && y1 * y2 <= 0
    }

    /// Every vertex inside and no segment properly crossing an edge of a ring.
    static func lineIsInside(_ line: [Point], _ rings: [[Point]]) -> Bool {
        guard line.allSatisfy({ isInside($0, rings) }) else { return false }
        for i in 0..<max(0, line.count - 1) {
            for ring in rings where ring.count > 1 {
                for j in 0..<ring.count - 1 where crosses(line[i], line[i + 1], ring[j], ring[j + 1]) {
                    return false
                }
            }
        }
        return true
    }

    /// Whether segment a-b crosses segment c-d, each having the other's ends strictly on both sides;
    /// parallel segments never cross (both ends of a-b are inside the polygon).
    static func crosses(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        let p = (x: b.x - a.x, y: b.y - a.y)
        let q = (x: d.x - c.x, y: d.y - c.y)
        if q.x * p.y - q.y * p.x == 0 { return false }
        return strictlyApart(a, b, c, d) && strictlyApart(c, d, a, b)
    }

    /// Whether p1 and p2 lie strictly on opposite sides of the line through q1 and q2.
    static func strictlyApart(_ p1: Point, _ p2: Point, _ q1: Point, _ q2: Point) -> Bool {
        let x3 = q2.x - q1.x
        let y3 = q2.y - q1.y
        let d1 = (p1.x - q1.x) * y3 - x3 * (p1.y - q1.y)
        let d2 = (p2.x - q1.x) * y3 - x3 * (p2.y - q1.y)
        return (d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)
    }
}
