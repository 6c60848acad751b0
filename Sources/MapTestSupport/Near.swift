import MapGeometry

/// Whether two doubles differ by at most `tolerance`.
public func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool { abs(a - b) <= tolerance }

/// Whether two points differ by at most `tolerance` on each axis.
public func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-12) -> Bool {
    near(a.x, b.x, tolerance) && near(a.y, b.y, tolerance)
}

/// Whether two transforms' coefficients differ by at most `tolerance`.
public func near(_ a: Transform, _ b: Transform, _ tolerance: Double = 1e-12) -> Bool {
    near(a.a, b.a, tolerance) && near(a.b, b.b, tolerance) && near(a.c, b.c, tolerance) && near(a.d, b.d, tolerance)
        && near(a.tx, b.tx, tolerance) && near(a.ty, b.ty, tolerance)
}
