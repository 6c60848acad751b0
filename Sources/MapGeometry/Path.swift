import Foundation

/// How a stroke ends. Mirrors `CGLineCap`.
public enum LineCap: String, Sendable, CaseIterable {
    case butt, round, square
}

/// How stroke segments meet. Mirrors `CGLineJoin`.
public enum LineJoin: String, Sendable, CaseIterable {
    case miter, round, bevel
}

/// Which areas a fill covers where a path crosses itself or has holes. Mirrors `CGPathFillRule`.
public enum FillRule: Sendable {
    /// Nonzero winding: a hole must wind the other way.
    case winding
    /// Even-odd: every ring inside another is a hole.
    case evenOdd
}

/// A vector path of lines and cubic Bézier curves in user-space points.
///
/// Arcs, ellipses and quadratic curves become cubic curves when added, so that ``applying(_:)`` maps the
/// whole path exactly, as `UIBezierPath.applyTransform:` does.
///
/// ```swift
/// var path = Path()
/// path.move(to: Point(x: 20, y: 10))
/// path.addLine(to: Point(x: 10, y: 30))
/// path.addLine(to: Point(x: 30, y: 30))
/// path.close()
/// path.apply(Transform(rotationAngle: .pi / 2))
/// ```
/// Mirrors UIKit's `UIBezierPath`.
public struct Path: Sendable, Equatable {
    /// One drawing instruction.
    public enum Element: Sendable, Equatable {
        case move(Point)
        case line(Point)
        case curve(Point, Point, Point)
        case close
    }

    /// The instructions in order.
    public private(set) var elements: [Element] = []
    private var start: Point?
    /// The end of the last segment, or nil for an empty path. Mirrors `currentPoint`.
    public private(set) var currentPoint: Point?

    /// An empty path.
    public init() {}

    /// A closed rectangle. Mirrors `bezierPathWithRect:`.
    public init(rect: Rect) {
        move(to: rect.origin)
        addLine(to: Point(x: rect.maxX, y: rect.minY))
        addLine(to: Point(x: rect.maxX, y: rect.maxY))
        addLine(to: Point(x: rect.minX, y: rect.maxY))
        close()
    }

    /// The ellipse inscribed in a rect. Mirrors `bezierPathWithOvalInRect:`.
    public init(ovalIn rect: Rect) {
        let center = Point(x: rect.midX, y: rect.midY)
        let rx = rect.width / 2
        let ry = rect.height / 2
        var unit = Path()
        unit.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        unit.close()
        self = unit.applying(Transform(scaleX: rx, y: ry).concatenating(Transform(translationX: center.x, y: center.y)))
    }

    /// A rectangle with rounded corners. Mirrors `bezierPathWithRoundedRect:cornerRadius:`.
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        let r = max(0, min(cornerRadius, rect.width / 2, rect.height / 2))
        move(to: Point(x: rect.minX + r, y: rect.minY))
        addLine(to: Point(x: rect.maxX - r, y: rect.minY))
        addArc(
            center: Point(x: rect.maxX - r, y: rect.minY + r), radius: r, startAngle: -.pi / 2, endAngle: 0,
            clockwise: true)
        addLine(to: Point(x: rect.maxX, y: rect.maxY - r))
        addArc(
            center: Point(x: rect.maxX - r, y: rect.maxY - r), radius: r, startAngle: 0, endAngle: .pi / 2,
            clockwise: true)
        addLine(to: Point(x: rect.minX + r, y: rect.maxY))
        addArc(
            center: Point(x: rect.minX + r, y: rect.maxY - r), radius: r, startAngle: .pi / 2, endAngle: .pi,
            clockwise: true)
        addLine(to: Point(x: rect.minX, y: rect.minY + r))
        addArc(
            center: Point(x: rect.minX + r, y: rect.minY + r), radius: r, startAngle: .pi, endAngle: 1.5 * .pi,
            clockwise: true)
        close()
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath. Mirrors `moveToPoint:`.
    public mutating func move(to p: Point) {
        elements.append(.move(p))
        start = p
        currentPoint = p
    }

    /// Adds a straight line; starts a subpath at `p` when there is none. Mirrors `addLineToPoint:`.
    public mutating func addLine(to p: Point) {
        guard currentPoint != nil else { return move(to: p) }
        elements.append(.line(p))
        currentPoint = p
    }

    /// Adds a cubic Bézier curve. Mirrors `addCurveToPoint:controlPoint1:controlPoint2:`.
    public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
        guard currentPoint != nil else { return move(to: p) }
        elements.append(.curve(control1, control2, p))
        currentPoint = p
    }

    /// Adds a quadratic Bézier curve (stored as the equivalent cubic). Mirrors
    /// `addQuadCurveToPoint:controlPoint:`.
    public mutating func addQuadCurve(to p: Point, control: Point) {
        guard let p0 = currentPoint else { return move(to: p) }
        let c1 = Point(x: p0.x + 2 / 3 * (control.x - p0.x), y: p0.y + 2 / 3 * (control.y - p0.y))
        let c2 = Point(x: p.x + 2 / 3 * (control.x - p.x), y: p.y + 2 / 3 * (control.y - p.y))
        addCurve(to: p, control1: c1, control2: c2)
    }

    /// Adds a circular arc; a line joins the current point to the arc's start. Angles are in radians from
    /// the positive x axis; `clockwise` is as seen on screen (y down), as in UIKit.
    /// Mirrors `addArcWithCenter:radius:startAngle:endAngle:clockwise:`.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        var sweep = endAngle - startAngle
        if clockwise {
            while sweep < 0 { sweep += 2 * .pi }
            if sweep > 2 * .pi { sweep = sweep.truncatingRemainder(dividingBy: 2 * .pi) }
        } else {
            while sweep > 0 { sweep -= 2 * .pi }
            if sweep < -2 * .pi { sweep = sweep.truncatingRemainder(dividingBy: 2 * .pi) }
        }
        // A full turn (up to rounding: end - start may come out one ulp short of 2 pi) stays a full turn.
        if abs(endAngle - startAngle) >= 2 * .pi * (1 - 1e-12) { sweep = clockwise ? 2 * .pi : -2 * .pi }
        let first = Point(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if currentPoint == nil { move(to: first) } else { addLine(to: first) }
        let segments = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / Double(segments)
        let k = 4 / 3 * tan(step / 4)
        var angle = startAngle
        for _ in 0..<segments {
            let next = angle + step
            let p0 = Point(x: cos(angle), y: sin(angle))
            let p3 = Point(x: cos(next), y: sin(next))
            let c1 = Point(x: center.x + radius * (p0.x - k * p0.y), y: center.y + radius * (p0.y + k * p0.x))
            let c2 = Point(x: center.x + radius * (p3.x + k * p3.y), y: center.y + radius * (p3.y - k * p3.x))
            addCurve(to: Point(x: center.x + radius * p3.x, y: center.y + radius * p3.y), control1: c1, control2: c2)
            angle = next
        }
    }

    /// Closes the current subpath with a line back to its start. Mirrors `closePath`.
    public mutating func close() {
        guard currentPoint != nil else { return }
        elements.append(.close)
        currentPoint = start
    }

    /// Appends another path's elements. Mirrors `appendPath:`.
    public mutating func append(_ other: Path) {
        elements.append(contentsOf: other.elements)
        start = other.start ?? start
        currentPoint = other.currentPoint ?? currentPoint
    }

    /// Transforms every point of the path. Mirrors `applyTransform:`.
    public mutating func apply(_ t: Transform) {
        elements = elements.map { element in
            switch element {
            case .move(let p): return .move(p.applying(t))
            case .line(let p): return .line(p.applying(t))
            case .curve(let a, let b, let p): return .curve(a.applying(t), b.applying(t), p.applying(t))
            case .close: return .close
            }
        }
        start = start?.applying(t)
        currentPoint = currentPoint?.applying(t)
    }

    /// The path transformed.
    public func applying(_ t: Transform) -> Path {
        var copy = self
        copy.apply(t)
        return copy
    }

    /// The smallest rect containing every point and control point. Mirrors `CGPathGetBoundingBox`.
    public var controlPointBounds: Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        for element in elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .curve(let a, let b, let p): add(a); add(b); add(p)
            case .close: break
            }
        }
        return minX.isFinite ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
    }
}
