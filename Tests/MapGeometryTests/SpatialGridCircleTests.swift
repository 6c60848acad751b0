import MapGeometry
import Testing

/// MapLibre's collision grid holds line labels as circles: a circle meets a box when `circleAndRectCollide`
/// says so (a corner counts by its distance, touching edges meet) and another circle when the centres are
/// closer than the radii together. The truth here is the geometry worked by hand.
@Suite("Collision circles in the spatial grid")
struct SpatialGridCircleTests {
    @Test("a circle meets a box by its edges and, at a corner, by the corner's distance")
    func circleAndBox() {
        var grid = SpatialGrid(cellSize: 16)
        grid.insert(circle: Point(x: 0, y: 0), radius: 10)
        // Edge: the box's left side 10 from the centre touches (MapLibre's test is closed).
        #expect(grid.intersectsAny(Rect(x: 10, y: -2, width: 5, height: 4)))
        #expect(!grid.intersectsAny(Rect(x: 10.01, y: -2, width: 5, height: 4)))
        // Corner at (8, 8): 11.3 from the centre, outside the circle, though inside its square.
        #expect(!grid.intersectsAny(Rect(x: 8, y: 8, width: 5, height: 5)))
        // Corner at (7, 7): 9.9 from the centre.
        #expect(grid.intersectsAny(Rect(x: 7, y: 7, width: 5, height: 5)))
        // A box around the whole circle.
        #expect(grid.intersectsAny(Rect(x: -20, y: -20, width: 40, height: 40)))
    }

    @Test("circles meet when their centres are closer than the radii together; boxes meet circles alike")
    func circleAndCircle() {
        var grid = SpatialGrid(cellSize: 16)
        grid.insert(circle: Point(x: 0, y: 0), radius: 10)
        grid.insert(Rect(x: 100, y: 100, width: 10, height: 10))
        #expect(grid.intersectsAny(circle: Point(x: 14.9, y: 0), radius: 5))
        #expect(!grid.intersectsAny(circle: Point(x: 15, y: 0), radius: 5))  // touching: MapLibre's is strict
        #expect(!grid.intersectsAny(circle: Point(x: 12, y: 12), radius: 6))  // 16.97 apart, radii 16
        #expect(grid.intersectsAny(circle: Point(x: 115, y: 105), radius: 5))  // the box's edge
        #expect(!grid.intersectsAny(circle: Point(x: 114, y: 114), radius: 5))  // 5.66 from its corner
        #expect(grid.intersectsAny(circle: Point(x: 113, y: 113), radius: 5))  // 4.24 from it
    }

    @Test("soft circles are skipped by hard-only tests")
    func softCircles() {
        var grid = SpatialGrid(cellSize: 16)
        grid.insert(circle: Point(x: 0, y: 0), radius: 10, soft: true)
        #expect(grid.intersectsAny(circle: Point(x: 5, y: 0), radius: 2))
        #expect(!grid.intersectsAny(circle: Point(x: 5, y: 0), radius: 2, hardOnly: true))
        #expect(!grid.intersectsAny(Rect(x: 0, y: 0, width: 1, height: 1), hardOnly: true))
    }
}
