import MapGeometry
import Testing

@Suite("World copies, the spatial grid and the base-map stages of the geometry pipeline")
struct WorldCopiesAndGridTests {
    let world = WebMercator.worldSize

    @Test("a view across the 180th meridian sees the world at offset 0 and at one world east")
    func copiesAcross180() {
        let window = MapRect(x: world - 1000, y: 0, width: 3000, height: 10)
        #expect(WorldCopies.offsets(meeting: window) == [0, world])
        // Fiji's unwrapped bounds (east of the world) seen from a view west of 180.
        let fiji = MapRect(x: world - 500, y: 0, width: 1000, height: 10)
        #expect(WorldCopies.offsets(of: fiji, meeting: MapRect(x: 100, y: 0, width: 100, height: 10)) == [-world])
        #expect(WorldCopies.offsets(of: fiji, meeting: MapRect(x: world / 2, y: 0, width: 10, height: 10)).isEmpty)
    }

    @Test("a zoomed-out view three worlds wide sees three copies; north-south misses see none")
    func copiesWide() {
        let window = MapRect(x: -0.5 * world, y: 0, width: 2.4 * world, height: world)
        #expect(WorldCopies.offsets(meeting: window) == [-world, 0, world])
        let box = MapRect(x: 10, y: 10, width: 10, height: 10)
        #expect(WorldCopies.offsets(of: box, meeting: MapRect(x: 0, y: 100, width: 100, height: 10)).isEmpty)
    }

    @Test("hostile windows (infinite, NaN, absurdly wide) give a bounded answer")
    func copiesHostile() {
        #expect(WorldCopies.offsets(meeting: MapRect(x: -.infinity, y: 0, width: .infinity, height: 1)).isEmpty)
        #expect(WorldCopies.offsets(meeting: MapRect(x: .nan, y: 0, width: 1, height: 1)).isEmpty)
        #expect(WorldCopies.offsets(meeting: MapRect(x: 0, y: 0, width: 1e30, height: 1)).count <= 65)
    }

    @Test("the nearest copy of x to a reference: 179.9 E seen from 179.9 W is one world west")
    func nearest() {
        let east = WebMercator.x(longitude: 179.9)
        let west = WebMercator.x(longitude: -179.9)
        #expect(abs(WorldCopies.nearest(east, to: west) - (east - world)) < 1e-6)
        #expect(WorldCopies.nearest(5, to: 7) == 5)
    }

    @Test("the grid finds exactly the entries a brute-force scan finds, for small and large queries")
    func gridAgainstScan() {
        var grid = SpatialGrid(cellSize: 64)
        var rects: [Rect] = []
        var seed: UInt64 = 42
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for i in 0..<2000 {
            let size = i % 100 == 0 ? 50_000 : random() * 200  // a few huge entries
            let r = Rect(x: random() * 10_000 - 5000, y: random() * 10_000 - 5000, width: size, height: size / 2)
            rects.append(r)
            #expect(grid.insert(r) == i)
        }
        for _ in 0..<200 {
            let q = Rect(x: random() * 12_000 - 6000, y: random() * 12_000 - 6000, width: random() * 3000, height: 40)
            let expected = rects.indices.filter { SpatialGrid.meets(rects[$0], q) }
            let found = grid.query(q).filter { SpatialGrid.meets(rects[$0], q) }
            #expect(found == expected)
            #expect(grid.intersectsAny(q) == rects.contains { $0.intersects(q) })
        }
        // A query over everything scans instead of walking cells.
        #expect(grid.query(Rect(x: -1e12, y: -1e12, width: 2e12, height: 2e12)).count == 2000)
    }

    @Test("non-finite rects never trap and points (empty rects) are found")
    func gridHostile() {
        var grid = SpatialGrid(cellSize: 10)
        grid.insert(Rect(x: .nan, y: 0, width: 1, height: 1))
        grid.insert(Rect(x: -.infinity, y: 0, width: .infinity, height: 1))
        let point = grid.insert(Rect(x: 5, y: 5, width: 0, height: 0))
        #expect(grid.query(Rect(x: 0, y: 0, width: 10, height: 10)).contains(point))
        #expect(grid.query(Rect(x: 1e300, y: 1e300, width: 1, height: 1)).allSatisfy { $0 != point })
    }

    @Test("base-map rings: inside rings are only simplified, crossing rings clipped to the margin, tiny rings dropped")
    func baseMapRing() {
        let viewport = MapViewport.layout(
            covering: MapRect(x: 0, y: 0, width: 100, height: 100), mapPointsPerPoint: 1, scale: 1)
        let pipeline = GeometryPipeline(viewport: viewport, margin: 2, tolerance: 0.5)
        let square = [MapPoint(x: 10, y: 10), MapPoint(x: 50, y: 10), MapPoint(x: 50, y: 50), MapPoint(x: 10, y: 50)]
        #expect(pipeline.ring(square, offset: 0) == square.map { Point(x: $0.x, y: $0.y) })
        let big = [
            MapPoint(x: -50, y: -50), MapPoint(x: 150, y: -50), MapPoint(x: 150, y: 150), MapPoint(x: -50, y: 150),
        ]
        let clipped = pipeline.ring(big, offset: 0) ?? []
        #expect(clipped.allSatisfy { $0.x >= -2 && $0.x <= 102 && $0.y >= -2 && $0.y <= 102 })
        #expect(clipped.count == 4)
        let tiny = [MapPoint(x: 10, y: 10), MapPoint(x: 10.2, y: 10), MapPoint(x: 10.2, y: 10.2)]
        #expect(pipeline.ring(tiny, offset: 0, dropsTinyRings: true) == nil)
        // The copy one world east is drawn at x - world.
        let east = square.map { MapPoint(x: $0.x + WebMercator.worldSize, y: $0.y) }
        #expect(pipeline.ring(east, offset: -WebMercator.worldSize) == square.map { Point(x: $0.x, y: $0.y) })
    }

    @Test("base-map outlines leave out the 180th-meridian and Antarctic cuts")
    func outlineCuts() {
        let south = WebMercator.y(latitude: -85)
        let ring = [
            MapPoint(x: 0, y: 100), MapPoint(x: 50, y: 100), MapPoint(x: 50, y: south), MapPoint(x: 0, y: south),
        ]
        // Edges: top (kept), east side (kept), along the south cut (dropped), along x = 0 (dropped).
        let lines = GeometryPipeline.outlineWithoutCuts(ring)
        #expect(lines.count == 1)
        #expect(lines.first?.count == 3)
    }
}
