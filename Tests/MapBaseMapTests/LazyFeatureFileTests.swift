import Foundation
import MapRaster
import MapTestSupport
import Testing

/// A GeoJSON file decoded feature by feature (every feature declares its `bbox`) with one broken feature
/// far from the others: only the views that meet the broken feature fail, each time, with an error naming
/// the file, the feature and what is wrong; every other view draws what the file without the broken
/// feature draws (the truth: the good features without `bbox` members, decoded at once), before and after
/// a failing view. A feature outside its own `bbox` is drawn nowhere: the view that meets its `bbox`
/// fails, the view that meets only the feature draws without it.
@Suite("GeoJSON decoded feature by feature: a broken feature fails only the views that meet it")
struct LazyFeatureFileTests {
    static let broken = Fixtures.url("data/lazy_features_bad_far.geojson")
    static let good = Fixtures.url("data/lazy_features_good.geojson")

    static let helsinki = LocationCoordinate2D(latitude: 60.1675, longitude: 24.9475)
    static let andorra = LocationCoordinate2D(latitude: 42.508, longitude: 1.5215)
    static let tokyo = LocationCoordinate2D(latitude: 35.65, longitude: 139.7)

    static func render(_ file: URL, _ center: LocationCoordinate2D, zoom: Double) throws -> [UInt8] {
        try DeclaredExtentTests.render(file: file, lineOffset: 0, center: center, zoom: zoom)
    }

    /// The error of a view that must fail, as text (nil when it drew); records an issue unless it is a
    /// ``RenderError``.
    static func failure(_ center: LocationCoordinate2D, zoom: Double) -> String? {
        do {
            _ = try render(broken, center, zoom: zoom)
            return nil
        } catch let error as RenderError {
            return "\(error)"
        } catch {
            Issue.record("not a RenderError: \(error)")
            return "\(error)"
        }
    }

    @Test("views away from the broken feature draw, also after a view that met it failed; views meeting it fail")
    func brokenFeatureFailsOnlyItsViews() throws {
        let helsinkiTruth = try Self.render(Self.good, Self.helsinki, zoom: 15)
        let andorraTruth = try Self.render(Self.good, Self.andorra, zoom: 16)
        // The truth is not a blank image: the Helsinki square and the Andorra square are in view.
        #expect(Set(helsinkiTruth).count > 2 && Set(andorraTruth).count > 2)

        #expect(try Self.render(Self.broken, Self.helsinki, zoom: 15) == helsinkiTruth)
        let first = try #require(Self.failure(Self.tokyo, zoom: 12))
        #expect(first.contains("lazy_features_bad_far.geojson"), "\(first)")
        #expect(first.contains("features[3]"), "\(first)")
        #expect(first.contains("coordinates"), "\(first)")
        // After the failing view: the views away from Tokyo still draw, the same pixels.
        #expect(try Self.render(Self.broken, Self.helsinki, zoom: 15) == helsinkiTruth)
        #expect(try Self.render(Self.broken, Self.andorra, zoom: 16) == andorraTruth)
        #expect(try Self.render(Self.broken, Self.helsinki, zoom: 15) == helsinkiTruth)
        // The broken feature fails every view that meets it, with the same error (not only the first).
        #expect(Self.failure(Self.tokyo, zoom: 12) == first)
        #expect(Self.failure(LocationCoordinate2D(latitude: 30, longitude: 60), zoom: 1) == first)
    }

    /// The square of `FeatureExtentTests` (24.945..24.95 E) declares 24.945..24.948 E. At zoom 19 (about
    /// 372,800 points a degree of longitude) a 256-point view centred at 24.9494 E starts about 395 points east
    /// of the declared bbox, more than any layer's margin of this style: no query meets the bbox.
    @Test("a feature outside its declared bbox: a view meeting the bbox fails, one meeting the rest draws without it")
    func featureOutsideItsBox() throws {
        let withoutSquare = FeatureExtentTests.features.enumerated().filter { $0.offset != 1 }.map(\.element.text)
        let truth = #"{"type":"FeatureCollection","features":["# + withoutSquare.joined(separator: ",") + "]}"
        try DeclaredExtentTests.withFiles([
            "lying.geojson": FeatureExtentTests.file(boxes: true, lie: true),
            "plain.geojson": FeatureExtentTests.file(boxes: false), "truth.geojson": truth,
        ]) { dir in
            let eastPart = LocationCoordinate2D(latitude: 60.1675, longitude: 24.9494)
            func render(_ name: String, _ center: LocationCoordinate2D, zoom: Double) throws -> [UInt8] {
                try Self.render(dir.appendingPathComponent(name), center, zoom: zoom)
            }
            let drawn = try render("plain.geojson", eastPart, zoom: 19)
            let without = try render("truth.geojson", eastPart, zoom: 19)
            // The square fills that view when the file is decoded whole; the lying file's view lacks it.
            #expect(drawn != without)
            #expect(try render("lying.geojson", eastPart, zoom: 19) == without)
            #expect(throws: RenderError.self) {
                try render("lying.geojson", LocationCoordinate2D(latitude: 60.1675, longitude: 24.9465), zoom: 19)
            }
            // Still no error and still no square where only the part outside the bbox is in view.
            #expect(try render("lying.geojson", eastPart, zoom: 19) == without)
        }
    }
}
