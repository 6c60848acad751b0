import MapGeometry
import Testing

@testable import MapGeocoding

/// One geocoder for all tests: loading builds the indexes.
let sharedGeocoder: Geocoder? = try? Geocoder()

func geocoder() throws -> Geocoder {
    guard let geocoder = sharedGeocoder else { return try Geocoder() }
    return geocoder
}

@Suite("Geocoding: the seed's example")
struct SeedTests {
    @Test("ASU, 33.416199,-111.936619 -> Tempe, Arizona, Maricopa, United States, US")
    func arizonaStateUniversity() throws {
        let placemark = try geocoder().reverseGeocode(LocationCoordinate2D(latitude: 33.416199, longitude: -111.936619))
        #expect(placemark.locality == "Tempe")
        #expect(placemark.administrativeArea == "Arizona")
        #expect(placemark.subAdministrativeArea == "Maricopa")
        #expect(placemark.country == "United States")
        #expect(placemark.countryCode == "US")
        let dictionary = placemark.addressDictionary
        #expect(dictionary["City"] == .string("Tempe"))
        #expect(dictionary["State"] == .string("Arizona"))
        #expect(dictionary["SubAdministrativeArea"] == .string("Maricopa"))
        #expect(dictionary["Country"] == .string("United States"))
        #expect(dictionary["CountryCode"] == .string("US"))
        #expect(dictionary["FormattedAddressLines"] == .lines(["Tempe, Arizona", "United States"]))
        #expect(placemark.title == "Tempe, Arizona")
    }
}
