import Foundation

extension RGBAImage {
    /// The mipmap level a GPU samples when this image is drawn `texelsPerPixel` texels to a device pixel with
    /// a mipmapped minifying filter (`LINEAR_MIPMAP_NEAREST`, as MapLibre draws raster tiles): for a level of
    /// detail λ = log2(texelsPerPixel) the nearest level, 0 up to λ = 0.5 (magnifying too), then
    /// ceil(λ + 1/2) - 1, at most the last level. 0 when a side is not a power of two (WebGL mipmaps only
    /// those; MapLibre then samples the full image).
    public func mipmapLevel(texelsPerPixel: Double) -> Int {
        guard texelsPerPixel.isFinite, texelsPerPixel > 0, width.nonzeroBitCount == 1, height.nonzeroBitCount == 1
        else { return 0 }
        let lod = log2(texelsPerPixel)
        guard lod > 0.5 else { return 0 }
        let last = Int(log2(Double(min(width, height))).rounded())
        return min(Int((lod + 0.5).rounded(.up)) - 1, last)
    }

    /// The image `level` times halved, each texel of a level the mean of the 2x2 texels under it (a box
    /// filter, as GPUs make mipmaps), rounded; colour channels weighted by alpha so that transparent texels
    /// lend no colour. Level 0 (or less) is the image itself; the result is at least 1x1.
    public func mipmap(level: Int) -> RGBAImage {
        var image = self
        for _ in 0..<max(0, min(level, 30)) where image.width > 1 || image.height > 1 {
            image = image.halved()
        }
        return image
    }

    /// The image halved in each dimension (a side of 1 kept), 2x2 texels averaged.
    private func halved() -> RGBAImage {
        let w = max(1, width / 2)
        let h = max(1, height / 2)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        bytes.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let y0 = min(2 * y, height - 1)
                let y1 = min(2 * y + 1, height - 1)
                for x in 0..<w {
                    let x0 = min(2 * x, width - 1)
                    let x1 = min(2 * x + 1, width - 1)
                    let offsets = [
                        (y0 * width + x0) * 4, (y0 * width + x1) * 4, (y1 * width + x0) * 4, (y1 * width + x1) * 4,
                    ]
                    var alpha = 0
                    var sums = (0, 0, 0)
                    for o in offsets {
                        let a = Int(src[o + 3])
                        alpha += a
                        sums.0 += Int(src[o]) * a
                        sums.1 += Int(src[o + 1]) * a
                        sums.2 += Int(src[o + 2]) * a
                    }
                    let o = (y * w + x) * 4
                    if alpha > 0 {
                        out[o] = UInt8((sums.0 + alpha / 2) / alpha)
                        out[o + 1] = UInt8((sums.1 + alpha / 2) / alpha)
                        out[o + 2] = UInt8((sums.2 + alpha / 2) / alpha)
                    }
                    out[o + 3] = UInt8((alpha + 2) / 4)
                }
            }
        }
        return RGBAImage(width: w, height: h, bytes: out)
    }
}
