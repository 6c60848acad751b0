import Foundation

/// Nearest GeoNames place of a country by great-circle distance, through a grid of 0.25-degree cells.
struct PlaceIndex: Sendable {
    static let cellSize: Int32 = 250_000
    static let columns = 1440
    static let rows = 720
    /// The mean Earth radius (IUGG) used for every distance.
    static let earthRadiusKilometers = 6371.0088
    /// pi / 180, multiplied as Python's `math.radians` does, so that distances match the oracle bit for bit.
    static let degreesToRadians = Double.pi / 180

    @inline(__always) static func column(_ x: Double) -> Int {
        MicrodegreeGrid.cell(x, from: -180_000_000, size: Int(cellSize), count: columns)
    }

    @inline(__always) static func row(_ y: Double) -> Int {
        MicrodegreeGrid.cell(y, from: -90_000_000, size: Int(cellSize), count: rows)
    }

    /// A place as the search reads it, stored in cell order so that a cell's places are contiguous.
    struct Entry: Sendable {
        var latitude: Double
        var longitude: Double
        var cosLatitude: Double
        var index: Int32
        var countryCode: Int32
        var population: UInt32
    }

    let places: GeocodingData.Places
    private let latitudes: [Double]
    private let longitudes: [Double]
    private let cellStart: [Int32]
    private let entries: [Entry]

    init(places: GeocodingData.Places) {
        self.places = places
        let count = places.count
        latitudes = places.ys.map { Double($0) / 1_000_000 }
        longitudes = places.xs.map { Double($0) / 1_000_000 }
        let cosLatitudes = latitudes.map { cos($0 * Self.degreesToRadians) }
        var counts = [Int32](repeating: 0, count: Self.columns * Self.rows + 1)
        var cells = [Int](repeating: 0, count: count)
        for i in 0..<count {
            let cell =
                Self.row(Double(places.ys[i])) * Self.columns + Self.column(Double(places.xs[i]))
            cells[i] = cell
            counts[cell + 1] += 1
        }
        for i in 0..<(counts.count - 1) { counts[i + 1] += counts[i] }
        var fill = counts
        var list = [Entry](
            repeating: Entry(latitude: 0, longitude: 0, cosLatitude: 0, index: 0, countryCode: 0, population: 0),
            count: count)
        for i in 0..<count {
            list[Int(fill[cells[i]])] = Entry(
                latitude: latitudes[i], longitude: longitudes[i], cosLatitude: cosLatitudes[i], index: Int32(i),
                countryCode: places.cc[i], population: places.population[i])
            fill[cells[i]] += 1
        }
        cellStart = counts
        entries = list
    }

    /// Great-circle distance in kilometers (haversine, mean radius), as the oracle computes it.
    @inline(__always) static func haversine(
        latitude1: Double, longitude1: Double, cosLatitude1: Double, latitude2: Double, longitude2: Double,
        cosLatitude2: Double
    ) -> Double {
        let h = haversineTerm(
            latitude1: latitude1, longitude1: longitude1, cosLatitude1: cosLatitude1, latitude2: latitude2,
            longitude2: longitude2, cosLatitude2: cosLatitude2)
        return 2 * earthRadiusKilometers * asin(min(1, h.squareRoot()))
    }

    /// The haversine formula's h: sin²(dLat/2) + cos(lat1) cos(lat2) sin²(dLon/2); the distance grows with it.
    @inline(__always) static func haversineTerm(
        latitude1: Double, longitude1: Double, cosLatitude1: Double, latitude2: Double, longitude2: Double,
        cosLatitude2: Double
    ) -> Double {
        let dLat = (latitude2 - latitude1) * degreesToRadians
        let dLon = (longitude2 - longitude1) * degreesToRadians
        let s1 = sin(dLat / 2)
        let s2 = sin(dLon / 2)
        return s1 * s1 + cosLatitude1 * cosLatitude2 * s2 * s2
    }

    /// The place chosen as locality for a point: the most populous place of 100,000+ people within `bigRadius`
    /// kilometers, else the nearest place within `radius` kilometers; only places whose country code is
    /// `country` count. Ties go to the nearer, then the earlier place in the GeoNames file. `nil` when none is
    /// near enough.
    func locality(latitude: Double, longitude: Double, country: Int32, radius: Double, bigRadius: Double) -> Int? {
        let cosLatitude = cos(latitude * Self.degreesToRadians)
        let latitudeDelta = radius / 111.0 + 0.01
        let longitudeDelta =
            cosLatitude > 0.01 ? min(360, latitudeDelta / cosLatitude) : 360
        let r0 = Self.row((latitude - latitudeDelta) * 1_000_000)
        let r1 = Self.row((latitude + latitudeDelta) * 1_000_000)
        var columnRanges: [(Int, Int)] = []
        if longitudeDelta >= 180 {
            columnRanges = [(0, Self.columns - 1)]
        } else {
            let west = longitude - longitudeDelta
            let east = longitude + longitudeDelta
            let c0 = Self.column(max(-180, west) * 1_000_000)
            let c1 = Self.column(min(180, east) * 1_000_000)
            columnRanges = [(c0, c1)]
            if west < -180 { columnRanges.append((Self.column((west + 360) * 1_000_000), Self.columns - 1)) }
            if east > 180 { columnRanges.append((0, Self.column((east - 360) * 1_000_000))) }
        }
        // Cells in order of a lower bound of their distance (the haversine formula with the latitude gap, the
        // longitude gap and the cell latitude farthest from the equator), so that the search stops as soon as no
        // cell can hold a nearer place.
        // Lower bounds without trigonometry: sin x >= x - x^3/6 on [0, 1] (sin x itself above), cos x >= 1 - x^2/2.
        @inline(__always) func sinBelow(_ x: Double) -> Double { x <= 1 ? x - x * x * x / 6 : sin(min(x, .pi / 2)) }
        func term(_ kilometers: Double) -> Double {
            let s = sin(kilometers / (2 * Self.earthRadiusKilometers))
            return s * s
        }
        var hLimit = term(radius)
        let hRadius = hLimit
        let hBig = term(bigRadius)
        let cellDegrees = Double(Self.cellSize) / 1_000_000
        var cells: [(bound: Double, cell: Int)] = []
        cells.reserveCapacity(16)
        for r in r0...r1 {
            let south = Double(r) * cellDegrees - 90
            let north = south + cellDegrees
            let latitudeGap = latitude < south ? south - latitude : latitude > north ? latitude - north : 0
            let farthest = max(abs(south), abs(north)) * Self.degreesToRadians
            let cosNarrowest = max(0, 1 - farthest * farthest / 2)
            let rowBound = sinBelow(latitudeGap * (Self.degreesToRadians / 2))
            for (c0, c1) in columnRanges {
                for c in c0...c1 {
                    let cell = r * Self.columns + c
                    guard cellStart[cell] < cellStart[cell + 1] else { continue }
                    let west = Double(c) * cellDegrees - 180
                    let east = west + cellDegrees
                    var longitudeGap = longitude < west ? west - longitude : longitude > east ? longitude - east : 0
                    longitudeGap = min(longitudeGap, 360 - longitudeGap)
                    let lonTerm = sinBelow(longitudeGap * (Self.degreesToRadians / 2))
                    // A lower bound of the haversine term of any point of the cell, less a rounding slack.
                    let bound = (rowBound * rowBound + cosLatitude * cosNarrowest * lonTerm * lonTerm) * (1 - 1e-9)
                    if bound <= hRadius { cells.append((bound, cell)) }
                }
            }
        }
        if cells.count > 1 { cells.sort { $0.bound < $1.bound } }
        var best = -1
        var bestDistance = Double.infinity
        var bestBig = -1
        var bestBigDistance = Double.infinity
        var bestBigPopulation: UInt32 = 0
        for (bound, cell) in cells {
            if bound > max(hLimit, hBig) * (1 + 1e-9) { break }
            for k in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                let entry = entries[k]
                guard entry.countryCode == country else { continue }
                let i = Int(entry.index)
                let population = entry.population
                // A lower bound of h without trigonometry (sin x >= x - x^3/6 for 0 <= x <= 1) rejects most places.
                let a = abs(entry.latitude - latitude) * (Self.degreesToRadians / 2)
                var lonGap = abs(entry.longitude - longitude)
                if lonGap > 180 { lonGap = 360 - lonGap }
                let b = lonGap * (Self.degreesToRadians / 2)
                if a < 1, b < 1 {
                    let sa = a - a * a * a / 6
                    let sb = b - b * b * b / 6
                    let lower = sa * sa + cosLatitude * entry.cosLatitude * sb * sb
                    if lower > hLimit * (1 + 1e-9), population < 100_000 || lower > hBig * (1 + 1e-9) { continue }
                }
                // The haversine term first: the distance (asin, sqrt) only where it can matter. The slack keeps
                // ties and the radius decided by the exact distance, as the oracle decides them.
                let h = Self.haversineTerm(
                    latitude1: latitude, longitude1: longitude, cosLatitude1: cosLatitude,
                    latitude2: entry.latitude, longitude2: entry.longitude, cosLatitude2: entry.cosLatitude)
                if h > hLimit * (1 + 1e-9), population < 100_000 || h > hBig * (1 + 1e-9) { continue }
                let d = 2 * Self.earthRadiusKilometers * asin(min(1, h.squareRoot()))
                if d <= radius, d < bestDistance || (d == bestDistance && i < best) {
                    best = i
                    bestDistance = d
                    hLimit = min(hLimit, h)
                }
                if population >= 100_000, d <= bigRadius,
                    population > bestBigPopulation
                        || (population == bestBigPopulation
                            && (d < bestBigDistance || (d == bestBigDistance && i < bestBig)))
                {
                    bestBig = i
                    bestBigDistance = d
                    bestBigPopulation = population
                }
            }
        }
        if bestBig >= 0 { return bestBig }
        return best >= 0 ? best : nil
    }

    func coordinate(_ i: Int) -> (latitude: Double, longitude: Double) { (latitudes[i], longitudes[i]) }
}
