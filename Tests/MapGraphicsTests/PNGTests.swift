import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

/// PNG encoding and decoding: round trips, byte-for-byte determinism, the chunk layout, errors, and the
/// PNG variants of `fixtures/graphics/` (written by `fixtures/graphics/make_inputs.py`, which lists the
/// colors each must decode to).
@Suite("PNG")
struct PNGTests {
    /// One PNG chunk.
    struct Chunk {
        var type: String
        var data: [UInt8]
        var crcMatches: Bool
    }

    /// The CRC-32 of PNG (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320), written out here.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    static func bigEndian(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// Splits a PNG file after its signature into chunks; nil when it is malformed.
    static func chunks(_ data: Data) -> [Chunk]? {
        let b = [UInt8](data)
        var i = 8
        var result: [Chunk] = []
        while i < b.count {
            guard i + 12 <= b.count else { return nil }
            let length = Int(bigEndian(b, i))
            guard i + 12 + length <= b.count else { return nil }
            let typeAndData = Array(b[(i + 4)..<(i + 8 + length)])
            let type = String(decoding: typeAndData[0..<4], as: UTF8.self)
            let crc = bigEndian(b, i + 8 + length)
            result.append(Chunk(type: type, data: Array(typeAndData[4...]), crcMatches: crc == crc32(typeAndData)))
            i += 12 + length
        }
        return result
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A 4x2 image: a row of opaque colors and a row of half- and three-quarter-transparent ones.
    static let mixedRGBA: [UInt8] = [
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 12, 34, 56, 255,
        255, 0, 0, 128, 10, 200, 30, 128, 90, 60, 250, 200, 255, 255, 255, 191,
    ]

    /// A 24x24 image of opaque pseudo-random pixels (a fixed linear congruential sequence), which deflate
    /// cannot shrink much, so that its PNG is well over 100 bytes.
    static func noisy() throws -> ImageSurface {
        var state: UInt32 = 12345
        var bytes: [UInt8] = []
        for _ in 0..<(24 * 24) {
            var pixel: [UInt8] = []
            for _ in 0..<3 {
                state = state &* 1_103_515_245 &+ 12345
                pixel.append(UInt8(truncatingIfNeeded: state >> 16))
            }
            bytes += pixel + [255]
        }
        return try ImageSurface(rgba: bytes, width: 24, height: 24)
    }

    func decode(_ data: Data, in folder: URL, name: String = "image.png") throws -> ImageSurface {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return try ImageSurface(contentsOfPNG: url)
    }

    @Test("pngData, written and decoded, round-trips opaque pixels exactly and translucent ones within ±1")
    func roundTrip() throws {
        let surface = try ImageSurface(rgba: Self.mixedRGBA, width: 4, height: 2)
        let decoded = try withTemporaryFolder { try decode(surface.pngData(), in: $0) }
        #expect(decoded.width == 4 && decoded.height == 2)
        let out = decoded.rgbaBytes()
        for i in stride(from: 0, to: Self.mixedRGBA.count, by: 4) {
            let want = Array(Self.mixedRGBA[i..<(i + 4)])
            let got = Array(out[i..<(i + 4)])
            if want[3] == 255 {
                #expect(got == want, "opaque pixel \(i / 4)")
            } else {
                // ARGB32 keeps c * a / 255 rounded to an integer (premultiplied), so a translucent color is
                // known only to within 255 / (2a): at most ±1 for a >= 128. Alpha itself is kept exactly.
                #expect(got[3] == want[3], "alpha of pixel \(i / 4)")
                #expect((0..<3).allSatisfy { close(got[$0], want[$0], 1) }, "pixel \(i / 4): \(got) vs \(want)")
            }
        }
        // The PNG step itself loses nothing: unpremultiplying to round(255 p / a) and premultiplying back
        // to round(a s / 255) returns p, as the error a/255 * 1/2 is under 1/2. So the decoded surface
        // equals the encoded one exactly.
        #expect(decoded.rgbaBytes() == surface.rgbaBytes())
    }

    @Test("A drawn image round-trips exactly, antialiased edges included")
    func drawnRoundTrip() throws {
        let (surface, context) = try canvas(20, 20)
        context.setFillColor(Color(red8: 30, green8: 120, blue8: 200, alpha: 0.7))
        context.fill(Path(ovalIn: Rect(x: 2.3, y: 1.7, width: 15, height: 12)))
        let decoded = try withTemporaryFolder { try decode(surface.pngData(), in: $0) }
        #expect(decoded.rgbaBytes() == surface.rgbaBytes())
    }

    @Test("The same image encodes to identical bytes, twice and from a second identical surface")
    func deterministic() throws {
        let a = try Self.noisy()
        let b = try Self.noisy()
        let first = try a.pngData()
        #expect(try a.pngData() == first)
        #expect(try b.pngData() == first)
    }

    /// Regions of the noisy 24x24 image and of the mixed 4x2 one: (surface, x, y, width, height, opaque).
    static func regions() throws -> [(ImageSurface, Int, Int, Int, Int, Bool)] {
        let noisy = try noisy()
        let mixed = try ImageSurface(rgba: mixedRGBA, width: 4, height: 2)
        return [
            (noisy, 0, 0, 24, 24, true), (noisy, 5, 7, 10, 6, true), (noisy, 23, 23, 1, 1, true),
            (mixed, 0, 0, 4, 1, true), (mixed, 0, 1, 4, 1, false), (mixed, 1, 0, 2, 2, false),
        ]
    }

    @Test("A region's PNG straight from the surface is the RGBA copy's PNG, and decodes to the region's pixels")
    func opaqueRegion() throws {
        for (surface, x, y, w, h, opaque) in try Self.regions() {
            let rgba = surface.rgbaBytes(x: x, y: y, width: w, height: h)
            let direct = try surface.opaquePNGData(x: x, y: y, width: w, height: h)
            guard opaque else {
                #expect(direct == nil, "region \(x),\(y) \(w)x\(h) has translucent pixels")
                continue
            }
            let viaCopy = try RGBAImage(width: w, height: h, bytes: rgba).pngData()
            #expect(direct == viaCopy, "region \(x),\(y) \(w)x\(h)")
            if let direct {
                let decoded = try withTemporaryFolder { try decode(direct, in: $0) }
                #expect(decoded.rgbaBytes() == rgba, "region \(x),\(y) \(w)x\(h) decoded")
            }
        }
        #expect(try Self.noisy().opaquePNGData(x: 3, y: 3, width: 0, height: 5) == nil)
        // The whole-surface encoder takes the same path for opaque images and the RGBA one otherwise.
        for surface in [try Self.noisy(), try ImageSurface(rgba: Self.mixedRGBA, width: 4, height: 2)] {
            #expect(try surface.pngData() == RGBAImage(surface).pngData())
            #expect(try surface.encoded(as: .png) == RGBAImage(surface).encoded(as: .png))
        }
    }

    @Test("singleColor gives the region's one color as RGBA bytes, or nil when its pixels differ")
    func singleColor() throws {
        let (surface, context) = try canvas(8, 8)
        context.setFillColor(Color(red8: 30, green8: 120, blue8: 200, alpha: 1))
        context.fill(Path(rect: Rect(x: 0, y: 0, width: 8, height: 8)))
        context.setFillColor(Color(red8: 200, green8: 10, blue8: 10, alpha: 0.5))
        context.fill(Path(rect: Rect(x: 6, y: 6, width: 2, height: 2)))
        let cases: [(Int, Int, Int, Int, [UInt8]?)] = [
            (0, 0, 6, 6, [30, 120, 200, 255]), (0, 0, 8, 8, nil),
            (6, 6, 2, 2, Array(surface.rgbaBytes(x: 6, y: 6, width: 1, height: 1))),
            (0, 0, 7, 7, nil), (2, 3, 0, 4, nil),
        ]
        for (x, y, w, h, want) in cases {
            #expect(surface.singleColor(x: x, y: y, width: w, height: h) == want, "region \(x),\(y) \(w)x\(h)")
        }
        #expect(try Self.noisy().singleColor(x: 0, y: 0, width: 24, height: 24) == nil)
    }

    @Test("The PNG starts with the 8-byte signature, has IHDR first and IEND last, valid CRCs and no tIME chunk")
    func chunkLayout() throws {
        let data = try ImageSurface(rgba: Self.mixedRGBA, width: 4, height: 2).pngData()
        #expect(Array(data.prefix(8)) == Self.signature)
        guard let chunks = Self.chunks(data) else {
            Issue.record("the PNG's chunks do not add up to its length")
            return
        }
        let types = chunks.map(\.type)
        #expect(types.first == "IHDR")
        #expect(types.last == "IEND")
        #expect(types.contains("IDAT"))
        #expect(!types.contains("tIME"), "chunks: \(types)")
        let badCRC = chunks.filter { !$0.crcMatches }.map(\.type)
        #expect(badCRC.isEmpty, "chunks with a bad CRC: \(badCRC)")
        // IHDR: width 4, height 2, bit depth 8, color type 6 (RGBA, as the image has transparency),
        // compression 0, filter 0, interlace 0.
        let ihdr = chunks[0].data
        #expect(ihdr.count == 13)
        #expect(Self.bigEndian(ihdr, 0) == 4 && Self.bigEndian(ihdr, 4) == 2)
        #expect(Array(ihdr[8...]) == [8, 6, 0, 0, 0])
    }

    @Test("An opaque image's PNG is 8 bits per sample, RGB or RGBA, and also has no tIME chunk")
    func opaqueChunks() throws {
        let data = try Self.noisy().pngData()
        let chunks = try #require(Self.chunks(data))
        #expect(!chunks.map(\.type).contains("tIME"))
        let ihdr = chunks[0].data
        #expect(ihdr[8] == 8)
        #expect(ihdr[9] == 2 || ihdr[9] == 6, "color type \(ihdr[9])")
    }

    static func expectCannotRead(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try ImageSurface(contentsOfPNG: url)
            Issue.record("decoding \(url.lastPathComponent) succeeded", sourceLocation: sourceLocation)
        } catch let GraphicsError.cannotReadPNG(path, reason) {
            #expect(path == url.path, sourceLocation: sourceLocation)
            #expect(!reason.isEmpty, sourceLocation: sourceLocation)
            #expect(
                GraphicsError.cannotReadPNG(path: path, reason: reason).description.contains(url.path),
                sourceLocation: sourceLocation)
        } catch {
            Issue.record("want cannotReadPNG, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("A text file named .png throws cannotReadPNG naming the path")
    func notAPNG() {
        Self.expectCannotRead(Fixtures.url("graphics/not-a-png.png"))
    }

    @Test("A PNG truncated to its first 100 bytes throws cannotReadPNG naming the path")
    func truncated() throws {
        let data = try Self.noisy().pngData()
        #expect(data.count > 300)
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("truncated.png")
            try data.prefix(100).write(to: url)
            Self.expectCannotRead(url)
        }
    }

    @Test("A missing file, an empty file and a folder each throw cannotReadPNG naming the path")
    func missingEmptyFolder() throws {
        try withTemporaryFolder { folder in
            Self.expectCannotRead(folder.appendingPathComponent("missing.png"))
            let empty = folder.appendingPathComponent("empty.png")
            try Data().write(to: empty)
            Self.expectCannotRead(empty)
            let sub = folder.appendingPathComponent("folder.png", isDirectory: true)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
            Self.expectCannotRead(sub)
        }
    }

    static func expectImage(_ name: String, _ expected: [Pixel], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let image = try ImageSurface(contentsOfPNG: Fixtures.url("graphics/\(name)"))
        #expect(image.width == 2 && image.height == 2, sourceLocation: sourceLocation)
        guard image.width == 2 && image.height == 2 else { return }
        let got = [image.pixel(x: 0, y: 0), image.pixel(x: 1, y: 0), image.pixel(x: 0, y: 1), image.pixel(x: 1, y: 1)]
        #expect(got == expected, "\(name)", sourceLocation: sourceLocation)
    }

    @Test("A 16-bit RGB PNG decodes to the 8-bit colors (samples are c * 257)")
    func rgb16() throws {
        try Self.expectImage(
            "rgb16.png", [.pureRed, .pureGreen, .pureBlue, Pixel(red: 128, green: 64, blue: 32, alpha: 255)])
    }

    @Test("A 16-bit RGBA PNG decodes, its alpha-0 pixel transparent")
    func rgba16() throws {
        try Self.expectImage(
            "rgba16.png",
            [
                .pureWhite, Pixel(red: 16, green: 32, blue: 48, alpha: 255), .transparent,
                Pixel(red: 200, green: 100, blue: 50, alpha: 255),
            ])
    }

    @Test("A 2-bit palette PNG with tRNS decodes to its palette colors, entry 3 transparent")
    func palette() throws {
        try Self.expectImage(
            "palette.png", [.pureRed, .pureBlue, Pixel(red: 0, green: 128, blue: 0, alpha: 255), .transparent])
    }

    @Test("An 8-bit grayscale PNG decodes to opaque greys")
    func gray() throws {
        try Self.expectImage(
            "gray.png",
            [
                .pureBlack, Pixel(red: 64, green: 64, blue: 64, alpha: 255),
                Pixel(red: 128, green: 128, blue: 128, alpha: 255), .pureWhite,
            ])
    }

    @Test("A grayscale-with-alpha PNG decodes to greys, its alpha-0 pixel transparent")
    func grayAlpha() throws {
        try Self.expectImage(
            "grayalpha.png",
            [
                Pixel(red: 200, green: 200, blue: 200, alpha: 255), Pixel(red: 10, green: 10, blue: 10, alpha: 255),
                Pixel(red: 77, green: 77, blue: 77, alpha: 255), .transparent,
            ])
    }

    @Test("A decoded grayscale image can be drawn into a context like any other")
    func drawDecoded() throws {
        let image = try ImageSurface(contentsOfPNG: Fixtures.url("graphics/gray.png"))
        let (surface, context) = try canvas(4, 4)
        context.draw(image, in: Rect(x: 1, y: 1, width: 2, height: 2))
        #expect(surface.pixel(x: 2, y: 1) == Pixel(red: 64, green: 64, blue: 64, alpha: 255))
        #expect(surface.pixel(x: 1, y: 2) == Pixel(red: 128, green: 128, blue: 128, alpha: 255))
        #expect(surface.pixel(x: 0, y: 0) == .transparent)
    }
}

/// `writePNG(to:)` and `AtomicFile.write`.
@Suite("Writing files")
struct FileWriteTests {
    static func redSquare(_ color: Color = .red) throws -> ImageSurface {
        let (surface, context) = try canvas(3, 3)
        context.setFillColor(color)
        context.fill(Rect(x: 0, y: 0, width: 3, height: 3))
        return surface
    }

    @Test("writePNG writes the file: its bytes are pngData() and it decodes to the image")
    func writes() throws {
        let surface = try Self.redSquare()
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("out.png")
            try surface.writePNG(to: url)
            #expect(try Data(contentsOf: url) == surface.pngData())
            #expect(try ImageSurface(contentsOfPNG: url).rgbaBytes() == surface.rgbaBytes())
        }
    }

    @Test("After a successful write only the file is in the folder: no hidden .tmp file remains")
    func noTemporaryLeft() throws {
        try withTemporaryFolder { folder in
            try Self.redSquare().writePNG(to: folder.appendingPathComponent("out.png"))
            try AtomicFile.write(Data("hello".utf8), to: folder.appendingPathComponent("note.txt"))
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(names == ["note.txt", "out.png"])
        }
    }

    @Test("Writing into a missing folder throws FileWriteError naming the path and the folder, creates nothing")
    func missingFolder() throws {
        try withTemporaryFolder { folder in
            let missing = folder.appendingPathComponent("missing", isDirectory: true)
            let url = missing.appendingPathComponent("out.png")
            do {
                try Self.redSquare().writePNG(to: url)
                Issue.record("writing into a missing folder succeeded")
            } catch let error as FileWriteError {
                #expect(error.path == url.path)
                #expect(error.problem == .noFolder(missing.path), "\(error)")
                #expect(error.description.contains("create it or write elsewhere"), "\(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(!FileManager.default.fileExists(atPath: missing.path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test("Overwriting an existing file replaces it")
    func overwrite() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("out.png")
            try Data("an older, much longer file that is not a PNG at all".utf8).write(to: url)
            try Self.redSquare(.red).writePNG(to: url)
            #expect(try ImageSurface(contentsOfPNG: url).pixel(x: 1, y: 1) == .pureRed)
            try Self.redSquare(.blue).writePNG(to: url)
            let decoded = try ImageSurface(contentsOfPNG: url)
            #expect(decoded.pixel(x: 1, y: 1) == .pureBlue)
            #expect(try Data(contentsOf: url) == Self.redSquare(.blue).pngData())
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
        }
    }

    @Test("AtomicFile.write writes the exact bytes")
    func atomicBytes() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("data.bin")
            let bytes = Data((0..<1000).map { UInt8($0 % 251) })
            try AtomicFile.write(bytes, to: url)
            #expect(try Data(contentsOf: url) == bytes)
        }
    }

    @Test("A folder as the target throws FileWriteError.isFolder and leaves no temporary file")
    func renameFails() throws {
        try withTemporaryFolder { folder in
            let target = folder.appendingPathComponent("taken.png", isDirectory: true)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
            do {
                try AtomicFile.write(Data("x".utf8), to: target)
                Issue.record("renaming a file over a folder succeeded")
            } catch let error as FileWriteError {
                #expect(error.path == target.path)
                #expect(error.problem == .isFolder)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["taken.png"])
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
    }

    @Test("Writing where a path component is a file (not a folder) throws FileWriteError")
    func parentIsAFile() throws {
        try withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("plain")
            try Data("x".utf8).write(to: file)
            let url = file.appendingPathComponent("out.png")
            #expect(throws: FileWriteError.self) { try Self.redSquare().writePNG(to: url) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plain"])
        }
    }
}
