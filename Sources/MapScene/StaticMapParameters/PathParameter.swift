import Foundation
import MapGeometry

/// One `path` value of a static-map request: a line, or an area when it has a fill color.
///
/// Google's syntax: `color:0x0000ff80|weight:5|fillcolor:0xffff0033|geodesic:true|40.737,-73.999|40.749,-73.987`
/// or `weight:3|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@` (the encoded polyline comes last and runs to the end of the
/// value, since it may contain `|`). tileserver-gl's: `stroke:red|width:3|fill:rgba(0,0,255,0.2)|
/// 5.9,45.8|5.9,47.8|10.5,47.8` (`lng,lat`) or `stroke:red|enc:...`.
///
/// ```swift
/// let path = try PathParameter(parsing: "color:0xff0000ff|weight:5|enc:_p~iF~ps|U_ulLnnqC", syntax: .google)
/// path.coordinates.count == 2
/// ```
public struct PathParameter: Sendable, Equatable {
    /// The vertices.
    public var coordinates: [LocationCoordinate2D] = []
    /// The line color; Google's default is blue at 50% opacity, tileserver-gl's `rgba(0,64,255,0.7)`.
    public var color: Color
    /// The line width in points (Google's `weight` default 5, tileserver-gl's `width` default 1); 0 draws no line.
    public var width: Double
    /// The fill color; a path with one is a closed area (at least 3 distinct points).
    public var fillColor: Color?
    /// Whether segments follow great circles (Google's `geodesic:true`).
    public var isGeodesic = false
    /// The border color (tileserver-gl's `border`): the line drawn first in this color, ``borderWidth`` wider
    /// on each side.
    public var borderColor: Color?
    /// The border's width on each side of the line, points (tileserver-gl's `borderwidth`; 10 % of ``width``
    /// when not given).
    public var borderWidth: Double?
    /// The line's caps (tileserver-gl's `linecap`, butt by default as there); nil for Google's paths (round).
    public var lineCap: LineCap?
    /// The line's joins (tileserver-gl's `linejoin`, miter by default as there); nil for Google's paths (round).
    public var lineJoin: LineJoin?

    /// tileserver-gl's query-wide path options (`stroke=`, `width=`, `fill=`, `border=`, `borderwidth=`,
    /// `linecap=`, `linejoin=`), raw as they came; each path's own options override them.
    public struct Defaults: Sendable, Equatable {
        public var stroke: String?
        public var width: String?
        public var fill: String?
        public var border: String?
        public var borderWidth: String?
        public var lineCap: String?
        public var lineJoin: String?

        /// No query-wide options.
        public init(
            stroke: String? = nil, width: String? = nil, fill: String? = nil, border: String? = nil,
            borderWidth: String? = nil, lineCap: String? = nil, lineJoin: String? = nil
        ) {
            self.stroke = stroke
            self.width = width
            self.fill = fill
            self.border = border
            self.borderWidth = borderWidth
            self.lineCap = lineCap
            self.lineJoin = lineJoin
        }

        /// The options as `name:value` parts, in tileserver-gl's names, before a path's own.
        var parts: [Substring] {
            let named: [(String, String?)] = [
                ("stroke", stroke), ("width", width), ("fill", fill), ("border", border), ("borderwidth", borderWidth),
                ("linecap", lineCap), ("linejoin", lineJoin),
            ]
            return named.compactMap { name, value in value.map { Substring("\(name):\($0)") } }
        }
    }

    /// The widest border on each side, points: 50 (half of ``StaticMapParameters/maximumPathWidth``).
    public static let maximumBorderWidth = StaticMapParameters.maximumPathWidth / 2

    /// The border's width on each side as drawn: ``borderWidth``, else 10 % of ``width``.
    public var effectiveBorderWidth: Double { borderWidth ?? width * 0.1 }

    /// Google's default path color: blue at 50% opacity.
    public static let googleDefaultColor = Color(red8: 0, green8: 0, blue8: 255, alpha: 0.5)
    /// tileserver-gl's default stroke, `rgba(0,64,255,0.7)`.
    public static let tileserverDefaultColor = Color(red8: 0, green8: 64, blue8: 255, alpha: 0.7)

    /// Parses one `path` value.
    ///
    /// - Parameters:
    ///   - text: the value, URL-decoded or with percent escapes (`%7C` for `|`).
    ///   - syntax: the grammar; ``StaticMapSyntax/detect(path:)`` guesses it.
    ///   - maximumCount: the most points accepted (after decoding an encoded polyline).
    ///   - defaults: tileserver-gl's query-wide options (read only with its syntax).
    /// - Throws: ``StaticMapParameterError`` naming the bad part and the grammar.
    public init(
        parsing text: String, syntax: StaticMapSyntax, maximumCount: Int = StaticMapParameters.maximumPathPoints,
        defaults: Defaults = Defaults()
    )
        throws
    {
        let google = syntax == .google
        let latitudeFirst: Bool
        if case .tileserverGL(let flag) = syntax { latitudeFirst = flag } else { latitudeFirst = true }
        color = google ? Self.googleDefaultColor : Self.tileserverDefaultColor
        width = google ? 5 : 1
        if !google {
            lineCap = .butt
            lineJoin = .miter
        }
        let grammar = google ? StaticMapParameterError.googlePathGrammar : StaticMapParameterError.tileserverPathGrammar
        func fail(_ part: some StringProtocol, _ problem: String) -> StaticMapParameterError {
            StaticMapParameterError(parameter: "path", part: part, problem: problem, grammar: grammar)
        }
        guard let decoded = StaticMapText.percentDecoded(text) else { throw fail(text, "a malformed % escape") }
        // An encoded polyline runs to the end of the value: it may itself contain '|'.
        var head = Substring(decoded)
        var polyline: Substring?
        if decoded.hasPrefix("enc:") {
            head = ""
            polyline = decoded.dropFirst(4)
        } else if let range = decoded.range(of: "|enc:") {
            head = decoded[..<range.lowerBound]
            polyline = decoded[range.upperBound...]
        }
        let own = StaticMapText.parts(String(head))
        for part in (google ? [] : defaults.parts) + own {
            if let (name, value) = StaticMapText.option(part) {
                switch (google, name) {
                case (true, "color"), (false, "stroke"):
                    color = try StaticMapColor.parse(value, google: google, fail: { fail(part, $0) })
                case (false, "fill") where ["none", "transparent"].contains(value.lowercased()):
                    fillColor = nil
                case (true, "fillcolor"), (false, "fill"):
                    fillColor = try StaticMapColor.parse(value, google: google, fail: { fail(part, $0) })
                case (false, "border"):
                    borderColor =
                        ["none", "transparent"].contains(value.lowercased())
                        ? nil : try StaticMapColor.parse(value, google: false, fail: { fail(part, $0) })
                case (false, "borderwidth"):
                    guard let w = StaticMapText.number(value), w >= 0, w <= Self.maximumBorderWidth else {
                        throw fail(part, "the borderwidth must be pixels in 0...\(Int(Self.maximumBorderWidth))")
                    }
                    borderWidth = w
                case (false, "linecap"):
                    guard let cap = LineCap(rawValue: value.lowercased()) else {
                        throw fail(part, "linecap must be butt, round or square")
                    }
                    lineCap = cap
                case (false, "linejoin"):
                    guard let join = LineJoin(rawValue: value.lowercased()) else {
                        throw fail(part, "linejoin must be miter, round or bevel")
                    }
                    lineJoin = join
                case (true, "weight"), (false, "width"):
                    guard let w = StaticMapText.number(value), w >= 0, w <= StaticMapParameters.maximumPathWidth else {
                        throw fail(
                            part, "the \(name) must be pixels in 0...\(Int(StaticMapParameters.maximumPathWidth))")
                    }
                    width = w
                case (true, "geodesic"):
                    guard value == "true" || value == "false" else {
                        throw fail(part, "geodesic must be true or false")
                    }
                    isGeodesic = value == "true"
                default:
                    let known =
                        google
                        ? "color, weight, fillcolor and geodesic"
                        : "stroke, width, fill, border, borderwidth, linecap and linejoin"
                    throw fail(part, "unknown style '\(name)'; styles are \(known)")
                }
                continue
            }
            guard polyline == nil else { throw fail(part, "give either points or one enc: polyline, not both") }
            guard let (a, b) = StaticMapText.pair(part) else {
                let order = latitudeFirst ? "LAT,LNG" : "LNG,LAT"
                throw fail(part, "a point must be \(order) in decimal degrees (place names are not supported)")
            }
            guard coordinates.count < maximumCount else { throw fail(part, "more than \(maximumCount) points") }
            coordinates.append(
                try StaticMapCoordinate.make(latitudeFirst ? a : b, latitudeFirst ? b : a, part: part, fail: fail))
        }
        if let polyline {
            do {
                coordinates = try EncodedPolyline.decode(String(polyline), maximumCount: maximumCount)
            } catch let error as EncodedPolylineError {
                throw fail("enc:" + polyline, error.description)
            }
        }
        let distinct = Set(coordinates.map { [$0.latitude, $0.longitude] }).count
        if fillColor != nil, !google, distinct < 3 {
            // tileserver-gl fills such a path too, which covers nothing: the line alone.
            fillColor = nil
        }
        if fillColor != nil {
            guard distinct >= 3 else { throw fail(text, "a filled path needs at least 3 distinct points") }
        } else {
            guard distinct >= 2 else { throw fail(text, "a path needs at least 2 distinct points") }
        }
    }
}
