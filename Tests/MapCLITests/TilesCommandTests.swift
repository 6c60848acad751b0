import Foundation
import MapGeometry
import MapStorage
import MapTestSupport
import Testing

@Suite("mapraster tiles and mbtiles merge")
struct TilesCommandTests {
    static func tiles(_ url: URL) throws -> [TileID: Data] {
        Dictionary(uniqueKeysWithValues: try MBTilesFile.open(at: url).allTiles())
    }

    @Test("a folder pyramid: z/x/y.png files, TMS rows with --tms, @2x names at scale 2")
    func folder() throws {
        try withTemporaryDirectory { dir in
            let xyz = try CLI.run(["tiles", "-o", "xyz", "--zoom", "0-1", "--quiet"], in: dir.url)
            #expect(xyz.exitCode == 0, "\(xyz)")
            for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                #expect(FileManager.default.fileExists(atPath: dir.file("xyz/1/\(x)/\(y).png").path))
            }
            let tms = try CLI.run(
                ["tiles", "-o", "tms", "--zoom", "1", "--tms", "--scale", "2", "--quiet"], in: dir.url)
            #expect(tms.exitCode == 0, "\(tms)")
            // XYZ row 0 (north) is TMS row 1; its image is the northern one.
            let north = try Data(contentsOf: dir.file("xyz/1/0/0.png"))
            #expect(FileManager.default.fileExists(atPath: dir.file("tms/1/0/1@2x.png").path))
            #expect(north.count > 0)
        }
    }

    @Test("MBTiles: metadata, TMS rows, identical tiles stored once, summary line")
    func mbtiles() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["tiles", "-o", "w.mbtiles", "--zoom", "0-3", "--name", "World"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardOutput.contains("wrote 85 tiles"), "\(result)")
            let file = try MBTilesFile.open(at: dir.file("w.mbtiles"))
            let metadata = try file.metadata()
            #expect(metadata["name"] == "World" && metadata["format"] == "png")
            #expect(metadata["minzoom"] == "0" && metadata["maxzoom"] == "3")
            #expect(metadata["bounds"] == "-180.000000,-85.051129,180.000000,85.051129")
            #expect(try file.tileIDs().count == 85)
            #expect(try file.uniqueImageCount() < 85, "ocean tiles are stored once")
        }
    }

    @Test("--map-type and --style choose the base map; its credits become the MBTiles attribution")
    func mapTypeAndStyle() throws {
        try withTemporaryDirectory { dir in
            let satellite = try CLI.run(
                ["tiles", "-o", "s.mbtiles", "--zoom", "0-1", "--map-type", "satellite", "--quiet"], in: dir.url)
            #expect(satellite.exitCode == 0, "\(satellite)")
            #expect(try MBTilesFile.open(at: dir.file("s.mbtiles")).metadata()["attribution"] == "NASA Blue Marble NG")
            let styled = try CLI.run(
                [
                    "tiles", "-o", "m.mbtiles", "--zoom", "0", "--style",
                    Fixtures.packageRoot.appendingPathComponent("styles/muted.json").path, "--quiet",
                ],
                in: dir.url)
            #expect(styled.exitCode == 0, "\(styled)")
            // A region across 180 (center 0,180, 40 degrees wide) gives the columns either side at z2.
            let region = try CLI.run(
                ["tiles", "-o", "r.mbtiles", "--center", "0,180", "--span", "20,40", "--zoom", "2", "--quiet"],
                in: dir.url)
            #expect(region.exitCode == 0, "\(region)")
            #expect(Set(try MBTilesFile.open(at: dir.file("r.mbtiles")).tileIDs().map(\.x)) == [3, 0])
            let bad = try CLI.run(["tiles", "-o", "x.mbtiles", "--map-type", "terrain"], in: dir.url)
            #expect(bad.exitCode == 64 && bad.standardError.contains("terrain"), "\(bad)")
        }
    }

    @Test("SIGKILL mid-run leaves a valid MBTiles; --resume finishes it to equal an uninterrupted run")
    func killAndResume() throws {
        try withTemporaryDirectory { dir in
            let arguments = ["tiles", "--bbox", "-12,34,32,62", "--zoom", "0-7", "--metatile", "2", "--quiet"]
            let whole = try CLI.run(arguments + ["-o", "whole.mbtiles"], in: dir.url)
            #expect(whole.exitCode == 0, "\(whole)")
            let wholeTiles = try Self.tiles(dir.file("whole.mbtiles"))
            // Synchronised on the file, not on a sleep: kill once as soon as the first batch is committed, once
            // after a later batch is (more tiles than the first batch held).
            var firstBatch = 0
            for round in 0..<2 {
                let name = "killed-\(round).mbtiles"
                let process = Process()
                process.executableURL = try CLI.executable()
                process.arguments = arguments + ["-o", name]
                process.currentDirectoryURL = dir.url
                try process.run()
                var committed = 0
                while process.isRunning {
                    committed = (try? MBTilesFile.open(at: dir.file(name)).tileIDs().count) ?? 0
                    if committed > (round == 0 ? 0 : firstBatch) { break }
                    Thread.sleep(forTimeInterval: 0.01)
                }
                let killedMidRun = process.isRunning
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if round == 0 { firstBatch = committed }
                // Valid: it opens, and what it holds is a subset of the whole run, tile for tile.
                let partial = try Self.tiles(dir.file(name))
                #expect(killedMidRun, "the run ended before it could be killed; make it longer")
                #expect(partial.count < wholeTiles.count, "round \(round): \(partial.count) of \(wholeTiles.count)")
                for (tile, data) in partial { #expect(wholeTiles[tile] == data, "\(tile)") }
                let resumed = try CLI.run(arguments + ["-o", name, "--resume"], in: dir.url)
                #expect(resumed.exitCode == 0, "\(resumed)")
                #expect(try Self.tiles(dir.file(name)) == wholeTiles)
            }
        }
    }

    @Test("three shards merged equal one run, tile for tile")
    func shards() throws {
        try withTemporaryDirectory { dir in
            let arguments = ["tiles", "--zoom", "0-4", "--metatile", "2", "--quiet"]
            #expect(try CLI.run(arguments + ["-o", "one.mbtiles"], in: dir.url).exitCode == 0)
            for i in 1...3 {
                let r = try CLI.run(arguments + ["-o", "s\(i).mbtiles", "--shard", "\(i)/3"], in: dir.url)
                #expect(r.exitCode == 0, "\(r)")
            }
            let merged = try CLI.run(
                ["mbtiles", "merge", "all.mbtiles", "s1.mbtiles", "s2.mbtiles", "s3.mbtiles"], in: dir.url)
            #expect(merged.exitCode == 0, "\(merged)")
            #expect(try Self.tiles(dir.file("all.mbtiles")) == (try Self.tiles(dir.file("one.mbtiles"))))
            #expect(try Self.tiles(dir.file("s1.mbtiles")).count < 341)
        }
    }

    struct BadTiles: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var exitCode: Int32
        var mentions: [String]
        var testDescription: String { name }
    }

    static let bad: [BadTiles] = [
        BadTiles(name: "no output", arguments: ["tiles"], exitCode: 64, mentions: ["-o OUTPUT"]),
        BadTiles(
            name: "bbox south > north", arguments: ["tiles", "-o", "x", "--bbox", "0,10,10,5"], exitCode: 64,
            mentions: ["0,10,10,5"]),
        BadTiles(
            name: "zoom 23", arguments: ["tiles", "-o", "x", "--zoom", "0-23"], exitCode: 64,
            mentions: ["0-23", "0...22"]),
        BadTiles(name: "min > max", arguments: ["tiles", "-o", "x", "--zoom", "5-3"], exitCode: 64, mentions: ["5-3"]),
        BadTiles(
            name: "format", arguments: ["tiles", "-o", "x", "--format", "tiff"], exitCode: 64,
            mentions: ["tiff", "png8", "jpg", "webp"]),
        BadTiles(
            name: "shard 3/2", arguments: ["tiles", "-o", "x", "--shard", "3/2"], exitCode: 64,
            mentions: ["3/2", "I/N"]),
        BadTiles(
            name: "existing output", arguments: ["tiles", "-o", "exists.mbtiles", "--zoom", "0"], exitCode: 1,
            mentions: ["exists", "--force", "--resume"]),
        BadTiles(
            name: "unwritable output", arguments: ["tiles", "-o", "missing/x.mbtiles"], exitCode: 1,
            mentions: ["missing", "does not exist"]),
        BadTiles(
            name: "merge conflict", arguments: ["mbtiles", "merge", "out.mbtiles", "exists.mbtiles", "other.mbtiles"],
            exitCode: 1, mentions: ["differs"]),
    ]

    @Test("bad input: a clear error and nothing half-written", arguments: bad)
    func badInput(_ bad: BadTiles) throws {
        try withTemporaryDirectory { dir in
            #expect(
                try CLI.run(["tiles", "-o", "exists.mbtiles", "--zoom", "0", "--quiet"], in: dir.url).exitCode == 0)
            #expect(
                try CLI.run(
                    ["tiles", "-o", "other.mbtiles", "--zoom", "0", "--quiet", "--format", "png8"], in: dir.url
                ).exitCode == 0)
            let before = try dir.listing()
            let result = try CLI.run(bad.arguments, in: dir.url)
            #expect(result.exitCode == bad.exitCode, "\(result)")
            for text in bad.mentions {
                #expect(result.standardError.contains(text), "should mention \(text): \(result)")
            }
            #expect(try dir.listing() == before)
        }
    }
}
