import Foundation
import MapRaster
import MapStorage
import MapTestSupport
import Testing

/// Two commands writing the same output at once (issue #16's concurrent writers): no corruption, either a
/// clear error or a consistent result, and no file changed that a command was not asked to write.
///
/// Truth is a single run of the same command in a folder of its own: whatever the interleaving, the output
/// left behind must hold exactly its tiles (or bytes).
@Suite("Concurrent writers: two commands on one output give a clear error or a consistent result")
struct ConcurrentWriterTests {
    /// Starts every command at once in `directory` and waits for all of them.
    static func together(_ commands: [[String]], in directory: URL) throws -> [CLI.Result] {
        let io = try TemporaryDirectory(prefix: "mapraster-concurrent-io")
        defer { io.remove() }
        let executable = try CLI.executable()
        var running: [(Process, URL, URL, FileHandle, FileHandle)] = []
        for (i, arguments) in commands.enumerated() {
            let outURL = io.file("out-\(i)")
            let errURL = io.file("err-\(i)")
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let out = try FileHandle(forWritingTo: outURL)
            let err = try FileHandle(forWritingTo: errURL)
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = out
            process.standardError = err
            running.append((process, outURL, errURL, out, err))
        }
        for (process, _, _, _, _) in running { try process.run() }
        let deadline = Date().addingTimeInterval(CLI.hangGuard)
        var results: [CLI.Result] = []
        for (i, (process, outURL, errURL, out, err)) in running.enumerated() {
            while process.isRunning && Date() < deadline { usleep(5_000) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                throw HarnessError("mapraster \(commands[i].joined(separator: " ")) did not finish: hung")
            }
            process.waitUntilExit()
            try out.close()
            try err.close()
            results.append(
                CLI.Result(
                    arguments: commands[i], exitCode: process.terminationStatus,
                    standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                    standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)))
        }
        return results
    }

    /// Every tile of an MBTiles file.
    static func tiles(_ url: URL) throws -> [TileID: Data] {
        var all: [TileID: Data] = [:]
        try MBTilesFile.open(at: url).forEachTile { all[$0] = $1 }
        return all
    }

    /// Every file under a folder with its bytes, by relative path.
    static func files(_ folder: URL) throws -> [String: Data] {
        var all: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                all[path] = try Data(contentsOf: url)
            }
        }
        return all
    }

    static let pyramid = ["--zoom", "0-2", "--quiet"]

    /// A single run's tiles: the truth.
    static func reference(_ arguments: [String], output: String) throws -> [TileID: Data] {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(arguments, in: dir.url)
            try #require(result.exitCode == 0, "\(result)")
            return try tiles(dir.file(output))
        }
    }

    /// The run failed with one of the messages a lost race may give, and said so plainly.
    static func expectClearRefusal(_ result: CLI.Result, _ fragments: [String]) {
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.standardError.hasPrefix("mapraster: error: "), "\(result)")
        #expect(fragments.contains { result.standardError.contains($0) }, "\(result)")
        for bad in ["Fatal error", ".tmp", "SQLite failed", "NSCocoaErrorDomain"] {
            #expect(!result.standardError.contains(bad), "\(result)")
        }
    }

    static let lostRace = ["exists; pass --force", "was created by another process"]

    @Test("two tiles runs creating one MBTiles file: one writes it whole, the other refuses and leaves it alone")
    func twoTilesRunsOneMBTiles() throws {
        let truth = try Self.reference(["tiles", "-o", "out.mbtiles"] + Self.pyramid, output: "out.mbtiles")
        #expect(truth.count == 21)
        for round in 0..<3 {
            try withTemporaryDirectory { dir in
                let command = ["tiles", "-o", "out.mbtiles"] + Self.pyramid
                let results = try Self.together([command, command], in: dir.url)
                let winners = results.filter { $0.exitCode == 0 }
                #expect(winners.count == 1, "round \(round): \(results)")
                for loser in results where loser.exitCode != 0 { Self.expectClearRefusal(loser, Self.lostRace) }
                #expect(try Self.tiles(dir.file("out.mbtiles")) == truth, "round \(round)")
                #expect(try dir.listing() == ["out.mbtiles"], "round \(round): nothing else left behind")
            }
        }
    }

    @Test("two tiles --force runs replacing one MBTiles file: both finish, the file is one whole run")
    func twoForcedRuns() throws {
        let truth = try Self.reference(["tiles", "-o", "out.mbtiles"] + Self.pyramid, output: "out.mbtiles")
        try withTemporaryDirectory { dir in
            try Data("old".utf8).write(to: dir.file("out.mbtiles"))
            try dir.write("keep.txt", "not asked to be written")
            let command = ["tiles", "-o", "out.mbtiles", "--force"] + Self.pyramid
            let results = try Self.together([command, command], in: dir.url)
            #expect(results.allSatisfy { $0.exitCode == 0 }, "\(results)")
            #expect(try Self.tiles(dir.file("out.mbtiles")) == truth)
            #expect(try dir.listing() == ["keep.txt", "out.mbtiles"])
            #expect(try String(contentsOf: dir.file("keep.txt"), encoding: .utf8) == "not asked to be written")
        }
    }

    @Test("two tiles runs into one folder: every tile is one run's bytes, whoever refuses says why")
    func twoRunsOneFolder() throws {
        let truth = try withTemporaryDirectory { dir -> [String: Data] in
            let result = try CLI.run(["tiles", "-o", "t"] + Self.pyramid, in: dir.url)
            try #require(result.exitCode == 0, "\(result)")
            return try Self.files(dir.file("t"))
        }
        #expect(truth.count == 23)  // 21 tiles, metadata.json and tiles.json
        try withTemporaryDirectory { dir in
            let command = ["tiles", "-o", "t"] + Self.pyramid
            let results = try Self.together([command, command], in: dir.url)
            #expect(results.contains { $0.exitCode == 0 }, "\(results)")
            for loser in results where loser.exitCode != 0 {
                Self.expectClearRefusal(loser, ["exists; pass --force"])
            }
            #expect(try Self.files(dir.file("t")) == truth)
            #expect(try dir.listing() == ["t"])
        }
    }

    @Test("mbtiles merge while a tiles run writes its input: a consistent subset or a clear error; the input is whole")
    func mergeWhileWriting() throws {
        let truth = try Self.reference(["tiles", "-o", "w.mbtiles", "--zoom", "0-3", "--quiet"], output: "w.mbtiles")
        try withTemporaryDirectory { dir in
            // The merge starts a moment later, while the tiles run is under way.
            let results = try Self.together(
                [
                    ["tiles", "-o", "w.mbtiles", "--zoom", "0-3", "--quiet"],
                    ["mbtiles", "merge", "m.mbtiles", "w.mbtiles"],
                ], in: dir.url)
            #expect(results[0].exitCode == 0, "\(results[0])")
            #expect(try Self.tiles(dir.file("w.mbtiles")) == truth, "the input being written is whole")
            if results[1].exitCode == 0 {
                let merged = try Self.tiles(dir.file("m.mbtiles"))
                #expect(merged.allSatisfy { truth[$0.key] == $0.value }, "merged tiles are the run's tiles")
                #expect(try dir.listing() == ["m.mbtiles", "w.mbtiles"])
            } else {
                Self.expectClearRefusal(results[1], ["w.mbtiles"])
                #expect(try dir.listing() == ["w.mbtiles"])
            }
        }
    }

    @Test("two merges into one new output: one writes it, the other refuses and leaves it alone")
    func twoMerges() throws {
        try withTemporaryDirectory { dir in
            let made = try CLI.run(["tiles", "-o", "a.mbtiles"] + Self.pyramid, in: dir.url)
            try #require(made.exitCode == 0, "\(made)")
            let truth = try Self.tiles(dir.file("a.mbtiles"))
            for round in 0..<3 {
                let command = ["mbtiles", "merge", "m\(round).mbtiles", "a.mbtiles"]
                let results = try Self.together([command, command], in: dir.url)
                #expect(results.filter { $0.exitCode == 0 }.count == 1, "round \(round): \(results)")
                for loser in results where loser.exitCode != 0 { Self.expectClearRefusal(loser, Self.lostRace) }
                #expect(try Self.tiles(dir.file("m\(round).mbtiles")) == truth)
            }
            #expect(try Self.tiles(dir.file("a.mbtiles")) == truth, "the input is unchanged")
            #expect(try dir.listing() == ["a.mbtiles", "m0.mbtiles", "m1.mbtiles", "m2.mbtiles"])
        }
    }

    @Test("two renders to one -o file: both finish and the file is one whole image")
    func twoRenders() throws {
        let truth = try withTemporaryDirectory { dir -> Data in
            let result = try CLI.run(["-o", "map.png", "--center", "60,25", "--zoom", "4"], in: dir.url)
            try #require(result.exitCode == 0, "\(result)")
            return try Data(contentsOf: dir.file("map.png"))
        }
        try withTemporaryDirectory { dir in
            let command = ["-o", "map.png", "--center", "60,25", "--zoom", "4"]
            let results = try Self.together([command, command, command], in: dir.url)
            #expect(results.allSatisfy { $0.exitCode == 0 }, "\(results)")
            #expect(try Data(contentsOf: dir.file("map.png")) == truth)
            #expect(try dir.listing() == ["map.png"])
        }
    }
}
