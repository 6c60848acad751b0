import Foundation
import MapGeometry

/// One `markers` value of a static-map request: a group of points sharing one look.
///
/// Google's syntax: `color:blue|size:mid|label:S|40.702147,-74.015794|40.711614,-74.012318` (styles, then
/// `lat,lng` points). tileserver-gl's: `5.9,45.8|icon.png|scale:0.5|offset:2,-4` (one `lng,lat` point, an
/// icon, options).
///
/// ```swift
/// let marker = try MarkerParameter(parsing: "color:blue|label:S|40.702147,-74.015794", syntax: .google)
/// marker.label == "S"
/// ```
public struct MarkerParameter: Sendable, Equatable {
    /// Google's marker sizes; tileserver-gl markers are `normal`.
    public enum Size: String, Sendable, CaseIterable {
        case tiny, small, mid, normal

        /// The pin's size relative to the standard pin: tiny 0.55, small 0.7, mid 0.85, normal 1.
        public var factor: Double {
            switch self {
            case .tiny: return 0.55
            case .small: return 0.7
            case .mid: return 0.85
            case .normal: return 1
            }
        }
    }

    /// The points, each one marker.
    public var coordinates: [LocationCoordinate2D] = []
    /// The pin color; nil for the standard red pin.
    public var color: Color?
    /// The pin size.
    public var size = Size.normal
    /// The label drawn on the pin: one character A-Z or 0-9.
    public var label: String?
    /// The icon's pixels per point (Google's `scale:` 1, 2, 4; tileserver-gl's `scale:` factor inverted).
    public var iconScale = 1.0
    /// A custom icon: a PNG path (tileserver-gl's icon part); Google's `icon:` URLs are refused.
    public var icon: String?
    /// The icon's offset in points, x right and y up as tileserver-gl's `offset:` (y is flipped when drawn).
    public var offset = Point.zero

    /// Creates an empty marker group.
    public init() {}

    /// Parses one `markers`/`marker` value.
    ///
    /// - Parameters:
    ///   - text: the value, URL-decoded or with percent escapes (`%7C` for `|`).
    ///   - syntax: the grammar; ``StaticMapSyntax/detect(marker:)`` guesses it.
    ///   - maximumCount: the most points accepted.
    /// - Throws: ``StaticMapParameterError`` naming the bad part and the grammar.
    public init(parsing text: String, syntax: StaticMapSyntax, maximumCount: Int = StaticMapParameters.maximumMarkers)
        throws
    {
        switch syntax {
        case .google: try self.init(google: text, maximumCount: maximumCount)
        case .tileserverGL(let latitudeFirst): try self.init(tileserver: text, latitudeFirst: latitudeFirst)
        }
    }

    private init(google text: String, maximumCount: Int) throws {
        self.init()
        let grammar = StaticMapParameterError.googleMarkersGrammar
        func fail(_ part: some StringProtocol, _ problem: String) -> StaticMapParameterError {
            StaticMapParameterError(parameter: "markers", part: part, problem: problem, grammar: grammar)
        }
        guard let decoded = StaticMapText.percentDecoded(text) else { throw fail(text, "a malformed % escape") }
        for part in StaticMapText.parts(decoded) {
            if let (name, value) = StaticMapText.option(part) {
                switch name {
                case "color": color = try StaticMapColor.parse(value, google: true, fail: { fail(part, $0) })
                case "size":
                    guard let s = Size(rawValue: String(value)), s != .normal else {
                        throw fail(part, "the size must be tiny, small or mid (leave it out for the normal size)")
                    }
                    size = s
                case "label":
                    guard value.count == 1, let c = value.first, c.isASCII, c.isUppercase || c.isNumber else {
                        throw fail(part, "the label must be one character A-Z or 0-9")
                    }
                    label = String(value)
                case "scale":
                    guard let s = StaticMapText.number(value), [1.0, 2, 4].contains(s) else {
                        throw fail(part, "the scale must be 1, 2 or 4")
                    }
                    iconScale = s
                case "icon":
                    throw fail(part, "custom icons (icon:URL) are not supported: draw pins with color, size and label")
                case "anchor":
                    throw fail(part, "anchor: applies to custom icons, which are not supported")
                default:
                    throw fail(part, "unknown style '\(name)'; styles are color, size, label and scale")
                }
                continue
            }
            guard let (lat, lng) = StaticMapText.pair(part) else {
                throw fail(part, "a point must be LAT,LNG in decimal degrees (place names are not supported)")
            }
            guard coordinates.count < maximumCount else {
                throw fail(part, "more than \(maximumCount) markers")
            }
            coordinates.append(try StaticMapCoordinate.make(lat, lng, part: part, fail: fail))
        }
        guard !coordinates.isEmpty else { throw fail(text, "no point: give at least one LAT,LNG") }
    }

    private init(tileserver text: String, latitudeFirst: Bool) throws {
        self.init()
        let grammar = StaticMapParameterError.tileserverMarkerGrammar
        func fail(_ part: some StringProtocol, _ problem: String) -> StaticMapParameterError {
            StaticMapParameterError(parameter: "marker", part: part, problem: problem, grammar: grammar)
        }
        guard let decoded = StaticMapText.percentDecoded(text) else { throw fail(text, "a malformed % escape") }
        let parts = StaticMapText.parts(decoded)
        guard let first = parts.first, let (a, b) = StaticMapText.pair(first) else {
            throw fail(parts.first ?? "", "the marker must start with its point, LNG,LAT in decimal degrees")
        }
        coordinates = [
            try StaticMapCoordinate.make(latitudeFirst ? a : b, latitudeFirst ? b : a, part: first, fail: fail)
        ]
        for part in parts.dropFirst() {
            guard let (name, value) = StaticMapText.option(part) else {
                guard icon == nil else { throw fail(part, "a second icon; give one ICON part") }
                guard !part.contains("://") else {
                    throw fail(part, "icons from URLs are not supported: give a PNG file")
                }
                icon = String(part)
                continue
            }
            switch name {
            case "scale":
                guard let s = StaticMapText.number(value), s >= 0.01, s <= 100 else {
                    throw fail(part, "the scale must be a number in 0.01...100")
                }
                iconScale = 1 / s
            case "offset":
                guard let (x, y) = StaticMapText.pair(value), abs(x) <= 10_000, abs(y) <= 10_000 else {
                    throw fail(part, "the offset must be X,Y in pixels, each within -10000...10000")
                }
                offset = Point(x: x, y: y)
            default:
                throw fail(part, "unknown option '\(name)'; options are scale and offset")
            }
        }
        guard icon != nil else { throw fail(text, "no ICON part: tileserver-gl markers need an icon file") }
    }
}

/// Points of the static-map grammars, range-checked.
enum StaticMapCoordinate {
    static func make(
        _ lat: Double, _ lng: Double, part: Substring, fail: (Substring, String) -> StaticMapParameterError
    ) throws -> LocationCoordinate2D {
        guard lat >= -90, lat <= 90 else { throw fail(part, "latitude \(lat) is outside -90...90") }
        guard lng >= -180, lng <= 180 else { throw fail(part, "longitude \(lng) is outside -180...180") }
        return LocationCoordinate2D(latitude: lat, longitude: lng)
    }
}

/// Colors of the static-map grammars.
enum StaticMapColor {
    /// Google's marker and path color names, with their CSS colors.
    static let googleNames: [String: Color] = [
        "black": Color(red8: 0, green8: 0, blue8: 0), "brown": Color(red8: 165, green8: 42, blue8: 42),
        "green": Color(red8: 0, green8: 128, blue8: 0), "purple": Color(red8: 128, green8: 0, blue8: 128),
        "yellow": Color(red8: 255, green8: 255, blue8: 0), "blue": Color(red8: 0, green8: 0, blue8: 255),
        "gray": Color(red8: 128, green8: 128, blue8: 128), "orange": Color(red8: 255, green8: 165, blue8: 0),
        "red": Color(red8: 255, green8: 0, blue8: 0), "white": Color(red8: 255, green8: 255, blue8: 255),
    ]

    /// `0xRRGGBB[AA]`, `#RRGGBB[AA]`, Google's names; with `google` false also any CSS color (tileserver-gl).
    static func parse(_ text: Substring, google: Bool, fail: (String) -> StaticMapParameterError) throws -> Color {
        let lower = text.lowercased()
        var hex: Substring?
        if lower.hasPrefix("0x") {
            hex = Substring(lower.dropFirst(2))
        } else if lower.hasPrefix("#") {
            hex = Substring(lower.dropFirst())
        }
        if let hex {
            guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else {
                throw fail("a hexadecimal color needs 6 or 8 digits (0xRRGGBB or 0xRRGGBBAA)")
            }
            var v: [Int] = []
            var i = hex.startIndex
            while i < hex.endIndex {
                let j = hex.index(i, offsetBy: 2)
                v.append(Int(hex[i..<j], radix: 16) ?? 0)
                i = j
            }
            return Color(red8: v[0], green8: v[1], blue8: v[2], alpha: v.count == 4 ? Double(v[3]) / 255 : 1)
        }
        if let named = googleNames[lower] { return named }
        if !google, let css = try? Color(parsing: String(text)) { return css }
        let names = googleNames.keys.sorted().joined(separator: ", ")
        throw fail("unknown color; use 0xRRGGBB, 0xRRGGBBAA, #RRGGBB, #RRGGBBAA or one of \(names)")
    }
}
