import Foundation
import MapData
import MapTestSupport
import Testing

/// `mapraster geocode` run as a user runs it: stdout, stderr, exit code and the files written.
@Suite("mapraster geocode")
struct GeocodeCommandTests {
    @Test("--reverse --json prints the seed's placemark with its credits")
    func reverseJSON() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try CLI.run(["geocode", "--reverse", "33.416199,-111.936619", "--json"], in: dir.url)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.standardOutput.contains("\"City\": \"Tempe\""), "\(result)")
        #expect(result.standardOutput.contains("\"State\": \"Arizona\""))
        #expect(result.standardOutput.contains("\"SubAdministrativeArea\": \"Maricopa\""))
        #expect(result.standardOutput.contains("\"CountryCode\": \"US\""))
        #expect(result.standardOutput.contains("GeoNames (www.geonames.org), CC BY 4.0"))
    }

    @Test("a name prints ranked matches, best first")
    func forward() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try CLI.run(["geocode", "Tempe, Arizona", "--limit", "2"], in: dir.url)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("1. Tempe, Arizona, United States  33.414770,-111.909310\n2. "))
    }

    /// Writes `in.csv` into `dir`: a header, a point in Tempe, a bad latitude, a point at sea, then `extra` rows.
    static func writeCSV(_ extra: [String], in dir: TemporaryDirectory) throws {
        let rows = ["id,lat,lon", "asu,33.416199,-111.936619", "bad,north,-111.9", "sea,30,-40"] + extra
        try (rows.joined(separator: "\n") + "\n").write(
            to: dir.url.appendingPathComponent("in.csv"), atomically: true, encoding: .utf8)
    }

    @Test("--input CSV: every row geocoded, bad rows reported by line number, exit 1, file written whole")
    func csvInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.writeCSV(["far,95,0", #""quoted, id",60.16952,24.9386"#, "short,1"], in: dir)
        let result = try CLI.run(["geocode", "--input", "in.csv", "-o", "out.csv"], in: dir.url)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.standardError.contains("in.csv:3: lat 'north'"), "\(result)")
        #expect(result.standardError.contains("in.csv:5: invalid coordinate 95.0,0.0"), "\(result)")
        #expect(result.standardError.contains("in.csv:7: 2 fields, the header has 3"), "\(result)")
        #expect(!result.standardError.contains("in.csv:4"), "a point at sea is an answer, not a bad row")
        let lines = try String(contentsOf: dir.url.appendingPathComponent("out.csv"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(
            lines.first
                == "id,lat,lon,name,thoroughfare,subThoroughfare,locality,administrativeArea,subAdministrativeArea,"
                + "postalCode,country,countryCode,error")
        #expect(lines[1] == "asu,33.416199,-111.936619,Tempe,,,Tempe,Arizona,Maricopa,,United States,US,")
        #expect(lines[3] == "sea,30,-40,,,,,,,,,,at sea")
        #expect(lines[5].hasPrefix("\"quoted, id\",60.16952,24.9386,Mannerheimintie 20,Mannerheimintie,20,Helsinki,"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        #expect(files == ["in.csv", "out.csv"], "no partial file left behind")
    }

    @Test("--input GeoJSON: placemark properties on every Point, other features reported by index, exit 1")
    func geoJSONInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let geojson = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"id": 1}, "geometry": {"type": "Point", "coordinates": [-111.936619, 33.416199]}},
              {"type": "Feature", "properties": {"id": 2}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
              {"type": "Feature", "properties": {"id": 3}, "geometry": {"type": "Point", "coordinates": [-40, 30]}}
            ]}
            """
        try geojson.write(to: dir.url.appendingPathComponent("in.geojson"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["geocode", "--input", "in.geojson", "-o", "out.geojson"], in: dir.url)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.standardError.contains("in.geojson: feature 1: not a Point feature"), "\(result)")
        let text = try String(contentsOf: dir.url.appendingPathComponent("out.geojson"), encoding: .utf8)
        #expect(text.contains(#""id":1,"name":"Tempe","locality":"Tempe","administrativeArea":"Arizona""#), "\(text)")
        #expect(text.contains(#""id":3,"error":"at sea""#), "\(text)")
    }

    @Test("--input CSV --json answers GeoJSON: a Point per row, its columns and the placemark as properties")
    func csvInputJSON() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.writeCSV([], in: dir)
        let geojson = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"id": "asu"}, "geometry": {"type": "Point", "coordinates": [-111.936619, 33.416199]}}
            ]}
            """
        try geojson.write(to: dir.url.appendingPathComponent("in.geojson"), atomically: true, encoding: .utf8)
        // Standard output, as --json does for single queries; bad rows are still reported and exit 1.
        let result = try CLI.run(["geocode", "--input", "in.csv", "--json"], in: dir.url)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.standardError.contains("in.csv:3: lat 'north'"), "\(result)")
        let answer = try JSONValue.parse(Data(result.standardOutput.utf8))
        #expect(answer["type"]?.string == "FeatureCollection")
        let features = try #require(answer["features"]?.array)
        #expect(features.count == 3)
        let asu = try #require(features.first)
        #expect(asu["geometry"]?["type"]?.string == "Point")
        #expect(asu["geometry"]?["coordinates"]?.array?.compactMap(\.number) == [-111.936619, 33.416199])
        let properties = try #require(asu["properties"]?.members)
        #expect(properties.map { $0.0 }.prefix(3) == ["id", "lat", "lon"], "the row's columns first, in order")
        #expect(asu["properties"]?["id"]?.string == "asu" && asu["properties"]?["lat"]?.string == "33.416199")
        // The same placemark properties as a GeoJSON input gets for the same point.
        let fromGeoJSON = try CLI.run(["geocode", "--input", "in.geojson", "--json"], in: dir.url)
        #expect(fromGeoJSON.exitCode == 0, "\(fromGeoJSON)")
        let other = try JSONValue.parse(Data(fromGeoJSON.standardOutput.utf8))
        let expected = try #require(other["features"]?.array?.first?["properties"]?.members)
        #expect(properties.dropFirst(3).map { $0.0 } == expected.dropFirst().map { $0.0 })
        #expect(properties.dropFirst(3).map { $0.1 } == expected.dropFirst().map { $0.1 })
        #expect(asu["properties"]?["locality"]?.string == "Tempe" && asu["properties"]?["countryCode"]?.string == "US")
        // A row without a usable coordinate has no geometry and says why; a point at sea is an answer.
        #expect(features[1]["geometry"] == .null)
        #expect(features[1]["properties"]?["error"]?.string?.contains("lat 'north'") == true)
        #expect(features[2]["geometry"]?["coordinates"]?.array?.compactMap(\.number) == [-40, 30])
        #expect(features[2]["properties"]?["error"]?.string == "at sea")
        // -o writes the same GeoJSON to a file, whole.
        let written = try CLI.run(["geocode", "--input", "in.csv", "--json", "-o", "out.geojson"], in: dir.url)
        #expect(written.exitCode == 1 && written.standardOutput.isEmpty, "\(written)")
        let file = try String(contentsOf: dir.url.appendingPathComponent("out.geojson"), encoding: .utf8)
        #expect(file == result.standardOutput)
    }

    @Test("render --center NAME goes through the geocoder and says which place it chose")
    func renderCenterName() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try CLI.run(
            ["render", "--center", "Tempe, Arizona", "--zoom", "9", "--size", "64x64", "-o", "t.png"], in: dir.url)
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.standardError.contains(
                "--center 'Tempe, Arizona': Tempe, Arizona, United States 33.414770,-111.909310"))
        #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("t.png").path))
        let unknown = try CLI.run(["render", "--center", "Xyzzyqq Plugh", "--zoom", "9", "-o", "u.png"], in: dir.url)
        #expect(unknown.exitCode == 64, "\(unknown)")
        #expect(unknown.standardError.contains("no place of that name"))
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("u.png").path))
    }
}
