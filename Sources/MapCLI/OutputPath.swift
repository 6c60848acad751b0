import Foundation

/// Output files named on the command line: symbolic links are written through, never replaced, and an
/// output that is also an input is found whatever path or link names it.
enum OutputPath {
    /// The file a path finally names: a symbolic link (also a dangling one) is followed to its target, so
    /// that writing a temporary file and renaming it over the result replaces the target, not the link.
    ///
    /// - Throws: ``CLIError/failure(_:)`` for a loop of links.
    static func resolve(_ url: URL) throws -> URL {
        // A device or FIFO is written through its links as they are (/dev/stdout links to /proc/self/fd/1,
        // whose target, "pipe:[N]", is no path).
        var info = stat()
        if stat(url.path, &info) == 0, [S_IFCHR, S_IFIFO].contains(info.st_mode & S_IFMT) { return url }
        var path = url.path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return URL(fileURLWithPath: path) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count > 0 else { return URL(fileURLWithPath: path) }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path =
                target.hasPrefix("/")
                ? target : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(target).path
        }
        throw CLIError.failure("cannot write '\(url.path)': too many levels of symbolic links")
    }

    /// The device and inode of an existing file (links followed), or nil when there is none.
    static func identity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether `path` (links followed) is a folder.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Refuses an existing output that is a device, FIFO or socket, for outputs that must be files or
    /// folders (an MBTiles database, a tile folder, a geocoded file renamed into place): replacing it (as
    /// root, `/dev/null`) would destroy it. Images and metadata go through `AtomicFile`, which writes into
    /// character devices and FIFOs instead.
    static func checkNotSpecial(_ url: URL, named: String, because reason: String) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFDIR else {
            throw CLIError.failure(
                "cannot write '\(named)': it is not a regular file (a device, FIFO or socket) and \(reason); "
                    + "give a file name")
        }
    }

    /// Removes the folder at `path` and the folders inside it if they hold no files (rmdir(2) only: a file
    /// anywhere keeps it and its parents).
    static func removeEmptyFolders(at path: String) {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: path) {
            for name in names where isDirectory(path + "/" + name) { removeEmptyFolders(at: path + "/" + name) }
        }
        rmdir(path)
    }

    /// Removes an MBTiles file's SQLite side files (`-wal`, `-shm`, `-journal`), never folders.
    static func removeSideFiles(of path: String) {
        for suffix in ["-wal", "-shm", "-journal"] where !isDirectory(path + suffix) { unlink(path + suffix) }
    }
}

/// A file's identity on disk: two paths with the same identity are the same file.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}
