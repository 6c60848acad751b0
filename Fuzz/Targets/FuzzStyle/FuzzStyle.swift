import Foundation
import MapRaster

/// Style decoding, expression evaluation and drawing: any bytes either fail to decode with a
/// `DocumentError` or decode to a style that draws a 32x32 map at zoom 3 without trapping, within the
/// style limits (huge widths, sizes and offsets are refused or clamped). Source files must not be read:
/// paths resolve under a folder that does not exist.
func fuzzStyle(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard
        let style = try? Style.decode(
            data, source: "fuzz.json", baseURL: URL(fileURLWithPath: "/nonexistent-mapraster-fuzz"))
    else { return 0 }
    guard let map = try? StyledBaseMap(style: style) else { return 0 }
    var options = MapSnapshotter.Options(size: Size(width: 32, height: 32))
    options.showsAttribution = false
    guard let snapshotter = try? MapSnapshotter(options: options) else { return 0 }
    snapshotter.baseMap = map
    _ = try? snapshotter.snapshot()
    return 0
}
