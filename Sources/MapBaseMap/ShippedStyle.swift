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
    /// The dark appearance of ``standard`` (``UserInterfaceStyle/dark``).
    case standardDark = "standard-dark"
    /// The dark appearance of ``streets`` (``UserInterfaceStyle/dark``).
    case streetsDark = "streets-dark"

    /// The style for a map type. Mirrors MapKit's `MKMapType` choices.
    public init(_ mapType: MapType) {
        switch mapType {
        case .standard: self = .standard
        case .satellite: self = .satellite
        case .hybrid: self = .hybrid
        }
    }

    /// The style drawn in `appearance`: the dark variant of ``standard`` and ``streets`` (and back), every
    /// other style itself (satellite imagery, hybrid and muted have one look).
    public func variant(for appearance: UserInterfaceStyle) -> ShippedStyle {
        switch (self, appearance) {
        case (.standard, .dark): .standardDark
        case (.streets, .dark): .streetsDark
        case (.standardDark, .light): .standard
        case (.streetsDark, .light): .streets
        default: self
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

    /// The base map a snapshot draws: `style` when given, otherwise the map type's shipped style in
    /// `appearance`; with its points of interest filtered and its buildings hidden as asked
    /// (``MapStyle/Style/applying(pointOfInterestFilter:showsBuildings:)``), its labels placed with
    /// ``StyledBaseMap/crossSourceCollisions``.
    package static func baseMap(
        mapType: MapType, style: Style?, fonts: FontCatalog? = nil, glyphs: (any GlyphRangeProvider)? = nil,
        appearance: UserInterfaceStyle = .light, pointOfInterestFilter: PointOfInterestFilter? = nil,
        showsBuildings: Bool = true, crossSourceCollisions: Bool = true
    ) throws -> BaseMap {
        let shipped = ShippedStyle(mapType).variant(for: appearance)
        let changesStyle = (pointOfInterestFilter ?? .includingAll) != .includingAll || !showsBuildings
        var map: StyledBaseMap
        if style != nil || fonts != nil || glyphs != nil || changesStyle {
            let chosen = try style ?? shipped.style()
            map = try StyledBaseMap(
                style: chosen.applying(pointOfInterestFilter: pointOfInterestFilter, showsBuildings: showsBuildings),
                fonts: fonts ?? .default, glyphs: glyphs)
        } else {
            map = try baseMaps.value(shipped) { try StyledBaseMap(style: try shipped.style()) }
        }
        map.crossSourceCollisions = crossSourceCollisions
        return map
    }

    private static let cache = OnceCache<ShippedStyle, Style>()
    private static let baseMaps = OnceCache<ShippedStyle, StyledBaseMap>()
}
