/// The language of the names a ``Geocoder`` answers with.
///
/// English names are always present. Japanese names come from Natural Earth's `NAME_JA` (countries) and a
/// heuristic Japanese name of GeoNames cities of 100,000+ people; where none is known the English name is used.
public enum GeocodingLanguage: String, Sendable, CaseIterable {
    /// English (Natural Earth `NAME_LONG`, GeoNames ASCII names). The default.
    case english = "en"
    /// Japanese where known, English otherwise.
    case japanese = "ja"

    /// The language for a BCP 47 code such as `"en"`, `"ja"` or `"ja-JP"`; `nil` for others.
    public init?(code: String) {
        let primary = code.split(separator: "-").first.map { $0.lowercased() } ?? ""
        self.init(rawValue: primary)
    }
}
