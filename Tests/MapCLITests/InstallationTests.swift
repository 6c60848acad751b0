import Foundation
import MapData
import MapTestSupport
import Testing

/// A `mapraster` binary copied away from its build folder finds its resources beside it, under
/// `PREFIX/share/mapraster` or through `MAPRASTER_RESOURCES`, and a missing resource is a clear error naming
/// the file and every place looked at (issue #13: it died with a Swift fatal error, exit 132).
///
/// The binary is the one this test run built (next to the test bundle); its resource bundles are the
/// `MapRaster_*.resources` folders beside it. Truth for "renders": the same command run from the build
/// folder gives the same PNG bytes.
@Suite("Installation: a copied mapraster finds its resources, or says which one is missing and where it looked")
struct InstallationTests {
    static let bundles = ["MapRaster_MapBaseMap.resources", "MapRaster_MapGeocoding.resources"]

    /// The built binary and its folder, or nil with the reason (then the tests are skipped).
    static let built: (binary: URL, folder: URL)? = {
        guard let binary = try? CLI.executable() else { return nil }
        let folder = binary.deletingLastPathComponent()
        for bundle in bundles where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(bundle).path)
        {
            return nil
        }
        return (binary, folder)
    }()

    /// Runs `executable arguments` in `directory` with `MAPRASTER_RESOURCES` set to `resources` (or unset).
    static func run(
        _ executable: URL, _ arguments: [String], in directory: URL, resources: String? = nil
    ) throws -> (exitCode: Int32, stdout: Data, stderr: String) {
        let io = try TemporaryDirectory(prefix: "mapraster-install-io")
        defer { io.remove() }
        let outURL = io.file("stdout")
        let errURL = io.file("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment[ShippedResources.environmentVariable] = resources
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(CLI.hangGuard)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw HarnessError("\(executable.path) \(arguments) did not finish within \(Int(CLI.hangGuard)) s: hung")
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return (
            process.terminationStatus, try Data(contentsOf: outURL),
            String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        )
    }

    /// Copies the binary to `folder/mapraster` and the bundles into `resources` (when given).
    static func install(_ built: (binary: URL, folder: URL), binaryIn folder: URL, resourcesIn resources: URL?) throws
        -> URL
    {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = folder.appendingPathComponent("mapraster")
        try fm.copyItem(at: built.binary, to: binary)
        if let resources {
            try fm.createDirectory(at: resources, withIntermediateDirectories: true)
            for bundle in bundles {
                try fm.copyItem(
                    at: built.folder.appendingPathComponent(bundle), to: resources.appendingPathComponent(bundle))
            }
        }
        return binary
    }

    /// The default map rendered by the binary in its build folder: the truth copies must match.
    static func reference(_ built: (binary: URL, folder: URL), in directory: URL) throws -> Data {
        let result = try run(built.binary, ["-o", "-"], in: directory)
        try #require(result.exitCode == 0, "the build folder's binary failed: \(result.stderr)")
        return result.stdout
    }

    enum Layout: String, CaseIterable, Sendable {
        /// `PREFIX/bin/mapraster` and `PREFIX/share/mapraster/MapRaster_*.resources` (Scripts/install.sh).
        case prefix
        /// The bundles beside the binary, as `swift build` leaves them.
        case beside
        /// The binary alone, `MAPRASTER_RESOURCES` naming a folder holding the bundles.
        case environment
    }

    @Test("a copy renders the default map, byte-identical to the build folder's", arguments: Layout.allCases)
    func copiedBinaryRenders(_ layout: Layout) throws {
        guard let built = Self.built else {
            print("InstallationTests skipped: no built mapraster with its resource bundles next to the test bundle")
            return
        }
        try withTemporaryDirectory { dir in
            let expected = try Self.reference(built, in: dir.url)
            let binary: URL
            var resources: String?
            switch layout {
            case .prefix:
                binary = try Self.install(
                    built, binaryIn: dir.file("prefix/bin"), resourcesIn: dir.file("prefix/share/mapraster"))
            case .beside:
                binary = try Self.install(built, binaryIn: dir.file("beside"), resourcesIn: dir.file("beside"))
            case .environment:
                binary = try Self.install(built, binaryIn: dir.file("alone"), resourcesIn: nil)
                resources = built.folder.path
            }
            let result = try Self.run(binary, ["-o", "-"], in: dir.url, resources: resources)
            #expect(result.exitCode == 0, "\(layout): \(result.stderr)")
            #expect(result.stdout == expected, "\(layout): \(result.stdout.count) bytes vs \(expected.count)")
        }
    }

    @Test("a removed style or geocoding file is a clear error naming it and every place looked at")
    func missingResource() throws {
        guard let built = Self.built else {
            print("InstallationTests skipped: no built mapraster with its resource bundles next to the test bundle")
            return
        }
        try withTemporaryDirectory { dir in
            let prefix = dir.file("prefix")
            let binary = try Self.install(
                built, binaryIn: prefix.appendingPathComponent("bin"),
                resourcesIn: prefix.appendingPathComponent("share/mapraster"))
            let share = prefix.appendingPathComponent("share/mapraster")
            try FileManager.default.removeItem(
                at: share.appendingPathComponent("MapRaster_MapBaseMap.resources/styles/standard.json"))
            try FileManager.default.removeItem(
                at: share.appendingPathComponent("MapRaster_MapGeocoding.resources/geocoding/geocoding.bin"))
            let before = try dir.listing()

            let cases: [(arguments: [String], resource: String, bundle: String)] = [
                (["-o", "map.png"], "styles/standard.json", "MapRaster_MapBaseMap.resources"),
                (
                    ["geocode", "--reverse", "60.17,24.94"], "geocoding/geocoding.bin",
                    "MapRaster_MapGeocoding.resources"
                ),
            ]
            for c in cases {
                for resources in [nil, dir.file("elsewhere").path] {
                    let result = try Self.run(binary, c.arguments, in: dir.url, resources: resources)
                    #expect(result.exitCode == 1, "\(c.arguments): \(result.stderr)")
                    #expect(result.stderr.hasPrefix("mapraster: error: "), "\(result.stderr)")
                    #expect(result.stderr.contains("'\(c.resource)'"), "\(result.stderr)")
                    #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
                    var looked = [
                        prefix.appendingPathComponent("bin/\(c.bundle)/\(c.resource)").path,
                        share.appendingPathComponent("\(c.bundle)/\(c.resource)").path,
                    ]
                    if let resources { looked.insert("\(resources)/\(c.bundle)/\(c.resource)", at: 0) }
                    let positions = looked.map { result.stderr.range(of: $0)?.lowerBound }
                    #expect(positions.allSatisfy { $0 != nil }, "looked at \(looked); said: \(result.stderr)")
                    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "search order")
                    #expect(result.stderr.contains(ShippedResources.environmentVariable))
                }
            }
            #expect(try dir.listing() == before, "a failed run wrote nothing")
        }
    }

    @Test("the binary copied alone, without any bundle, fails with exit 1, not a fatal error (exit 132)")
    func binaryAlone() throws {
        guard let built = Self.built else {
            print("InstallationTests skipped: no built mapraster with its resource bundles next to the test bundle")
            return
        }
        try withTemporaryDirectory { dir in
            let binary = try Self.install(built, binaryIn: dir.file("alone"), resourcesIn: nil)
            let result = try Self.run(binary, ["-o", "map.png"], in: dir.url)
            #expect(result.exitCode == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("mapraster: error: the shipped resource "), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("map.png").path))
        }
    }
}
