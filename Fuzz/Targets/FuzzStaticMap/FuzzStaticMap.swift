import Foundation
import MapRaster

/// The static-map grammar: one line per value, its first character choosing the parameter (`m` markers,
/// `p` path, `v` visible, anything else both a marker and a path); parsed with the syntax detected, then
/// added to a scene and fitted as a render with no area would be (no drawing).
func fuzzStaticMap(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    var markers: [String] = []
    var paths: [String] = []
    var visible: [String] = []
    for line in text.split(separator: "\n") {
        let value = String(line.dropFirst())
        switch line.first {
        case "m": markers.append(value)
        case "p": paths.append(value)
        case "v": visible.append(value)
        default:
            markers.append(String(line))
            paths.append(String(line))
        }
    }
    guard let parameters = try? StaticMapParameters(markers: markers, paths: paths, visible: visible) else {
        return 0
    }
    var scene = Scene()
    guard (try? parameters.add(to: &scene)) != nil,
        let snapshotter = try? MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 64, height: 64)))
    else { return 0 }
    snapshotter.baseMap = nil
    scene.populate(snapshotter)
    if scene.positionsFromContent { try? scene.showContent(in: snapshotter) }
    _ = try? scene.checkVisibleCoordinates(in: snapshotter)
    return 0
}
