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
    /// - Throws: ``StaticMapParameterError`` naming the bad part and the grammar.
    public init(
        parsing text: String, syntax: StaticMapSyntax, maximumCount: Int = StaticMapParameters.maximumPathPoints
    )
        throws
    {
        let google = syntax == .google
        let latitudeFirst: Bool
        if case .tileserverGL(let flag) = syntax { latitudeFirst = flag } else { latitudeFirst = true }
        color = google ? Self.googleDefaultColor : Self.tileserverDefaultColor
        width = google ? 5 : 1
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
        for part in StaticMapText.parts(String(head)) {
            if let (name, value) = StaticMapText.option(part) {
                switch (google, name) {
                case (true, "color"), (false, "stroke"):
                    color = try StaticMapColor.parse(value, google: google, fail: { fail(part, $0) })
                case (true, "fillcolor"), (false, "fill"):
                    fillColor = try StaticMapColor.parse(value, google: google, fail: { fail(part, $0) })
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
                case (false, "linecap"), (false, "linejoin"), (false, "border"), (false, "borderwidth"):
                    throw fail(part, "'\(name)' is not supported; options are stroke, width and fill")
                default:
                    let known = google ? "color, weight, fillcolor and geodesic" : "stroke, width and fill"
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
        if fillColor != nil {
            guard distinct >= 3 else { throw fail(text, "a filled path needs at least 3 distinct points") }
        } else {
            guard distinct >= 2 else { throw fail(text, "a path needs at least 2 distinct points") }
        }
    }
}
