import Foundation
import MapGeometry
import MapTestSupport
import Testing

/// `Path` (UIBezierPath's model) checked against hand geometry: arcs, quadratic curves, ovals, rounded
/// rects, transforms and control-point bounds.
@Suite("Path")
struct PathTests {
    /// The on-curve points of a path: move and line targets and curve end points, in order.
    static func anchors(_ path: Path) -> [Point] {
        path.elements.compactMap { element in
            switch element {
            case .move(let p), .line(let p), .curve(_, _, let p): return p
            case .close: return nil
            }
        }
    }

    /// Every cubic segment as its four points (start, control 1, control 2, end).
    static func cubics(_ path: Path) -> [(Point, Point, Point, Point)] {
        var current = Point.zero
        var result: [(Point, Point, Point, Point)] = []
        for element in path.elements {
            switch element {
            case .move(let p), .line(let p): current = p
            case .curve(let a, let b, let p):
                result.append((current, a, b, p))
                current = p
            case .close: break
            }
        }
        return result
    }

    /// The point at parameter t of a cubic Bézier curve.
    static func bezier(_ c: (Point, Point, Point, Point), _ t: Double) -> Point {
        let u = 1 - t
        let w = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
        return Point(
            x: w.0 * c.0.x + w.1 * c.1.x + w.2 * c.2.x + w.3 * c.3.x,
            y: w.0 * c.0.y + w.1 * c.1.y + w.2 * c.2.y + w.3 * c.3.y)
    }

    static func distance(_ a: Point, _ b: Point) -> Double { hypot(a.x - b.x, a.y - b.y) }

    @Test("A full-circle arc: 4 quarter curves whose ends lie at r (1e-9) and whose midpoints within 0.03 % of r")
    func fullCircle() {
        let center = Point(x: 3, y: -4)
        for r in [0.5, 5.0, 1234.5] {
            for clockwise in [true, false] {
                var path = Path()
                path.addArc(center: center, radius: r, startAngle: 0.3, endAngle: 0.3 + 2 * .pi, clockwise: clockwise)
                let curves = Self.cubics(path)
                #expect(curves.count == 4, "a full circle is four quarter curves")
                guard case .move(let first)? = path.elements.first else {
                    Issue.record("an arc on an empty path starts with a move")
                    continue
                }
                #expect(near(first, Point(x: 3 + r * cos(0.3), y: -4 + r * sin(0.3)), 1e-9 * r))
                for c in curves {
                    #expect(abs(Self.distance(c.3, center) - r) <= 1e-9 * max(1, r), "end point at r")
                    for t in [0.25, 0.5, 0.75] {
                        let off = abs(Self.distance(Self.bezier(c, t), center) - r) / r
                        #expect(off <= 0.0003, "point at t = \(t) is \(off * 100) % off the circle")
                    }
                }
                #expect(near(path.currentPoint!, first, 1e-9 * r), "a full circle ends where it starts")
            }
        }
    }

    /// Start angles for which `(start + 2pi) - start` (or `(start - 2pi) - start`) rounds to just under 2pi in
    /// magnitude (found by evaluating the same IEEE double arithmetic in Python), the other way round for 0.3.
    static let roundingAngles: [(start: Double, end: Double, clockwise: Bool)] = [
        (2.2, 2.2 + 2 * .pi, false), (3.2, 3.2 + 2 * .pi, false), (-4.2, -4.2 - 2 * .pi, true),
    ]

    @Test("A full turn (end = start ± 2pi) is a full circle even when end - start rounds to just under 2pi")
    func fullTurnRounding() {
        for (start, end, clockwise) in Self.roundingAngles {
            #expect(abs(end - start) < 2 * .pi, "the input really is the rounding case")
            var path = Path()
            path.addArc(center: .zero, radius: 10, startAngle: start, endAngle: end, clockwise: clockwise)
            #expect(
                Self.cubics(path).count == 4, "start \(start), clockwise \(clockwise): \(path.elements.count) elements")
            let extent = path.controlPointBounds.map { $0.width } ?? 0
            #expect(extent > 19.9, "the circle spans its diameter, 20")
        }
    }

    @Test("Each quarter curve uses the standard handle length 4/3 tan(pi/8) r, tangent to the circle")
    func quarterHandles() {
        var path = Path()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let curves = Self.cubics(path)
        #expect(curves.count == 1)
        guard let c = curves.first else { return }
        let k = 4.0 / 3.0 * tan(.pi / 8) * 10  // 5.5228...
        #expect(near(c.0, Point(x: 10, y: 0), 1e-12))
        #expect(near(c.1, Point(x: 10, y: k), 1e-12))
        #expect(near(c.2, Point(x: k, y: 10), 1e-12))
        #expect(near(c.3, Point(x: 0, y: 10), 1e-12))
    }

    @Test("clockwise is as in UIKit (y down): 0 to pi/2 clockwise passes through the bottom (+y)")
    func clockwiseQuarter() {
        var path = Path()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let mid = Self.bezier(Self.cubics(path)[0], 0.5)
        // The middle of the short way round, at 45 degrees: (+7.07, +7.07).
        #expect(mid.x > 7 && mid.y > 7, "\(mid)")
        #expect(near(path.currentPoint!, Point(x: 0, y: 10), 1e-12))
    }

    @Test("Counter-clockwise from 0 to pi/2 goes the long way, over the top (-y) and the left (-x)")
    func counterClockwise() {
        var path = Path()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let curves = Self.cubics(path)
        #expect(curves.count == 3, "three quarters")
        let ends = curves.map(\.3)
        #expect(near(ends[0], Point(x: 0, y: -10), 1e-12), "top first")
        #expect(near(ends[1], Point(x: -10, y: 0), 1e-12), "then left")
        #expect(near(ends[2], Point(x: 0, y: 10), 1e-12), "ends at the bottom")
    }

    @Test("Clockwise from pi/2 to 0 goes the long way too: left, top, right")
    func clockwiseLongWay() {
        var path = Path()
        path.addArc(center: Point(x: 1, y: 1), radius: 2, startAngle: .pi / 2, endAngle: 0, clockwise: true)
        let ends = Self.cubics(path).map(\.3)
        #expect(ends.count == 3)
        #expect(
            near(ends[0], Point(x: -1, y: 1), 1e-12) && near(ends[1], Point(x: 1, y: -1), 1e-12)
                && near(ends[2], Point(x: 3, y: 1), 1e-12))
    }

    @Test("An arc added after a point is joined to it by a straight line (addArc after move)")
    func arcJoinsCurrentPoint() {
        var path = Path()
        path.move(to: Point(x: -5, y: -5))
        path.addArc(center: .zero, radius: 1, startAngle: .pi, endAngle: 1.5 * .pi, clockwise: true)
        #expect(path.elements.count == 3)
        #expect(path.elements[0] == .move(Point(x: -5, y: -5)))
        if case .line(let p) = path.elements[1] {
            #expect(near(p, Point(x: -1, y: 0), 1e-12))
        } else {
            Issue.record("second element is \(path.elements[1]), want a line to the arc's start")
        }
        #expect(near(path.currentPoint!, Point(x: 0, y: -1), 1e-12))
    }

    @Test("addQuadCurve stores the degree-elevated cubic: c1 = p0 + 2/3 (q - p0), c2 = p + 2/3 (q - p)")
    func quadCurve() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addQuadCurve(to: Point(x: 6, y: 0), control: Point(x: 3, y: 6))
        #expect(path.elements.count == 2)
        guard case .curve(let c1, let c2, let end) = path.elements[1] else {
            Issue.record("want a cubic, got \(path.elements[1])")
            return
        }
        #expect(near(c1, Point(x: 2, y: 4)))
        #expect(near(c2, Point(x: 4, y: 4)))
        #expect(end == Point(x: 6, y: 0))
        // The quadratic's midpoint is p0/4 + q/2 + p/4 = (3, 3); the cubic must pass through it.
        #expect(near(Self.bezier((Point(x: 0, y: 0), c1, c2, end), 0.5), Point(x: 3, y: 3)))
    }

    @Test("Curves and lines on an empty path start it with a move to their end point")
    func emptyPathStarts() {
        var a = Path()
        a.addLine(to: Point(x: 1, y: 2))
        #expect(a.elements == [.move(Point(x: 1, y: 2))])
        var b = Path()
        b.addQuadCurve(to: Point(x: 3, y: 4), control: Point(x: 9, y: 9))
        #expect(b.elements == [.move(Point(x: 3, y: 4))])
        var c = Path()
        c.close()
        #expect(c.isEmpty && c.currentPoint == nil)
    }

    @Test("close returns the current point to the subpath's start")
    func closeResetsCurrentPoint() {
        var path = Path()
        path.move(to: Point(x: 1, y: 1))
        path.addLine(to: Point(x: 5, y: 1))
        path.addLine(to: Point(x: 5, y: 4))
        path.close()
        #expect(path.currentPoint == Point(x: 1, y: 1))
        #expect(path.elements.last == .close)
    }

    @Test("Path(rect:) is move, three lines and close, clockwise on screen")
    func rectPath() {
        let path = Path(rect: Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(
            path.elements == [
                .move(Point(x: 1, y: 2)), .line(Point(x: 4, y: 2)), .line(Point(x: 4, y: 6)), .line(Point(x: 1, y: 6)),
                .close,
            ])
    }

    @Test("Path(ovalIn:) has the rect as control-point bounds and its on-curve points on the ellipse")
    func oval() {
        let rect = Rect(x: 10, y: 20, width: 30, height: 40)
        let path = Path(ovalIn: rect)
        guard let bounds = path.controlPointBounds else {
            Issue.record("an oval has bounds")
            return
        }
        #expect(near(bounds.minX, 10, 1e-9) && near(bounds.minY, 20, 1e-9))
        #expect(near(bounds.width, 30, 1e-9) && near(bounds.height, 40, 1e-9))
        let anchors = Self.anchors(path)
        #expect(anchors.count == 5, "a move and four quarter curves")
        for p in anchors {
            let u = (p.x - 25) / 15
            let v = (p.y - 40) / 20
            #expect(near(u * u + v * v, 1, 1e-9), "\(p) on the ellipse")
        }
        // It starts at the right-hand middle, as UIKit's ovals do, then goes clockwise (down first).
        #expect(near(anchors[0], Point(x: 40, y: 40), 1e-9))
        #expect(near(anchors[1], Point(x: 25, y: 60), 1e-9))
        #expect(path.elements.last == .close)
        // Every curve point lies within 0.03 % of the ellipse (in the unit circle's terms).
        for c in Self.cubics(path) {
            let m = Self.bezier(c, 0.5)
            let u = (m.x - 25) / 15
            let v = (m.y - 40) / 20
            #expect(abs((u * u + v * v).squareRoot() - 1) < 0.0003)
        }
    }

    @Test("Path(roundedRect:cornerRadius:) runs through the hand-computed tangent points, clockwise")
    func roundedRect() {
        let path = Path(roundedRect: Rect(x: 0, y: 0, width: 20, height: 10), cornerRadius: 3)
        // Drop repeated points (a line to where the path already is) before comparing.
        var anchors: [Point] = []
        for p in Self.anchors(path) where anchors.last.map({ !near($0, p, 1e-9) }) ?? true { anchors.append(p) }
        let expected = [
            Point(x: 3, y: 0), Point(x: 17, y: 0), Point(x: 20, y: 3), Point(x: 20, y: 7), Point(x: 17, y: 10),
            Point(x: 3, y: 10), Point(x: 0, y: 7), Point(x: 0, y: 3), Point(x: 3, y: 0),
        ]
        #expect(anchors.count == expected.count, "\(anchors)")
        for (a, e) in zip(anchors, expected) { #expect(near(a, e, 1e-9), "\(a) vs \(e)") }
        #expect(path.elements.last == .close)
        // The corner curves' midpoints lie at radius 3 from the corner centers (within 0.03 %).
        let centers = [Point(x: 17, y: 3), Point(x: 17, y: 7), Point(x: 3, y: 7), Point(x: 3, y: 3)]
        let curves = Self.cubics(path)
        #expect(curves.count == 4)
        for (c, center) in zip(curves, centers) {
            #expect(abs(Self.distance(Self.bezier(c, 0.5), center) - 3) < 3 * 0.0003)
        }
        let b = path.controlPointBounds!
        #expect(near(b.minX, 0, 1e-9) && near(b.minY, 0, 1e-9) && near(b.maxX, 20, 1e-9) && near(b.maxY, 10, 1e-9))
    }

    @Test("A rounded rect's radius is limited to half the shorter side; radius 0 is a plain rect")
    func roundedRectLimits() {
        let capsule = Path(roundedRect: Rect(x: 0, y: 0, width: 20, height: 10), cornerRadius: 100)
        let a = Self.anchors(capsule)
        #expect(near(a[0], Point(x: 5, y: 0), 1e-9), "radius clamped to 5: starts at 5,0")
        #expect(
            Self.cubics(capsule).allSatisfy { c in
                let center = Point(x: c.3.x < 10 ? 5 : 15, y: 5)
                return abs(Self.distance(c.3, center) - 5) < 1e-9
            })
        let square = Path(roundedRect: Rect(x: 1, y: 2, width: 4, height: 3), cornerRadius: 0)
        var points: [Point] = []
        for p in Self.anchors(square) where points.last != p { points.append(p) }
        #expect(
            points == [
                Point(x: 1, y: 2), Point(x: 5, y: 2), Point(x: 5, y: 5), Point(x: 1, y: 5), Point(x: 1, y: 2),
            ])
        let negative = Path(roundedRect: Rect(x: 0, y: 0, width: 4, height: 4), cornerRadius: -2)
        #expect(Self.anchors(negative).first == Point(x: 0, y: 0), "a negative radius is 0")
    }

    @Test("apply(rotation by pi/2) maps (1, 0) to (0, 1) and (0, 2) to (-2, 0), control points too")
    func applyRotation() {
        var path = Path()
        path.move(to: Point(x: 1, y: 0))
        path.addLine(to: Point(x: 0, y: 2))
        path.addCurve(to: Point(x: 3, y: 3), control1: Point(x: 1, y: 2), control2: Point(x: -1, y: 5))
        path.close()
        path.apply(Transform(rotationAngle: .pi / 2))
        #expect(path.elements.count == 4)
        guard case .move(let m) = path.elements[0], case .line(let l) = path.elements[1],
            case .curve(let c1, let c2, let e) = path.elements[2]
        else {
            Issue.record("elements changed kind: \(path.elements)")
            return
        }
        #expect(near(m, Point(x: 0, y: 1)))
        #expect(near(l, Point(x: -2, y: 0)))
        #expect(near(c1, Point(x: -2, y: 1)) && near(c2, Point(x: -5, y: -1)) && near(e, Point(x: -3, y: 3)))
        #expect(path.elements[3] == .close)
        // After close the current point is the (rotated) start.
        #expect(near(path.currentPoint!, Point(x: 0, y: 1)))
    }

    @Test("applying returns a transformed copy and leaves the original alone")
    func applyingCopy() {
        let original = Path(rect: Rect(x: 0, y: 0, width: 2, height: 1))
        let moved = original.applying(Transform(translationX: 10, y: 20).scaledBy(x: 2, y: 2))
        #expect(original == Path(rect: Rect(x: 0, y: 0, width: 2, height: 1)))
        #expect(moved == Path(rect: Rect(x: 10, y: 20, width: 4, height: 2)))
    }

    @Test("controlPointBounds spans points and control points (not the curve's tight box); nil when empty")
    func controlBounds() {
        var path = Path()
        #expect(path.controlPointBounds == nil)
        path.move(to: Point(x: 0, y: 0))
        path.addCurve(to: Point(x: 10, y: 0), control1: Point(x: 2, y: -5), control2: Point(x: 8, y: 7))
        #expect(path.controlPointBounds == Rect(x: 0, y: -5, width: 10, height: 12))
        var single = Path()
        single.move(to: Point(x: 3, y: 4))
        #expect(single.controlPointBounds == Rect(x: 3, y: 4, width: 0, height: 0))
    }

    @Test("append adds the other path's elements and takes its current point")
    func appendPaths() {
        var a = Path(rect: Rect(x: 0, y: 0, width: 1, height: 1))
        var b = Path()
        b.move(to: Point(x: 5, y: 5))
        b.addLine(to: Point(x: 6, y: 7))
        a.append(b)
        #expect(a.elements.count == 5 + 2)
        #expect(a.currentPoint == Point(x: 6, y: 7))
        a.addLine(to: Point(x: 8, y: 8))
        a.close()
        #expect(a.currentPoint == Point(x: 5, y: 5), "close goes back to the appended subpath's start")
    }
}
