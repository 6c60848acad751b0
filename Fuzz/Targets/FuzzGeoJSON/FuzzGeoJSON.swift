import Foundation
import MapRaster

/// GeoJSON: the data module's feature decoder (whole, and feature by feature) and the overlay decoder
/// (annotations, overlays, styles).
func fuzzGeoJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    _ = try? GeoJSON.decodeFeatures(data, source: "fuzz.geojson")
    _ = try? GeoJSONDecoder().decode(data, source: "fuzz.geojson")
    // The walk that locates features by their bbox (cold start), and each feature decoded alone.
    for (index, slot) in (GeoJSON.featureSlots(data) ?? []).enumerated() {
        _ = try? GeoJSON.decodeFeature(data, slot: slot, index: index, source: "fuzz.geojson")
    }
    return 0
}
