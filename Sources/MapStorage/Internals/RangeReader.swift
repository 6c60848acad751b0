import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads byte ranges of one open file with `pread`, so that any number of threads can read at once; owns the
/// file descriptor. Whole files (styles, scenes, GeoJSON) are read by MapData's `FileReader`; this is for
/// archives read piecemeal (PMTiles directories and tiles).
final class RangeReader: Sendable {
    let path: String
    let size: Int
    private let descriptor: Int32

    init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StorageError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, let size = Int(exactly: status.st_size) else {
            close(descriptor)
            throw StorageError.unreadable(path: path, reason: "cannot read its size")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw StorageError.unreadable(path: path, reason: "it is not a regular file")
        }
        self.path = path
        self.size = size
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The bytes in `offset..<offset + count`, which the caller has checked to lie within the file.
    func read(offset: Int, count: Int) throws -> Data {
        precondition(offset >= 0 && count >= 0 && offset <= size && count <= size - offset, "read outside the file")
        var data = Data(count: count)
        var done = 0
        while done < count {
            let got = data.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                throw StorageError.unreadable(
                    path: path,
                    reason: got == 0
                        ? "the file ended early (was it truncated while open?)"
                        : String(cString: strerror(errno)))
            }
            done += got
        }
        return data
    }
}
