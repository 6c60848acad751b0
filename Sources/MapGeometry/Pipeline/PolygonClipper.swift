/// Clips a closed ring to a rectangle (Sutherland-Hodgman). The result may run along the rectangle's
/// edges, which the pipeline keeps outside the image by a margin, so the fill inside is exact.
package enum PolygonClipper {
    /// The part of `ring` inside `rect`.
    package static func clip(_ ring: [Point], to rect: Rect) -> [Point] {
        var output = ring
        for edge in 0..<4 {
            guard !output.isEmpty else { break }
            let input = output
            output = []
            output.reserveCapacity(input.count + 4)
            var previous = input[input.count - 1]
            for current in input {
                let currentInside = inside(current, edge, rect)
                let previousInside = inside(previous, edge, rect)
                if currentInside {
                    if !previousInside { output.append(intersection(previous, current, edge, rect)) }
                    output.append(current)
                } else if previousInside {
                    output.append(intersection(previous, current, edge, rect))
                }
                previous = current
            }
        }
        return output
    }

    @inline(__always)
    static func inside(_ p: Point, _ edge: Int, _ rect: Rect) -> Bool {
        switch edge {
        case 0: return p.x >= rect.minX
        case 1: return p.x <= rect.maxX
        case 2: return p.y >= rect.minY
        default: return p.y <= rect.maxY
        }
    }

    @inline(__always)
    static func intersection(_ a: Point, _ b: Point, _ edge: Int, _ rect: Rect) -> Point {
        switch edge {
        case 0, 1:
            let x = edge == 0 ? rect.minX : rect.maxX
            let t = (x - a.x) / (b.x - a.x)
            return Point(x: x, y: a.y + t * (b.y - a.y))
        default:
            let y = edge == 2 ? rect.minY : rect.maxY
            let t = (y - a.y) / (b.y - a.y)
            return Point(x: a.x + t * (b.x - a.x), y: y)
        }
    }
}
