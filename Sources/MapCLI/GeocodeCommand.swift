import Foundation
import MapData
import MapGeocoding
import MapGeometry
import MapRaster

/// `mapraster geocode`: placemarks for coordinates, places for names, and whole CSV or GeoJSON files.
enum GeocodeCommand {
    static let credits = "Made with Natural Earth; GeoNames (www.geonames.org), CC BY 4.0"
    static let osmCredit = "© OpenStreetMap contributors"

    /// Runs the command; returns the exit code (1 when some input rows were bad).
    static func run(_ arguments: [String], output: MapRasterCLI.Output) throws -> Int32 {
        guard let args = try MapRasterCLI.parse(arguments, CommandTable.geocode, output: output) else { return 0 }
        var language = GeocodingLanguage.english
        if let code = args["--language"] {
            guard let known = GeocodingLanguage(code: code) else {
                throw CLIError.usage("--language '\(code)' is not supported: use en or ja")
            }
            language = known
        }
        let modes = [args["--reverse"] != nil, args["--input"] != nil, !args.positional.isEmpty].filter { $0 }.count
        guard modes == 1 else {
            throw CLIError.usage(
                "geocode needs exactly one of --reverse LAT,LON, --input FILE or a place name (mapraster geocode --help)"
            )
        }
        guard args.positional.count <= 1 else {
            throw CLIError.usage(
                "give the place name as one argument in quotes: \"\(args.positional.joined(separator: " "))\"")
        }
        // Loaded when needed, after the arguments and files were checked (loading takes a moment).
        let geocoder = { try loadGeocoder(language) }
        let json = args.flags.contains("--json")
        if args["--reverse"] != nil {
            let values = try args.numbers("--reverse", count: 2, form: "LAT,LON") ?? []
            let loaded = try geocoder()
            let placemark = try answer {
                try loaded.reverseGeocode(LocationCoordinate2D(latitude: values[0], longitude: values[1]))
            }
            if json {
                output.standardOutput(
                    JSONValue.object([
                        ("placemark", placemarkJSON(placemark)), ("attribution", .string(attribution([placemark]))),
                    ]).serialized())
            } else {
                output.standardOutput(placemarkText(placemark) + "Data: \(attribution([placemark]))\n")
            }
            return 0
        }
        if let name = args.positional.first {
            var near: LocationCoordinate2D?
            if let values = try args.numbers("--near", count: 2, form: "LAT,LON") {
                near = LocationCoordinate2D(latitude: values[0], longitude: values[1])
                guard near?.isValid == true else {
                    throw CLIError.usage(
                        "--near '\(args["--near"] ?? "")' is out of range: latitude -90...90, longitude -180...180")
                }
            }
            var limit = 5
            if let value = try args.number("--limit") {
                guard let whole = Int(exactly: value), (1...1000).contains(whole) else {
                    throw CLIError.usage("--limit '\(args["--limit"] ?? "")' must be a whole number in 1...1000")
                }
                limit = whole
            }
            let loaded = try geocoder()
            let matches = try answer { try loaded.geocode(name, near: near, limit: limit) }
            if json {
                output.standardOutput(
                    JSONValue.object([
                        ("query", .string(name)), ("results", .array(matches.map(placemarkJSON))),
                        ("attribution", .string(credits)),
                    ]).serialized())
            } else if matches.isEmpty {
                output.standardError("mapraster: no place named '\(name)'\n")
                return 1
            } else {
                var text = ""
                for (rank, placemark) in matches.enumerated() {
                    let c = placemark.coordinate
                    text +=
                        "\(rank + 1). \(placemark.formattedAddressLines.joined(separator: ", "))  "
                        + "\(coordinateText(c.latitude)),\(coordinateText(c.longitude))\n"
                }
                output.standardOutput(text + "Data: \(credits)\n")
            }
            return 0
        }
        guard let input = args["--input"] else { return 0 }
        let lower = input.lowercased()
        if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") {
            return try GeocodeFile.geoJSON(input, to: args["--output"], load: geocoder, output: output)
        }
        // --json answers JSON for every input: GeoJSON input already is, CSV input becomes GeoJSON.
        return try GeocodeFile.csv(input, to: args["--output"], json: json, load: geocoder, output: output)
    }

    /// `--center` as LAT,LON, or a place name ("Tokyo", "Tempe,AZ") resolved to its best match, which is reported
    /// on stderr with the runner-up when the name is ambiguous.
    static func center(_ args: Arguments) throws -> [Double]? {
        // A place name has a letter; anything else is LAT,LON (and its usage error).
        guard let text = args["--center"], text.contains(where: \.isLetter),
            text.split(separator: ",", omittingEmptySubsequences: false).contains(where: {
                Double($0.trimmingCharacters(in: .whitespaces)) == nil
            })
        else { return try args.numbers("--center", count: 2, form: "LAT,LON") }
        let matches = try answer { try loadGeocoder(.english).geocode(text, limit: 2) }
        guard let best = matches.first else {
            throw CLIError.usage("--center '\(text)': no place of that name (give LAT,LON or a place name)")
        }
        var note =
            "mapraster: --center '\(text)': \(best.formattedAddressLines.joined(separator: ", ")) "
            + "\(coordinateText(best.coordinate.latitude)),\(coordinateText(best.coordinate.longitude))"
        if matches.count > 1, matches[1].name == best.name {
            note += " (ambiguous; next: \(matches[1].formattedAddressLines.joined(separator: ", ")))"
        }
        FileHandle.standardError.write(Data((note + "\n").utf8))
        return [best.coordinate.latitude, best.coordinate.longitude]
    }

    /// Place names in scene files (`center`, features placed by `place`), resolved to the shipped
    /// geocoder's best match; the geocoder is loaded on the first name only.
    static let placeResolver: Scene.PlaceResolver = { name in
        let geocoder = try sceneGeocoder.value(0) { try loadGeocoder(.english) }
        guard let best = try answer({ try geocoder.geocode(name, limit: 1) }).first else {
            throw CLIError.failure("no place named '\(name)' (give coordinates or another name)")
        }
        return best.coordinate
    }
    private static let sceneGeocoder = OnceCache<Int, Geocoder>()

    static func loadGeocoder(_ language: GeocodingLanguage) throws -> Geocoder {
        do {
            return try Geocoder(language: language)
        } catch let error as GeocodingError {
            throw CLIError.failure(error.description)
        }
    }

    /// Runs a geocoder call, turning its errors into exit-1 failures.
    static func answer<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as GeocodingError {
            throw CLIError.failure(error.description)
        }
    }

    static func attribution(_ placemarks: [Placemark]) -> String {
        placemarks.contains { $0.thoroughfare != nil } ? "\(credits); \(osmCredit)" : credits
    }

    static func coordinateText(_ value: Double) -> String {
        String(format: "%.6f", value)
    }

    /// The seed's layout: the address lines, then every address-dictionary key in order.
    static func placemarkText(_ placemark: Placemark) -> String {
        var text = placemark.formattedAddressLines.joined(separator: "\n") + "\n\n"
        for (key, value) in placemark.addressDictionary.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string(let string): text += "\(key) = \(string)\n"
            case .lines(let lines): text += "\(key) = (\(lines.map { "\"\($0)\"" }.joined(separator: ", ")))\n"
            }
        }
        return text
    }

    /// The fields added to CSV rows and GeoJSON properties, in order.
    static let fieldNames = [
        "name", "thoroughfare", "subThoroughfare", "locality", "administrativeArea", "subAdministrativeArea",
        "postalCode", "country", "countryCode",
    ]

    static func fields(_ placemark: Placemark) -> [String?] {
        [
            placemark.name, placemark.thoroughfare, placemark.subThoroughfare, placemark.locality,
            placemark.administrativeArea, placemark.subAdministrativeArea, placemark.postalCode, placemark.country,
            placemark.countryCode,
        ]
    }

    static func placemarkJSON(_ placemark: Placemark) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("latitude", .number(placemark.coordinate.latitude)),
            ("longitude", .number(placemark.coordinate.longitude)),
        ]
        for (name, value) in zip(fieldNames, fields(placemark)) {
            if let value { members.append((name, .string(value))) }
        }
        var dictionary: [(String, JSONValue)] = []
        for (key, value) in placemark.addressDictionary.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string(let string): dictionary.append((key, .string(string)))
            case .lines(let lines): dictionary.append((key, .array(lines.map { .string($0) })))
            }
        }
        members.append(("addressDictionary", .object(dictionary)))
        return .object(members)
    }
}
