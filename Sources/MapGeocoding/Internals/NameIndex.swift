import Foundation

/// Forward search: normalized names of places, admin-1 areas and countries, exact and within one edit.
struct NameIndex: Sendable {
    enum Kind: Sendable { case place, admin1, country }

    struct Candidate {
        var kind: Kind
        var index: Int
        var score: Double
        var distanceKilometers: Double?
    }

    /// Entry ids: places first, then admin-1 areas, then countries.
    private let byName: [String: [Int32]]
    /// Normalized names as bytes, bucketed by length, for the one-edit search.
    private let namesByLength: [[[UInt8]]]
    private let placeCount: Int
    private let adminCount: Int

    init(data: GeocodingData) {
        var byName: [String: [Int32]] = [:]
        var cache: [Int32: String] = [:]
        func key(_ string: Int32) -> String {
            if let known = cache[string] { return known }
            let normalized = NameIndex.normalize(data.strings[Int(string)])
            cache[string] = normalized
            return normalized
        }
        let places = data.places
        for i in 0..<places.count { byName[key(places.name[i]), default: []].append(Int32(i)) }
        for (i, area) in data.admin1.enumerated() {
            byName[key(area.name), default: []].append(Int32(places.count + i))
        }
        for (i, country) in data.countries.enumerated() {
            byName[key(country.name), default: []].append(Int32(places.count + data.admin1.count + i))
        }
        byName.removeValue(forKey: "")
        var buckets: [[[UInt8]]] = Array(repeating: [], count: 65)
        for name in byName.keys.sorted() {
            let bytes = Array(name.utf8)
            if bytes.count < buckets.count { buckets[bytes.count].append(bytes) }
        }
        self.byName = byName
        namesByLength = buckets
        placeCount = places.count
        adminCount = data.admin1.count
    }

    /// Lowercased, diacritics removed, everything but letters and digits turned into single spaces.
    static func normalize(_ text: String) -> String {
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let folded = isASCII ? text : text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var out: [UInt8] = []
        out.reserveCapacity(folded.utf8.count)
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if pendingSpace, !out.isEmpty { out.append(0x20) }
                pendingSpace = false
                if scalar.isASCII {
                    var byte = UInt8(scalar.value)
                    if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                    out.append(byte)
                } else {
                    out.append(contentsOf: Array(String(scalar).lowercased().utf8))
                }
            } else {
                pendingSpace = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `a` and `b` differ by at most one inserted, deleted or replaced letter, or two swapped
    /// neighbouring letters.
    static func withinOneEdit(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let n = a.count
        let m = b.count
        guard abs(n - m) <= 1 else { return false }
        var i = 0
        while i < n, i < m, a[i] == b[i] { i += 1 }
        if i == n && i == m { return true }
        if n == m {
            // Replace a[i], or swap a[i] and a[i+1].
            if a[(i + 1)...] == b[(i + 1)...] { return true }
            return i + 1 < n && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
        }
        return n > m ? a[(i + 1)...] == b[i...] : a[i...] == b[(i + 1)...]
    }

    /// Entry ids whose name is `name` (exact) and, separately, within one edit of it.
    func lookup(_ name: String) -> (exact: [Int32], fuzzy: [Int32]) {
        let exact = byName[name] ?? []
        var fuzzy: [Int32] = []
        let bytes = Array(name.utf8)
        guard bytes.count >= 4 else { return (exact, fuzzy) }
        for length in (bytes.count - 1)...(bytes.count + 1) where length < namesByLength.count {
            for candidate in namesByLength[length] where candidate != bytes {
                if Self.withinOneEdit(bytes, candidate),
                    let ids = byName[String(decoding: candidate, as: UTF8.self)]
                {
                    fuzzy.append(contentsOf: ids)
                }
            }
        }
        return (exact, fuzzy)
    }

    func kind(of id: Int32) -> (Kind, Int) {
        let i = Int(id)
        if i < placeCount { return (.place, i) }
        if i < placeCount + adminCount { return (.admin1, i - placeCount) }
        return (.country, i - placeCount - adminCount)
    }
}
