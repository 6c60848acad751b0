import Foundation
import MapGeometry
import Testing

@testable import MapBaseMap

/// Glyphs walked along a line offset by `text-offset` y (MapLibre's `placeGlyphAlongLine` with
/// `findOffsetIntersectionPoint`), on an L-shaped line with every number worked out by hand.
@Suite struct OffsetLineTests {
    // Right along y = 0 to (10, 0), then down to (10, 10).
    static let line = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10)]
    static let distances = [0.0, 10, 20]

    static func walk(_ offset: Double, across: Double) -> (point: Point, angle: Double)? {
        SymbolLayerRenderer.pointAlongOffsetLine(
            line, distances: distances, anchor: 5, offset: offset, across: across)
    }

    @Test func outsideOfABendIsLonger() throws {
        // Offset 2 to the right (down, then left of the downward leg): the offset line runs (5, 2) -> (8, 2)
        // -> (8, 12); 5 from the anchor is 3 to the corner and 2 down: (8, 4), on the second segment (pi/2).
        let q = try #require(Self.walk(5, across: 2))
        #expect(abs(q.point.x - 8) < 1e-12 && abs(q.point.y - 4) < 1e-12)
        #expect(abs(q.angle - .pi / 2) < 1e-12)
    }

    @Test func insideOfABendIsShorter() throws {
        // Offset 2 to the left (up, then right of the downward leg): (5, -2) -> (12, -2) -> (12, 10); 5 along
        // stays on the first leg: (10, -2), angle 0.
        let q = try #require(Self.walk(5, across: -2))
        #expect(abs(q.point.x - 10) < 1e-12 && abs(q.point.y + 2) < 1e-12)
        #expect(abs(q.angle) < 1e-12)
    }

    @Test func backwardsKeepsTheSameSideAndStopsAtTheEnd() throws {
        // Walking back 3 from the anchor on the line's right-hand side (y = 2): (2, 2), pointing forward.
        let q = try #require(Self.walk(-3, across: 2))
        #expect(abs(q.point.x - 2) < 1e-12 && abs(q.point.y - 2) < 1e-12)
        #expect(abs(cos(q.angle) - 1) < 1e-12)
        // 6 back is past the line's start (5 away): no place.
        #expect(Self.walk(-6, across: 2) == nil)
    }
}
