import Foundation
import MapTestSupport
import Testing

/// Runs the built `mapraster` executable as a child process, the way a user would.
///
/// Each run gets its own working directory (see ``TemporaryDirectory``); stdout and stderr are captured
/// through files kept outside that directory, so that listing the directory shows only what the CLI wrote.
enum CLI {
    /// The outcome of one run.
    struct Result: CustomStringConvertible {
        var arguments: [String]
        var exitCode: Int32
        var standardOutput: String
        var standardError: String

        var description: String {
            "mapraster \(arguments.joined(separator: " ")) -> exit \(exitCode)\n"
                + "stdout: \(standardOutput.debugDescription)\nstderr: \(standardError.debugDescription)"
        }
    }

    /// Where the executable may be: next to the running test bundle (the products folder of this very
    /// build, whatever the configuration or scratch path), then `<package>/.build/debug/mapraster`.
    static var candidates: [URL] {
        var urls: [URL] = []
        if let testBinary = Bundle.main.executableURL {
            urls.append(testBinary.deletingLastPathComponent().appendingPathComponent("mapraster"))
        }
        let arg0 = URL(fileURLWithPath: CommandLine.arguments[0])
        urls.append(arg0.deletingLastPathComponent().appendingPathComponent("mapraster"))
        urls.append(Fixtures.packageRoot.appendingPathComponent(".build/debug/mapraster"))
        return urls
    }

    /// The executable, or a thrown error explaining how to build it.
    static func executable() throws -> URL {
        for url in candidates where FileManager.default.isExecutableFile(atPath: url.path) {
            return url
        }
        throw HarnessError(
            "the mapraster executable was not found; looked at \(candidates.map(\.path).joined(separator: ", ")). "
                + "Build it first with `swift build --build-tests` (MapCLITests depends on the mapraster product).")
    }

    /// How long a run may take before the harness calls it hung and stops it: a guard against a hang, not a
    /// speed check, so far above any run on a machine whose cores are busy with other work. Speed is measured
    /// in Benchmarks/.
    static let hangGuard: TimeInterval = 900

    /// Runs `mapraster arguments` with `directory` as the working directory and waits for it to exit.
    ///
    /// - Parameter launcher: a command that runs the executable given as its last argument, such as
    ///   `["/usr/bin/setpriv", "--reuid=65534", ...]` to run it as another user; empty to run it directly.
    /// - Parameter standardInput: a file given to the executable as its standard input (else /dev/null).
    /// - Throws: when the executable is missing, cannot be started or hangs (runs longer than `timeout` seconds).
    static func run(
        _ arguments: [String], in directory: URL, launcher: [String] = [], timeout: TimeInterval = hangGuard,
        standardInput: URL? = nil
    ) throws -> Result {
        let io = try TemporaryDirectory(prefix: "mapraster-cli-io")
        defer { io.remove() }
        let outURL = io.url.appendingPathComponent("stdout")
        let errURL = io.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        if let tool = launcher.first {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = Array(launcher.dropFirst()) + [try executable().path] + arguments
        } else {
            process.executableURL = try executable()
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        process.standardInput = try standardInput.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw HarnessError(
                "mapraster \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s: hung")
        }
        process.waitUntilExit()
        try out.close()
        try err.close()

        return Result(
            arguments: arguments,
            exitCode: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A failure of the test harness itself (not of the CLI).
struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A fresh, empty directory under the system's temporary folder, with symlinks resolved so that it
/// compares equal to the absolute paths the CLI prints.
struct TemporaryDirectory {
    let url: URL

    init(prefix: String = "mapraster-cli-test") throws {
        let base = FileManager.default.temporaryDirectory.resolvingSymlinksInPath()
        url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// Removes the directory and everything in it, making read-only subfolders writable first.
    func remove() {
        if let walker = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in walker {
                let full = url.appendingPathComponent(path).path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), isDirectory.boolValue {
                    chmod(full, 0o755)
                }
            }
        }
        try? FileManager.default.removeItem(at: url)
    }

    /// The URL of `name` inside the directory.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes a text file into the directory.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let target = file(name)
        try Data(text.utf8).write(to: target)
        return target
    }

    /// The names of every entry, hidden ones included, sorted.
    func listing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

/// Runs `body` with a fresh temporary working directory that is removed afterwards.
func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try body(directory)
}

/// The `--metadata` JSON file, decoded strictly: every member must be present with the right type.
struct Metadata: Decodable {
    struct Size: Decodable { var width: Double; var height: Double }
    struct Coordinate: Decodable { var latitude: Double; var longitude: Double }
    struct Span: Decodable { var latitudeDelta: Double; var longitudeDelta: Double }
    struct Region: Decodable { var center: Coordinate; var span: Span }
    struct Rect: Decodable { var x: Double; var y: Double; var width: Double; var height: Double }
    struct Annotation: Decodable {
        var title: String?
        var subtitle: String?
        var coordinate: Coordinate
        var frame: Rect
    }

    var size: Size
    var scale: Double
    var pixelSize: Size
    var region: Region
    var visibleMapRect: Rect
    var zoomLevel: Double
    var tileZoom: Double
    var annotations: [Annotation]

    static func load(_ url: URL) throws -> Metadata {
        try JSONDecoder().decode(Metadata.self, from: Data(contentsOf: url))
    }
}

/// Independent Web Mercator formulas (MapKit's map points, 2^28 on a side) to check the CLI's numbers.
enum Mercator {
    static let world = 268_435_456.0

    static func x(longitude: Double) -> Double { (longitude + 180) / 360 * world }

    static func y(latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        return (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * world
    }

    /// The image point (origin top-left, in points) of a coordinate in a snapshot described by `metadata`.
    static func imagePoint(latitude: Double, longitude: Double, in metadata: Metadata) -> (x: Double, y: Double) {
        let rect = metadata.visibleMapRect
        let perPoint = rect.width / metadata.size.width
        return ((x(longitude: longitude) - rect.x) / perPoint, (y(latitude: latitude) - rect.y) / perPoint)
    }
}

/// Whether `a` and `b` differ by at most `tolerance`.
func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
