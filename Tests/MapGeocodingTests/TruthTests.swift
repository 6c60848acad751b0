import Foundation
import MapGeometry
import MapTestSupport
import Testing

@testable import MapGeocoding

/// Splits one CSV line (RFC 4180 quoting, no line breaks inside fields).
func csvFields(_ line: Substring) -> [String] {
    var fields: [String] = []
    var field = ""
    var quoted = false
    var iterator = line.makeIterator()
    var pending: Character? = nil
    while let ch = pending ?? iterator.next() {
        pending = nil
        if quoted {
            if ch == "\"" {
                if let next = iterator.next() {
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else {
                    quoted = false
                }
            } else {
                field.append(ch)
            }
        } else if ch == "\"" {
            quoted = true
        } else if ch == "," {
            fields.append(field)
            field = ""
        } else {
            field.append(ch)
        }
    }
    fields.append(field)
    return fields
}

/// The rows of a CSV fixture (or any file), header dropped.
func csvRows(_ url: URL) throws -> [[String]] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").dropFirst().map(csvFields)
}

@Suite("Geocoding: against the shapely / scipy oracle")
struct TruthTests {
    /// `fixtures/geocoding/reverse-truth.csv`, or the file named by `GEOCODING_TRUTH` (the full oracle run).
    static var truthURL: URL {
        if let path = ProcessInfo.processInfo.environment["GEOCODING_TRUTH"] { return URL(fileURLWithPath: path) }
        return Fixtures.url("geocoding/reverse-truth.csv")
    }

    @Test("country, admin-1 and locality agree 100 % with the oracle")
    func reverseTruth() throws {
        let g = try geocoder()
        let rows = try csvRows(Self.truthURL)
        #expect(rows.count >= 5000)
        var disagreements: [String] = []
        var agreedByKind: [String: Int] = [:]
        for row in rows {
            let (lat, lon) = (Double(row[0]) ?? .nan, Double(row[1]) ?? .nan)
            let expected = (Int(row[3]) ?? -2, Int(row[4]) ?? -2, Int(row[5]) ?? -2)
            let coordinate = LocationCoordinate2D(latitude: lat, longitude: lon)
            var actual = (-1, -1, -1)
            do {
                // The oracle knows no OSM: a shore point that only OSM answers counts as "at sea" here.
                let match = try g.reverseMatch(coordinate)
                if let country = match.country { actual = (country, match.admin1 ?? -1, match.place ?? -1) }
            } catch GeocodingError.noData {
                actual = (-1, -1, -1)
            }
            if actual == expected {
                agreedByKind[row[2], default: 0] += 1
            } else {
                disagreements.append(
                    "\(row[0]),\(row[1]) \(row[2]): expected \(expected) (\(row[6])/\(row[7])/\(row[8])), got \(actual)"
                )
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(rows.count) disagree: \(disagreements.prefix(20))")
        print("reverse truth: \(rows.count - disagreements.count) of \(rows.count) agree \(agreedByKind)")
    }

    /// Places that share name, state and county with another place (marked by the oracle) cannot be told apart
    /// by name: for them the place must be among the results, not necessarily first.
    @Test("1,000 random GeoNames places found by name and country: first result within 1 km")
    func forwardSearch() throws {
        let g = try geocoder()
        let rows = try csvRows(Fixtures.url("geocoding/forward.csv"))
        #expect(rows.count == 1000)
        var misses: [String] = []
        for row in rows {
            let expected = LocationCoordinate2D(latitude: Double(row[1]) ?? .nan, longitude: Double(row[2]) ?? .nan)
            let ambiguous = row[3] == "1"
            let results = try g.geocode(row[0], limit: ambiguous ? 50 : 1)
            guard let first = results.first else {
                misses.append("\(row[0]): nothing")
                continue
            }
            if ambiguous {
                if !results.contains(where: { distanceKilometers($0.coordinate, expected) <= 1 }) {
                    misses.append("\(row[0]) (ambiguous): not among \(results.count) results")
                }
                continue
            }
            let d = distanceKilometers(first.coordinate, expected)
            if d > 1 { misses.append("\(row[0]): \(first) at \(d) km") }
        }
        print("forward: \(rows.count - misses.count) of \(rows.count) found")
        #expect(misses.isEmpty, "\(misses.count) missed: \(misses.prefix(20))")
    }

    @Test("one-letter typos still find the 100 most populous cities")
    func typos() throws {
        let g = try geocoder()
        let rows = try csvRows(Fixtures.url("geocoding/typos.csv"))
        #expect(rows.count == 100)
        var misses: [String] = []
        for row in rows {
            let expected = LocationCoordinate2D(latitude: Double(row[2]) ?? .nan, longitude: Double(row[3]) ?? .nan)
            let first = try g.geocode(row[0], limit: 1).first
            if first.map({ distanceKilometers($0.coordinate, expected) <= 1 }) != true {
                misses.append("\(row[0]) (\(row[1])): \(first?.description ?? "nothing")")
            }
        }
        #expect(misses.isEmpty, "\(misses.count) missed: \(misses)")
    }

    @Test("50 OSM address points round-trip: street and house number")
    func addresses() throws {
        let g = try geocoder()
        let rows = try csvRows(Fixtures.url("geocoding/addresses.csv"))
        #expect(rows.count == 50)
        for row in rows {
            let coordinate = LocationCoordinate2D(latitude: Double(row[1]) ?? .nan, longitude: Double(row[2]) ?? .nan)
            let placemark = try g.reverseGeocode(coordinate)
            #expect(placemark.thoroughfare == row[3], "\(row)")
            #expect(placemark.subThoroughfare == row[4], "\(row)")
            #expect(placemark.postalCode == (row[5].isEmpty ? nil : row[5]), "\(row)")
        }
    }
}

func distanceKilometers(_ a: LocationCoordinate2D, _ b: LocationCoordinate2D) -> Double {
    PlaceIndex.haversine(
        latitude1: a.latitude, longitude1: a.longitude, cosLatitude1: cos(a.latitude * .pi / 180),
        latitude2: b.latitude, longitude2: b.longitude, cosLatitude2: cos(b.latitude * .pi / 180))
}
