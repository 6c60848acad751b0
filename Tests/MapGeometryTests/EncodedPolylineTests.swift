import MapGeometry
import Testing

@Suite("Encoded polylines: Google's algorithm, precision 5 and 6")
struct EncodedPolylineTests {
    /// The example of Google's "Encoded Polyline Algorithm Format" page.
    static let googleExample = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
    static let googlePoints = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]

    @Test("Google's example decodes to its three points and encodes back")
    func googleExample() throws {
        let line = try EncodedPolyline.decode(Self.googleExample)
        #expect(line.count == 3)
        for (c, (lat, lon)) in zip(line, Self.googlePoints) {
            #expect(abs(c.latitude - lat) < 1e-9 && abs(c.longitude - lon) < 1e-9)
        }
        let points = Self.googlePoints.map { LocationCoordinate2D(latitude: $0.0, longitude: $0.1) }
        #expect(EncodedPolyline.encode(points) == Self.googleExample)
    }

    @Test("the description's worked value: -179.9832104 encodes to `~oia@ (0 encodes to ?)")
    func workedValue() {
        let text = EncodedPolyline.encode([LocationCoordinate2D(latitude: 0, longitude: -179.9832104)])
        #expect(text == "?`~oia@")
    }

    @Test("precision 6 reads the same text as values ten times smaller; round trips at both precisions")
    func precisionSix() throws {
        let line = try EncodedPolyline.decode(Self.googleExample, precision: 6)
        for (c, (lat, lon)) in zip(line, Self.googlePoints) {
            #expect(abs(c.latitude - lat / 10) < 1e-9 && abs(c.longitude - lon / 10) < 1e-9)
        }
        let points = [
            LocationCoordinate2D(latitude: 60.169857, longitude: 24.938379),
            LocationCoordinate2D(latitude: -33.856784, longitude: 151.215297),
            LocationCoordinate2D(latitude: 89.999999, longitude: -179.999999),
            LocationCoordinate2D(latitude: -90, longitude: 180),
        ]
        for precision in [5, 6] {
            let back = try EncodedPolyline.decode(
                EncodedPolyline.encode(points, precision: precision), precision: precision)
            let step = precision == 5 ? 1e-5 : 1e-6
            #expect(back.count == points.count)
            for (a, b) in zip(points, back) {
                #expect(abs(a.latitude - b.latitude) <= step / 2 + 1e-12)
                #expect(abs(a.longitude - b.longitude) <= step / 2 + 1e-12)
            }
        }
    }

    @Test(
        "hostile encodings are typed errors",
        arguments: [
            ("_p~iF~ps|U_ulLnnqC_mqNvxq", "cut off"),  // last value has its continuation bit
            ("_p~iF", "no longitude"),
            ("_p~iF ps|U", "' ' at character 5"),
            ("\u{7F}", "byte 127"),
            ("~~~~~~~~~~~~?", "longer than 7"),
            ("_gjaR?", "outside latitude"),  // 100 degrees north
            ("??_gjaR", "no longitude"),
        ])
    func hostile(text: String, expected: String) {
        #expect {
            _ = try EncodedPolyline.decode(text)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test("more points than allowed are refused; precision other than 5 or 6 too")
    func limits() {
        let many = String(repeating: "??", count: 11)
        #expect(throws: EncodedPolylineError.tooManyPoints(maximum: 10)) {
            try EncodedPolyline.decode(many, maximumCount: 10)
        }
        #expect(throws: EncodedPolylineError.invalidPrecision(7)) { try EncodedPolyline.decode("??", precision: 7) }
        #expect((try? EncodedPolyline.decode(""))?.isEmpty == true)
    }
}
