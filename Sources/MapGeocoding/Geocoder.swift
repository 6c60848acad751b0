import Foundation
import MapData
import MapGeometry

/// Turns coordinates into placemarks and place names into coordinates, offline, from data shipped with
/// MapRaster.
///
/// Reverse geocoding answers, for a point:
/// - the **country** and **state**: the Natural Earth 1:10m country and admin-1 area containing the point
///   (exact even-odd point-in-polygon on the shipped vertices; a state of the same country is preferred where
///   the generalized admin-1 outlines overlap a border);
/// - the **city** (`locality`) and **county** (`subAdministrativeArea`): the nearest GeoNames place of the same
///   country (ISO code) within ``localityRadiusKilometers``, except that the most populous city of 100,000+
///   people within ``bigCityRadiusKilometers`` wins over nearer places (so a point on the campus in Tempe is in
///   Tempe, not in "Tempe Junction" next to it);
/// - **street, house number and postal code** where the shipped OpenStreetMap extracts (Andorra, Monaco,
///   central Helsinki) cover the point: the nearest `addr:*` address within 50 m, else the nearest named
///   highway within 100 m (street only).
///
/// A point at sea is in no country and throws ``GeocodingError/noData(latitude:longitude:)``; the one exception is
/// a shore point outside Natural Earth's 1:10m coastline that an OpenStreetMap address or street answers (the
/// 1:10m Monaco, for one, leaves out part of the harbour): it gets the extract's country.
///
/// ```swift
/// let geocoder = try Geocoder()
/// let placemark = try geocoder.reverseGeocode(LocationCoordinate2D(latitude: 33.416199, longitude: -111.936619))
/// // Tempe, Arizona, Maricopa, United States, US
/// let tempe = try geocoder.geocode("Tempe, Arizona").first?.coordinate
/// ```
/// Mirrors MapKit's `MKReverseGeocoder` (and `CLGeocoder` for forward search).
public final class Geocoder: Sendable {
    /// The farthest a place may be from the point to be its `locality`, in kilometers.
    public static let localityRadiusKilometers = 25.0
    /// The most populous city of 100,000+ people within this many kilometers is the `locality`, even if another
    /// place is nearer.
    public static let bigCityRadiusKilometers = 5.0

    /// The language of the names answered when a call does not give one.
    public let language: GeocodingLanguage

    let data: GeocodingData
    let countries: PolygonIndex
    let admin1: PolygonIndex
    let places: PlaceIndex
    let streets: StreetIndex
    /// Built on the first forward search, so that reverse geocoding does not pay for it.
    private let nameIndex = Locked<NameIndex?>(nil)
    /// The first country of each ISO 3166-1 alpha-2 code (string index).
    let countryByCode: [Int32: Int]

    /// Loads the geocoding data shipped with MapRaster and builds its reverse-geocoding indexes (under a second in
    /// release builds; the name index for ``geocode(_:near:limit:language:)`` is built on the first search).
    ///
    /// - Parameter language: the language of the names answered.
    /// - Throws: ``MissingResourceError`` when the shipped file is missing (naming every place looked at),
    ///   ``GeocodingError/badData(file:reason:)`` when it is corrupt.
    public convenience init(language: GeocodingLanguage = .english) throws {
        try self.init(contentsOf: try Self.shippedDataURL(), language: language)
    }

    /// The shipped `geocoding.bin` (see ``ShippedResources``).
    static func shippedDataURL() throws -> URL {
        try ShippedResources.geocoding.require("geocoding.bin", subdirectory: "geocoding")
    }

    /// Loads geocoding data from a file written by `Scripts/make-geocoding-data.py`.
    ///
    /// - Parameters:
    ///   - url: the `geocoding.bin` file.
    ///   - language: the language of the names answered.
    /// - Throws: ``GeocodingError/badData(file:reason:)`` when the file cannot be read or is malformed.
    public init(contentsOf url: URL, language: GeocodingLanguage = .english) throws {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try FileReader.read(url))
        } catch {
            throw GeocodingError.badData(file: url.path, reason: "cannot be read (\(error.problem))")
        }
        let data = try GeocodingData(bytes: bytes, file: url.path)
        self.data = data
        self.language = language
        countries = try PolygonIndex(layer: data.countryShapes, file: url.path)
        admin1 = try PolygonIndex(layer: data.admin1Shapes, file: url.path)
        places = PlaceIndex(places: data.places)
        streets = StreetIndex(data: data)
        var byCode: [Int32: Int] = [:]
        for (i, country) in data.countries.enumerated() where country.iso2 != 0 && byCode[country.iso2] == nil {
            byCode[country.iso2] = i
        }
        countryByCode = byCode
    }

    /// The name index, built on first use.
    var names: NameIndex {
        nameIndex.withLock { index in
            if let index { return index }
            let built = NameIndex(data: data)
            index = built
            return built
        }
    }

    // MARK: Reverse

    /// The placemark of a coordinate.
    ///
    /// - Parameters:
    ///   - coordinate: the point, degrees.
    ///   - language: the language of the names (default: the geocoder's).
    /// - Returns: the placemark; its `coordinate` is the given one.
    /// - Throws: ``GeocodingError/invalidCoordinate(latitude:longitude:)`` for NaN or out-of-range values,
    ///   ``GeocodingError/noData(latitude:longitude:)`` for a point in no country (at sea).
    public func reverseGeocode(_ coordinate: LocationCoordinate2D, language: GeocodingLanguage? = nil) throws
        -> Placemark
    {
        let match = try reverseMatch(coordinate)
        return placemark(for: match, at: coordinate, language: language ?? self.language)
    }

    /// The placemarks of many coordinates, one result per coordinate in the same order; a bad or sea point
    /// fails alone.
    ///
    /// - Parameters:
    ///   - coordinates: the points, degrees.
    ///   - language: the language of the names (default: the geocoder's).
    /// - Returns: a placemark or the ``GeocodingError`` of each point.
    public func reverseGeocode(_ coordinates: [LocationCoordinate2D], language: GeocodingLanguage? = nil)
        -> [Result<Placemark, GeocodingError>]
    {
        let language = language ?? self.language
        return coordinates.map { coordinate in
            do {
                let match = try reverseMatch(coordinate)
                return .success(placemark(for: match, at: coordinate, language: language))
            } catch let error as GeocodingError {
                return .failure(error)
            } catch {
                return .failure(.noData(latitude: coordinate.latitude, longitude: coordinate.longitude))
            }
        }
    }

    /// What reverse geocoding found, as indexes into the data (file order of the sources).
    struct ReverseMatch: Equatable {
        /// The Natural Earth country containing the point.
        var country: Int?
        /// The country named: `country`, or for a shore point outside Natural Earth's coastline that an OSM
        /// extract answers, the extract's country.
        var namedCountry: Int
        var admin1: Int?
        var place: Int?
        var street: Int32?
        var number: Int32?
        var postcode: Int32?
    }

    func reverseMatch(_ coordinate: LocationCoordinate2D) throws -> ReverseMatch {
        guard coordinate.isValid else {
            throw GeocodingError.invalidCoordinate(latitude: coordinate.latitude, longitude: coordinate.longitude)
        }
        let x = coordinate.longitude * 1_000_000
        let y = coordinate.latitude * 1_000_000
        var country: Int?
        countries.forEachFeature(containingX: x, y: y) { feature in
            country = feature
            return false
        }
        let street = streets.match(latitude: coordinate.latitude, longitude: coordinate.longitude)
        guard let named = country ?? street.flatMap({ countryByCode[$0.countryCode] }) else {
            throw GeocodingError.noData(latitude: coordinate.latitude, longitude: coordinate.longitude)
        }
        let record = data.countries[named]
        var area: Int?
        admin1.forEachFeature(containingX: x, y: y) { feature in
            if area == nil { area = feature }
            if data.admin1[feature].adm0 == record.adm0 {
                area = feature
                return false
            }
            return true
        }
        var match = ReverseMatch(country: country, namedCountry: named, admin1: area)
        if record.iso2 != 0 {
            match.place = places.locality(
                latitude: coordinate.latitude, longitude: coordinate.longitude, country: record.iso2,
                radius: Self.localityRadiusKilometers, bigRadius: Self.bigCityRadiusKilometers)
        }
        if let street {
            match.street = street.street
            match.number = street.number
            match.postcode = street.postcode
        }
        return match
    }

    private func string(_ index: Int32?) -> String? {
        guard let index, index > 0 else { return nil }
        return data.strings[Int(index)]
    }

    private func countryName(_ country: Int, _ language: GeocodingLanguage) -> String? {
        let record = data.countries[country]
        if language == .japanese, let name = string(record.nameJa) { return name }
        return string(record.name)
    }

    private func placeName(_ place: Int, _ language: GeocodingLanguage) -> String? {
        if language == .japanese, let name = string(data.places.nameJa[place]) { return name }
        return string(data.places.name[place])
    }

    private func county(_ place: Int) -> String? {
        guard var name = string(data.places.admin2[place]) else { return nil }
        if name.hasSuffix(" County") { name.removeLast(" County".count) }
        return name.isEmpty ? nil : name
    }

    func placemark(for match: ReverseMatch, at coordinate: LocationCoordinate2D, language: GeocodingLanguage)
        -> Placemark
    {
        Placemark(
            coordinate: coordinate, thoroughfare: string(match.street), subThoroughfare: string(match.number),
            locality: match.place.flatMap { placeName($0, language) },
            administrativeArea: match.admin1.flatMap { string(data.admin1[$0].name) },
            subAdministrativeArea: match.place.flatMap { county($0) }, postalCode: string(match.postcode),
            country: countryName(match.namedCountry, language),
            countryCode: string(data.countries[match.namedCountry].iso2))
    }

    // MARK: Forward

    /// Places matching a name, best first.
    ///
    /// The query is a place name optionally followed by comma-separated qualifiers, such as `"Tempe, Arizona"`,
    /// `"Springfield, Illinois, US"` or `"Paris, France"`. Cities (GeoNames, 1,000+ people), states (Natural
    /// Earth admin-1) and countries are searched, by exact normalized name (case and accents ignored) and within
    /// one letter (a letter added, left out, changed or two swapped) for names of four or more letters.
    /// Ranking: qualifiers that match the place's state, county, country name or ISO code first, then importance
    /// (log10 of the population; states and countries rank as large places) plus a bonus for an exact name (see
    /// ``exactNameBonus``), less 1.5 log10(1 + km) from `near` when given.
    ///
    /// - Parameters:
    ///   - query: the name and qualifiers.
    ///   - near: prefer places near this point.
    ///   - limit: at most this many results (at least 1).
    ///   - language: the language of the names (default: the geocoder's).
    /// - Returns: the matches, best first; empty when nothing matches.
    /// - Throws: ``GeocodingError/emptyQuery`` when the query has no letters or digits.
    public func geocode(
        _ query: String, near: LocationCoordinate2D? = nil, limit: Int = 10, language: GeocodingLanguage? = nil
    ) throws -> [Placemark] {
        let parts = query.split(separator: ",").map { NameIndex.normalize(String($0)) }.filter { !$0.isEmpty }
        guard let name = parts.first else { throw GeocodingError.emptyQuery }
        let qualifiers = Array(parts.dropFirst())
        let names = self.names
        let (exact, fuzzy) = names.lookup(name)
        var candidates: [NameIndex.Candidate] = []
        candidates.reserveCapacity(exact.count + fuzzy.count)
        let nearCosine = near.map { cos($0.latitude * PlaceIndex.degreesToRadians) }
        let exactBonus = qualifiers.isEmpty ? Self.exactNameBonus : Self.exactQualifiedNameBonus
        for (ids, bonus) in [(exact, exactBonus), (fuzzy, 0.0)] {
            for id in ids {
                let (kind, index) = names.kind(of: id)
                var score = bonus + importance(kind, index)
                for qualifier in qualifiers where qualifierMatches(qualifier, kind, index) { score += 100 }
                if let near, let nearCosine, near.isValid {
                    let c = representativeCoordinate(kind, index)
                    let d = PlaceIndex.haversine(
                        latitude1: near.latitude, longitude1: near.longitude, cosLatitude1: nearCosine,
                        latitude2: c.latitude, longitude2: c.longitude,
                        cosLatitude2: cos(c.latitude * PlaceIndex.degreesToRadians))
                    score -= 1.5 * log10(1 + d)
                }
                let candidate = NameIndex.Candidate(kind: kind, index: index, score: score, rank: 0)
                candidates.append(NameIndex.Candidate(kind: kind, index: index, score: score, rank: rank(candidate)))
            }
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.rank < $1.rank }
        return candidates.prefix(max(1, limit)).map { forwardPlacemark($0, language: language ?? self.language) }
    }

    /// What an exact name adds to importance (log10 of population): a one-letter match needs 1,000 times the
    /// population to rank above an exact one ("Ibaan", a town, finds Ibadan, a city of 3 million).
    public static let exactNameBonus = 3.0
    /// The same when the query has qualifiers (a state or country): the name is taken as spelled on purpose, and a
    /// one-letter match needs 10,000 times the population ("Paizhou, China" is not Taizhou).
    public static let exactQualifiedNameBonus = 4.0

    private func rank(_ candidate: NameIndex.Candidate) -> Int {
        switch candidate.kind {
        case .country: return candidate.index
        case .admin1: return data.countries.count + candidate.index
        case .place: return data.countries.count + data.admin1.count + candidate.index
        case .alias: return data.countries.count + data.admin1.count + data.places.count + candidate.index
        }
    }

    /// How important a match is, on a log10(population) scale: countries as 3,000,000 people, states as 300,000,
    /// places of unknown population as 1,000.
    private func importance(_ kind: NameIndex.Kind, _ index: Int) -> Double {
        switch kind {
        case .country: return 6.5
        case .admin1: return 5.5
        case .place: return log10(Double(max(1000, data.places.population[index])))
        case .alias: return log10(Double(max(1000, data.aliases.population[index])))
        }
    }

    /// The country (ISO code string index) of a match.
    private func countryCode(_ kind: NameIndex.Kind, _ index: Int) -> Int32? {
        switch kind {
        case .place: return data.places.cc[index]
        case .alias: return data.aliases.cc[index]
        case .admin1: return data.countries.first { $0.adm0 == data.admin1[index].adm0 }?.iso2
        case .country: return nil
        }
    }

    private func qualifierMatches(_ qualifier: String, _ kind: NameIndex.Kind, _ index: Int) -> Bool {
        var fields: [Int32] = []
        if kind == .place { fields = [data.places.admin1[index], data.places.admin2[index], data.places.cc[index]] }
        if let code = countryCode(kind, index) {
            fields.append(code)
            if let country = countryByCode[code] {
                let record = data.countries[country]
                fields += [record.name, record.iso3, record.nameJa]
            }
        }
        for field in fields where field != 0 {
            let normalized = names.normalizedField[Int(field)]
            if normalized == qualifier { return true }
            if normalized.hasSuffix(" county"), normalized.dropLast(" county".count) == qualifier { return true }
        }
        return false
    }

    func representativeCoordinate(_ kind: NameIndex.Kind, _ index: Int) -> LocationCoordinate2D {
        switch kind {
        case .place:
            let c = places.coordinate(index)
            return LocationCoordinate2D(latitude: c.latitude, longitude: c.longitude)
        case .alias:
            return LocationCoordinate2D(
                latitude: Double(data.aliases.ys[index]) / 1_000_000,
                longitude: Double(data.aliases.xs[index]) / 1_000_000)
        case .admin1: return largestRingCenter(data.admin1Shapes, index)
        case .country: return largestRingCenter(data.countryShapes, index)
        }
    }

    /// The center of the bounding box of a feature's ring with the most vertices.
    private func largestRingCenter(_ layer: PolygonLayer, _ feature: Int) -> LocationCoordinate2D {
        var best = (count: 0, west: Int32(0), south: Int32(0), east: Int32(0), north: Int32(0))
        var v = Int(layer.featureStart[feature])
        let end = Int(layer.featureStart[feature + 1])
        while v < end {
            var ring = (count: 0, west: Int32.max, south: Int32.max, east: Int32.min, north: Int32.min)
            repeat {
                ring.count += 1
                ring.west = min(ring.west, layer.xs[v])
                ring.east = max(ring.east, layer.xs[v])
                ring.south = min(ring.south, layer.ys[v])
                ring.north = max(ring.north, layer.ys[v])
                v += 1
            } while v < end && layer.edgeFeature[v - 1] >= 0
            if ring.count > best.count { best = ring }
        }
        return LocationCoordinate2D(
            latitude: (Double(best.south) + Double(best.north)) / 2_000_000,
            longitude: (Double(best.west) + Double(best.east)) / 2_000_000)
    }

    private func forwardPlacemark(_ candidate: NameIndex.Candidate, language: GeocodingLanguage) -> Placemark {
        let coordinate = representativeCoordinate(candidate.kind, candidate.index)
        switch candidate.kind {
        case .place:
            let i = candidate.index
            let country = countryByCode[data.places.cc[i]]
            return Placemark(
                coordinate: coordinate, locality: placeName(i, language),
                administrativeArea: string(data.places.admin1[i]), subAdministrativeArea: county(i),
                country: country.flatMap { countryName($0, language) }, countryCode: string(data.places.cc[i]))
        case .alias:
            let i = candidate.index
            let name = language == .japanese ? string(data.aliases.nameJa[i]) : nil
            let country = countryByCode[data.aliases.cc[i]]
            return Placemark(
                coordinate: coordinate, locality: name ?? string(data.aliases.name[i]),
                country: country.flatMap { countryName($0, language) }, countryCode: string(data.aliases.cc[i]))
        case .admin1:
            let area = data.admin1[candidate.index]
            let country = data.countries.firstIndex { $0.adm0 == area.adm0 }
            return Placemark(
                coordinate: coordinate, administrativeArea: string(area.name),
                country: country.flatMap { countryName($0, language) },
                countryCode: country.flatMap { string(data.countries[$0].iso2) })
        case .country:
            return Placemark(
                coordinate: coordinate, country: countryName(candidate.index, language),
                countryCode: string(data.countries[candidate.index].iso2))
        }
    }
}
