import Foundation

/// Great-circle geometry on the Web Mercator sphere (radius ``WebMercator/earthRadius``).
public enum Geodesic {
    /// The central angle between two coordinates in radians (haversine).
    public static func angle(from a: LocationCoordinate2D, to b: LocationCoordinate2D) -> Double {
        WebMercator.distance(from: a, to: b) / WebMercator.earthRadius
    }

    /// The point a `fraction` (0...1) of the way from `a` to `b` along the shorter great circle (spherical
    /// linear interpolation of unit vectors). Antipodal endpoints have no unique great circle; the result
    /// then follows the meridian through `a`.
    public static func intermediate(from a: LocationCoordinate2D, to b: LocationCoordinate2D, fraction: Double)
        -> LocationCoordinate2D
    {
        let va = unitVector(a)
        let vb = unitVector(b)
        let d = angle(from: a, to: b)
        if d < 1e-15 { return a }
        let s = sin(d)
        if s < 1e-12 {
            // Antipodal: go over the pole nearer to a's hemisphere along a's meridian.
            return WebMercator.destination(
                from: a, bearing: a.latitude >= 0 ? 0 : 180, meters: fraction * d * WebMercator.earthRadius)
        }
        let ka = sin((1 - fraction) * d) / s
        let kb = sin(fraction * d) / s
        let x = ka * va.0 + kb * vb.0
        let y = ka * va.1 + kb * vb.1
        let z = ka * va.2 + kb * vb.2
        return LocationCoordinate2D(
            latitude: WebMercator.degrees(atan2(z, (x * x + y * y).squareRoot())),
            longitude: WebMercator.degrees(atan2(y, x)))
    }

    /// The vertices densified along great circles so that no step is longer than `maximumStep` meters;
    /// the original vertices are kept. Mirrors how `MKGeodesicPolyline` builds its points.
    public static func densified(_ coordinates: [LocationCoordinate2D], maximumStep: Double) -> [LocationCoordinate2D] {
        guard coordinates.count > 1, maximumStep > 0 else { return coordinates }
        var result: [LocationCoordinate2D] = [coordinates[0]]
        for (a, b) in zip(coordinates, coordinates.dropFirst()) {
            let meters = WebMercator.distance(from: a, to: b)
            let steps = max(1, Int((meters / maximumStep).rounded(.up)))
            if steps > 1 {
                for k in 1..<steps {
                    result.append(intermediate(from: a, to: b, fraction: Double(k) / Double(steps)))
                }
            }
            result.append(b)
        }
        return result
    }

    static func unitVector(_ c: LocationCoordinate2D) -> (Double, Double, Double) {
        let phi = WebMercator.radians(c.latitude)
        let lambda = WebMercator.radians(c.longitude)
        return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }
}
