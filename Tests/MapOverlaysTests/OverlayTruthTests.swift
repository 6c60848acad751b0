import Foundation
import MapRaster
import MapTestSupport
import Testing

/// `fixtures/overlays/truth.json`, made by `Scripts/make-overlay-truth.py` with pyproj's `Geod` (PROJ's
/// implementation of Karney's geodesic algorithms) on the sphere R = 6,378,137 m.
struct OverlayTruth: Decodable, Sendable {
    struct GeodesicCase: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let from: [Double]
        let to: [Double]
        let distance: Double
        let fractions: [Double]
        let points: [[Double]]
        var testDescription: String { name }
    }
    struct CircleCase: Decodable, Sendable, CustomTestStringConvertible {
        struct BearingPoint: Decodable, Sendable {
            let bearing: Double
            let latitude: Double
            let longitude: Double
        }
        let name: String
        let center: [Double]
        let radius: Double
        let points: [BearingPoint]
        let maxLatitude: Double
        let minLatitude: Double
        var testDescription: String { name }
    }
    let geodesics: [GeodesicCase]
    let circles: [CircleCase]

    static let shared: OverlayTruth = {
        do {
            return try JSONDecoder().decode(OverlayTruth.self, from: Fixtures.data("overlays/truth.json"))
        } catch {
            fatalError("fixtures/overlays/truth.json cannot be read: \(error)")
        }
    }()
}

/// The difference of two longitudes in degrees, modulo 360.
func longitudeDifference(_ a: Double, _ b: Double) -> Double {
    abs(Antimeridian.shortestStep(from: a, to: b))
}

@Suite("Overlay geometry against pyproj's Geod")
struct OverlayTruthTests {
    @Test("great-circle interpolation matches Geod.npts", arguments: OverlayTruth.shared.geodesics)
    func geodesicInterpolation(_ truth: OverlayTruth.GeodesicCase) {
        let a = LocationCoordinate2D(latitude: truth.from[0], longitude: truth.from[1])
        let b = LocationCoordinate2D(latitude: truth.to[0], longitude: truth.to[1])
        #expect(abs(WebMercator.distance(from: a, to: b) - truth.distance) < 1e-3)
        for (fraction, expected) in zip(truth.fractions, truth.points) {
            let p = Geodesic.intermediate(from: a, to: b, fraction: fraction)
            #expect(abs(p.latitude - expected[0]) < 1e-8, "\(truth.name) at \(fraction): \(p) vs \(expected)")
            #expect(longitudeDifference(p.longitude, expected[1]) < 1e-8, "\(truth.name) at \(fraction)")
        }
    }

    @Test(
        "a geodesic polyline keeps its ends, steps at most 50 km, and every vertex is on the great circle",
        arguments: OverlayTruth.shared.geodesics)
    func geodesicPolyline(_ truth: OverlayTruth.GeodesicCase) {
        let a = LocationCoordinate2D(latitude: truth.from[0], longitude: truth.from[1])
        let b = LocationCoordinate2D(latitude: truth.to[0], longitude: truth.to[1])
        let line = GeodesicPolyline(controlCoordinates: [a, b])
        #expect(line.coordinates.first == a && line.coordinates.last == b)
        #expect(line.pointCount == Int((truth.distance / 50_000).rounded(.up)) + 1)
        var total = 0.0
        for (p, q) in zip(line.coordinates, line.coordinates.dropFirst()) {
            let step = WebMercator.distance(from: p, to: q)
            #expect(step <= 50_000 + 1e-6)
            total += step
        }
        // Vertices on the great circle: the path is no longer than the geodesic distance.
        #expect(abs(total - truth.distance) < 1e-3 * max(1, truth.distance / 1e6), "\(total) vs \(truth.distance)")
        // Consecutive map points never jump across the world.
        for (p, q) in zip(line.points, line.points.dropFirst()) {
            #expect(abs(q.x - p.x) < WebMercator.worldSize / 2)
        }
    }

    @Test("circle outline points match Geod.fwd at the same bearings", arguments: OverlayTruth.shared.circles)
    func circleOutline(_ truth: OverlayTruth.CircleCase) {
        let center = LocationCoordinate2D(latitude: truth.center[0], longitude: truth.center[1])
        let circle = Circle(center: center, radius: truth.radius)
        let outline = circle.outline(vertices: 360)
        for expected in truth.points {
            let index = Int(expected.bearing)
            let p = outline[index]
            // Compare in map points (latitudes beyond 85.05 are clamped by the projection on both sides).
            let e = MapPoint(LocationCoordinate2D(latitude: expected.latitude, longitude: expected.longitude))
            #expect(abs(p.y - e.y) < 1e-3, "\(truth.name) bearing \(expected.bearing): y \(p.y) vs \(e.y)")
            let dx = abs(p.x - e.x).truncatingRemainder(dividingBy: WebMercator.worldSize)
            #expect(min(dx, WebMercator.worldSize - dx) < 1e-3, "\(truth.name) bearing \(expected.bearing): x")
        }
    }

    @Test("circle bounds reach the extreme latitudes Geod finds", arguments: OverlayTruth.shared.circles)
    func circleBounds(_ truth: OverlayTruth.CircleCase) {
        let center = LocationCoordinate2D(latitude: truth.center[0], longitude: truth.center[1])
        let circle = Circle(center: center, radius: truth.radius)
        let rect = circle.boundingMapRect
        let r = truth.radius / 6_378_137 * 180 / .pi
        let containsNorth = truth.center[0] + r > 90
        let containsSouth = truth.center[0] - r < -90
        #expect(circle.containsNorthPole == containsNorth)
        #expect(circle.containsSouthPole == containsSouth)
        let top = containsNorth ? 0 : MapPoint(LocationCoordinate2D(latitude: truth.maxLatitude, longitude: 0)).y
        let bottom =
            containsSouth
            ? WebMercator.worldSize : MapPoint(LocationCoordinate2D(latitude: truth.minLatitude, longitude: 0)).y
        // Geod's dense sampling (0.01 degree of bearing) is within a few meters of the true extreme.
        #expect(abs(rect.minY - top) < 50, "\(truth.name): top \(rect.minY) vs \(top)")
        #expect(abs(rect.maxY - bottom) < 50, "\(truth.name): bottom \(rect.maxY) vs \(bottom)")
        if containsNorth || containsSouth {
            #expect(abs(rect.width - WebMercator.worldSize) < 1e-6)
        } else {
            // Every outline point lies inside the bounds (allowing for rounding).
            for p in circle.outline(vertices: 720) {
                let inside = rect.insetBy(dx: -1e-3, dy: -1e-3)
                #expect(
                    inside.contains(p) || inside.contains(MapPoint(x: p.x + WebMercator.worldSize, y: p.y))
                        || inside.contains(MapPoint(x: p.x - WebMercator.worldSize, y: p.y)), "\(truth.name): \(p)")
            }
        }
    }
}
