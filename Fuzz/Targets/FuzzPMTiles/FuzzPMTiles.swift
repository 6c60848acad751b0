import Foundation
import MapGeometry
import MapStorage

/// PMTiles v3 reading: the bytes are written to a file, opened, and the tiles of zooms 0-2 read (each
/// inflated within its limit); every failure is a typed error, nothing traps.
func fuzzPMTiles(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-fuzz-\(getpid()).pmtiles")
    defer { unlink(url.path) }
    guard (try? Data(bytes: start, count: count).write(to: url)) != nil else { return 0 }
    guard let source = try? openTileSource(at: "pmtiles://" + url.path) else { return 0 }
    for z in 0...2 {
        for x in 0..<(1 << z) {
            for y in 0..<(1 << z) {
                if let tile = try? TileID(z: z, x: x, y: y) { _ = try? source.tile(tile) }
            }
        }
    }
    return 0
}
