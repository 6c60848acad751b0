import Foundation
import MapGeometry

/// Reads whole files with plain-word errors: every file the command line and the library loaders read
/// (scenes, styles, GeoJSON, PNGs) goes through it.
///
/// Foundation's `Data(contentsOf:)` reports a folder as "NSCocoaErrorDomain error 256", may claim "You
/// don't have permission" for a device, and reads `/dev/zero` until memory runs out. The reader opens the
/// file without blocking (a FIFO does not hang it), refuses anything but a regular file, and refuses a
/// file above a size limit before reading it (and stops reading if it grows past the limit meanwhile).
///
/// ```swift
/// let data = try FileReader.read(URL(fileURLWithPath: "scene.json"))
/// ```
public enum FileReader {
    /// The default size limit: 1 GiB.
    public static let defaultLimit = 1 << 30

    /// Checks that `url` names a regular file (links followed) of at most `limit` bytes, without opening
    /// it, for readers that open files themselves (Cairo's PNG loader blocks forever on a FIFO).
    ///
    /// - Returns: `url`, so that the check can wrap an argument.
    /// - Throws: ``FileReadError`` saying what is wrong in plain words.
    public static func checkedRegularFile(_ url: URL, limit: Int = defaultLimit) throws(FileReadError) -> URL {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw FileReadError(path: url.path, problem: .init(errno: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FileReadError(path: url.path, problem: .isDirectory)
        default: throw FileReadError(path: url.path, problem: .notRegularFile)
        }
        let size = Int(clamping: info.st_size)
        guard size <= limit else { throw FileReadError(path: url.path, problem: .tooLarge(size: size, limit: limit)) }
        return url
    }

    /// The bytes of the regular file at `url`.
    ///
    /// - Parameters:
    ///   - url: a file URL; symbolic links are followed.
    ///   - limit: the largest size accepted, in bytes.
    /// - Returns: the file's bytes.
    /// - Throws: ``FileReadError`` saying what is wrong in plain words.
    public static func read(_ url: URL, limit: Int = defaultLimit) throws(FileReadError) -> Data {
        let path = url.path
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(path: path, problem: .init(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileReadError(path: path, problem: .init(errno: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FileReadError(path: path, problem: .isDirectory)
        default: throw FileReadError(path: path, problem: .notRegularFile)
        }
        let size = Int(clamping: info.st_size)
        guard size <= limit else { throw FileReadError(path: path, problem: .tooLarge(size: size, limit: limit)) }
        var data = Data(count: size)
        var total = 0
        // Read the announced size, then check the file did not grow past the limit meanwhile.
        while true {
            if total == data.count {
                guard data.count <= limit else {
                    throw FileReadError(path: path, problem: .tooLarge(size: data.count, limit: limit))
                }
                data.count += min(1 << 16, limit - data.count + 1)
            }
            let count = data.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Foundation.read(fd, base + total, raw.count - total)
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw FileReadError(path: path, problem: .init(errno: errno))
            }
            if count == 0 { break }
            total += count
        }
        data.count = total
        return data
    }
}

/// Why a file could not be read, in plain words.
///
/// `localizedDescription` is the problem alone (callers name the file), never a bare NSCocoaErrorDomain code.
public struct FileReadError: MapRasterError, Equatable {
    /// What went wrong.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// Nothing at the path.
        case noSuchFile
        /// The path names a folder.
        case isDirectory
        /// A device, FIFO or socket.
        case notRegularFile
        /// Larger than the limit, in bytes.
        case tooLarge(size: Int, limit: Int)
        /// The file or a folder on its path may not be read.
        case permissionDenied
        /// Another operating-system error, with its message.
        case system(String)

        init(errno code: Int32) {
            switch code {
            case ENOENT: self = .noSuchFile
            case EACCES, EPERM: self = .permissionDenied
            case EISDIR: self = .isDirectory
            case ENOTDIR: self = .system("a part of the path is not a folder")
            case ELOOP: self = .system("too many levels of symbolic links")
            default: self = .system(String(cString: strerror(code)))
            }
        }

        public var description: String {
            switch self {
            case .noSuchFile: return "no such file"
            case .isDirectory: return "is a directory"
            case .notRegularFile: return "is not a regular file (a device, FIFO or socket)"
            case let .tooLarge(size, limit): return "too large (limit \(limit) bytes): \(size) bytes"
            case .permissionDenied: return "permission denied"
            case .system(let message): return message
            }
        }
    }

    /// The path as given.
    public var path: String
    /// What went wrong.
    public var problem: Problem

    /// Creates an error.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "cannot read '\(path)': \(problem)" }

    /// The problem alone, in plain words, for callers that name the file themselves.
    public var errorDescription: String? { problem.description }
}
