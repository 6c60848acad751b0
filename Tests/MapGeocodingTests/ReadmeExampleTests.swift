import MapGeometry
import MapRaster
import Testing

@testable import MapGeocoding

@Suite("Geocoding: README example")
struct GeocodingReadmeTests {
    @Test("the README's calls work, and a placemark goes on the map as an annotation (the seed's note)")
    func readmeExample() throws {
        let geocoder = try MapGeocodingTests.geocoder()
        let point = LocationCoordinate2D(latitude: 35.6895, longitude: 139.69171)
        let points = [point, LocationCoordinate2D(latitude: 30, longitude: -40)]
        let asu = try geocoder.reverseGeocode(LocationCoordinate2D(latitude: 33.416199, longitude: -111.936619))
        let results = geocoder.reverseGeocode(points)
        let tempe = try geocoder.geocode("Tempe, Arizona", near: nil, limit: 5)
        let tokyo = try geocoder.reverseGeocode(point, language: .japanese)
        #expect(asu.locality == "Tempe")
        #expect(results.count == 2)
        #expect(tempe.first?.locality == "Tempe")
        #expect(tokyo.country == "日本")

        var options = MapSnapshotter.Options(size: Size(width: 256, height: 256), scale: 1)
        options.region = CoordinateRegion(center: asu.coordinate, latitudinalMeters: 20_000, longitudinalMeters: 20_000)
        let snapshotter = try MapSnapshotter(options: options)
        snapshotter.addAnnotation(asu)
        let snapshot = try snapshotter.snapshot()
        let placed = try #require(snapshot.annotations.first)
        #expect(placed.annotation === asu)
        #expect(placed.annotation.title == "Tempe, Arizona")
        #expect(placed.annotation.subtitle == "United States")
        #expect(placed.visibility == .visible)
        let anchor = snapshot.point(for: asu.coordinate)
        #expect(abs(anchor.x - 128) < 0.5 && abs(anchor.y - 128) < 0.5)
    }
}
