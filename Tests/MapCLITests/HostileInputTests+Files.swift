import Foundation
import MapRaster
import MapStorage
import MapTestSupport
import Testing

/// The cast of files every hostile case runs among, and the before/after snapshot of the working folder.
extension HostileInputTests {

    /// Fills `folder` with the files the cases name.
    static func populate(_ folder: URL) throws {
        func write(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        func text(_ name: String, _ string: String) throws { try write(name, Array(string.utf8)) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        let a = try [UInt8](RGBAImage(width: 4, height: 4, red: 200, green: 30, blue: 30, alpha: 255).pngData())
        let b = try [UInt8](RGBAImage(width: 4, height: 4, red: 30, green: 30, blue: 200, alpha: 255).pngData())
        let big8 = try [UInt8](RGBAImage(width: 8, height: 8, red: 0, green: 0, blue: 0, alpha: 255).pngData())
        try write("a.png", a)
        try write("b.png", b)
        try write("big8.png", big8)
        try write("crc.png", HostilePNG.flippingCRC(of: "IDAT", in: b))
        try write("truncated.png", Array(b.prefix(40)))
        try write("bomb.png", HostilePNG.header(width: 16384, height: 16384))
        try write("wide.png", HostilePNG.header(width: 2_000_000, height: 1))
        try write("huge-header.png", HostilePNG.header(width: 100_000, height: 100_000))
        try write("max-header.png", HostilePNG.header(width: UInt32.max, height: UInt32.max))
        try text("text.png", "hello, not a PNG")
        try write("empty.png", [])
        try write("a-png.mbtiles", a)

        // MBTiles: a (zoom 0), b (zoom 1), changed (zoom 0 with another image), corrupt.
        let tile0 = try TileID(z: 0, x: 0, y: 0)
        func mbtiles(_ name: String, _ tiles: [(TileID, Data)], zoom: Int) throws {
            let file = try MBTilesFile.create(
                at: folder.appendingPathComponent(name),
                metadata: [
                    "name": name, "format": "png", "minzoom": "\(zoom)", "maxzoom": "\(zoom)",
                    "bounds": "-180,-85,180,85",
                ])
            try file.write(tiles)
            try file.checkpoint()
        }
        try mbtiles("a.mbtiles", [(tile0, Data(a))], zoom: 0)
        try mbtiles(
            "b.mbtiles", try (0..<2).flatMap { x in try (0..<2).map { y in (try TileID(z: 1, x: x, y: y), Data(b)) } },
            zoom: 1)
        try mbtiles("changed.mbtiles", [(tile0, Data(b))], zoom: 0)
        try text("corrupt.mbtiles", "SQLite format 3\u{0}but not really")

        // Folders, links, FIFOs, a sparse file over the read limits.
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: path("dir.mbtiles"), withIntermediateDirectories: false)
        try text("dir.mbtiles/keep.txt", "keep me")
        try text("file.txt", "x")
        #expect(mkfifo(path("fifo"), 0o644) == 0)
        #expect(mkfifo(path("fifo.mbtiles"), 0o644) == 0)
        #expect(mkfifo(path("fifo.geojson"), 0o644) == 0)
        try text("points.csv", "id,lat,lon\n1,60.17,24.94\n")
        #expect(link(path("points.csv"), path("points-hard.csv")) == 0)
        #expect(symlink("points.csv", path("points-link.csv")) == 0)
        #expect(symlink("a.mbtiles", path("link.mbtiles")) == 0)
        #expect(symlink("fifo", path("link-fifo")) == 0)
        #expect(symlink("nothere.png", path("dangling.png")) == 0)
        #expect(symlink("nothere.mbtiles", path("dangling.mbtiles")) == 0)
        #expect(link(path("a.mbtiles"), path("hard.mbtiles")) == 0)
        #expect(FileManager.default.createFile(atPath: path("big.json"), contents: nil))
        #expect(truncate(path("big.json"), 300 << 20) == 0)

        // JSON: scenes and styles, hostile numbers and structure.
        try text("leading-zero.json", #"{"center": [007, 0], "zoom": 1}"#)
        try text("nested-leading-zero.json", "{\n  \"center\": [0, 0],\n  \"zoom\": 01\n}")
        try text("digits.json", #"{"center": [12345678901234567890, 0], "zoom": 1}"#)
        try text("deep.json", String(repeating: "[", count: 600) + String(repeating: "]", count: 600))
        try text("huge-number.json", #"{"center": [1e400, 0], "zoom": 1}"#)
        try text("truncated.json", #"{"center": [0, 0], "zoom":"#)
        try write("binary.json", [0x00, 0xFF, 0xFE, 0x7B])
        try write("empty.json", [])
        try text("array.json", "[]")
        try text("unknown-member.json", #"{"bogus": 1}"#)
        try text("scene-zoom-23.json", #"{"center": [0, 0], "zoom": 23}"#)
        try text("scene-scale-5.json", #"{"scale": 5}"#)
        try text("scene-size-huge.json", #"{"size": [20000, 100]}"#)
        try text("scene-digits-size.json", #"{"size": [12345678901234567890, 1]}"#)
        for (name, image) in [("fifo", "fifo"), ("dir", "dir"), ("zero", "/dev/zero"), ("missing", "nope.png")] {
            try text(
                "icon-\(name).json",
                #"{"center": [0, 0], "zoom": 1, "features": {"type": "FeatureCollection", "features": [{"type": "#
                    + #""Feature", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": "#
                    + #"{"marker-image": "\#(image)"}}]}}"#)
        }
        try text(
            "source-zero.json",
            #"{"version": 8, "sources": {"d": {"type": "geojson", "data": "/dev/zero"}}, "#
                + #""layers": [{"id": "f", "type": "fill", "source": "d"}]}"#)
        try text(
            "source-dir.json",
            #"{"version": 8, "sources": {"d": {"type": "geojson", "data": "dir"}}, "#
                + #""layers": [{"id": "f", "type": "fill", "source": "d"}]}"#)
    }

    /// Every entry under `folder`: kind, link target or bytes (size and time for files over 1 MB).
    static func snapshot(_ folder: URL) throws -> [String: String] {
        var entries: [String: String] = [:]
        func walk(_ relative: String) throws {
            let full = relative.isEmpty ? folder.path : folder.appendingPathComponent(relative).path
            for name in try FileManager.default.contentsOfDirectory(atPath: full) {
                let path = relative.isEmpty ? name : relative + "/" + name
                let absolute = folder.appendingPathComponent(path).path
                var info = stat()
                guard lstat(absolute, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    entries[path] = "folder"
                    try walk(path)
                case S_IFLNK:
                    entries[path] =
                        "link to " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: absolute)) ?? "?")
                case S_IFREG where info.st_size > 1 << 20:
                    entries[path] =
                        "file of \(info.st_size) bytes, modified \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
                case S_IFREG:
                    let data = try Data(contentsOf: URL(fileURLWithPath: absolute))
                    entries[path] = "file \(data.count) bytes, crc \(HostilePNG.crc32(data)), mode \(info.st_mode)"
                case S_IFIFO: entries[path] = "fifo"
                default: entries[path] = "other"
                }
            }
        }
        try walk("")
        return entries
    }

    static func difference(_ a: [String: String], _ b: [String: String]) -> String {
        Set(a.keys).union(b.keys).sorted().filter { a[$0] != b[$0] }
            .map { "\($0): \(a[$0] ?? "absent") -> \(b[$0] ?? "absent")" }.joined(separator: "; ")
    }
}
