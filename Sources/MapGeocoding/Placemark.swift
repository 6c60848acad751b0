import MapGeometry

/// A value of a placemark's ``Placemark/addressDictionary``: a string, or the list of formatted address lines.
public enum AddressValue: Hashable, Sendable, CustomStringConvertible {
    /// A single field, such as `City` or `ZIP`.
    case string(String)
    /// The `FormattedAddressLines` list.
    case lines([String])

    /// The string of a `.string` value, `nil` for `.lines`.
    public var string: String? { if case .string(let value) = self { return value } else { return nil } }

    public var description: String {
        switch self {
        case .string(let value): return value
        case .lines(let lines): return lines.joined(separator: "\n")
        }
    }
}

/// An address for a coordinate: country, state, county, city and, where OpenStreetMap covers it, street.
///
/// Fields that the shipped data does not know are `nil`. With `import MapRaster` a placemark is an annotation,
/// so it can be added to a snapshotter directly (see `Sources/MapRaster/Placemark+Annotation.swift`).
///
/// ```swift
/// let geocoder = try Geocoder()
/// let asu = try geocoder.reverseGeocode(LocationCoordinate2D(latitude: 33.416199, longitude: -111.936619))
/// print(asu.locality ?? "", asu.administrativeArea ?? "")   // Tempe Arizona
/// ```
/// Mirrors MapKit's `MKPlacemark`.
public final class Placemark: Sendable, CustomStringConvertible {
    /// The coordinate the placemark describes: the query point for reverse geocoding, the place for search.
    public let coordinate: LocationCoordinate2D
    /// The placemark's name: the street address where known, else the city, state or country.
    public let name: String?
    /// The street (OpenStreetMap `addr:street`, or the nearest named highway).
    public let thoroughfare: String?
    /// The house number (OpenStreetMap `addr:housenumber`).
    public let subThoroughfare: String?
    /// The city: the nearest GeoNames place in the same country (see ``Geocoder`` for the distances).
    public let locality: String?
    /// A district of the city; the shipped data has none, so this is always `nil`.
    public let subLocality: String?
    /// The state or province: the Natural Earth 1:10m admin-1 area containing the point.
    public let administrativeArea: String?
    /// The county: GeoNames' second-level area of the nearest place, without a trailing " County".
    public let subAdministrativeArea: String?
    /// The postal code (OpenStreetMap `addr:postcode`).
    public let postalCode: String?
    /// The country: the Natural Earth 1:10m country containing the point (its `NAME_LONG`).
    public let country: String?
    /// The ISO 3166-1 alpha-2 country code, such as `US`.
    public let countryCode: String?
    /// The ocean; the shipped data has no sea names, so this is always `nil` (points at sea throw).
    public let ocean: String?
    /// The lake or river; the shipped data has no names for them, so this is always `nil`.
    public let inlandWater: String?

    /// Creates a placemark from its fields.
    public init(
        coordinate: LocationCoordinate2D, name: String? = nil, thoroughfare: String? = nil,
        subThoroughfare: String? = nil, locality: String? = nil, subLocality: String? = nil,
        administrativeArea: String? = nil, subAdministrativeArea: String? = nil, postalCode: String? = nil,
        country: String? = nil, countryCode: String? = nil, ocean: String? = nil, inlandWater: String? = nil
    ) {
        self.coordinate = coordinate
        self.thoroughfare = thoroughfare
        self.subThoroughfare = subThoroughfare
        self.locality = locality
        self.subLocality = subLocality
        self.administrativeArea = administrativeArea
        self.subAdministrativeArea = subAdministrativeArea
        self.postalCode = postalCode
        self.country = country
        self.countryCode = countryCode
        self.ocean = ocean
        self.inlandWater = inlandWater
        self.name =
            name ?? Placemark.streetLine(thoroughfare, subThoroughfare, countryCode) ?? locality ?? administrativeArea
            ?? country
    }

    /// The street line: house number and street in the country's usual order, such as "200 E Lemon St" or
    /// "Mannerheimintie 5".
    public var street: String? { Placemark.streetLine(thoroughfare, subThoroughfare, countryCode) }

    /// The address as lines, as MapKit's `FormattedAddressLines`: street, "City, State ZIP", country.
    public var formattedAddressLines: [String] {
        var lines: [String] = []
        if let street { lines.append(street) }
        var cityLine = [locality, administrativeArea].compactMap { $0 }.joined(separator: ", ")
        if let postalCode {
            cityLine =
                Placemark.postcodeFirst.contains(countryCode ?? "")
                ? "\(postalCode) \(cityLine)" : "\(cityLine) \(postalCode)"
        }
        cityLine = cityLine.trimmingSpaces
        if !cityLine.isEmpty { lines.append(cityLine) }
        if let country { lines.append(country) }
        return lines
    }

    /// The address with MapKit's `addressDictionary` keys: `City`, `Country`, `CountryCode`,
    /// `FormattedAddressLines`, `State`, `Street`, `SubAdministrativeArea`, `SubThoroughfare`, `Thoroughfare`,
    /// `ZIP`. Keys of unknown fields are left out.
    public var addressDictionary: [String: AddressValue] {
        var dictionary: [String: AddressValue] = ["FormattedAddressLines": .lines(formattedAddressLines)]
        let fields: [(String, String?)] = [
            ("City", locality), ("Country", country), ("CountryCode", countryCode), ("State", administrativeArea),
            ("Street", street), ("SubAdministrativeArea", subAdministrativeArea), ("SubThoroughfare", subThoroughfare),
            ("Thoroughfare", thoroughfare), ("ZIP", postalCode),
        ]
        for (key, value) in fields { if let value { dictionary[key] = .string(value) } }
        return dictionary
    }

    public var description: String { formattedAddressLines.joined(separator: ", ") }

    /// Countries that write the street before the house number.
    static let streetFirst: Set<String> = [
        "AD", "AT", "BE", "CH", "CZ", "DE", "DK", "ES", "FI", "IT", "NL", "NO", "PL", "PT", "SE",
    ]
    /// Countries that write the postal code before the city.
    static let postcodeFirst: Set<String> = [
        "AD", "AT", "BE", "CH", "CZ", "DE", "DK", "ES", "FI", "FR", "IT", "MC", "NL", "NO", "PL", "PT", "SE",
    ]

    static func streetLine(_ thoroughfare: String?, _ number: String?, _ countryCode: String?) -> String? {
        guard let thoroughfare else { return nil }
        guard let number else { return thoroughfare }
        return streetFirst.contains(countryCode ?? "") ? "\(thoroughfare) \(number)" : "\(number) \(thoroughfare)"
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
