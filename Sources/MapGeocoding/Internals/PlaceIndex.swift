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

    let places: GeocodingData.Places
    private let latitudes: [Double]
    private let longitudes: [Double]
    private let cosLatitudes: [Double]
    private let cellStart: [Int32]
    private let cellPlaces: [Int32]

    init(places: GeocodingData.Places) {
        self.places = places
        let count = places.count
        latitudes = places.ys.map { Double($0) / 1_000_000 }
        longitudes = places.xs.map { Double($0) / 1_000_000 }
        cosLatitudes = latitudes.map { cos($0 * Self.degreesToRadians) }
        var counts = [Int32](repeating: 0, count: Self.columns * Self.rows + 1)
        var cells = [Int](repeating: 0, count: count)
        for i in 0..<count {
            let cell =
                PolygonIndex.row(Double(places.ys[i])) * Self.columns + PolygonIndex.column(Double(places.xs[i]))
            cells[i] = cell
            counts[cell + 1] += 1
        }
        for i in 0..<(counts.count - 1) { counts[i + 1] += counts[i] }
        var fill = counts
        var list = [Int32](repeating: 0, count: count)
        for i in 0..<count {
            list[Int(fill[cells[i]])] = Int32(i)
            fill[cells[i]] += 1
        }
        cellStart = counts
        cellPlaces = list
    }

    /// Great-circle distance in kilometers (haversine, mean radius), as the oracle computes it.
    @inline(__always) static func haversine(
        latitude1: Double, longitude1: Double, cosLatitude1: Double, latitude2: Double, longitude2: Double,
        cosLatitude2: Double
    ) -> Double {
        let dLat = (latitude2 - latitude1) * degreesToRadians
        let dLon = (longitude2 - longitude1) * degreesToRadians
        let s1 = sin(dLat / 2)
        let s2 = sin(dLon / 2)
        let h = s1 * s1 + cosLatitude1 * cosLatitude2 * s2 * s2
        return 2 * earthRadiusKilometers * asin(min(1, h.squareRoot()))
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
        let r0 = PolygonIndex.row((latitude - latitudeDelta) * 1_000_000)
        let r1 = PolygonIndex.row((latitude + latitudeDelta) * 1_000_000)
        var columnRanges: [(Int, Int)] = []
        if longitudeDelta >= 180 {
            columnRanges = [(0, Self.columns - 1)]
        } else {
            let west = longitude - longitudeDelta
            let east = longitude + longitudeDelta
            let c0 = PolygonIndex.column(max(-180, west) * 1_000_000)
            let c1 = PolygonIndex.column(min(180, east) * 1_000_000)
            columnRanges = [(c0, c1)]
            if west < -180 { columnRanges.append((PolygonIndex.column((west + 360) * 1_000_000), Self.columns - 1)) }
            if east > 180 { columnRanges.append((0, PolygonIndex.column((east - 360) * 1_000_000))) }
        }
        var best = -1
        var bestDistance = Double.infinity
        var bestBig = -1
        var bestBigDistance = Double.infinity
        var bestBigPopulation: UInt32 = 0
        for r in r0...r1 {
            for (c0, c1) in columnRanges {
                for c in c0...c1 {
                    let cell = r * Self.columns + c
                    for k in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                        let i = Int(cellPlaces[k])
                        guard places.cc[i] == country else { continue }
                        let d = Self.haversine(
                            latitude1: latitude, longitude1: longitude, cosLatitude1: cosLatitude,
                            latitude2: latitudes[i], longitude2: longitudes[i], cosLatitude2: cosLatitudes[i])
                        if d <= radius, d < bestDistance || (d == bestDistance && i < best) {
                            best = i
                            bestDistance = d
                        }
                        let population = places.population[i]
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
            }
        }
        if bestBig >= 0 { return bestBig }
        return best >= 0 ? best : nil
    }

    func coordinate(_ i: Int) -> (latitude: Double, longitude: Double) { (latitudes[i], longitudes[i]) }
}
