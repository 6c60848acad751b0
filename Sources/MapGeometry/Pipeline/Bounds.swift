/// The bounding map rect of map points; ``MapRect/null`` for none.
package func boundingRect(of points: [MapPoint]) -> MapRect {
    guard let (minX, minY, maxX, maxY) = extent(points.lazy.map { ($0.x, $0.y) }) else { return .null }
    return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
}

/// The bounding map rect of the points of several parts (lines, rings), without joining them first.
package func boundingRect(ofParts parts: [[MapPoint]]) -> MapRect {
    guard let (minX, minY, maxX, maxY) = extent(parts.lazy.joined().map { ($0.x, $0.y) }) else { return .null }
    return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
}

/// The bounding rect of points in a plane (image or world points); nil for none.
package func boundingRect(of points: [Point]) -> Rect? {
    guard let (minX, minY, maxX, maxY) = extent(points.lazy.map { ($0.x, $0.y) }) else { return nil }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
}

/// The smallest and largest x and y of a sequence of coordinate pairs.
@inline(__always)
func extent<S: Sequence>(_ xy: S) -> (Double, Double, Double, Double)? where S.Element == (Double, Double) {
    var iterator = xy.makeIterator()
    guard let (x, y) = iterator.next() else { return nil }
    var minX = x, minY = y, maxX = x, maxY = y
    while let (x, y) = iterator.next() {
        minX = min(minX, x)
        maxX = max(maxX, x)
        minY = min(minY, y)
        maxY = max(maxY, y)
    }
    return (minX, minY, maxX, maxY)
}

extension Rect {
    /// The rect moved by `dx`, `dy`. Mirrors `CGRectOffset`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// The smallest rect containing both. Mirrors `CGRectUnion`.
    public func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX)
        let y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Whether `other` lies wholly inside this rect (edges included).
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// Whether the point lies inside this rect (edges included).
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }
}

extension Path {
    /// Adds points as one subpath, closed when `closed`.
    public mutating func addLines(_ points: [Point], closed: Bool) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { addLine(to: p) }
        if closed { close() }
    }
}
