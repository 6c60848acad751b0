import Foundation
import MapGeometry
import Testing

@testable import MapGeocoding

@Suite("Geocoding: bad input and corrupt data")
struct BadInputTests {
    @Test(
        "invalid coordinates throw invalidCoordinate",
        arguments: [(91.0, 0.0), (-90.5, 10.0), (.nan, 0.0), (0.0, .infinity), (10.0, 180.0001)])
    func invalidCoordinates(latitude: Double, longitude: Double) throws {
        #expect(throws: GeocodingError.self) {
            try geocoder().reverseGeocode(LocationCoordinate2D(latitude: latitude, longitude: longitude))
        }
        do {
            _ = try geocoder().reverseGeocode(LocationCoordinate2D(latitude: latitude, longitude: longitude))
        } catch let error as GeocodingError {
            guard case .invalidCoordinate = error else {
                Issue.record("expected invalidCoordinate, got \(error)")
                return
            }
            #expect(error.description.contains("latitude must be"))
        }
    }

    @Test(
        "a point at sea throws noData (mid-Atlantic, Pacific, Gulf of Finland)",
        arguments: [(30.0, -40.0), (0.0, -150.0), (60.05, 24.95)])
    func sea(latitude: Double, longitude: Double) throws {
        #expect(throws: GeocodingError.noData(latitude: latitude, longitude: longitude)) {
            try geocoder().reverseGeocode(LocationCoordinate2D(latitude: latitude, longitude: longitude))
        }
    }

    @Test("the batch form answers each point on its own")
    func batch() throws {
        let results = try geocoder().reverseGeocode([
            LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384),
            LocationCoordinate2D(latitude: .nan, longitude: 0),
            LocationCoordinate2D(latitude: 30, longitude: -40),
            LocationCoordinate2D(latitude: 35.6895, longitude: 139.69171),
        ])
        #expect(results.count == 4)
        #expect((try? results[0].get())?.locality == "Helsinki")
        #expect((try? results[3].get())?.countryCode == "JP")
        if case .failure(.invalidCoordinate) = results[1] {} else { Issue.record("NaN: \(results[1])") }
        if case .failure(.noData) = results[2] {} else { Issue.record("sea: \(results[2])") }
    }

    @Test("empty queries throw emptyQuery", arguments: ["", "   ", ",,", " - ."])
    func emptyQuery(query: String) throws {
        #expect(throws: GeocodingError.emptyQuery) { try geocoder().geocode(query) }
    }

    @Test("Japanese names: country from NAME_JA, city from GeoNames")
    func japanese() throws {
        let tokyo = try geocoder().reverseGeocode(
            LocationCoordinate2D(latitude: 35.6895, longitude: 139.69171), language: .japanese)
        #expect(tokyo.country == "日本")
        #expect(tokyo.locality == "東京都")
        #expect(GeocodingLanguage(code: "ja-JP") == .japanese)
        #expect(GeocodingLanguage(code: "xx") == nil)
    }

    @Test("corrupt files throw badData naming the file, never crash")
    func corruptData() throws {
        let good = try Data(contentsOf: try Geocoder.shippedDataURL())
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geocoding-bad-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var cases: [(String, Data)] = [
            ("empty", Data()), ("magic", Data("NOTGEO\0\0".utf8)), ("truncated", good.prefix(good.count / 3)),
            ("trailing", good + Data([0])),
            // A huge string count right after the magic.
            ("count", Data(good.prefix(8)) + Data([0xFF, 0xFF, 0xFF, 0xFF, 0x0F])),
            ("varint", Data(good.prefix(8)) + Data(repeating: 0xFF, count: 12)),
        ]
        // Flip bytes deep inside the polygons and places.
        for offset in stride(from: 100_000, to: good.count, by: good.count / 7) {
            var flipped = good
            flipped[offset] ^= 0xFF
            flipped[offset + 1] ^= 0x80
            cases.append(("flip@\(offset)", flipped))
        }
        for (name, bytes) in cases {
            let url = dir.appendingPathComponent("\(name).bin")
            try bytes.write(to: url)
            do {
                let g = try Geocoder(contentsOf: url)
                // A flip may still decode: then it must still answer without crashing.
                _ = try? g.reverseGeocode(LocationCoordinate2D(latitude: 33.416199, longitude: -111.936619))
                _ = try? g.geocode("Tempe")
            } catch let error as GeocodingError {
                guard case .badData(let file, _) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(file == url.path, "\(name)")
            }
        }
        #expect(throws: GeocodingError.self) { try Geocoder(contentsOf: dir.appendingPathComponent("missing.bin")) }
    }
}
