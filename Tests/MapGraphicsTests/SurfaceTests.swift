import Foundation
import MapGraphics
import Testing

/// Image surface sizes and pixel access.
@Suite("ImageSurface")
struct SurfaceTests {
    @Test(
        "Sizes outside 1...32767 on either side throw invalidSurfaceSize with the size",
        arguments: [
            (0, 10), (10, 0), (40000, 10), (10, 40000), (-1, 5), (32768, 1),
        ])
    func invalidSizes(width: Int, height: Int) {
        #expect(throws: GraphicsError.invalidSurfaceSize(width: width, height: height)) {
            _ = try ImageSurface(width: width, height: height)
        }
    }

    @Test("A new surface has the requested size and is transparent everywhere")
    func newSurface() throws {
        let surface = try ImageSurface(width: 3, height: 5)
        #expect(surface.width == 3 && surface.height == 5)
        #expect(surface.rgbaBytes() == [UInt8](repeating: 0, count: 3 * 5 * 4))
    }

    @Test("The largest sides allowed work: 32767 x 1 and 1 x 32767")
    func largestSides() throws {
        #expect(try ImageSurface(width: 32767, height: 1).width == 32767)
        #expect(try ImageSurface(width: 1, height: 32767).height == 32767)
    }

    @Test("init(rgba:) stores opaque pixels exactly and reads them back row by row")
    func rgbaInit() throws {
        let bytes: [UInt8] = [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
            1, 2, 3, 255, 250, 251, 252, 255, 0, 0, 0, 0,
        ]
        let surface = try ImageSurface(rgba: bytes, width: 3, height: 2)
        #expect(surface.rgbaBytes() == bytes)
        #expect(surface.pixel(x: 2, y: 0) == Pixel(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(surface.pixel(x: 0, y: 1) == Pixel(red: 1, green: 2, blue: 3, alpha: 255))
    }

    @Test("init(rgba:) with the wrong byte count throws invalidSurfaceSize")
    func rgbaWrongCount() {
        #expect(throws: GraphicsError.invalidSurfaceSize(width: 2, height: 2)) {
            _ = try ImageSurface(rgba: [UInt8](repeating: 0, count: 15), width: 2, height: 2)
        }
    }

    @Test("A fully transparent pixel reads as 0,0,0,0 whatever color it was given")
    func transparentIsZero() throws {
        let surface = try ImageSurface(rgba: [200, 100, 50, 0], width: 1, height: 1)
        #expect(surface.pixel(x: 0, y: 0) == .transparent)
    }

    @Test("The size error's message gives the size and the allowed range")
    func sizeMessage() {
        let text = GraphicsError.invalidSurfaceSize(width: 40000, height: 10).description
        #expect(text.contains("40000x10") && text.contains("32767"))
    }
}
