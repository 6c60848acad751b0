internal import CImageQuant
import Foundation

// The one place that calls libimagequant (the library behind pngquant).

/// libgomp's `omp_set_num_threads`, when libimagequant was built with OpenMP (Debian's is). Looked up at
/// run time because nothing else links OpenMP.
private let ompSetNumThreads: (@convention(c) (Int32) -> Void)? = {
    guard let symbol = dlsym(nil, "omp_set_num_threads") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Void).self)
}()

enum ImageQuant {
    /// Quantizes straight RGBA8 pixels to at most 256 colors, as few as reach `maximumQuality`, without
    /// dithering (flat map colors compress better undithered). Returns the palette (RGBA) and one index per
    /// pixel, or nil when quantization fails.
    static func quantize(width: Int, height: Int, pixels: [UInt8], speed: Int, maximumQuality: Int)
        -> (palette: [UInt8], indices: [UInt8])?
    {
        // One thread per quantization: tiles are already made in parallel, one per core, and OpenMP's
        // extra threads would spin on the other cores (and break `--threads 1`).
        ompSetNumThreads?(1)
        guard let attr = liq_attr_create() else { return nil }
        defer { liq_attr_destroy(attr) }
        liq_set_speed(attr, Int32(max(1, min(10, speed))))
        liq_set_max_colors(attr, 256)
        // Stop adding colors once the image reaches this quality (0-100): anti-aliasing shades that the eye
        // cannot tell apart merge, which makes map tiles much smaller.
        liq_set_quality(attr, 0, Int32(max(1, min(100, maximumQuality))))
        return pixels.withUnsafeBytes { raw -> (palette: [UInt8], indices: [UInt8])? in
            guard let image = liq_image_create_rgba(attr, raw.baseAddress!, Int32(width), Int32(height), 0) else {
                return nil
            }
            defer { liq_image_destroy(image) }
            var result: OpaquePointer?
            guard liq_image_quantize(image, attr, &result) == LIQ_OK, let result else { return nil }
            defer { liq_result_destroy(result) }
            liq_set_dithering_level(result, 0)
            var indices = [UInt8](repeating: 0, count: width * height)
            let written = indices.withUnsafeMutableBytes { out in
                liq_write_remapped_image(result, image, out.baseAddress!, out.count)
            }
            guard written == LIQ_OK, let palettePointer = liq_get_palette(result) else { return nil }
            var palette: [UInt8] = []
            var entries = palettePointer.pointee.entries
            let count = Int(palettePointer.pointee.count)
            withUnsafeBytes(of: &entries) { bytes in
                palette = Array(bytes.prefix(count * 4))
            }
            return (palette, indices)
        }
    }

    static var version: String {
        let v = Int(liq_version())
        return "\(v / 10000).\(v / 100 % 100).\(v % 100)"
    }
}
