import Foundation
import MapGeometry

/// Line labels moved off their line by `text-offset` y, as MapLibre's `placeGlyphAlongLine` moves them: each
/// glyph walks from the label's anchor along the line offset to the right of its direction (each segment
/// moved along its normal, consecutive segments met at their offset lines' intersection,
/// `findOffsetIntersectionPoint`), so glyphs spread on the outside of a bend and crowd on the inside, and
/// the offset side stays the line's right-hand side when the label is flipped to stay upright.
extension SymbolLayerRenderer {
    /// The point at distance `d` along `line` (at least two points, running lengths `distances`), on the
    /// segment it falls in (the first or last one extended past the line's ends), and that segment's index.
    static func point(along line: [Point], distances: [Double], at d: Double) -> (point: Point, segment: Int) {
        var i = 0
        while i + 2 < distances.count, distances[i + 1] < d { i += 1 }
        let a = line[i]
        let b = line[i + 1]
        let length = distances[i + 1] - distances[i]
        let t = length > 0 ? (d - distances[i]) / length : 0
        return (Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), i)
    }

    /// The point `offset` (signed, points) from the anchor `anchor` (a distance along `line`, whose running
    /// lengths are `distances`) along the line offset by `across` points to the right of its direction, and
    /// the angle of the line's segment it was reached on (forward); nil when the walk runs past the line's
    /// end. Work is proportional to the vertices walked.
    static func pointAlongOffsetLine(
        _ line: [Point], distances: [Double], anchor: Double, offset: Double, across: Double
    ) -> (point: Point, angle: Double)? {
        guard line.count > 1, distances.count == line.count, offset.isFinite, across.isFinite else { return nil }
        let (anchorPoint, segment) = point(along: line, distances: distances, at: anchor)
        let direction = offset > 0 ? 1 : -1
        let distance = abs(offset)
        func normal(_ from: Point, _ to: Point) -> Point? {
            let dx = to.x - from.x
            let dy = to.y - from.y
            let l = hypot(dx, dy)
            guard l > 0 else { return nil }
            let scale = across * Double(direction) / l
            return Point(x: -dy * scale, y: dx * scale)
        }
        func inLine(_ i: Int) -> Bool { i >= 0 && i < line.count }
        var index = direction > 0 ? segment : segment + 1
        var current = anchorPoint
        var previous = anchorPoint
        var offsetPrevious: Point?
        var offsetCurrent: Point?
        var walked = 0.0
        var segmentLength = 0.0
        var piece = Point(x: 0, y: 0)
        while walked + segmentLength <= distance {
            index += direction
            guard inLine(index) else { return nil }
            walked += segmentLength
            previous = current
            offsetPrevious = offsetCurrent
            current = line[index]
            // A zero-length first step (the anchor on a vertex) takes its normal from the next segment.
            guard
                let n = normal(previous, current)
                    ?? (inLine(index + direction) ? normal(current, line[index + direction]) : nil)
            else { return nil }
            let start = offsetPrevious ?? Point(x: previous.x + n.x, y: previous.y + n.y)
            var end = Point(x: current.x + n.x, y: current.y + n.y)
            if inLine(index + direction), let m = normal(current, line[index + direction]) {
                let next = line[index + direction]
                end =
                    intersection(
                        start, end, Point(x: current.x + m.x, y: current.y + m.y),
                        Point(x: next.x + m.x, y: next.y + m.y))
                    ?? end
            }
            offsetPrevious = start
            offsetCurrent = end
            piece = Point(x: end.x - start.x, y: end.y - start.y)
            segmentLength = hypot(piece.x, piece.y)
        }
        // The glyph turns with the line's segment it stands by, pointed forward.
        var angle = atan2(current.y - previous.y, current.x - previous.x)
        if direction < 0 { angle += .pi }
        guard let origin = offsetPrevious else { return nil }
        guard segmentLength > 0 else { return (origin, angle) }
        let f = (distance - walked) / segmentLength
        return (Point(x: origin.x + piece.x * f, y: origin.y + piece.y * f), angle)
    }

    /// Where the lines through `a1`-`a2` and `b1`-`b2` meet; nil when parallel.
    static func intersection(_ a1: Point, _ a2: Point, _ b1: Point, _ b2: Point) -> Point? {
        let adx = a2.x - a1.x
        let ady = a2.y - a1.y
        let bdx = b2.x - b1.x
        let bdy = b2.y - b1.y
        let denominator = bdy * adx - bdx * ady
        guard denominator != 0 else { return nil }
        let ua = (bdx * (a1.y - b1.y) - bdy * (a1.x - b1.x)) / denominator
        return Point(x: a1.x + ua * adx, y: a1.y + ua * ady)
    }
}
