import MapGeometry

/// A static-map `markers`, `path` or `visible` value that cannot be read: it names the parameter, the part
/// that is wrong, what is wrong, and the grammar.
public struct StaticMapParameterError: MapRasterError, Equatable {
    /// The parameter: `markers`, `path` or `visible`.
    public var parameter: String
    /// The part of the value that is wrong (a style, a point, the encoded polyline), or the whole value.
    public var part: String
    /// What is wrong with it.
    public var problem: String
    /// The grammar of the parameter.
    public var grammar: String

    /// Creates an error; long parts are shortened to 80 characters.
    public init(parameter: String, part: some StringProtocol, problem: String, grammar: String) {
        self.parameter = parameter
        let text = String(part)
        self.part = text.count > 80 ? String(text.prefix(80)) + "..." : text
        self.problem = problem
        self.grammar = grammar
    }

    public var description: String {
        let shown = part.unicodeScalars.map { $0.isASCII && $0.value >= 32 ? String($0) : "?" }.joined()
        return "\(parameter): '\(shown)': \(problem); expected \(grammar)"
    }

    /// The grammar of Google's `markers`.
    public static let googleMarkersGrammar =
        "markers=[color:NAME|0xRRGGBB[AA]|#RRGGBB[AA]|size:tiny|small|mid|label:A-Z or 0-9|scale:1|2|4|]LAT,LNG[|LAT,LNG...]"
    /// The grammar of tileserver-gl's `marker`.
    public static let tileserverMarkerGrammar = "marker=LNG,LAT|ICON.png[|scale:FACTOR][|offset:X,Y]"
    /// The grammar of Google's `path`.
    public static let googlePathGrammar =
        "path=[color:C|weight:PIXELS|fillcolor:C|geodesic:true|]LAT,LNG|LAT,LNG[...] or path=[styles|]enc:POLYLINE"
    /// The grammar of tileserver-gl's `path`.
    public static let tileserverPathGrammar =
        "path=[stroke:C|width:PIXELS|fill:C|]LNG,LAT|LNG,LAT[...] or path=[options|]enc:POLYLINE"
    /// The grammar of `visible`.
    public static let visibleGrammar = "visible=LAT,LNG[|LAT,LNG...]"
}
