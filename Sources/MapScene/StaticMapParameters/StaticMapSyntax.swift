import Foundation
import MapGeometry

/// Which static-map URL grammar a `markers`/`marker`, `path` or `visible` value is written in.
///
/// - ``google``: Google Static Maps: `markers=color:blue|label:S|40.70,-74.01`, `path=color:0xff0000ff|weight:5|
///   40.73,-73.99|40.74,-73.98` or `path=weight:3|enc:_p~iF~ps|U`; points are `lat,lng`.
/// - ``tileserverGL``: tileserver-gl's static endpoint: `marker=5.9,45.8|icon.png|scale:0.5|offset:2,-4`,
///   `path=stroke:red|width:3|5.9,45.8|10.5,47.8`; points are `lng,lat` unless `latitudeFirst` (its `latlng`
///   query flag).
public enum StaticMapSyntax: Sendable, Equatable {
    /// Google Static Maps (`lat,lng`).
    case google
    /// tileserver-gl (`lng,lat`, or `lat,lng` with its `latlng` flag).
    case tileserverGL(latitudeFirst: Bool)

    /// The syntax of a `path` value when the caller does not say: tileserver-gl's when it has one of
    /// tileserver-gl's options (`stroke:`, `width:`, `fill:`, `linecap:`, `linejoin:`, `border:`,
    /// `borderwidth:`), otherwise Google's. Plain points are read as Google's `lat,lng`.
    public static func detect(path value: String) -> StaticMapSyntax {
        let parts = StaticMapText.parts(StaticMapText.percentDecoded(value) ?? value)
        let tileserverOptions: Set<String> = [
            "stroke", "width", "fill", "linecap", "linejoin", "border", "borderwidth",
        ]
        if parts.contains(where: { StaticMapText.option($0).map { tileserverOptions.contains($0.name) } ?? false }) {
            return .tileserverGL(latitudeFirst: false)
        }
        return .google
    }

    /// The syntax of a `markers`/`marker` value when the caller does not say: tileserver-gl's when its second
    /// part is an icon (neither a `name:value` style nor a point) or it has an `offset:` option, otherwise
    /// Google's.
    public static func detect(marker value: String) -> StaticMapSyntax {
        let parts = StaticMapText.parts(StaticMapText.percentDecoded(value) ?? value)
        if parts.contains(where: { StaticMapText.option($0)?.name == "offset" }) {
            return .tileserverGL(latitudeFirst: false)
        }
        if parts.count >= 2, StaticMapText.option(parts[1]) == nil, StaticMapText.pair(parts[1]) == nil,
            StaticMapText.pair(parts[0]) != nil
        {
            return .tileserverGL(latitudeFirst: false)
        }
        return .google
    }
}

/// Splitting and number reading shared by the static-map parameters: strict, with no trapping arithmetic.
enum StaticMapText {
    /// Percent escapes decoded once (`%7C` is `|`); nil for a malformed escape. Text without `%` is returned
    /// as it is, so decoded input passes through unchanged.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        return text.removingPercentEncoding
    }

    /// The `|`-separated parts, empty ones left out (a trailing `|` is common in hand-written URLs).
    static func parts(_ text: String) -> [Substring] {
        text.split(separator: "|", omittingEmptySubsequences: true)
    }

    /// `name:value`, with a lowercase letter name; nil for anything else (a point has no colon, an encoded
    /// polyline starts with `enc:` and is handled first by the callers).
    static func option(_ part: Substring) -> (name: String, value: Substring)? {
        guard let colon = part.firstIndex(of: ":") else { return nil }
        let name = part[..<colon]
        guard !name.isEmpty, name.utf8.count <= 32, name.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return (name.lowercased(), part[part.index(after: colon)...])
    }

    /// A strict decimal number: optional sign, digits with at most one point, optional exponent. No `nan`,
    /// `inf`, hexadecimal floats or spaces inside, at most 64 characters.
    static func number(_ text: Substring) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.utf8.count <= 64,
            t.allSatisfy({ "0123456789+-.eE".contains($0) }),
            let value = Double(t), value.isFinite
        else { return nil }
        return value
    }

    /// Two numbers separated by one comma.
    static func pair(_ part: Substring) -> (Double, Double)? {
        let values = part.split(separator: ",", omittingEmptySubsequences: false)
        guard values.count == 2, let a = number(values[0]), let b = number(values[1]) else { return nil }
        return (a, b)
    }
}
