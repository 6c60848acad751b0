import Foundation
import MapGeometry

/// Writes output files so that a failure never leaves a half-written or changed file behind: the bytes go
/// to a temporary file beside the target, which is then renamed over it.
///
/// A symbolic link is written through: the file it points to is replaced. A character device (`/dev/null`,
/// `/dev/stdout` on a terminal) is written directly, since renaming over it would replace the device; so
/// is a FIFO (`/dev/stdout` in a pipeline) that a program is reading. A folder, a FIFO that nobody reads
/// (writing would block until someone does), a block device or a socket is refused.
package enum AtomicFile {
    /// How ``write(_:to:)`` reached its target.
    package enum Outcome: Equatable, Sendable {
        /// A regular file, written to a temporary file and renamed into place: removing it undoes the write.
        case replaced
        /// A character device or FIFO, written directly: there is nothing to undo (and nothing to remove).
        case streamed
    }

    /// Checks, before any work, that ``write(_:to:)`` can write `url`: an existing regular file, character
    /// device or FIFO, or a new file in an existing, writable folder.
    ///
    /// - Throws: ``FileWriteError`` saying what is wrong and what to do.
    package static func checkWritable(_ url: URL) throws(FileWriteError) {
        // stat(2) follows links in the kernel, also /dev/stdout's /proc/self/fd/1 to a pipe.
        if let kind = kind(of: url.path) {
            switch kind {
            case .characterDevice, .fifo: return
            case .regular: break
            case .folder, .other: throw FileWriteError(path: url.path, problem: problem(for: kind))
            }
        }
        let folder = url.resolvingSymlinksInPath().deletingLastPathComponent().path
        guard kind(of: folder) == .folder else { throw FileWriteError(path: url.path, problem: .noFolder(folder)) }
        guard access(folder, W_OK) == 0 else {
            throw FileWriteError(path: url.path, problem: .folderNotWritable(folder))
        }
    }

    /// Writes `data` to `url` (see ``AtomicFile``): readers see the old file or the whole new one, and a
    /// failure leaves nothing behind.
    ///
    /// - Returns: how the target was written, so that a caller undoing a set of writes removes only
    ///   regular files it replaced (never `/dev/null`).
    /// - Throws: ``FileWriteError`` with the system's reason; no file is left behind on failure.
    @discardableResult
    package static func write(_ data: Data, to url: URL) throws(FileWriteError) -> Outcome {
        switch kind(of: url.path) {
        case .characterDevice?:
            try writeDirectly(data, to: url.path, flags: O_WRONLY, reported: url)
            return .streamed
        case .fifo?:
            // Non-blocking open fails at once (ENXIO) when no program has the FIFO open for reading.
            try writeDirectly(data, to: url.path, flags: O_WRONLY | O_NONBLOCK, reported: url)
            return .streamed
        case let kind? where kind != .regular:
            throw FileWriteError(path: url.path, problem: problem(for: kind))
        default:
            break
        }
        let target = url.resolvingSymlinksInPath()
        let folder = target.deletingLastPathComponent().path
        guard self.kind(of: folder) == .folder else {
            throw FileWriteError(path: url.path, problem: .noFolder(folder))
        }
        let temporary = folder + "/.\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw FileWriteError(path: url.path, problem: .cannotCreate(folder: folder, reason: systemReason()))
        }
        let written = writeAll(fd, data)
        let closed = close(fd) == 0
        guard written == nil, closed else {
            let reason = written ?? systemReason()
            unlink(temporary)
            throw FileWriteError(path: url.path, problem: .writeFailed(reason))
        }
        guard rename(temporary, target.path) == 0 else {
            let reason = systemReason()
            unlink(temporary)
            throw FileWriteError(path: url.path, problem: .cannotReplace(reason))
        }
        return .replaced
    }

    /// What is at a path (links followed); nil when nothing is.
    private enum Kind: Equatable {
        case regular, folder, characterDevice, fifo
        /// A block device or a socket.
        case other(String)
    }

    private static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder
        case S_IFCHR: return .characterDevice
        case S_IFIFO: return .fifo
        case S_IFBLK: return .other("a block device")
        case S_IFSOCK: return .other("a socket")
        default: return .other("not a file")
        }
    }

    private static func problem(for kind: Kind) -> FileWriteError.Problem {
        if case .other(let what) = kind { return .unsupportedKind(what) }
        return .isFolder
    }

    private static func writeDirectly(_ data: Data, to path: String, flags: Int32, reported url: URL)
        throws(FileWriteError)
    {
        let fd = open(path, flags | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENXIO, flags & O_NONBLOCK != 0 { throw FileWriteError(path: url.path, problem: .fifoNotRead) }
            throw FileWriteError(path: url.path, problem: .writeFailed(String(cString: strerror(code))))
        }
        defer { close(fd) }
        if flags & O_NONBLOCK != 0 {
            // Opened: a reader is there; block from now on as any writer into a pipe does.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        if let reason = writeAll(fd, data) { throw FileWriteError(path: url.path, problem: .writeFailed(reason)) }
    }

    /// Writes every byte; returns the system's reason on failure.
    private static func writeAll(_ fd: Int32, _ data: Data) -> String? {
        data.withUnsafeBytes { raw -> String? in
            guard let base = raw.baseAddress else { return nil }
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return systemReason()
                }
                offset += n
            }
            return nil
        }
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}

/// Why an output file could not be written, and what to do about it.
///
/// ```swift
/// do { try image.writePNG(to: url) } catch let error as FileWriteError { print(error) }
/// // cannot write 'maps/x.png': folder 'maps' does not exist; create it or write elsewhere
/// ```
public struct FileWriteError: MapRasterError, Equatable {
    /// What went wrong.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// The path names a folder.
        case isFolder
        /// The folder the file would go in does not exist (or is not a folder).
        case noFolder(String)
        /// The folder the file would go in may not be written.
        case folderNotWritable(String)
        /// A FIFO that no program is reading: writing would block until one does.
        case fifoNotRead
        /// Something that is neither a file, a character device nor a FIFO (a block device, a socket).
        case unsupportedKind(String)
        /// The temporary file beside the target could not be created in `folder`.
        case cannotCreate(folder: String, reason: String)
        /// Writing the bytes failed (a full disk, a closed pipe), with the system's reason.
        case writeFailed(String)
        /// Renaming the finished temporary file over the target failed, with the system's reason.
        case cannotReplace(String)

        public var description: String {
            switch self {
            case .isFolder:
                return "it is a folder; give a file name"
            case .noFolder(let folder):
                return "folder '\(folder)' does not exist; create it or write elsewhere"
            case .folderNotWritable(let folder):
                return "folder '\(folder)' is not writable; write elsewhere or change its permissions"
            case .fifoNotRead:
                return "it is a FIFO that no program is reading (writing would wait until one does); start the "
                    + "reader first, or give a file name"
            case .unsupportedKind(let what):
                return "it is \(what), not a file; give a file name (or /dev/stdout)"
            case let .cannotCreate(folder, reason):
                return "cannot create a file in '\(folder)': \(reason); check the folder's permissions"
            case .writeFailed(let reason):
                return "writing failed: \(reason); check the free space and the device"
            case .cannotReplace(let reason):
                return "cannot replace it: \(reason); nothing was changed"
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

    public var description: String { "cannot write '\(path)': \(problem)" }
}
