/// Which points of interest a map shows: every category but some, or only some.
///
/// ```swift
/// options.pointOfInterestFilter = PointOfInterestFilter(including: [.restaurant, .cafe])
/// options.pointOfInterestFilter = .excludingAll
/// ```
/// A style's POI layers are those of the OpenMapTiles `poi` source layer (and `aerodrome_label`, the
/// airports), and GeoJSON layers whose metadata names their OpenStreetMap keys (`mapraster:poi-keys`); see
/// ``PointOfInterestCategory`` for how features map to categories and `Style.applying(pointOfInterestFilter:showsBuildings:)`
/// for what is changed. Mirrors MapKit's `MKPointOfInterestFilter`.
public struct PointOfInterestFilter: Sendable, Equatable, CustomStringConvertible {
    /// Whether the listed categories are the ones shown (true) or the ones hidden (false).
    public let isIncluding: Bool
    /// The categories listed, sorted.
    public let categories: [PointOfInterestCategory]

    /// A filter showing only `categories`. Mirrors `init(including:)`.
    public init(including categories: [PointOfInterestCategory]) {
        isIncluding = true
        self.categories = Array(Set(categories)).sorted()
    }

    /// A filter showing every category but `categories`. Mirrors `init(excluding:)`.
    public init(excluding categories: [PointOfInterestCategory]) {
        isIncluding = false
        self.categories = Array(Set(categories)).sorted()
    }

    /// Every point of interest (the styles' own choice). Mirrors `includingAll`.
    public static let includingAll = PointOfInterestFilter(excluding: [])
    /// No point of interest. Mirrors `excludingAll`.
    public static let excludingAll = PointOfInterestFilter(including: [])

    /// Whether the filter shows `category`. Mirrors `includes(_:)`.
    public func includes(_ category: PointOfInterestCategory) -> Bool {
        categories.contains(category) == isIncluding
    }

    /// Whether the filter hides `category`. Mirrors `excludes(_:)`.
    public func excludes(_ category: PointOfInterestCategory) -> Bool { !includes(category) }

    /// The filter in the text form ``init(parsing:)`` reads: `includingAll`, `excludingAll`,
    /// `including:cafe,restaurant` or `excluding:museum`.
    public var description: String {
        if categories.isEmpty { return isIncluding ? "excludingAll" : "includingAll" }
        return (isIncluding ? "including:" : "excluding:") + categories.map(\.rawValue).joined(separator: ",")
    }

    /// Reads the text form used by `render --poi`, scene files' `pointOfInterestFilter` and `serve`'s `poi`
    /// parameter: `includingAll` (or `all`), `excludingAll` (or `none`), `including:CATEGORY,...` or
    /// `excluding:CATEGORY,...` with MapKit's category names (`restaurant`, `publicTransport`, ...).
    ///
    /// - Throws: ``PointOfInterestFilterError`` naming the bad part and the accepted names.
    public init(parsing text: String) throws(PointOfInterestFilterError) {
        switch text {
        case "includingAll", "all": self = .includingAll
        case "excludingAll", "none": self = .excludingAll
        default:
            guard let colon = text.firstIndex(of: ":") else { throw .invalid(text: text, problem: Self.forms) }
            let kind = text[..<colon]
            let names = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
            var categories: [PointOfInterestCategory] = []
            for name in names {
                guard let category = PointOfInterestCategory(rawValue: String(name)) else {
                    throw .invalid(
                        text: text,
                        problem: "unknown category '\(name.prefix(40))'; the categories: "
                            + PointOfInterestCategory.allCases.map(\.rawValue).joined(separator: ", "))
                }
                categories.append(category)
            }
            switch kind {
            case "including": self.init(including: categories)
            case "excluding": self.init(excluding: categories)
            default: throw .invalid(text: text, problem: Self.forms)
            }
        }
    }

    private static let forms =
        "expected includingAll, excludingAll, including:CATEGORY,... or excluding:CATEGORY,... "
        + "(MapKit's category names, e.g. including:restaurant,cafe)"
}

/// A point-of-interest filter's text that does not read.
public enum PointOfInterestFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `text` is not a filter: `problem` says what is expected.
    case invalid(text: String, problem: String)

    public var description: String {
        switch self {
        case .invalid(let text, let problem): "'\(text.prefix(200))' is not a point-of-interest filter: \(problem)"
        }
    }
}
