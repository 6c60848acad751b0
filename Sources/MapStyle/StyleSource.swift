import Foundation
import MapData

/// A source of data for layers. Mirrors a source of the MapLibre style specification.
public struct StyleSource: Sendable, Equatable {
    /// The kinds of source.
    public enum Kind: Sendable, Equatable {
        /// GeoJSON from a file (`data` is a path relative to the style file).
        case geojsonFile(URL)
        /// GeoJSON written inside the style.
        case geojsonInline(JSONValue)
        /// A whole-world equirectangular (plate carrée) PNG image, left edge -180, top edge +90, whose
        /// rows are evenly spaced in latitude; it is reprojected to Web Mercator when drawn.
        case raster(URL)
        /// Mapbox Vector Tiles from an MBTiles or PMTiles file or a `{z}/{x}/{y}` path template.
        case vector(VectorTiles)
    }

    /// Where a vector source's tiles are and which zooms it has.
    public struct VectorTiles: Sendable, Equatable {
        /// An absolute path of an `.mbtiles` or `.pmtiles` file (`mbtiles://`, `pmtiles://` prefixes
        /// allowed) or a path template with `{z}`, `{x}` and `{y}`.
        public var location: String
        /// The source's zoom range in MapLibre zooms (512-point tiles); nil takes the file's.
        public var minZoom: Int?
        /// Views deeper than this draw from its tiles (overzoom).
        public var maxZoom: Int?
        /// Rows counted from the north (`xyz`) or the south (`tms`), for templates.
        public var scheme: String

        /// Creates a vector source.
        public init(location: String, minZoom: Int? = nil, maxZoom: Int? = nil, scheme: String = "xyz") {
            self.location = location
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.scheme = scheme
        }
    }

    /// Where the data comes from.
    public var kind: Kind
    /// Credits to show on every image that draws this source.
    public var attribution: String?
    /// The source as written, for writing the style back.
    public var json: JSONValue

    /// Creates a source.
    public init(kind: Kind, attribution: String?, json: JSONValue) {
        self.kind = kind
        self.attribution = attribution
        self.json = json
    }
}
