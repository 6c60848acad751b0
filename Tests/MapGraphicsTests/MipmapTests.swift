import MapGraphics
import Testing

/// Mipmaps as a GPU makes and picks them for MapLibre's raster tiles (`LINEAR_MIPMAP_NEAREST`).
@Suite("Mipmaps: the level a GPU picks, 2x2 box halving")
struct MipmapTests {
    static func image(_ width: Int, _ height: Int, _ texel: (Int, Int) -> [UInt8]) -> RGBAImage {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { bytes += texel(x, y) }
        }
        return RGBAImage(width: width, height: height, bytes: bytes)
    }

    @Test("the nearest level to log2(texels per pixel): 0 up to 0.5, then ceil(lod + 1/2) - 1, at most the last")
    func levels() {
        let tile = Self.image(256, 256) { _, _ in [0, 0, 0, 255] }
        #expect(tile.mipmapLevel(texelsPerPixel: 0.5) == 0)
        #expect(tile.mipmapLevel(texelsPerPixel: 1.4) == 0)  // lod 0.49
        #expect(tile.mipmapLevel(texelsPerPixel: 1.5) == 1)  // lod 0.58
        #expect(tile.mipmapLevel(texelsPerPixel: 2) == 1)
        #expect(tile.mipmapLevel(texelsPerPixel: 2.9) == 2)  // lod 1.54
        #expect(tile.mipmapLevel(texelsPerPixel: 1e6) == 8)  // 1x1 is the last of a 256-texel image
        // Not a power of two: WebGL has no mipmaps for it.
        #expect(Self.image(200, 256) { _, _ in [0, 0, 0, 255] }.mipmapLevel(texelsPerPixel: 4) == 0)
        #expect(tile.mipmapLevel(texelsPerPixel: .nan) == 0)
    }

    @Test("each level halves the image, a texel the rounded mean of the 2x2 under it, colours weighted by alpha")
    func halving() {
        // Columns 0, 1, 2, 3 of 4x2: red 0, 10, 20, 31; the last column transparent green.
        let image = Self.image(4, 2) { x, _ in
            x == 3 ? [0, 255, 0, 0] : [UInt8(x * 10), 0, 0, 255]
        }
        let one = image.mipmap(level: 1)
        #expect(one.width == 2 && one.height == 1)
        #expect(Array(one.bytes[0..<4]) == [5, 0, 0, 255])
        // Two opaque texels (red 20) and two transparent: red 20, no green, alpha half.
        #expect(Array(one.bytes[4..<8]) == [20, 0, 0, 128])
        let two = image.mipmap(level: 2)
        #expect(two.width == 1 && two.height == 1)
        #expect(image.mipmap(level: 0) == image)
        #expect(image.mipmap(level: 40).width == 1)
    }
}
