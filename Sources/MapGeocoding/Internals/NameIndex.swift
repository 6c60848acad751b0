import Foundation

/// Forward search: normalized names of places, aliases, admin-1 areas and countries, exact and within one edit.
struct NameIndex: Sendable {
    enum Kind: Sendable { case place, alias, admin1, country }

    struct Candidate {
        var kind: Kind
        var index: Int
        var score: Double
        var rank: Int
    }

    /// Entry ids: places first, then aliases, admin-1 areas and countries.
    private let byName: [String: [Int32]]
    /// For the one-edit search, per name length: the names' bytes back to back, their letter masks and keys.
    private let bucketBytes: [[UInt8]]
    private let bucketMasks: [[UInt32]]
    private let bucketKeys: [[String]]
    /// Normalized strings by string index: filled for names and for the fields that qualifiers are compared with
    /// (states, counties, country names and codes), empty for others.
    let normalizedField: [String]
    private let placeCount: Int
    private let aliasCount: Int
    private let adminCount: Int
    static let maximumFuzzyLength = 48

    init(data: GeocodingData) {
        var byName: [String: [Int32]] = [:]
        var cache = [String](repeating: "", count: data.strings.count)
        var done = [Bool](repeating: false, count: data.strings.count)
        func key(_ string: Int32) -> String {
            let i = Int(string)
            if done[i] { return cache[i] }
            let normalized = NameIndex.normalize(data.strings[i])
            cache[i] = normalized
            done[i] = true
            return normalized
        }
        let places = data.places
        var id: Int32 = 0
        for i in 0..<places.count {
            byName[key(places.name[i]), default: []].append(id)
            id += 1
        }
        for i in 0..<data.aliases.count {
            byName[key(data.aliases.name[i]), default: []].append(id)
            id += 1
        }
        for area in data.admin1 {
            byName[key(area.name), default: []].append(id)
            id += 1
        }
        for country in data.countries {
            byName[key(country.name), default: []].append(id)
            id += 1
        }
        byName.removeValue(forKey: "")
        for i in 0..<places.count {
            _ = key(places.admin1[i])
            _ = key(places.admin2[i])
            _ = key(places.cc[i])
        }
        for i in 0..<data.aliases.count { _ = key(data.aliases.cc[i]) }
        for country in data.countries {
            for field in [country.name, country.iso2, country.iso3, country.nameJa] { _ = key(field) }
        }
        normalizedField = cache

        var bytes = [[UInt8]](repeating: [], count: Self.maximumFuzzyLength + 2)
        var masks = [[UInt32]](repeating: [], count: Self.maximumFuzzyLength + 2)
        var keys = [[String]](repeating: [], count: Self.maximumFuzzyLength + 2)
        for name in byName.keys.sorted() {
            let utf8 = Array(name.utf8)
            guard utf8.count < bytes.count else { continue }
            bytes[utf8.count].append(contentsOf: utf8)
            masks[utf8.count].append(Self.letterMask(utf8))
            keys[utf8.count].append(name)
        }
        self.byName = byName
        bucketBytes = bytes
        bucketMasks = masks
        bucketKeys = keys
        placeCount = places.count
        aliasCount = data.aliases.count
        adminCount = data.admin1.count
    }

    /// Lowercased, diacritics removed, everything but letters and digits turned into single spaces.
    static func normalize(_ text: String) -> String {
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        if isASCII {
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count)
            var pendingSpace = false
            for var byte in text.utf8 {
                let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                if isLetter || (byte >= 0x30 && byte <= 0x39) {
                    if pendingSpace, !out.isEmpty { out.append(0x20) }
                    pendingSpace = false
                    if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                    out.append(byte)
                } else {
                    pendingSpace = true
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var out = ""
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if pendingSpace, !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.append(String(scalar).lowercased())
            } else {
                pendingSpace = true
            }
        }
        return out
    }

    /// Bit k set when the letter or digit class k occurs: one edit changes at most two bits.
    static func letterMask(_ bytes: [UInt8]) -> UInt32 {
        var mask: UInt32 = 0
        for byte in bytes { mask |= 1 << UInt32(byte & 31) }
        return mask
    }

    /// Whether `a` and `b` differ by at most one inserted, deleted or replaced byte, or two swapped neighbours.
    static func withinOneEdit(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = a.count
        let m = b.count
        guard abs(n - m) <= 1 else { return false }
        var i = 0
        while i < n, i < m, a[i] == b[i] { i += 1 }
        if i == n && i == m { return true }
        func same(_ ai: Int, _ bi: Int) -> Bool {
            var (x, y) = (ai, bi)
            while x < n, y < m {
                if a[x] != b[y] { return false }
                x += 1
                y += 1
            }
            return x == n && y == m
        }
        if n == m {
            if same(i + 1, i + 1) { return true }
            return i + 1 < n && a[i] == b[i + 1] && a[i + 1] == b[i] && same(i + 2, i + 2)
        }
        return n > m ? same(i + 1, i) : same(i, i + 1)
    }

    /// Entry ids whose name is `name` (exact) and, for names of three or more bytes, within one edit of it.
    func lookup(_ name: String) -> (exact: [Int32], fuzzy: [Int32]) {
        let exact = byName[name] ?? []
        var fuzzy: [Int32] = []
        let query = Array(name.utf8)
        guard query.count >= 3, query.count <= Self.maximumFuzzyLength else { return (exact, fuzzy) }
        let mask = Self.letterMask(query)
        query.withUnsafeBufferPointer { q in
            for length in (query.count - 1)...(query.count + 1) {
                let masks = bucketMasks[length]
                bucketBytes[length].withUnsafeBufferPointer { all in
                    for k in 0..<masks.count where (masks[k] ^ mask).nonzeroBitCount <= 2 {
                        let candidate = UnsafeBufferPointer(rebasing: all[(k * length)..<(k * length + length)])
                        if Self.withinOneEdit(q, candidate), !(length == query.count && candidate.elementsEqual(q)),
                            let ids = byName[bucketKeys[length][k]]
                        {
                            fuzzy.append(contentsOf: ids)
                        }
                    }
                }
            }
        }
        return (exact, fuzzy)
    }

    func kind(of id: Int32) -> (Kind, Int) {
        var i = Int(id)
        if i < placeCount { return (.place, i) }
        i -= placeCount
        if i < aliasCount { return (.alias, i) }
        i -= aliasCount
        if i < adminCount { return (.admin1, i) }
        return (.country, i - adminCount)
    }
}
