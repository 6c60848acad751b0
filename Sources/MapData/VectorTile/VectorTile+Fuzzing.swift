import Foundation

/// Decodes `data` as a vector tile, every layer and feature, and discards the result: an entry point for
/// libFuzzer (call it from `LLVMFuzzerTestOneInput`) and for mutation tests.
///
/// It must never trap, whatever the bytes: broken input ends in a ``VectorTileError``, which is ignored.
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
///     fuzzDecodeVectorTile(Data(bytes: start, count: count))
///     return 0
/// }
/// ```
///
/// - Parameter data: any bytes.
/// - Returns: the number of features decoded, or nil when the tile was rejected.
@discardableResult
public func fuzzDecodeVectorTile(_ data: Data) -> Int? {
    guard let tile = try? VectorTile(data: data), let layers = try? tile.layers() else { return nil }
    return layers.reduce(0) { $0 + $1.features.count }
}
