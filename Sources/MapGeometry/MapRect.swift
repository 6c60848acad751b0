import Foundation

/// A rectangle on the Web Mercator map, in map points.
///
/// The origin is the north-west corner. A rect may extend east of the world's edge (x > 2^28) or west of
/// it (x < 0) when it crosses the 180th meridian; ``spans180thMeridian`` and ``remainder`` deal with that.
/// Mirrors MapKit's `MKMapRect`.
public struct MapRect: Hashable, Sendable, CustomStringConvertible {
    /// The north-west corner.
    public var origin: MapPoint
    /// The width and height.
    public var size: MapSize

    /// Creates a rect from its north-west corner and size.
    public init(origin: MapPoint, size: MapSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rect from its north-west corner and size. Mirrors `MKMapRectMake`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
    }

    /// The whole world: origin (0, 0), size 2^28 x 2^28. Mirrors `MKMapRectWorld`.
    public static let world = MapRect(origin: MapPoint(x: 0, y: 0), size: .world)

    /// The null rect: origin at infinity, size zero. Mirrors `MKMapRectNull`.
    public static let null = MapRect(origin: MapPoint(x: .infinity, y: .infinity), size: MapSize(width: 0, height: 0))

    /// The smallest rect that contains both map points.
    public init(corner a: MapPoint, corner b: MapPoint) {
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The map rect that contains a region's corners.
    ///
    /// The west and east edges come from `center.longitude -+ longitudeDelta / 2` without wrapping, so a
    /// region that crosses the 180th meridian gives a rect that ``spans180thMeridian``. Latitudes are
    /// clamped to +-85.0511 degrees.
    public init(_ region: CoordinateRegion) {
        let north = MapPoint(
            LocationCoordinate2D(
                latitude: region.center.latitude + region.span.latitudeDelta / 2,
                longitude: region.center.longitude - region.span.longitudeDelta / 2))
        let south = MapPoint(
            LocationCoordinate2D(
                latitude: region.center.latitude - region.span.latitudeDelta / 2,
                longitude: region.center.longitude + region.span.longitudeDelta / 2))
        self.init(corner: north, corner: south)
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// Whether this is ``null``. Mirrors `MKMapRectIsNull`.
    public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }

    /// Whether this is null or has no area. Mirrors `MKMapRectIsEmpty`.
    public var isEmpty: Bool { isNull || size.width <= 0 || size.height <= 0 }

    /// The smallest rect containing both; a null rect is ignored. Mirrors `MKMapRectUnion`.
    public func union(_ other: MapRect) -> MapRect {
        if isNull { return other }
        if other.isNull { return self }
        let x0 = min(minX, other.minX)
        let y0 = min(minY, other.minY)
        return MapRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The overlap of both, or ``null`` when they do not intersect. Mirrors `MKMapRectIntersection`.
    public func intersection(_ other: MapRect) -> MapRect {
        guard intersects(other) else { return .null }
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        return MapRect(x: x0, y: y0, width: min(maxX, other.maxX) - x0, height: min(maxY, other.maxY) - y0)
    }

    /// Whether the two rects share some area; rects that only touch along an edge do not.
    /// Mirrors `MKMapRectIntersectsRect`.
    public func intersects(_ other: MapRect) -> Bool {
        if isNull || other.isNull { return false }
        return minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// Whether the point lies inside: the minimum edges are inside, the maximum edges outside.
    /// Mirrors `MKMapRectContainsPoint`.
    public func contains(_ point: MapPoint) -> Bool {
        !isNull && point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether `other` lies entirely inside this rect. Mirrors `MKMapRectContainsRect`.
    public func contains(_ other: MapRect) -> Bool {
        if isNull || other.isNull { return false }
        return other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// The rect shrunk by `dx` on the left and right and `dy` on the top and bottom (negative values grow
    /// it); ``null`` when nothing is left. Mirrors `MKMapRectInset`.
    public func insetBy(dx: Double, dy: Double) -> MapRect {
        if isNull { return self }
        let width = size.width - 2 * dx
        let height = size.height - 2 * dy
        guard width >= 0, height >= 0 else { return .null }
        return MapRect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// The rect moved by `dx` and `dy`. Mirrors `MKMapRectOffset`.
    public func offsetBy(dx: Double, dy: Double) -> MapRect {
        if isNull { return self }
        return MapRect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// An edge of a map rect, for ``divided(atDistance:from:)``.
    public enum Edge: Sendable {
        case minX, minY, maxX, maxY
    }

    /// Splits the rect into a slice of `distance` map points taken from `edge` and the rest.
    ///
    /// The distance is clamped to 0...the rect's extent along that axis. Mirrors `MKMapRectDivide`.
    public func divided(atDistance distance: Double, from edge: Edge) -> (slice: MapRect, remainder: MapRect) {
        if isNull { return (.null, .null) }
        switch edge {
        case .minX:
            let d = max(0, min(distance, width))
            return (
                MapRect(x: minX, y: minY, width: d, height: height),
                MapRect(x: minX + d, y: minY, width: width - d, height: height)
            )
        case .maxX:
            let d = max(0, min(distance, width))
            return (
                MapRect(x: maxX - d, y: minY, width: d, height: height),
                MapRect(x: minX, y: minY, width: width - d, height: height)
            )
        case .minY:
            let d = max(0, min(distance, height))
            return (
                MapRect(x: minX, y: minY, width: width, height: d),
                MapRect(x: minX, y: minY + d, width: width, height: height - d)
            )
        case .maxY:
            let d = max(0, min(distance, height))
            return (
                MapRect(x: minX, y: maxY - d, width: width, height: d),
                MapRect(x: minX, y: minY, width: width, height: height - d)
            )
        }
    }

    /// Whether the rect crosses the 180th meridian, that is, extends east or west of the world.
    /// Mirrors `MKMapRectSpans180thMeridian`.
    public var spans180thMeridian: Bool {
        !isNull && (minX < 0 || maxX > WebMercator.worldSize)
    }

    /// The part of the rect that lies outside the world east or west, moved back into the world; ``null``
    /// when the rect does not span the 180th meridian. Mirrors `MKMapRectRemainder`.
    public var remainder: MapRect {
        guard spans180thMeridian else { return .null }
        let world = WebMercator.worldSize
        if maxX > world {
            let start = max(minX, world)
            return MapRect(x: start - world, y: minY, width: maxX - start, height: height)
        }
        let end = min(maxX, 0)
        return MapRect(x: minX + world, y: minY, width: end - minX, height: height)
    }

    /// The coordinate bounds of the rect (north-west and south-east corners).
    public var boundingBox: GeoBoundingBox {
        GeoBoundingBox(
            west: minX / WebMercator.worldSize * 360 - 180, south: WebMercator.latitude(y: maxY),
            east: maxX / WebMercator.worldSize * 360 - 180, north: WebMercator.latitude(y: minY))
    }

    public var description: String { "{\(minX), \(minY), \(width), \(height)}" }
}

/// A longitude/latitude bounding box: WEST,SOUTH,EAST,NORTH in degrees.
///
/// When `west > east` the box crosses the 180th meridian. Longitudes of map rects east of the world
/// may exceed 180.
public struct GeoBoundingBox: Hashable, Sendable, CustomStringConvertible {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    /// Creates a box without validating it.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Creates a box from user input: longitudes in -180...180, latitudes in -90...90, south < north,
    /// west != east; west > east means the box crosses the 180th meridian.
    ///
    /// - Throws: ``GeometryError/invalidBoundingBox(west:south:east:north:)``.
    public init(validatingWest west: Double, south: Double, east: Double, north: Double) throws {
        let values = [west, south, east, north]
        guard values.allSatisfy(\.isFinite), abs(west) <= 180, abs(east) <= 180, abs(south) <= 90,
            abs(north) <= 90, south < north, west != east
        else { throw GeometryError.invalidBoundingBox(west: west, south: south, east: east, north: north) }
        self.init(west: west, south: south, east: east, north: north)
    }

    /// The map rect covering the box; a box with `west > east` extends east of the world.
    public var mapRect: MapRect {
        let eastUnwrapped = east < west ? east + 360 : east
        return MapRect(
            corner: MapPoint(x: WebMercator.x(longitude: west), y: WebMercator.y(latitude: north)),
            corner: MapPoint(x: WebMercator.x(longitude: eastUnwrapped), y: WebMercator.y(latitude: south)))
    }

    public var description: String { "\(west),\(south),\(east),\(north)" }
}
