import Foundation
import MapGeometry
import Testing

/// MKMapRect semantics (MapKit's documentation of MKMapRectWorld, MKMapRectNull, MKMapRectUnion,
/// MKMapRectIntersection, MKMapRectContainsPoint, MKMapRectInset, MKMapRectOffset, MKMapRectDivide,
/// MKMapRectSpans180thMeridian and MKMapRectRemainder), on rects small enough that values are exact.
@Suite("MapRect")
struct MapRectTests {
    static let world = 268_435_456.0  // 2^28, MKMapSizeWorld
    let a = MapRect(x: 100, y: 200, width: 300, height: 400)

    @Test("The world is 2^28 map points square with its origin at 0, 0")
    func worldRect() {
        #expect(MapRect.world == MapRect(x: 0, y: 0, width: Self.world, height: Self.world))
        #expect(MapSize.world == MapSize(width: Self.world, height: Self.world))
        #expect(WebMercator.worldSize == 268_435_456)
        #expect(!MapRect.world.isNull && !MapRect.world.isEmpty)
    }

    @Test("The null rect is null and empty; a zero-area rect is empty but not null")
    func nullRect() {
        #expect(MapRect.null.isNull)
        #expect(MapRect.null.isEmpty)
        let flat = MapRect(x: 10, y: 10, width: 0, height: 5)
        #expect(!flat.isNull)
        #expect(flat.isEmpty)
        #expect(!a.isEmpty)
    }

    @Test("Union with null gives the other rect; union of two rects spans both")
    func union() {
        #expect(a.union(.null) == a)
        #expect(MapRect.null.union(a) == a)
        #expect(MapRect.null.union(.null).isNull)
        let b = MapRect(x: 1000, y: -50, width: 10, height: 10)
        #expect(a.union(b) == MapRect(x: 100, y: -50, width: 910, height: 650))
        #expect(b.union(a) == a.union(b))
    }

    @Test("Disjoint rects have a null intersection; overlapping ones share the overlap")
    func intersection() {
        let far = MapRect(x: 10_000, y: 10_000, width: 5, height: 5)
        #expect(!a.intersects(far))
        #expect(a.intersection(far).isNull)
        let overlapping = MapRect(x: 300, y: 500, width: 300, height: 300)
        #expect(a.intersects(overlapping))
        #expect(a.intersection(overlapping) == MapRect(x: 300, y: 500, width: 100, height: 100))
        #expect(a.intersection(.null).isNull)
        #expect(!a.intersects(.null))
    }

    @Test("Rects that only touch along an edge or at a corner do not intersect")
    func touching() {
        let east = MapRect(x: 400, y: 200, width: 10, height: 400)  // shares a's east edge
        let south = MapRect(x: 100, y: 600, width: 300, height: 10)  // shares a's south edge
        let corner = MapRect(x: 400, y: 600, width: 10, height: 10)  // shares a's south-east corner
        for other in [east, south, corner] {
            #expect(!a.intersects(other), "\(other)")
            #expect(!other.intersects(a), "\(other)")
            #expect(a.intersection(other).isNull, "\(other)")
        }
    }

    @Test("A rect contains its minimum edges but not its maximum edges")
    func containsPoint() {
        #expect(a.contains(MapPoint(x: 100, y: 200)))  // north-west corner
        #expect(a.contains(MapPoint(x: 250, y: 400)))
        #expect(a.contains(MapPoint(x: 399.9, y: 599.9)))
        #expect(!a.contains(MapPoint(x: 400, y: 400)))  // east edge
        #expect(!a.contains(MapPoint(x: 250, y: 600)))  // south edge
        #expect(!a.contains(MapPoint(x: 99.9, y: 400)))
        #expect(!MapRect.null.contains(MapPoint(x: 0, y: 0)))
        #expect(a.contains(MapRect(x: 100, y: 200, width: 300, height: 400)))
        #expect(!a.contains(MapRect(x: 100, y: 200, width: 300.5, height: 400)))
    }

    @Test("Insetting shrinks on both sides; insetting by more than half the size gives null")
    func inset() {
        #expect(a.insetBy(dx: 10, dy: 20) == MapRect(x: 110, y: 220, width: 280, height: 360))
        #expect(a.insetBy(dx: -10, dy: -20) == MapRect(x: 90, y: 180, width: 320, height: 440))
        #expect(a.insetBy(dx: 151, dy: 0).isNull)
        #expect(a.insetBy(dx: 0, dy: 201).isNull)
    }

    @Test("Offsetting moves the origin and keeps the size")
    func offset() {
        #expect(a.offsetBy(dx: -100, dy: 50) == MapRect(x: 0, y: 250, width: 300, height: 400))
        #expect(MapRect.null.offsetBy(dx: 1, dy: 1).isNull)
    }

    @Test(
        "Dividing takes a slice from the given edge and leaves the rest",
        arguments: [
            (
                MapRect.Edge.minX, MapRect(x: 100, y: 200, width: 50, height: 400),
                MapRect(x: 150, y: 200, width: 250, height: 400)
            ),
            (
                MapRect.Edge.maxX, MapRect(x: 350, y: 200, width: 50, height: 400),
                MapRect(x: 100, y: 200, width: 250, height: 400)
            ),
            (
                MapRect.Edge.minY, MapRect(x: 100, y: 200, width: 300, height: 50),
                MapRect(x: 100, y: 250, width: 300, height: 350)
            ),
            (
                MapRect.Edge.maxY, MapRect(x: 100, y: 550, width: 300, height: 50),
                MapRect(x: 100, y: 200, width: 300, height: 350)
            ),
        ])
    func divided(edge: MapRect.Edge, slice: MapRect, remainder: MapRect) {
        let parts = a.divided(atDistance: 50, from: edge)
        #expect(parts.slice == slice)
        #expect(parts.remainder == remainder)
        #expect(parts.slice.union(parts.remainder) == a)
        #expect(!parts.slice.intersects(parts.remainder))
        // A distance beyond the rect takes all of it.
        let all = a.divided(atDistance: 10_000, from: edge)
        #expect(all.slice == a)
        #expect(all.remainder.isEmpty)
    }

    @Test("A rect crossing the east edge of the world spans the 180th meridian; its remainder is the part past it")
    func crossingEast() {
        let rect = MapRect(x: Self.world - 100, y: 1000, width: 300, height: 50)
        #expect(rect.spans180thMeridian)
        #expect(rect.remainder == MapRect(x: 0, y: 1000, width: 200, height: 50))
    }

    @Test("A rect crossing the west edge of the world spans the 180th meridian; its remainder is the part past it")
    func crossingWest() {
        let rect = MapRect(x: -100, y: 1000, width: 300, height: 50)
        #expect(rect.spans180thMeridian)
        #expect(rect.remainder == MapRect(x: Self.world - 100, y: 1000, width: 100, height: 50))
    }

    @Test("A rect inside the world does not span the 180th meridian and has a null remainder")
    func notCrossing() {
        #expect(!a.spans180thMeridian)
        #expect(a.remainder.isNull)
        #expect(!MapRect.world.spans180thMeridian)
        #expect(!MapRect.null.spans180thMeridian)
    }

    @Test("A region across the 180th meridian gives a rect that spans it, and a bounding box with west > east too")
    func regionAcross180() throws {
        let region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: -17, longitude: 179),
            span: CoordinateSpan(latitudeDelta: 4, longitudeDelta: 6))
        #expect(MapRect(region).spans180thMeridian)
        let box = try GeoBoundingBox(validatingWest: 176, south: -19, east: -178, north: -15)
        let rect = box.mapRect
        #expect(rect.spans180thMeridian)
        expectMapPoints(rect.width, 6.0 / 360 * Self.world, "width of 6 degrees")
        expectMapPoints(rect.remainder.width, 2.0 / 360 * Self.world, "2 degrees east of 180")
    }
}
