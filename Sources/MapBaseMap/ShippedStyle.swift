import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// The styles shipped in MapRaster's resource bundle (`styles/` in the repository), by map type.
public enum ShippedStyle: String, Sendable, CaseIterable {
    /// Street map: land, water, borders, admin-1 borders, cities by population; streets from the shipped
    /// vector tiles (Andorra, Monaco, central Helsinki) from zoom 13.
    case standard
    /// NASA Blue Marble imagery.
    case satellite
    /// Blue Marble with borders, roads and labels.
    case hybrid
    /// A muted grey map for data overlays.
    case muted
    /// Streets from the shipped OpenStreetMap vector tiles (OpenMapTiles schema; Andorra, Monaco, central
    /// Helsinki) with Natural Earth at world zooms: roads by class, buildings, water, parks, POI, place and
    /// street names, house numbers, mountain peaks.
    case streets

    /// The style for a map type. Mirrors MapKit's `MKMapType` choices.
    public init(_ mapType: MapType) {
        switch mapType {
        case .standard: self = .standard
        case .satellite: self = .satellite
        case .hybrid: self = .hybrid
        }
    }

    /// The style file in the resource bundle (see ``ShippedResources``), nil when it is missing.
    public var url: URL? { ShippedResources.baseMap.url("\(rawValue).json", subdirectory: "styles") }

    /// The decoded style, loaded once per process.
    ///
    /// - Throws: ``MissingResourceError`` naming every place looked at when the file is missing, or the
    ///   style's error.
    public func style() throws -> Style {
        try Self.cache.value(self) {
            try Style.load(contentsOf: try ShippedResources.baseMap.require("\(rawValue).json", subdirectory: "styles"))
        }
    }

    /// The base map a snapshot draws: `style` when given, otherwise the map type's shipped style.
    package static func baseMap(
        mapType: MapType, style: Style?, fonts: FontCatalog? = nil, glyphs: (any GlyphRangeProvider)? = nil
    ) throws -> BaseMap {
        if let style { return try StyledBaseMap(style: style, fonts: fonts ?? .default, glyphs: glyphs) }
        let shipped = ShippedStyle(mapType)
        if fonts != nil || glyphs != nil {
            return try StyledBaseMap(style: try shipped.style(), fonts: fonts ?? .default, glyphs: glyphs)
        }
        return try baseMaps.value(shipped) { try StyledBaseMap(style: try shipped.style()) }
    }

    private static let cache = OnceCache<ShippedStyle, Style>()
    private static let baseMaps = OnceCache<ShippedStyle, StyledBaseMap>()
}
