import Foundation
import MapRaster

/// PNG, JPEG and WebP decoding (libspng, libjpeg-turbo, libwebp through MapGraphics): any bytes decode to an
/// image of the announced size, within the size limit, or throw.
func fuzzImage(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let image = try? RGBAImage(imageData: data, source: "fuzz.image") else { return 0 }
    precondition(image.bytes.count == image.width * image.height * 4, "decoded size disagrees with the header")
    precondition(image.width * image.height <= RGBAImage.maximumDecodedPixels, "decoded past the limit")
    return 0
}
