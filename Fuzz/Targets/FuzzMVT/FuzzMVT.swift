import Foundation
import MapData

/// The Mapbox Vector Tile decoder: any bytes decode (every layer, feature and geometry) or throw
/// `VectorTileError`; nothing traps.
func fuzzMVT(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    fuzzDecodeVectorTile(Data(bytes: start, count: count))
    return 0
}
