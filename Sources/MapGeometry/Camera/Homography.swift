/// A projective map of the plane (a 3 x 3 matrix, row-major): `(x, y)` goes to
/// `((m0 x + m1 y + m2) / w, (m3 x + m4 y + m5) / w)` with `w = m6 x + m7 y + m8`. A tilted view shows the
/// ground through one (``ViewProjection/groundHomography``); a glyph or icon laid on the ground is drawn
/// through it, as a GPU draws a quad with perspective-correct texture coordinates.
package struct Homography: Hashable, Sendable {
    /// The nine coefficients, row-major.
    package var m: [Double]

    package init(_ m: [Double]) {
        precondition(m.count == 9, "a homography has nine coefficients")
        self.m = m
    }

    /// The homography of an affine transform (`x' = a x + c y + tx`, `y' = b x + d y + ty`).
    package init(_ t: Transform) {
        m = [t.a, t.c, t.tx, t.b, t.d, t.ty, 0, 0, 1]
    }

    /// The image of `p` and its `w` (the denominator; a point with `w <= 0` is not meaningful).
    @inline(__always) package func apply(_ p: Point) -> (point: Point, w: Double) {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        return (Point(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w), w)
    }

    /// `self` applied first, then `other`.
    package func concatenating(_ other: Homography) -> Homography {
        let a = other.m
        let b = m
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 { r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j] }
        }
        return Homography(r)
    }

    /// `self` applied first, then the affine `t`.
    package func concatenating(_ t: Transform) -> Homography { concatenating(Homography(t)) }

    /// The inverse map (its adjugate, scaled so the last coefficient is 1 where it can be); nil when singular or
    /// not finite.
    package func inverted() -> Homography? {
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let adj = [
            e * i - f * h, c * h - b * i, b * f - c * e,
            f * g - d * i, a * i - c * g, c * d - a * f,
            d * h - e * g, b * g - a * h, a * e - b * d,
        ]
        let r = adj.map { $0 / det }
        return r.allSatisfy(\.isFinite) ? Homography(r) : nil
    }
}

extension ViewProjection {
    /// The homography from the turned ground (``turned(_:)``, points from the center, z = 0) to image points:
    /// ``project(turned:z:)`` as a matrix, `[[d, -W/2 sin p, W/2 d], [0, d cos p - H/2 sin p, H/2 d], [0, -sin p, d]]`.
    package var groundHomography: Homography {
        let (d, w, h) = (distance, size.width / 2, size.height / 2)
        return Homography([d, -w * sinP, w * d, 0, d * cosP - h * sinP, h * d, 0, -sinP, d])
    }
}
