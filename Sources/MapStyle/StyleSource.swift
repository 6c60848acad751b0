import Foundation
import MapData
import MapGeometry

/// A source of data for layers. Mirrors a source of the MapLibre style specification.
public struct StyleSource: Sendable, Equatable {
    /// The kinds of source.
    public enum Kind: Sendable, Equatable {
        /// GeoJSON from a file (`data` is a path relative to the style file).
        case geojsonFile(URL)
        /// GeoJSON written inside the style.
        case geojsonInline(JSONValue)
        /// A whole-world equirectangular (plate carrée) PNG image, left edge -180, top edge +90, whose
        /// rows are evenly spaced in latitude; it is reprojected to Web Mercator when drawn. A MapRaster
        /// extension: a `raster` source whose `url` names a `.png` file.
        case raster(URL)
        /// Raster tiles (PNG, JPEG or WebP) from an MBTiles or PMTiles file or a `{z}/{x}/{y}` path template.
        case rasterTiles(TileSet)
        /// Mapbox Vector Tiles from an MBTiles or PMTiles file or a `{z}/{x}/{y}` path template.
        case vector(TileSet)
        /// An `image` source: a PNG, JPEG or WebP file drawn over the four `coordinates` of its corners (top
        /// left, top right, bottom right, bottom left), as two triangles as MapLibre draws it.
        case image(URL, corners: [LocationCoordinate2D])
    }

    /// Where a tiled source's tiles are and which zooms and area it has (a `vector` or `raster` source, its
    /// members given in the style or read from the TileJSON file its `url` names).
    public struct TileSet: Sendable, Equatable {
        /// An absolute path of an `.mbtiles` or `.pmtiles` file (`mbtiles://`, `pmtiles://` prefixes
        /// allowed) or a path template with `{z}`, `{x}` and `{y}`.
        public var location: String
        /// The source's zoom range in MapLibre zooms (512-point tiles); nil takes the file's.
        public var minZoom: Int?
        /// Views deeper than this draw from its tiles (overzoom).
        public var maxZoom: Int?
        /// Rows counted from the north (`xyz`) or the south (`tms`), for templates.
        public var scheme: String
        /// The area that has tiles; tiles outside it are not read.
        public var bounds: GeoBoundingBox?
        /// The size of a tile in points (`tileSize`: 512 for vector tiles; raster sources default to 512
        /// as MapLibre's do, and tiles of 256 points are read one zoom deeper).
        public var tileSize: Int

        /// Creates a tile set.
        public init(
            location: String, minZoom: Int? = nil, maxZoom: Int? = nil, scheme: String = "xyz",
            bounds: GeoBoundingBox? = nil, tileSize: Int = 512
        ) {
            self.location = location
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.scheme = scheme
            self.bounds = bounds
            self.tileSize = tileSize
        }
    }

    /// Which property becomes a feature's id (`promoteId`): one name for every source layer, or a name
    /// per source layer.
    public enum PromoteID: Sendable, Equatable {
        /// The same property in every source layer.
        case property(String)
        /// A property per source layer; layers not named keep their features' own ids.
        case perSourceLayer([String: String])

        /// The property that gives the features of `sourceLayer` their ids.
        public func property(forSourceLayer sourceLayer: String?) -> String? {
            switch self {
            case .property(let name): return name
            case .perSourceLayer(let names): return sourceLayer.flatMap { names[$0] }
            }
        }
    }

    /// Where the data comes from.
    public var kind: Kind
    /// Credits to show on every image that draws this source.
    public var attribution: String?
    /// Which property is a feature's id, if the source says (`promoteId`).
    public var promoteID: PromoteID?
    /// The source as written, for writing the style back.
    public var json: JSONValue

    /// The deepest zoom MapLibre tiles a GeoJSON source at (geojson-vt's `maxZoom`): the source's `maxzoom`,
    /// default 18, clamped to 0...24 (a value that is not a finite number counts as the default). Deeper views
    /// overscale those tiles, and where a tile's piece of a line starts is where its dashes and patterns start.
    public var geojsonMaxZoom: Int {
        guard case .number(let z)? = json["maxzoom"], z.isFinite else { return 18 }
        return Int(max(0, min(24, z.rounded(.down))))
    }

    /// Whether a location is on the network (`https://`, `mapbox://`, ...): anything with a scheme but
    /// `file://`, `mbtiles://` and `pmtiles://`. MapRaster never reads such a location.
    public static func isNetworkLocation(_ location: String) -> Bool {
        guard let range = location.range(of: "://") else { return false }
        let scheme = location[..<range.lowerBound].lowercased()
        return !scheme.isEmpty && !["file", "mbtiles", "pmtiles"].contains(scheme)
            && scheme.allSatisfy { $0.isLetter || $0 == "+" }
    }

    /// Creates a source.
    public init(kind: Kind, attribution: String?, promoteID: PromoteID? = nil, json: JSONValue) {
        self.kind = kind
        self.attribution = attribution
        self.promoteID = promoteID
        self.json = json
    }
}
