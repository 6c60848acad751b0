import Foundation
import MapGeometry

/// The one place MapRaster finds the data it ships (styles, Natural Earth, Blue Marble, geocoding data):
/// SwiftPM's resource bundles, looked up without `Bundle.module`, whose accessor ends the process with a
/// fatal error when a binary was copied away from its build folder.
///
/// A file `subdirectory/name` of the bundle `MapRaster_<Module>.resources` is searched, in this order, in:
/// 1. `$MAPRASTER_RESOURCES/MapRaster_<Module>.resources` when the environment variable is set;
/// 2. `<folder of the executable>/MapRaster_<Module>.resources` (a `swift build` products folder, or a
///    copy of the binary with its bundles beside it);
/// 3. `<PREFIX>/share/mapraster/MapRaster_<Module>.resources`, where the executable is `<PREFIX>/bin/…`
///    (what `Scripts/install.sh PREFIX` installs).
///
/// The executable is found through `/proc/self/exe` (symlinks resolved) and, when it was started through a
/// symlink, also through its first argument. The folders are computed once per process (thread-safe
/// statics); files are plain paths below them, so no `Bundle` is queried from several threads.
public struct ShippedResources: Sendable {
    /// The name of the environment variable that points at a folder holding the resource bundles.
    public static let environmentVariable = "MAPRASTER_RESOURCES"

    /// The base map's bundle (styles, Natural Earth, GeoNames, Helsinki, Blue Marble, vector tiles).
    public static let baseMap = ShippedResources(module: "MapBaseMap")
    /// The geocoder's bundle (`geocoding/geocoding.bin`).
    public static let geocoding = ShippedResources(module: "MapGeocoding")

    /// The bundle folder's name, `MapRaster_<Module>.resources` (SwiftPM's name for the package's bundle).
    public let bundleName: String
    /// Where the bundle folder may be, in search order.
    public let candidates: [URL]

    /// The bundle of a module of this package, searched in the default places.
    public init(module: String) {
        let bundleName = "MapRaster_\(module).resources"
        self.init(
            bundleName: bundleName,
            candidates: Self.searchFolders(
                environment: ProcessInfo.processInfo.environment[Self.environmentVariable],
                executables: Self.executablePaths()
            ).map { $0.appendingPathComponent(bundleName, isDirectory: true) })
    }

    /// A bundle searched in the given places (for tests).
    public init(bundleName: String, candidates: [URL]) {
        self.bundleName = bundleName
        self.candidates = candidates
    }

    /// The folders that hold resource bundles, in search order: the environment variable's folder, the
    /// executables' folders, then `../share/mapraster` of each, without repeats.
    public static func searchFolders(environment: String?, executables: [String]) -> [URL] {
        var folders: [URL] = []
        if let environment, !environment.isEmpty {
            folders.append(URL(fileURLWithPath: environment, isDirectory: true).standardizedFileURL)
        }
        let binFolders = executables.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().standardizedFileURL
        }
        folders += binFolders
        folders += binFolders.map {
            $0.deletingLastPathComponent().appendingPathComponent("share/mapraster", isDirectory: true)
                .standardizedFileURL
        }
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.path).inserted }
    }

    /// The running executable: `/proc/self/exe` resolved, then the first argument when it names a file.
    static func executablePaths() -> [String] {
        var paths: [String] = []
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0, n < buffer.count {
            buffer[n] = 0
            paths.append(String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        if let first = CommandLine.arguments.first, first.contains("/") {
            let absolute = first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
            paths.append(absolute)
        }
        return paths
    }

    /// The file `subdirectory/name` in the first place that has it, or nil.
    public func url(_ name: String, subdirectory: String) -> URL? {
        for folder in candidates {
            let url = folder.appendingPathComponent(subdirectory).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }

    /// The file `subdirectory/name` in the first place that has it.
    ///
    /// - Throws: ``MissingResourceError`` naming the file and every place looked at.
    public func require(_ name: String, subdirectory: String) throws -> URL {
        if let url = url(name, subdirectory: subdirectory) { return url }
        throw MissingResourceError(
            resource: subdirectory + "/" + name, bundleName: bundleName,
            looked: candidates.map { $0.appendingPathComponent(subdirectory).appendingPathComponent(name).path })
    }
}

/// A file MapRaster ships with is missing: the binary was copied without its resource bundles, or a
/// bundle is incomplete.
public struct MissingResourceError: MapRasterError, Equatable {
    /// The file inside the bundle, such as `styles/standard.json`.
    public var resource: String
    /// The bundle folder's name, such as `MapRaster_MapBaseMap.resources`.
    public var bundleName: String
    /// Every path looked at, in search order.
    public var looked: [String]

    /// Creates the error.
    public init(resource: String, bundleName: String, looked: [String]) {
        self.resource = resource
        self.bundleName = bundleName
        self.looked = looked
    }

    public var description: String {
        "the shipped resource '\(resource)' (of \(bundleName)) is missing; looked at "
            + (looked.isEmpty ? "no place" : looked.joined(separator: ", "))
            + ". Install MapRaster with Scripts/install.sh PREFIX (bin/mapraster and share/mapraster), keep the "
            + "\(bundleName) folder next to the binary, or set \(ShippedResources.environmentVariable) to a folder "
            + "holding it"
    }
}
