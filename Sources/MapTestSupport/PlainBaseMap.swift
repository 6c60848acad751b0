import Foundation
import MapRaster

extension MapSnapshotter {
    /// Draws this snapshot over the plain Natural Earth base map (land, ocean, borders; no labels) instead
    /// of the shipped `standard` style, so that annotation and overlay goldens test annotations and
    /// overlays and do not change whenever the style does. Returns `self`.
    @discardableResult
    public func pinnedToPlainBaseMap() -> MapSnapshotter {
        baseMap = PlainBaseMap()
        return self
    }
}

/// The plain world map of the annotation and overlay goldens: Natural Earth countries as land over ocean
/// with borders, the 1:110m countries below zoom 2 and the 1:50m ones from zoom 2 on (style zooms are
/// MapLibre's, one less), drawn by ``StyledBaseMap`` like every other base map.
struct PlainBaseMap: BaseMap {
    private let styled: Result<StyledBaseMap, Error>

    /// A missing resource is reported when drawing.
    init() { styled = Result { try Self.make() } }

    private static func make() throws -> StyledBaseMap {
        let folder = try ShippedResources.baseMap.require("ne_110m_countries.geojson", subdirectory: "naturalearth")
            .deletingLastPathComponent()
        return try StyledBaseMap(style: try Style.decode(Data(styleJSON.utf8), source: "PlainBaseMap", baseURL: folder))
    }

    var attribution: [String] { ["Made with Natural Earth"] }

    func draw(in context: GraphicsContext, viewport: MapViewport) throws {
        try styled.get().draw(in: context, viewport: viewport)
    }

    /// Pale blue sea, light beige land, grey-brown round-joined borders 0.6 points wide.
    static let styleJSON = """
        {"version": 8, "name": "Natural Earth plain",
         "sources": {
           "coarse": {"type": "geojson", "data": "ne_110m_countries.geojson", "attribution": "Made with Natural Earth"},
           "detailed": {"type": "geojson", "data": "ne_50m_countries.geojson", "attribution": "Made with Natural Earth"}},
         "layers": [
           {"id": "ocean", "type": "background", "paint": {"background-color": "rgba(170, 211, 223, 1.0)"}},
           \(layers("coarse", zoom: #""maxzoom": 1.0"#)),
           \(layers("detailed", zoom: #""minzoom": 1.0"#))]}
        """

    private static func layers(_ id: String, zoom: String) -> String {
        """
        {"id": "land-\(id)", "type": "fill", "source": "\(id)", \(zoom), "paint": {"fill-color": "rgba(242, 239, 233, 1.0)"}},
        {"id": "borders-\(id)", "type": "line", "source": "\(id)", \(zoom),
         "layout": {"line-join": "round", "line-cap": "round"},
         "paint": {"line-color": "rgba(155, 140, 150, 1.0)", "line-width": 0.6}}
        """
    }
}
