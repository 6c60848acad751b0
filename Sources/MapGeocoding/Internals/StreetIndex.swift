import Foundation

/// Addresses and named streets of the OpenStreetMap extracts, answered only inside the extracts' boxes.
struct StreetIndex: Sendable {
    /// An address within this many meters gives street, house number and postal code.
    static let addressRadiusMeters = 50.0
    /// Otherwise a named highway within this many meters gives the street.
    static let streetRadiusMeters = 100.0

    let data: GeocodingData

    struct Match {
        var street: Int32
        var number: Int32?
        var postcode: Int32?
        /// The country code of the extract that answered.
        var countryCode: Int32
    }

    func match(latitude: Double, longitude: Double) -> Match? {
        let x = longitude * 1_000_000
        let y = latitude * 1_000_000
        let margin = 2_000.0  // micro-degrees, more than 100 m
        guard
            let box = data.coverage.first(where: {
                x >= Double($0.west) - margin && x <= Double($0.east) + margin && y >= Double($0.south) - margin
                    && y <= Double($0.north) + margin
            })
        else { return nil }
        // Local planar meters: fine at the scale of 100 m.
        let metersPerMicroY = 0.111_195
        let metersPerMicroX = metersPerMicroY * cos(latitude * PlaceIndex.degreesToRadians)
        let addresses = data.addresses
        var best = -1
        var bestSquared = Self.addressRadiusMeters * Self.addressRadiusMeters
        for i in 0..<addresses.count {
            let dx = (Double(addresses.xs[i]) - x) * metersPerMicroX
            let dy = (Double(addresses.ys[i]) - y) * metersPerMicroY
            let squared = dx * dx + dy * dy
            if squared < bestSquared || (squared == bestSquared && best < 0) {  // ties: the first address
                best = i
                bestSquared = squared
            }
        }
        if best >= 0 {
            let postcode = addresses.postcode[best]
            return Match(
                street: addresses.street[best], number: addresses.number[best],
                postcode: postcode == 0 ? nil : postcode,
                countryCode: box.countryCode)
        }
        let streets = data.streets
        var bestStreet: Int32 = -1
        bestSquared = Self.streetRadiusMeters * Self.streetRadiusMeters
        for v in 0..<streets.xs.count where streets.segmentName[v] >= 0 {
            let ax = (Double(streets.xs[v]) - x) * metersPerMicroX
            let ay = (Double(streets.ys[v]) - y) * metersPerMicroY
            let bx = (Double(streets.xs[v + 1]) - x) * metersPerMicroX
            let by = (Double(streets.ys[v + 1]) - y) * metersPerMicroY
            let dx = bx - ax
            let dy = by - ay
            let length = dx * dx + dy * dy
            let t = length > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length)) : 0
            let px = ax + t * dx
            let py = ay + t * dy
            let squared = px * px + py * py
            if squared < bestSquared {
                bestStreet = streets.segmentName[v]
                bestSquared = squared
            }
        }
        return bestStreet >= 0
            ? Match(street: bestStreet, number: nil, postcode: nil, countryCode: box.countryCode) : nil
    }
}
