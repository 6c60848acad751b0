import Foundation

/// Files in MapRender's resource bundle, found without calling `Bundle` on every use: Foundation's
/// `Bundle` on Linux is not safe to query from several threads at once, so the bundle's folder is
/// looked up once (a thread-safe static) and files are paths below it.
enum BundledResource {
    /// The bundle's resource folder, looked up once per process.
    static let folder: URL? = Bundle.module.resourceURL

    /// The file `subdirectory/name`, or nil when the bundle or the file is missing.
    static func url(_ name: String, subdirectory: String) -> URL? {
        guard let url = folder?.appendingPathComponent(subdirectory).appendingPathComponent(name),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url
    }
}
