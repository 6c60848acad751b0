import Foundation
import MapRaster

/// PNG decoding (libspng through MapGraphics): any bytes decode to an image of the announced size or throw.
func fuzzPNG(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let image = try? RGBAImage(pngData: data, source: "fuzz.png") else { return 0 }
    precondition(image.bytes.count == image.width * image.height * 4, "decoded size disagrees with the header")
    return 0
}
