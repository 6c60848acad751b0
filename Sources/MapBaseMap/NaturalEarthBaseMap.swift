import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// The embedded plain world map: Natural Earth countries drawn as land over ocean with borders.
///
/// It uses the 1:110m countries below zoom 2 and the 1:50m countries from zoom 2 on. The data ships with
/// the package (public domain, "Made with Natural Earth"). It is a ``StyledBaseMap`` of a style made
/// from ``BaseMapStyle``, so it draws through the same geometry pipeline as every other base map.
public struct NaturalEarthBaseMap: BaseMap {
    /// The colors and border width.
    public let style: BaseMapStyle
    private let styled: Result<StyledBaseMap, Error>

    /// Creates the base map with a style (a missing resource is reported when drawing).
    public init(style: BaseMapStyle = .standard) {
        self.style = style
        styled = Result { try Self.make(style) }
    }

    private static func make(_ style: BaseMapStyle) throws -> StyledBaseMap {
        let folder = try ShippedResources.baseMap.require("ne_110m_countries.geojson", subdirectory: "naturalearth")
            .deletingLastPathComponent()
        let json = Data(styleJSON(style).utf8)
        return try StyledBaseMap(style: try Style.decode(json, source: "NaturalEarthBaseMap", baseURL: folder))
    }

    /// The zoom level from which the 1:50m data is used.
    public static let detailedFromZoom = 2.0

    public var attribution: [String] { ["Made with Natural Earth"] }

    public func draw(in context: GraphicsContext, viewport: MapViewport) throws {
        try styled.get().draw(in: context, viewport: viewport)
    }

    /// The style: ocean background, land fill and round-joined borders for each scale (style zooms are
    /// MapLibre's, one less than MapRaster's).
    static func styleJSON(_ look: BaseMapStyle) -> String {
        func css(_ c: Color) -> String {
            func byte(_ v: Double) -> Int { Int((v * 255).rounded()) }
            return "rgba(\(byte(c.red)), \(byte(c.green)), \(byte(c.blue)), \(c.alpha))"
        }
        let split = detailedFromZoom - 1
        func layers(_ id: String, zoom: String) -> String {
            """
            {"id": "land-\(id)", "type": "fill", "source": "\(id)", \(zoom), "paint": {"fill-color": "\(css(look.landColor))"}},
            {"id": "borders-\(id)", "type": "line", "source": "\(id)", \(zoom),
             "layout": {"line-join": "round", "line-cap": "round"},
             "paint": {"line-color": "\(css(look.borderColor))", "line-width": \(look.borderWidth)}}
            """
        }
        return """
            {"version": 8, "name": "Natural Earth plain",
             "sources": {
               "coarse": {"type": "geojson", "data": "ne_110m_countries.geojson", "attribution": "Made with Natural Earth"},
               "detailed": {"type": "geojson", "data": "ne_50m_countries.geojson", "attribution": "Made with Natural Earth"}},
             "layers": [
               {"id": "ocean", "type": "background", "paint": {"background-color": "\(css(look.oceanColor))"}},
               \(layers("coarse", zoom: "\"maxzoom\": \(split)")),
               \(layers("detailed", zoom: "\"minzoom\": \(split)"))]}
            """
    }
}
