/// Polygons of one layer (countries or admin-1 areas): every ring's vertices in micro-degrees, rings closed and
/// stored one after the other, features in file order.
struct PolygonLayer: Sendable {
    var xs: [Int32] = []
    var ys: [Int32] = []
    /// For each vertex, the feature of the edge from it to the next vertex, or -1 for the last vertex of a ring.
    var edgeFeature: [Int32] = []
    /// The first vertex of each feature, and the vertex count at the end.
    var featureStart: [Int32] = [0]

    var featureCount: Int { featureStart.count - 1 }
}

/// The contents of `geocoding.bin` (format in `Scripts/make-geocoding-data.py`), decoded with checked bounds.
struct GeocodingData: Sendable {
    struct Country: Sendable {
        var name, nameJa, iso2, iso3, adm0: Int32
    }
    struct Admin1: Sendable {
        var name, adm0: Int32
    }
    struct Places: Sendable {
        var xs: [Int32] = [], ys: [Int32] = []
        var name: [Int32] = [], admin1: [Int32] = [], admin2: [Int32] = [], cc: [Int32] = [], nameJa: [Int32] = []
        var population: [UInt32] = []
        var count: Int { xs.count }
    }
    /// GeoNames cities of 100,000+ people whose name did not join a place (renamed since, such as Bengaluru):
    /// searched by name only.
    struct Aliases: Sendable {
        var xs: [Int32] = [], ys: [Int32] = []
        var name: [Int32] = [], cc: [Int32] = [], nameJa: [Int32] = []
        var population: [UInt32] = []
        var count: Int { xs.count }
    }
    struct Addresses: Sendable {
        var xs: [Int32] = [], ys: [Int32] = []
        var street: [Int32] = [], number: [Int32] = [], postcode: [Int32] = []
        var count: Int { xs.count }
    }
    struct Streets: Sendable {
        var xs: [Int32] = [], ys: [Int32] = []
        /// For each vertex, the street name of the segment from it to the next vertex, or -1 at a street's end.
        var segmentName: [Int32] = []
    }
    /// The extent of an OSM extract in micro-degrees, and the country it covers.
    struct Box: Sendable {
        var west, south, east, north: Int32
        var countryCode: Int32
    }

    var strings: [String] = []
    var countries: [Country] = []
    var countryShapes = PolygonLayer()
    var admin1: [Admin1] = []
    var admin1Shapes = PolygonLayer()
    var places = Places()
    var aliases = Aliases()
    var addresses = Addresses()
    var streets = Streets()
    var coverage: [Box] = []

    static let magic: [UInt8] = Array("MRGEO".utf8) + [0, 1, 0]
    static let lonLimit: Int64 = 180_000_000
    static let latLimit: Int64 = 90_000_000

    init(bytes: [UInt8], file: String) throws {
        var reader = ByteReader(bytes: bytes, file: file)
        try reader.expect(Self.magic)
        let stringCount = try reader.count("string")
        strings.reserveCapacity(stringCount)
        for _ in 0..<stringCount {
            let length = try reader.count("string byte")
            strings.append(try reader.string(length: length))
        }
        guard strings.first == "" else { throw reader.fail("string 0 must be empty") }
        let limit = strings.count

        let countryCount = try reader.count("country", minimumBytes: 6)
        for _ in 0..<countryCount {
            countries.append(
                Country(
                    name: try reader.index("string", limit: limit), nameJa: try reader.index("string", limit: limit),
                    iso2: try reader.index("string", limit: limit), iso3: try reader.index("string", limit: limit),
                    adm0: try reader.index("string", limit: limit)))
            try Self.readGeometry(&reader, into: &countryShapes)
        }
        let adminCount = try reader.count("admin-1 area", minimumBytes: 3)
        for _ in 0..<adminCount {
            admin1.append(
                Admin1(name: try reader.index("string", limit: limit), adm0: try reader.index("string", limit: limit)))
            try Self.readGeometry(&reader, into: &admin1Shapes)
        }

        let placeCount = try reader.count("place", minimumBytes: 8)
        var x: Int32 = 0
        var y: Int32 = 0
        for _ in 0..<placeCount {
            x = try reader.coordinate(after: x, limit: Self.lonLimit, "place longitude")
            y = try reader.coordinate(after: y, limit: Self.latLimit, "place latitude")
            places.xs.append(x)
            places.ys.append(y)
            places.name.append(try reader.index("string", limit: limit))
            places.admin1.append(try reader.index("string", limit: limit))
            places.admin2.append(try reader.index("string", limit: limit))
            places.cc.append(try reader.index("string", limit: limit))
            places.nameJa.append(try reader.index("string", limit: limit))
            let population = try reader.varint()
            guard let value = UInt32(exactly: population) else { throw reader.fail("population \(population)") }
            places.population.append(value)
        }

        let aliasCount = try reader.count("alias", minimumBytes: 6)
        x = 0
        y = 0
        for _ in 0..<aliasCount {
            x = try reader.coordinate(after: x, limit: Self.lonLimit, "alias longitude")
            y = try reader.coordinate(after: y, limit: Self.latLimit, "alias latitude")
            aliases.xs.append(x)
            aliases.ys.append(y)
            aliases.name.append(try reader.index("string", limit: limit))
            aliases.cc.append(try reader.index("string", limit: limit))
            aliases.nameJa.append(try reader.index("string", limit: limit))
            let population = try reader.varint()
            guard let value = UInt32(exactly: population) else { throw reader.fail("population \(population)") }
            aliases.population.append(value)
        }

        let addressCount = try reader.count("address", minimumBytes: 5)
        x = 0
        y = 0
        for _ in 0..<addressCount {
            x = try reader.coordinate(after: x, limit: Self.lonLimit, "address longitude")
            y = try reader.coordinate(after: y, limit: Self.latLimit, "address latitude")
            addresses.xs.append(x)
            addresses.ys.append(y)
            addresses.street.append(try reader.index("string", limit: limit))
            addresses.number.append(try reader.index("string", limit: limit))
            addresses.postcode.append(try reader.index("string", limit: limit))
        }

        let streetCount = try reader.count("street", minimumBytes: 6)
        for _ in 0..<streetCount {
            let name = try reader.index("string", limit: limit)
            let vertices = try reader.count("street vertex", minimumBytes: 2)
            guard vertices >= 2 else { throw reader.fail("street with \(vertices) vertices") }
            x = 0
            y = 0
            for i in 0..<vertices {
                x = try reader.coordinate(after: x, limit: Self.lonLimit, "street longitude")
                y = try reader.coordinate(after: y, limit: Self.latLimit, "street latitude")
                streets.xs.append(x)
                streets.ys.append(y)
                streets.segmentName.append(i + 1 < vertices ? name : -1)
            }
        }

        let boxCount = try reader.count("coverage box", minimumBytes: 5)
        for _ in 0..<boxCount {
            let west = try reader.coordinate(after: 0, limit: Self.lonLimit, "coverage west")
            let south = try reader.coordinate(after: 0, limit: Self.latLimit, "coverage south")
            let east = try reader.coordinate(after: 0, limit: Self.lonLimit, "coverage east")
            let north = try reader.coordinate(after: 0, limit: Self.latLimit, "coverage north")
            let countryCode = try reader.index("string", limit: limit)
            guard west <= east, south <= north else { throw reader.fail("empty coverage box") }
            coverage.append(Box(west: west, south: south, east: east, north: north, countryCode: countryCode))
        }
        guard reader.remaining == 0 else { throw reader.fail("\(reader.remaining) unexpected bytes after the data") }
    }

    private static func readGeometry(_ reader: inout ByteReader, into layer: inout PolygonLayer) throws {
        let feature = Int32(layer.featureCount)
        let rings = try reader.count("ring", minimumBytes: 9)
        for _ in 0..<rings {
            let vertices = try reader.count("ring vertex", minimumBytes: 2)
            guard vertices >= 4 else { throw reader.fail("ring with \(vertices) vertices (at least 4 needed)") }
            var x: Int32 = 0
            var y: Int32 = 0
            let first = layer.xs.count
            for i in 0..<vertices {
                x = try reader.coordinate(after: x, limit: lonLimit, "ring longitude")
                y = try reader.coordinate(after: y, limit: latLimit, "ring latitude")
                layer.xs.append(x)
                layer.ys.append(y)
                layer.edgeFeature.append(i + 1 < vertices ? feature : -1)
            }
            guard layer.xs[first] == x, layer.ys[first] == y else { throw reader.fail("ring is not closed") }
        }
        guard let end = Int32(exactly: layer.xs.count) else { throw reader.fail("too many vertices") }
        layer.featureStart.append(end)
    }
}
