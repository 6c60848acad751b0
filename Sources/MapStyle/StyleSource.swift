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
