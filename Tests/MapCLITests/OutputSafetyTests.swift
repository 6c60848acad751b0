import Foundation
import MapRaster
import MapStorage
import MapTestSupport
import Testing

/// Outputs named through symbolic links are written through; replaced outputs are replaced only by a
/// complete result; nothing internal (temporary files, SQLite side files) is left behind.
@Suite("mapraster outputs: links written through, replaced only when complete")
struct OutputSafetyTests {
    @Test("render -o through a dangling link writes the link's target and keeps the link")
    func renderThroughDanglingLink() throws {
        try withTemporaryDirectory { dir in
            #expect(symlink("target.png", dir.file("link.png").path) == 0)
            let result = try CLI.run(["--size", "32x32", "-o", "link.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("link.png").path) == "target.png")
            let image = try RGBAImage(contentsOfPNG: dir.file("target.png"))
            #expect(image.width == 32 && image.height == 32)
            #expect(try dir.listing() == ["link.png", "target.png"])
        }
    }

    @Test("merge through a dangling link and with --force: target written, link kept, no temporary file left")
    func mergeThroughLink() throws {
        try withTemporaryDirectory { dir in
            let png = try RGBAImage(width: 2, height: 2, red: 1, green: 2, blue: 3, alpha: 255).pngData()
            for (name, z) in [("a.mbtiles", 0), ("b.mbtiles", 1)] {
                let file = try MBTilesFile.create(
                    at: dir.file(name), metadata: ["format": "png", "minzoom": "\(z)", "maxzoom": "\(z)"])
                try file.write([(try TileID(z: z, x: 0, y: 0), png)])
                try file.checkpoint()
            }
            #expect(symlink("merged.mbtiles", dir.file("link.mbtiles").path) == 0)
            let first = try CLI.run(["mbtiles", "merge", "link.mbtiles", "a.mbtiles", "b.mbtiles"], in: dir.url)
            #expect(first.exitCode == 0, "\(first)")
            #expect(try MBTilesFile.open(at: dir.file("merged.mbtiles")).tileIDs().count == 2)
            // Replace it through the link with --force: still a link, the target has only a's tile now.
            let second = try CLI.run(["mbtiles", "merge", "link.mbtiles", "a.mbtiles", "--force"], in: dir.url)
            #expect(second.exitCode == 0, "\(second)")
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("link.mbtiles").path)
                    == "merged.mbtiles")
            #expect(try MBTilesFile.open(at: dir.file("merged.mbtiles")).tileIDs().count == 1)
            #expect(try dir.listing() == ["a.mbtiles", "b.mbtiles", "link.mbtiles", "merged.mbtiles"])
        }
    }

    @Test("tiles --force replaces an MBTiles file only with a complete run, leaving no -wal, -shm or temporary file")
    func tilesForceReplaces() throws {
        try withTemporaryDirectory { dir in
            let first = try CLI.run(["tiles", "-o", "t.mbtiles", "--zoom", "0", "--quiet"], in: dir.url)
            #expect(first.exitCode == 0, "\(first)")
            let old = try Data(contentsOf: dir.file("t.mbtiles"))
            // A failing --force run (its style's source is a folder) keeps the old file byte for byte.
            try FileManager.default.createDirectory(at: dir.file("d"), withIntermediateDirectories: false)
            try dir.write(
                "s.json",
                #"{"version": 8, "sources": {"d": {"type": "geojson", "data": "d"}}, "#
                    + #""layers": [{"id": "f", "type": "fill", "source": "d"}]}"#)
            let failed = try CLI.run(
                ["tiles", "-o", "t.mbtiles", "--zoom", "1", "--force", "--style", "s.json", "--quiet"], in: dir.url)
            #expect(failed.exitCode == 1 && failed.standardError.contains("is a directory"), "\(failed)")
            #expect(try Data(contentsOf: dir.file("t.mbtiles")) == old)
            #expect(try dir.listing() == ["d", "s.json", "t.mbtiles"])
            let replaced = try CLI.run(["tiles", "-o", "t.mbtiles", "--zoom", "1", "--force", "--quiet"], in: dir.url)
            #expect(replaced.exitCode == 0, "\(replaced)")
            let file = try MBTilesFile.open(at: dir.file("t.mbtiles"))
            #expect(try file.metadata()["minzoom"] == "1" && file.tileIDs().count == 4)
            #expect(try dir.listing() == ["d", "s.json", "t.mbtiles"])
        }
    }

    @Test("tiles --zoom 22 over a few meters with --yes is allowed: the count, not the zoom, is limited")
    func deepZoomSmallArea() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(
                ["tiles", "-o", "z.mbtiles", "--zoom", "22", "--bbox", "24.9500,60.1700,24.9501,60.17005", "--quiet"],
                in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let count = try MBTilesFile.open(at: dir.file("z.mbtiles")).tileIDs().count
            #expect(count > 0 && count <= 16)
            #expect(try dir.listing() == ["z.mbtiles"])
        }
    }
}
