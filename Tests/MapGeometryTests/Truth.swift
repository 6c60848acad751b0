import Foundation
import MapGeometry
import MapTestSupport
import Testing

/// One row of `fixtures/geometry/truth.json`, made by `Scripts/make-geometry-truth.py` with pyproj and
/// mercantile (see `fixtures/geometry/README.md`). Shown in test results by its id.
struct TruthCase: Decodable, Sendable, CustomTestStringConvertible {
    let id: String
    let kind: String
    let input: [String: Double]
    let expected: Expected

    var testDescription: String { id }

    /// The expected outputs: numbers by name, and for `tilesCovering` a list of "z/x/y" tiles.
    struct Expected: Decodable, Sendable {
        var numbers: [String: Double] = [:]
        var tiles: [String]?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys {
                if key.stringValue == "tiles" {
                    tiles = try container.decode([String].self, forKey: key)
                } else {
                    numbers[key.stringValue] = try container.decode(Double.self, forKey: key)
                }
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An input value; a missing one is recorded as an issue naming the case.
    func input(_ key: String, sourceLocation: SourceLocation = #_sourceLocation) -> Double {
        guard let value = input[key] else {
            Issue.record("case \(id) has no input \"\(key)\"", sourceLocation: sourceLocation)
            return .nan
        }
        return value
    }

    /// An integer input (zoom, tile x and y).
    func intInput(_ key: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let value = input(key, sourceLocation: sourceLocation)
        guard let int = Int(exactly: value) else {
            Issue.record("case \(id) input \"\(key)\" = \(value) is not an integer", sourceLocation: sourceLocation)
            return 0
        }
        return int
    }

    /// An expected number; a missing one is recorded as an issue naming the case.
    func expected(_ key: String, sourceLocation: SourceLocation = #_sourceLocation) -> Double {
        guard let value = expected.numbers[key] else {
            Issue.record("case \(id) has no expected \"\(key)\"", sourceLocation: sourceLocation)
            return .nan
        }
        return value
    }

    /// The coordinate made of the inputs `latitude` and `longitude` (or other names).
    func coordinate(_ lat: String = "latitude", _ lon: String = "longitude") -> LocationCoordinate2D {
        LocationCoordinate2D(latitude: input(lat), longitude: input(lon))
    }
}

struct TruthDocument: Decodable, Sendable {
    let cases: [TruthCase]
    let tools: [String: String]
}

enum Truth {
    /// Every kind of case the table holds; ``TruthTableTests`` has one test for each.
    static let kinds: Set<String> = [
        "project", "unproject", "pointsPerMeter", "distance", "regionWithDistance", "regionForMapRect",
        "viewportRegion", "tileBounds", "tilesCovering", "tms", "destination",
    ]

    struct Missing: Error, CustomStringConvertible {
        let kind: String
        var description: String { "fixtures/geometry/truth.json has no case of kind \(kind)" }
    }

    private static let loaded: Result<TruthDocument, any Error> = Result {
        try JSONDecoder().decode(TruthDocument.self, from: Fixtures.data("geometry/truth.json"))
    }

    /// The whole table. Throws when the fixture is missing or malformed.
    static func document() throws -> TruthDocument { try loaded.get() }

    /// The cases of one kind; throws rather than returning none, so that a test cannot pass on no cases.
    static func cases(_ kind: String) throws -> [TruthCase] {
        let cases = try document().cases.filter { $0.kind == kind }
        guard !cases.isEmpty else { throw Missing(kind: kind) }
        return cases
    }
}

// MARK: - Tolerances

/// How closely a computed value must match the truth table, with the reason for each bound.
enum Tolerance {
    /// Map points, absolute. PROJ's meters scaled to map points and MapGeometry's own arithmetic agree to
    /// within 4e-7 map points inside the world (one ulp at 2^28 is 6e-8); 1e-5 map points is 1.5 micrometers
    /// on the ground at the equator and 1/25000 of an image point even at zoom 22, so anything a user could
    /// see fails it.
    static let mapPoints = 1e-5
    /// Map points, relative to the value's size: visible rects of wide images reach several worlds (up to
    /// 2e9 map points), where the two computations differ by a few ulps (measured: 6e-15 relative, 3e-6 map
    /// points). 1e-13 adds at most 2.7e-5 map points (4 micrometers) inside the world.
    static let mapPointsRelative = 1e-13
    /// Degrees of latitude and longitude, absolute. 1e-9 degrees is 0.1 mm on the ground; pyproj and
    /// MapGeometry agree to 1e-13 degrees (measured), including points several worlds east or west.
    static let degrees = 1e-9
    /// Meters and derived scales (map points per meter, span degrees from meters), relative. PROJ's geodesic
    /// solver and the haversine formula, and the table's numerical derivatives and the closed forms, agree to
    /// 1.4e-11 (measured); 1e-9 also leaves room for the haversine's loss of digits next to antipodes.
    static let relative = 1e-9
    /// Meters, absolute, for distances near zero where a relative bound means nothing: 1 micrometer.
    static let meters = 1e-6
    /// Zoom levels: log2 of a ratio of map-point widths, so 1e-9 is a width error of 7e-10 relative.
    static let zoom = 1e-9
    /// Image points, absolute, for conversions through a viewport: 1e-6 of a point is far below a pixel.
    static let points = 1e-6
}

/// Whether `actual` is within `absolute + relative * |expected|` of `expected`.
func isClose(_ actual: Double, _ expected: Double, absolute: Double, relative: Double = 0) -> Bool {
    abs(actual - expected) <= absolute + relative * abs(expected)
}

/// The difference of two longitudes in degrees, taken around the circle: -180...180.
func longitudeDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 }
    if d < -180 { d += 360 }
    return d
}

/// Expects `actual` within a tolerance of `expected`, naming the case, the quantity and the difference.
func expectClose(
    _ actual: Double, _ expected: Double, absolute: Double, relative: Double = 0, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        isClose(actual, expected, absolute: absolute, relative: relative),
        "\(what): got \(actual), expected \(expected), difference \(actual - expected)",
        sourceLocation: sourceLocation)
}

/// Expects a map-point value (coordinate or extent) within ``Tolerance/mapPoints``.
func expectMapPoints(
    _ actual: Double, _ expected: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    expectClose(
        actual, expected, absolute: Tolerance.mapPoints, relative: Tolerance.mapPointsRelative, what,
        sourceLocation: sourceLocation)
}

/// Expects a longitude within ``Tolerance/degrees`` of `expected` around the circle and, when `wrapped`,
/// within -180...180.
func expectLongitude(
    _ actual: Double, _ expected: Double, wrapped: Bool = true, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        abs(longitudeDifference(actual, expected)) <= Tolerance.degrees,
        "\(what): got \(actual), expected \(expected)", sourceLocation: sourceLocation)
    if wrapped {
        #expect(
            (-180.0...180.0).contains(actual), "\(what): \(actual) is not wrapped into -180...180",
            sourceLocation: sourceLocation)
    }
}
