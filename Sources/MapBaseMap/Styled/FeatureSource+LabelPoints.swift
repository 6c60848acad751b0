import Foundation
import MapGeometry

// Where labels of a feature go, and the plane measures that choose it.
extension FeatureSource {
    /// Where a point label of a shape goes: the first point, the middle of the longest line, or
    /// ``labelPoint(_:)`` of the largest exterior ring.
    static func labelPoint(of shape: Shape) -> MapPoint {
        switch shape {
        case .points(let points):
            return points.first ?? MapPoint(x: 0, y: 0)
        case .lines(let lines):
            let longest = lines.max { length($0) < length($1) } ?? []
            return midpoint(longest) ?? lines.first(where: { !$0.isEmpty })?.first ?? MapPoint(x: 0, y: 0)
        case .polygons(let polygons):
            let exteriors = polygons.compactMap(\.first)
            let largest = exteriors.max { abs(signedArea($0)) < abs(signedArea($1)) } ?? []
            return labelPoint(largest)
        }
    }

    static func length(_ line: [MapPoint]) -> Double {
        zip(line, line.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }

    static func midpoint(_ line: [MapPoint]) -> MapPoint? {
        guard let first = line.first else { return nil }
        var remaining = length(line) / 2
        for (a, b) in zip(line, line.dropFirst()) {
            let d = hypot(b.x - a.x, b.y - a.y)
            if d >= remaining, d > 0 {
                let t = remaining / d
                return MapPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            }
            remaining -= d
        }
        return first
    }

    static func signedArea(_ ring: [MapPoint]) -> Double {
        guard ring.count > 2 else { return 0 }
        var sum = 0.0
        var j = ring.count - 1
        for i in 0..<ring.count {
            sum += (ring[j].x - ring[i].x) * (ring[j].y + ring[i].y)
            j = i
        }
        return sum / 2
    }

    /// The area centroid when it lies inside the ring; otherwise the middle of the widest horizontal
    /// run through the ring at the centroid's height.
    static func labelPoint(_ ring: [MapPoint]) -> MapPoint {
        guard ring.count > 2 else { return ring.first ?? MapPoint(x: 0, y: 0) }
        var a = 0.0
        var cx = 0.0
        var cy = 0.0
        let o = ring[0]
        var j = ring.count - 1
        for i in 0..<ring.count {
            let p = MapPoint(x: ring[j].x - o.x, y: ring[j].y - o.y)
            let q = MapPoint(x: ring[i].x - o.x, y: ring[i].y - o.y)
            let f = p.x * q.y - q.x * p.y
            a += f
            cx += (p.x + q.x) * f
            cy += (p.y + q.y) * f
            j = i
        }
        guard a != 0 else { return ring[0] }
        let centroid = MapPoint(x: cx / (3 * a) + o.x, y: cy / (3 * a) + o.y)
        // Crossings of the horizontal line through the centroid.
        var xs: [Double] = []
        j = ring.count - 1
        for i in 0..<ring.count {
            let p = ring[j]
            let q = ring[i]
            if (p.y > centroid.y) != (q.y > centroid.y) {
                xs.append(p.x + (centroid.y - p.y) / (q.y - p.y) * (q.x - p.x))
            }
            j = i
        }
        xs.sort()
        var best: (Double, Double)?
        var k = 0
        while k + 1 < xs.count {
            if xs[k] <= centroid.x, centroid.x <= xs[k + 1] { return centroid }
            if best == nil || xs[k + 1] - xs[k] > best!.1 - best!.0 { best = (xs[k], xs[k + 1]) }
            k += 2
        }
        guard let best else { return centroid }
        return MapPoint(x: (best.0 + best.1) / 2, y: centroid.y)
    }
}
