import Foundation
import MapRaster
import MapStorage
import MapTestSupport
import Testing

/// `--format`, `--quality` and `--compression` on `render` and `tiles`, the output's extension, and tile folders' metadata.
@Suite("mapraster output formats")
struct FormatOptionTests {
    /// A small, quick map.
    static let area = ["--center", "43.7384,7.4246", "--zoom", "12", "--size", "96x64"]
    /// The same map, larger.
    static let larger = ["--center", "43.7384,7.4246", "--zoom", "12", "--size", "200x150"]

    @Test(
        "Usage errors: exit 64, a message naming the problem, nothing written",
        arguments: [
            (["render", "--format", "gif"], "--format 'gif' is invalid"),
            (["render", "--format", ""], "--format '' is invalid"),
            (["render", "--quality", "0"], "--quality '0' is invalid"),
            (["render", "--quality", "101"], "--quality '101' is invalid"),
            (["render", "--quality", "high"], "--quality 'high' is invalid"),
            (["render", "--quality", "90.5"], "--quality '90.5' is invalid"),
            (["render", "-o", "map.jpg", "--format", "webp"], "contradicts the output 'map.jpg'"),
            (["render", "-o", "map.png", "--format", "jpg"], "contradicts the output 'map.png'"),
            (["render", "-o", "map.webp", "--format", "png8"], "contradicts the output 'map.webp'"),
            (["render", "-o", "map.JPEG", "--format", "png"], "contradicts the output 'map.JPEG'"),
            (["render", "--format"], "--format needs a value"),
            (["render", "--compression", "10"], "--compression '10' is invalid"),
            (["render", "--compression", "-1"], "--compression '-1' is invalid"),
            (["render", "--compression", "fast"], "--compression 'fast' is invalid"),
            (["tiles", "-o", "t.mbtiles", "--format", "tiff"], "--format 'tiff' is invalid"),
            (["tiles", "-o", "folder", "--format", "jpg", "--quality", "-5"], "--quality '-5' is invalid"),
            (["tiles", "-o", "t.mbtiles", "--quality", "1000"], "--quality '1000' is invalid"),
        ] as [([String], String)])
    func usageErrors(_ arguments: [String], _ fragment: String) throws {
        try withTemporaryDirectory { dir in
            let area = arguments[0] == "tiles" ? [] : Self.area
            let result = try CLI.run([arguments[0]] + area + arguments.dropFirst(), in: dir.url)
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.standardError.contains(fragment), "\(result)")
            #expect(try dir.listing().isEmpty, "\(result)")
        }
    }

    @Test(
        "The extension or --format chooses the bytes written",
        arguments: [
            (["-o", "a.jpg"], "a.jpg", "jpeg"), (["-o", "a.JPEG"], "a.JPEG", "jpeg"),
            (["-o", "a.webp"], "a.webp", "webp"),
            (["-o", "a.png"], "a.png", "png"), (["-o", "a.jpg", "--format", "jpeg"], "a.jpg", "jpeg"),
            (["-o", "out", "--format", "webp"], "out", "webp"), (["-o", "a.png", "--format", "png8"], "a.png", "png"),
            (["-o", "a.webp", "--quality", "40"], "a.webp", "webp"),
        ] as [([String], String, String)])
    func formats(_ arguments: [String], _ file: String, _ kind: String) throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["render"] + Self.area + arguments, in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let data = try Data(contentsOf: dir.file(file))
            let magic: [String: [UInt8]] = [
                "png": [0x89, 0x50, 0x4E, 0x47], "jpeg": [0xFF, 0xD8, 0xFF], "webp": Array("RIFF".utf8),
            ]
            #expect(Array(data.prefix(magic[kind]?.count ?? 0)) == magic[kind], "\(file) is not \(kind)")
            let image = try RGBAImage(imageData: data, source: file)
            #expect(image.width == 96 && image.height == 64)
            #expect(try dir.listing() == [file])
        }
    }

    @Test("--compression changes the PNG's bytes, never its pixels: level 0 is largest, 9 no larger than 1")
    func compressionLevels() throws {
        try withTemporaryDirectory { dir in
            var sizes: [Int: Int] = [:]
            var images: [RGBAImage] = []
            for level in [0, 1, 6, 9] {
                let name = "c\(level).png"
                let result = try CLI.run(
                    ["render"] + Self.larger + ["-o", name, "--compression", "\(level)"], in: dir.url)
                #expect(result.exitCode == 0, "\(result)")
                sizes[level] = try Data(contentsOf: dir.file(name)).count
                images.append(try RGBAImage(contentsOfPNG: dir.file(name)))
            }
            #expect(images.allSatisfy { $0.bytes == images[0].bytes && $0.width == 200 && $0.height == 150 })
            // Stored (level 0) is raw rows: at least 200 x 150 x 3 bytes.
            #expect(sizes[0]! >= 200 * 150 * 3 && sizes[1]! < sizes[0]! && sizes[9]! <= sizes[1]!, "\(sizes)")
        }
    }

    @Test("JPEG and WebP maps decode to the PNG of the same map within a mean error of 4 per channel")
    func sameMap() throws {
        try withTemporaryDirectory { dir in
            for name in ["m.png", "m.jpg", "m.webp"] {
                let result = try CLI.run(["render"] + Self.larger + ["-o", name], in: dir.url)
                #expect(result.exitCode == 0, "\(result)")
            }
            let png = try RGBAImage(contentsOfPNG: dir.file("m.png"))
            for name in ["m.jpg", "m.webp"] {
                let decoded = try RGBAImage(imageData: try Data(contentsOf: dir.file(name)), source: name)
                var sums = [0.0, 0.0, 0.0]
                for i in 0..<(png.width * png.height) {
                    for c in 0..<3 { sums[c] += abs(Double(png.bytes[i * 4 + c]) - Double(decoded.bytes[i * 4 + c])) }
                }
                let mean = sums.map { $0 / Double(png.width * png.height) }
                #expect(mean.allSatisfy { $0 < 4 }, "\(name): \(mean)")
            }
        }
    }

    @Test("tiles --format webp writes a valid MBTiles: format metadata webp, every tile a WebP of 256x256")
    func mbtilesWebP() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["tiles", "-o", "w.mbtiles", "--zoom", "0-1", "--format", "webp", "--quality", "80", "--quiet"],
                in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let file = try MBTilesFile.open(at: dir.file("w.mbtiles"))
            let metadata = try file.metadata()
            #expect(metadata["format"] == "webp")
            #expect(metadata["minzoom"] == "0" && metadata["maxzoom"] == "1")
            #expect(metadata["attribution"]?.contains("Natural Earth") == true)
            let tiles = try file.allTiles()
            #expect(tiles.count == 5)
            for (tile, data) in tiles {
                #expect(Array(data.prefix(4)) == Array("RIFF".utf8) && Array(data[8..<12]) == Array("WEBP".utf8))
                let image = try RGBAImage(imageData: data, source: "\(tile)")
                #expect(image.width == 256 && image.height == 256, "\(tile)")
            }
            // Resuming with another format is refused: the file's format is webp.
            let resume = try CLI.run(
                ["tiles", "-o", "w.mbtiles", "--zoom", "0-1", "--format", "png", "--resume", "--quiet"], in: dir.url)
            #expect(resume.exitCode == 1 && resume.standardError.contains("format"), "\(resume)")
        }
    }

    @Test("A tile folder gets tiles with the format's extension, metadata.json and TileJSON 3.0 tiles.json")
    func folderMetadata() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                [
                    "tiles", "-o", "t", "--zoom", "1", "--format", "jpg", "--bbox", "0,0,10,10", "--name", "Test",
                    "--quiet",
                ], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let tile = dir.url.appendingPathComponent("t/1/1/0.jpg")
            #expect(Array(try Data(contentsOf: tile).prefix(3)) == [0xFF, 0xD8, 0xFF])
            let metadata = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: dir.file("t/metadata.json")))
                    as? [String: String])
            #expect(metadata["format"] == "jpg" && metadata["name"] == "Test")
            #expect(metadata["minzoom"] == "1" && metadata["maxzoom"] == "1")
            #expect(metadata["bounds"] == "0.000000,0.000000,10.000000,10.000000")
            #expect(metadata["attribution"]?.contains("Natural Earth") == true)
            let tileJSON = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: dir.file("t/tiles.json"))) as? [String: Any])
            #expect(tileJSON["tilejson"] as? String == "3.0.0")
            #expect(tileJSON["tiles"] as? [String] == ["{z}/{x}/{y}.jpg"])
            #expect(tileJSON["attribution"] as? String == metadata["attribution"])
            #expect(tileJSON["bounds"] as? [Double] == [0, 0, 10, 10])
            #expect(tileJSON["center"] as? [Double] == [5, 5, 1])
            #expect(tileJSON["minzoom"] as? Int == 1 && tileJSON["maxzoom"] as? Int == 1)
            #expect(tileJSON["scheme"] as? String == "xyz")
        }
    }
}
