import Foundation
import MapGeometry
import MapStorage
import MapTestSupport
import Testing

/// Broken copies of the fixtures' PMTiles archives: each must give its typed error, never a crash.
@Suite struct CorruptTileSourceTests {
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url.path
    }

    static func setU64(_ bytes: inout [UInt8], at offset: Int, _ value: UInt64) {
        for i in 0..<8 { bytes[offset + i] = UInt8(value >> (8 * UInt64(i)) & 0xFF) }
    }

    static let leaves: [UInt8] = (try? [UInt8](Fixtures.data("tilestores/leaves.pmtiles"))) ?? []
    static let small: [UInt8] = (try? [UInt8](Fixtures.data("tilestores/tippecanoe.pmtiles"))) ?? []

    static let openCases: [(id: String, make: @Sendable () -> [UInt8], expected: String)] = [
        ("empty", { [] }, "notPMTiles"),
        ("header-truncated", { Array(small.prefix(100)) }, "notPMTiles"),
        (
            "wrong-magic",
            {
                var b = small; b[0] = UInt8(ascii: "X"); return b
            }, "notPMTiles"
        ),
        (
            "version-2",
            {
                var b = small; b[7] = 2; return b
            }, "notPMTiles"
        ),
        (
            "root-past-end",
            {
                var b = small; setU64(&b, at: 8, UInt64(small.count)); return b
            }, "corruptPMTiles"
        ),
        (
            "root-length-huge",
            {
                var b = small; setU64(&b, at: 16, UInt64.max); return b
            }, "corruptPMTiles"
        ),
        (
            "data-past-end",
            {
                var b = small; setU64(&b, at: 64, 1 << 40); return b
            }, "corruptPMTiles"
        ),
        ("truncated-body", { Array(small.prefix(small.count - 200)) }, "corruptPMTiles"),
        (
            "root-garbage",
            {
                var b = small; for i in 127..<150 { b[i] = 0xA5 }; return b
            }, "corruptPMTiles"
        ),
        (
            "brotli-internal",
            {
                var b = small; b[97] = 3; return b
            }, "corruptPMTiles"
        ),
    ]

    @Test(arguments: openCases.map(\.id))
    func brokenArchiveIsATypedError(id: String) throws {
        let entry = try #require(Self.openCases.first { $0.id == id })
        let path = try Self.write(entry.make(), name: "\(id).pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let archive = try PMTilesFile(path: path)
            // Some damage only shows when tiles are read.
            for z in 0...6 { _ = try archive.tile(TileID(z: z, x: 0, y: 0)) }
            _ = try archive.tile(TileID(z: 6, x: 33, y: 23))
            Issue.record("\(id): no error")
        } catch let error as StorageError {
            let kind: String
            switch error {
            case .notPMTiles: kind = "notPMTiles"
            case .corruptPMTiles: kind = "corruptPMTiles"
            case .badTile: kind = "badTile"
            default: kind = "\(error)"
            }
            #expect(kind == entry.expected, "\(id): \(error)")
            #expect(error.description.contains(path))
        }
    }

    /// Leaf entries pointing past a shrunken leaf section, and a leaf directory cut short.
    @Test func leafDirectoryPastTheEndIsATypedError() throws {
        var bytes = Self.leaves
        Self.setU64(&bytes, at: 48, 64)  // the leaf section now holds 64 bytes
        let path = try Self.write(bytes, name: "leaves.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The root directory itself is checked when the archive opens, or the lookup fails.
        let error = #expect(throws: StorageError.self) {
            let archive = try PMTilesFile(path: path)
            for x in stride(from: 0, to: 4096, by: 64) { _ = try archive.tile(TileID(z: 12, x: x, y: 1000)) }
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("past the end of the leaf"))
    }

    @Test func corruptGzipTileIsATypedErrorNamingTheTile() throws {
        var bytes = Self.small
        // Damage the tile data section (it follows the directories and metadata).
        let dataOffset = Int(bytes[56]) | Int(bytes[57]) << 8
        for i in (dataOffset + 12)..<(dataOffset + 40) { bytes[i] ^= 0x5A }
        let path = try Self.write(bytes, name: "badgzip.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let archive = try PMTilesFile(path: path)
        var errors: [StorageError] = []
        for z in 0...6 {
            for x in 0..<(1 << min(z, 6)) {
                for y in 0..<(1 << min(z, 6)) {
                    do { _ = try archive.tile(TileID(z: z, x: x, y: y)) } catch let error as StorageError {
                        errors.append(error)
                    }
                }
            }
        }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { if case .badTile = $0 { return true } else { return false } })
    }

    /// 1,000 random mutations of the fixture archives (1 in 10 of the leaf-directory one): typed errors or
    /// tiles, never a crash.
    @Test func randomMutationsNeverCrash() throws {
        var state: UInt64 = 0x1234_5678
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mutations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var opened = 0
        for round in 0..<1_000 {
            let small = round % 10 != 0
            var bytes = small ? Self.small : Self.leaves
            let limit = small ? bytes.count : min(bytes.count, 600)  // the leaves file: its header and root
            for _ in 0..<(1 + next() % 4) { bytes[next() % limit] = UInt8(truncatingIfNeeded: next()) }
            let url = folder.appendingPathComponent("m.pmtiles")
            try Data(bytes).write(to: url)
            guard let archive = try? PMTilesFile(path: url.path) else { continue }
            opened += 1
            for z in 0...6 { _ = try? archive.tile(TileID(z: z, x: (1 << z) / 2, y: (1 << z) / 3)) }
            _ = try? archive.tile(TileID(z: 12, x: next() % 4096, y: next() % 4096))
        }
        #expect(opened > 100)
    }
}
