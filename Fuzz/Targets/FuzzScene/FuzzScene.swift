import Foundation
import MapRaster

/// Scene files: decoding, then the snapshot options (area, size, fitting) a render would use.
func fuzzScene(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let scene = try? Scene.decode(data, source: "fuzz.json") else { return 0 }
    let defaults = MapSnapshotter.Options(size: Size(width: 256, height: 256), scale: 1)
    _ = try? scene.options(defaults: defaults)
    return 0
}
