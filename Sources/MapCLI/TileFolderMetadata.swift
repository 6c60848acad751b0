import Foundation
import MapRaster
import MapTiles

/// The metadata files of a tile folder: `metadata.json` (the MBTiles metadata table as a JSON object, as
/// mbutil writes it) and `tiles.json` (TileJSON 3.0.0, which map libraries read), both with the data's
/// attribution.
enum TileFolderMetadata {
    /// The MBTiles metadata `values` as one JSON object of strings, keys sorted.
    static func metadataJSON(_ values: [String: String]) -> String {
        JSONValue.object(values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }).serialized()
    }

    /// A TileJSON 3.0.0 document for the folder: tile URLs relative to the folder (`{z}/{x}/{y}.png`; a
    /// server puts its base URL in front), bounds, center, zooms, scheme and attribution.
    static func tileJSON(_ values: [String: String], pyramid: TilePyramid, tms: Bool) -> String {
        let a = pyramid.area
        let suffix = pyramid.scale == 2 ? "@2x" : ""
        let center = (values["center"] ?? "").split(separator: ",").compactMap { Double($0) }
        var members: [(String, JSONValue)] = [
            ("tilejson", .string("3.0.0")),
            ("tiles", .array([.string("{z}/{x}/{y}\(suffix).\(pyramid.format.fileExtension)")])),
            ("name", .string(values["name"] ?? "")),
            ("description", .string(values["description"] ?? "")),
            ("version", .string(values["version"] ?? "1.0")),
            ("attribution", .string(values["attribution"] ?? "")),
            ("scheme", .string(tms ? "tms" : "xyz")),
            ("minzoom", .number(Double(pyramid.minZoom))),
            ("maxzoom", .number(Double(pyramid.maxZoom))),
            ("bounds", .array([a.west, a.south, a.east, a.north].map { .number(rounded($0)) })),
        ]
        if center.count == 3 { members.append(("center", .array(center.map { .number($0) }))) }
        return JSONValue.object(members).serialized()
    }

    /// Degrees rounded to 6 decimals (about 0.1 m), as the MBTiles metadata has them.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }
}
