import Foundation

/// A cubic Bézier easing curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), each
/// coordinate in 0...1: the `["cubic-bezier", x1, y1, x2, y2]` interpolation of MapLibre's `interpolate`
/// (CSS's `cubic-bezier()` timing function). ``solve(_:)`` gives the curve's y where its x is the
/// interpolation's linear factor.
///
/// ```swift
/// UnitBezier(x1: 0, y1: 0, x2: 1, y2: 1).solve(0.25)  // 0.25: the straight line
/// ```
public struct UnitBezier: Sendable, Equatable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    /// Creates a curve; the control points' coordinates must lie in 0...1 (checked where styles are read).
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// The curve's x at parameter `t` (Bernstein form with end points 0 and 1).
    func x(at t: Double) -> Double { Self.coordinate(t, x1, x2) }
    /// The curve's y at parameter `t`.
    func y(at t: Double) -> Double { Self.coordinate(t, y1, y2) }

    private static func coordinate(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    /// The parameter where the curve's x is `x` (in 0...1): a few Newton steps from `x`, then bisection
    /// (x(t) rises monotonically for control x in 0...1), to within `epsilon`. At most 8 + 64 steps.
    func parameter(forX x: Double, epsilon: Double = 1e-9) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = self.x(at: t) - x
            if abs(error) < epsilon { return t }
            let u = 1 - t
            let slope = 3 * u * u * x1 + 6 * u * t * (x2 - x1) + 3 * t * t * (1 - x2)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var low = 0.0
        var high = 1.0
        t = min(max(x, 0), 1)
        for _ in 0..<64 {
            let value = self.x(at: t)
            if abs(value - x) < epsilon { return t }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }

    /// The curve's y where its x is `x`, `x` clamped to 0...1.
    public func solve(_ x: Double) -> Double {
        let x = min(max(x.isNaN ? 0 : x, 0), 1)
        return y(at: parameter(forX: x))
    }
}
