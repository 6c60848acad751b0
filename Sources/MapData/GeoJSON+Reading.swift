import MapGeometry

// Reading a GeoJSON file straight from its bytes (issue #11, cold start). Natural Earth's files are
// hundreds of thousands of positions; as a `JSONValue` tree every position is an array of two boxed
// numbers (two allocations, later freed one by one). Here the members GeoJSON gives meaning to
// (`features`, `geometry`, `geometries`, `coordinates`) are read by the decoder's own walk, and a
// `coordinates` array becomes flat numbers plus the length of every nested array. Everything else
// (properties, ids, foreign members) is parsed as before into `JSONValue`. The grammar, its error
// messages and the number conversion are `JSONParser`'s, so a text is accepted or refused exactly as
// `JSONValue.parse` does; the GeoJSON checks run on the result afterwards, through the one `Decoder`.

extension GeoJSON {
    /// A GeoJSON value as the decoder walks it.
    enum Node {
        /// Any JSON value: what the reader does not read itself, and every value of an already parsed
        /// `JSONValue` document.
        case value(JSONValue)
        /// An object read by the reader (a document, feature or geometry), members in file order.
        case object([(String, Node)])
        /// A `features` or `geometries` array read by the reader.
        case array([Node])
        /// A `coordinates` array of uniformly nested, non-empty arrays of numbers.
        case coordinates(PackedCoordinates)

        /// The member named `key` of an object (the last of duplicates, as `JSONValue`), or nil.
        subscript(key: String) -> Node? {
            switch self {
            case .value(let json): return json[key].map(Node.value)
            case .object(let members): return members.last(where: { $0.0 == key })?.1
            case .array, .coordinates: return nil
            }
        }

        /// The items of an array, or nil.
        var array: [Node]? {
            switch self {
            case .value(let json): return json.array?.map(Node.value)
            case .array(let items): return items
            case .coordinates(let packed): return packed.json.array?.map(Node.value)
            case .object: return nil
            }
        }

        /// Whether the node is JSON `null`.
        var isNull: Bool { if case .value(.null) = self { return true } else { return false } }

        /// The string, or nil.
        var string: String? { if case .value(.string(let s)) = self { return s } else { return nil } }

        /// The node as a plain JSON value (built for what the decoder keeps or reports).
        var json: JSONValue {
            switch self {
            case .value(let json): return json
            case .object(let members): return .object(members.map { ($0.0, $0.1.json) })
            case .array(let items): return .array(items.map(\.json))
            case .coordinates(let packed): return packed.json
            }
        }
    }

    /// A `coordinates` array as read from the bytes: its numbers in file order and, in file order (depth
    /// first), the item count of every array in it, the outermost first. Every array is non-empty;
    /// arrays at `depth` 1 hold numbers only, the others arrays only.
    struct PackedCoordinates {
        var numbers: [Double] = []
        var counts: [Int] = []
        /// 1 for `[lon, lat]`, 2 for a list of positions, ... 4 for a MultiPolygon's.
        var depth = 0

        /// The same value as a JSON tree.
        var json: JSONValue {
            var c = 0
            var n = 0
            func build(_ level: Int) -> JSONValue {
                let count = counts[c]
                c += 1
                if level == depth {
                    defer { n += count }
                    return .array(numbers[n..<n + count].map(JSONValue.number))
                }
                return .array((0..<count).map { _ in build(level + 1) })
            }
            return build(1)
        }

        /// The geometry of GeoJSON type `type` with these coordinates, when they have that type's depth
        /// and every position is valid (at least two numbers, longitude and latitude in range); nil
        /// otherwise, and the caller decodes `json` instead, which gives the same geometry or the error.
        func geometry(type: String) -> GeoJSONGeometry? {
            var walk = Walk(packed: self)
            switch (type, depth) {
            case ("Point", 1): return walk.position().map(GeoJSONGeometry.point)
            case ("MultiPoint", 2): return walk.positions().map(GeoJSONGeometry.multiPoint)
            case ("LineString", 2): return walk.positions().map(GeoJSONGeometry.lineString)
            case ("MultiLineString", 3): return walk.lists { $0.positions() }.map(GeoJSONGeometry.multiLineString)
            case ("Polygon", 3): return walk.lists { $0.positions() }.map(GeoJSONGeometry.polygon)
            case ("MultiPolygon", 4):
                return walk.lists { polygon in polygon.lists { $0.positions() } }.map(GeoJSONGeometry.multiPolygon)
            default: return nil
            }
        }

        /// Reads the arrays in file order; the depth check of `geometry(type:)` keeps every read in bounds.
        private struct Walk {
            let packed: PackedCoordinates
            var c = 0
            var n = 0

            mutating func position() -> LocationCoordinate2D? {
                let count = packed.counts[c]
                c += 1
                guard count >= 2 else { return nil }
                let coordinate = LocationCoordinate2D(
                    latitude: packed.numbers[n + 1], longitude: packed.numbers[n])
                n += count
                return coordinate.isValid ? coordinate : nil
            }

            mutating func positions() -> [LocationCoordinate2D]? {
                let count = packed.counts[c]
                c += 1
                var out: [LocationCoordinate2D] = []
                out.reserveCapacity(count)
                for _ in 0..<count {
                    guard let p = position() else { return nil }
                    out.append(p)
                }
                return out
            }

            mutating func lists<T>(_ item: (inout Walk) -> T?) -> [T]? {
                let count = packed.counts[c]
                c += 1
                var out: [T] = []
                out.reserveCapacity(count)
                for _ in 0..<count {
                    guard let value = item(&self) else { return nil }
                    out.append(value)
                }
                return out
            }
        }
    }
}

extension JSONParser {
    /// Reads a whole GeoJSON document (see `GeoJSON.Node`).
    mutating func parseGeoJSONDocument() throws -> GeoJSON.Node {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        skipSpace()
        let node = try parseGeoJSONObject()
        skipSpace()
        guard i == bytes.count else { throw error("unexpected \(describeCurrent()) after the end of the JSON value") }
        return node
    }

    /// An object whose GeoJSON members the reader reads itself; any other value as JSON.
    mutating func parseGeoJSONObject() throws -> GeoJSON.Node {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return .value(try parseValue()) }
        var members: [(String, GeoJSON.Node)] = []
        try parseMembers { parser, key in
            let value: GeoJSON.Node
            switch key {
            case "features", "geometries": value = try parser.parseGeoJSONList()
            case "geometry": value = try parser.parseGeoJSONObject()
            case "coordinates": value = try parser.parseCoordinates()
            default: value = .value(try parser.parseValue())
            }
            members.append((key, value))
        }
        return .object(members)
    }

    /// A `features` or `geometries` array of objects the reader reads itself; any other value as JSON.
    mutating func parseGeoJSONList() throws -> GeoJSON.Node {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { return .value(try parseValue()) }
        var items: [GeoJSON.Node] = []
        try parseItems { parser in items.append(try parser.parseGeoJSONObject()) }
        return .array(items)
    }

    /// A `coordinates` value: packed when it is uniformly nested non-empty arrays of numbers (at most 4
    /// deep, as GeoJSON's are), otherwise (or on any syntax error) read again from its start as JSON, so
    /// that the result and the error are `parseValue`'s.
    mutating func parseCoordinates() throws -> GeoJSON.Node {
        let start = i
        let startDepth = depth
        if i < bytes.count, bytes[i] == UInt8(ascii: "[") {
            var packed = GeoJSON.PackedCoordinates()
            var numbersLevel = 0
            if (try? packArray(level: 1, numbersLevel: &numbersLevel, into: &packed)) == true {
                packed.depth = numbersLevel
                return .coordinates(packed)
            }
            i = start
            depth = startDepth
        }
        return .value(try parseValue())
    }

    /// Reads the array at `i` into `packed`; false when it is not uniform (`numbersLevel` is the level of
    /// the arrays that hold numbers, 0 until the first number).
    private mutating func packArray(
        level: Int, numbersLevel: inout Int, into packed: inout GeoJSON.PackedCoordinates
    ) throws -> Bool {
        guard level <= 4 else { return false }
        try enter()
        i += 1
        let slot = packed.counts.count
        packed.counts.append(0)
        var count = 0
        while true {
            skipSpace()
            guard i < bytes.count else { return false }
            let b = bytes[i]
            if b == UInt8(ascii: "[") {
                guard numbersLevel == 0 || numbersLevel > level else { return false }
                guard try packArray(level: level + 1, numbersLevel: &numbersLevel, into: &packed) else {
                    return false
                }
            } else if b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) {
                if numbersLevel == 0 { numbersLevel = level }
                guard numbersLevel == level else { return false }
                packed.numbers.append(try parseNumber())
            } else {
                return false  // an empty array, a string, null, an object, or a syntax error
            }
            count += 1
            skipSpace()
            guard i < bytes.count else { return false }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard bytes[i] == UInt8(ascii: "]") else { return false }
            i += 1
            break
        }
        packed.counts[slot] = count
        depth -= 1
        return true
    }
}
