import Foundation
import MapStorage

/// MBTiles reading: the bytes are written to a file and opened read-only; metadata and tiles are read.
func fuzzMBTiles(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-fuzz-\(getpid()).mbtiles")
    defer { unlink(url.path) }
    guard (try? Data(bytes: start, count: count).write(to: url)) != nil else { return 0 }
    guard let file = try? MBTilesFile.open(at: url) else { return 0 }
    _ = try? file.metadata()
    _ = try? file.tileIDs()
    _ = try? file.allTiles()
    return 0
}
