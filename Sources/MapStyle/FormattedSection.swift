import Foundation
import MapGeometry

/// One section of formatted text (a `format` expression's value): text with an optional font stack,
/// scale and color overriding the layer's `text-font`, size and `text-color`.
public struct FormattedSection: Sendable, Equatable {
    /// The section's text.
    public var text: String
    /// `font-scale`: the section's size relative to `text-size`; nil for 1.
    public var scale: Double?
    /// `text-font`: the section's font stack; nil for the layer's.
    public var fontStack: [String]?
    /// `text-color`: the section's color; nil for the layer's.
    public var color: Color?
    /// The sprite image of an image section (`["image", name]` in `format`), drawn inline in the text; its
    /// ``text`` is ``imagePlaceholder``. Nil for a text section.
    public var image: String?

    /// The text of an image section: U+FFFC OBJECT REPLACEMENT CHARACTER, one character standing for the
    /// image (its label is not empty; MapLibre likewise gives an image one private-use character).
    public static let imagePlaceholder = "\u{FFFC}"

    /// Creates a section.
    public init(
        text: String, scale: Double? = nil, fontStack: [String]? = nil, color: Color? = nil, image: String? = nil
    ) {
        self.text = text
        self.scale = scale
        self.fontStack = fontStack
        self.color = color
        self.image = image
    }
}

/// String comparison options (a `collator` expression's value): whether case and diacritics matter, and
/// the locale whose ordering applies.
///
/// Comparisons fold case (when not case-sensitive) and diacritics (when not diacritic-sensitive), then
/// order by Unicode scalar values; the locale is kept for `resolved-locale` (ordering is the same for
/// every locale of ``Collator/supportedLocales``, which is where MapLibre's locales agree for the Latin
/// letters with and without diacritics).
public struct Collator: Sendable, Equatable {
    /// Whether "a" and "A" differ.
    public var caseSensitive: Bool
    /// Whether "a" and "â" differ.
    public var diacriticSensitive: Bool
    /// The locale asked for, or nil for the default.
    public var locale: String?

    /// Creates a collator.
    public init(caseSensitive: Bool = false, diacriticSensitive: Bool = false, locale: String? = nil) {
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
        self.locale = locale
    }

    /// The languages `resolved-locale` answers with (others resolve to "en").
    public static let supportedLocales = ["de", "en", "es", "fi", "fr", "it", "ja", "nl", "sv"]

    /// The locale used: the language of ``locale`` when it is supported, else "en".
    public var resolvedLocale: String {
        guard let locale else { return "en" }
        let language = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        return Self.supportedLocales.contains(language) ? language : "en"
    }

    /// The string's scalars with case (unless `keepCase`) and diacritics (unless `keepDiacritics`) folded.
    static func fold(_ s: String, keepCase: Bool, keepDiacritics: Bool) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        for scalar in s.decomposedStringWithCanonicalMapping.unicodeScalars {
            if !keepDiacritics, (0x300...0x36F).contains(scalar.value) { continue }
            if keepCase { scalars.append(scalar) } else { scalars += String(scalar).lowercased().unicodeScalars }
        }
        return scalars
    }

    static func order(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar], _ less: (Unicode.Scalar, Unicode.Scalar) -> Bool)
        -> Int
    {
        for (p, q) in zip(x, y) where p != q { return less(p, q) ? -1 : (less(q, p) ? 1 : 0) }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }

    /// -1, 0 or 1 as `a` sorts before, with or after `b`: by the letters with case and diacritics folded,
    /// then (when diacritic-sensitive) by the diacritics, then (when case-sensitive) lowercase before
    /// uppercase, as ICU's collation levels order them.
    public func compare(_ a: String, _ b: String) -> Int {
        let primary = Self.order(
            Self.fold(a, keepCase: false, keepDiacritics: false), Self.fold(b, keepCase: false, keepDiacritics: false),
            { $0.value < $1.value })
        if primary != 0 { return primary }
        if diacriticSensitive {
            let secondary = Self.order(
                Self.fold(a, keepCase: false, keepDiacritics: true),
                Self.fold(b, keepCase: false, keepDiacritics: true),
                { $0.value < $1.value })
            if secondary != 0 { return secondary }
        }
        if caseSensitive {
            let isUpper: (Unicode.Scalar) -> Bool = { $0.properties.isUppercase }
            let tertiary = Self.order(
                Self.fold(a, keepCase: true, keepDiacritics: false),
                Self.fold(b, keepCase: true, keepDiacritics: false),
                { !isUpper($0) && isUpper($1) })
            if tertiary != 0 { return tertiary }
        }
        return 0
    }
}
