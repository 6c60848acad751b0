import Foundation

/// Helpers for geometry that crosses the 180th meridian.
///
/// Overlays join consecutive vertices the short way round (a longitude step of at most 180 degrees), so a
/// line from 170 E to 170 W crosses the 180th meridian instead of the whole map. Their map points are
/// therefore "unwrapped": x may run east of the world (x > 2^28) or west of it (x < 0), the way a map
/// rect that ``MapRect/spans180thMeridian`` does.
public enum Antimeridian {
    /// The longitude step from `a` to `b` taken the short way, in -180...180 degrees (exactly 180 for
    /// antipodal longitudes).
    @inlinable public static func shortestStep(from a: Double, to b: Double) -> Double {
        var d = (b - a).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }

    /// Longitudes made continuous: the first is kept, each later one is its predecessor plus the
    /// ``shortestStep(from:to:)``.
    public static func unwrappedLongitudes(_ coordinates: [LocationCoordinate2D]) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(coordinates.count)
        var previous = 0.0
        for (i, c) in coordinates.enumerated() {
            let lon = i == 0 ? c.longitude : previous + shortestStep(from: previous, to: c.longitude)
            result.append(lon)
            previous = lon
        }
        return result
    }

    /// The coordinates projected to map points with unwrapped longitudes (see ``unwrappedLongitudes(_:)``).
    public static func unwrappedMapPoints(_ coordinates: [LocationCoordinate2D]) -> [MapPoint] {
        let longitudes = unwrappedLongitudes(coordinates)
        return zip(coordinates, longitudes).map { c, lon in
            MapPoint(x: WebMercator.x(longitude: lon), y: WebMercator.y(latitude: c.latitude))
        }
    }

    /// How far east, in map points, a closed ring travels when walked once round (each step the short way,
    /// including the closing one): 0 for an ordinary ring, +-``WebMercator/worldSize`` for a ring that
    /// goes round a pole.
    public static func netEastwardTravel(ofRing points: [MapPoint]) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        let world = WebMercator.worldSize
        var close = (first.x - last.x).truncatingRemainder(dividingBy: world)
        if close > world / 2 { close -= world } else if close < -world / 2 { close += world }
        return (last.x - first.x) + close
    }
}
