import MapAnnotations
import MapBaseMap
import MapData
import MapGeometry
import MapGraphics
import MapOverlays
import MapRender
import MapStyle

/// The look of a GeoJSON feature from the simplestyle-spec properties (`stroke`, `stroke-width`,
/// `stroke-opacity`, `fill`, `fill-opacity`, `marker-color`, `marker-size`, `marker-symbol`) plus `stroke-dasharray`,
/// `stroke-linecap` and `stroke-linejoin`. Missing properties take simplestyle's defaults: stroke
/// `#555555`, width 2, opacity 1; fill `#555555` at opacity 0.6; marker `#7e7e7e`, medium.
public struct SimpleStyle: Sendable, Equatable {
    /// `stroke`: the line and outline color.
    public var stroke = Color(red8: 0x55, green8: 0x55, blue8: 0x55)
    /// `stroke-width` in points; 0 draws no outline.
    public var strokeWidth = 2.0
    /// `stroke-opacity`, 0...1.
    public var strokeOpacity = 1.0
    /// `fill`: the polygon fill color.
    public var fill = Color(red8: 0x55, green8: 0x55, blue8: 0x55)
    /// `fill-opacity`, 0...1.
    public var fillOpacity = 0.6
    /// `stroke-dasharray`: dash and gap lengths in points; empty for solid lines.
    public var dashPattern: [Double] = []
    /// `stroke-linecap`.
    public var lineCap = LineCap.round
    /// `stroke-linejoin`.
    public var lineJoin = LineJoin.round
    /// `marker-color`: the pin color of points.
    public var markerColor = Color(red8: 0x7e, green8: 0x7e, blue8: 0x7e)
    /// `small`, `medium` or `large`.
    public var markerSize = "medium"
    /// The pin's size relative to the default: small 0.75, medium 1, large 1.35.
    public var markerSizeFactor: Double { ["small": 0.75, "large": 1.35][markerSize] ?? 1 }
    /// `marker-symbol`: a letter, digit or text of up to ``maximumMarkerSymbolLength`` characters drawn on
    /// the pin's head; nil for none. (Maki icon names are refused.)
    public var markerSymbol: String?
    /// The longest `marker-symbol` text drawn: 3 characters (simplestyle's numbers go to 99).
    public static let maximumMarkerSymbolLength = 3

    /// The default style.
    public init() {}

    /// Reads the style from a feature's properties.
    ///
    /// - Throws: ``GeoJSONError/invalid(source:path:message:)`` naming the property and its bad value.
    public init(properties p: JSONValue, source: String, path: String) throws {
        func invalid(_ key: String, _ message: String) -> GeoJSONError {
            .invalid(source: source, path: "\(path).properties.\(key)", message: message)
        }
        func color(_ key: String) throws -> Color? {
            guard let value = p[key] else { return nil }
            guard let text = value.string else { throw invalid(key, "expected a color string, got \(value.kindName)") }
            do {
                if text.count == 3 || text.count == 6, text.allSatisfy(\.isHexDigit) {
                    return try Color(parsing: "#" + text)
                }
                return try Color(parsing: text)
            } catch let error as ColorError {
                throw invalid(key, error.description)
            }
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let value = p[key] else { return nil }
            guard let n = value.number, range.contains(n) else {
                throw invalid(
                    key,
                    "expected a number in \(range.lowerBound)...\(range.upperBound), got \(value.serialized(pretty: false))"
                )
            }
            return n
        }
        if let c = try color("stroke") { stroke = c }
        if let c = try color("fill") { fill = c }
        if let c = try color("marker-color") { markerColor = c }
        if let w = try number("stroke-width", 0...1000) { strokeWidth = w }
        if let o = try number("stroke-opacity", 0...1) { strokeOpacity = o }
        if let o = try number("fill-opacity", 0...1) { fillOpacity = o }
        if let size = p["marker-size"] {
            guard let name = size.string, ["small", "medium", "large"].contains(name) else {
                throw invalid("marker-size", "expected \"small\", \"medium\" or \"large\"")
            }
            markerSize = name
        }
        if let symbol = p["marker-symbol"] {
            // simplestyle allows a number; "" means no symbol.
            let text = symbol.string ?? symbol.number.flatMap { n in Int(exactly: n).map(String.init) }
            guard let text, text.count <= Self.maximumMarkerSymbolLength,
                text.allSatisfy({ $0.isLetter || $0.isNumber || $0.isPunctuation || $0.isSymbol })
            else {
                throw invalid(
                    "marker-symbol",
                    "expected a letter, digit or text of up to \(Self.maximumMarkerSymbolLength) characters without "
                        + "spaces (icon names such as \"rocket\" are not supported), got \(symbol.serialized(pretty: false))"
                )
            }
            markerSymbol = text.isEmpty ? nil : text
        }
        if let dash = p["stroke-dasharray"] {
            let numbers: [Double]?
            if let text = dash.string {
                let parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { Double($0) }
                numbers = parts.contains(where: { $0 == nil }) ? nil : parts.compactMap { $0 }
            } else {
                numbers = dash.array.flatMap { a in a.allSatisfy { $0.number != nil } ? a.compactMap(\.number) : nil }
            }
            guard let numbers, numbers.allSatisfy({ $0 >= 0 && $0.isFinite }), numbers.contains(where: { $0 > 0 })
            else {
                throw invalid(
                    "stroke-dasharray", "expected dash and gap lengths such as [6, 3] or \"6 3\", not all zero")
            }
            dashPattern = numbers
        }
        if let cap = p["stroke-linecap"] {
            guard let name = cap.string, let value = LineCap(rawValue: name) else {
                throw invalid("stroke-linecap", "expected \"butt\", \"round\" or \"square\"")
            }
            lineCap = value
        }
        if let join = p["stroke-linejoin"] {
            guard let name = join.string, let value = LineJoin(rawValue: name) else {
                throw invalid("stroke-linejoin", "expected \"miter\", \"round\" or \"bevel\"")
            }
            lineJoin = value
        }
    }

    /// Applies the style to a path renderer (lines get no fill).
    public func apply(to renderer: OverlayPathRenderer, filled: Bool) {
        renderer.strokeColor = strokeWidth > 0 ? stroke.withAlphaComponent(stroke.alpha * strokeOpacity) : nil
        renderer.lineWidth = strokeWidth
        renderer.lineDashPattern = dashPattern
        renderer.lineCap = lineCap
        renderer.lineJoin = lineJoin
        renderer.fillColor = filled ? fill.withAlphaComponent(fill.alpha * fillOpacity) : nil
    }

    /// A renderer for an overlay in this look: lines stroked, areas (polygons, circles) also filled.
    public func makeRenderer(for overlay: Overlay) -> OverlayRenderer? {
        guard let renderer = defaultRenderer(for: overlay) as? OverlayPathRenderer else { return nil }
        apply(to: renderer, filled: !(overlay is Polyline || overlay is MultiPolyline))
        return renderer
    }
}
