import Foundation
import MapData
import Testing

/// `AtomicFile`: regular files replaced by rename, character devices and read FIFOs written directly,
/// everything else refused with a ``FileWriteError`` that says what to do, and nothing changed on failure.
@Suite("AtomicFile: what each kind of target gets")
struct AtomicFileTests {
    /// A fresh empty folder, removed afterwards.
    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("AtomicFileTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// `AtomicFile.write` with an untyped `throws`, for `#expect` (its expansion does not handle typed throws).
    static func write(_ data: Data, to url: URL) throws -> AtomicFile.Outcome { try AtomicFile.write(data, to: url) }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test("a new file and a replaced file get exactly the bytes, with no temporary file left")
    func regularFile() throws {
        try Self.withFolder { (folder: URL) throws in
            let url = folder.appendingPathComponent("out.bin")
            #expect(try Self.write(Data("first, longer content".utf8), to: url) == .replaced)
            #expect(try Self.write(Data("second".utf8), to: url) == .replaced)
            #expect(try Data(contentsOf: url) == Data("second".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.bin"])
        }
    }

    @Test("/dev/null is written directly and stays a character device (the `-o /dev/null` habit)")
    func devNull() throws {
        let url = URL(fileURLWithPath: "/dev/null")
        try AtomicFile.checkWritable(url)
        #expect(try Self.write(Data(repeating: 7, count: 100_000), to: url) == .streamed)
        #expect(Self.kind("/dev/null") == S_IFCHR)
    }

    @Test("a link to /dev/null is written through, and the link stays")
    func linkToDevice() throws {
        try Self.withFolder { (folder: URL) throws in
            let link = folder.appendingPathComponent("sink.png")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/null")
            #expect(try Self.write(Data("x".utf8), to: link) == .streamed)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "/dev/null")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["sink.png"])
        }
    }

    @Test("a FIFO that a program reads gets the bytes; the FIFO stays a FIFO")
    func fifoWithReader() throws {
        try Self.withFolder { (folder: URL) throws in
            let fifo = folder.appendingPathComponent("pipe")
            #expect(mkfifo(fifo.path, 0o644) == 0)
            // The reader end, opened first without blocking, stands in for `cat pipe`.
            let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
            #expect(reader >= 0)
            defer { close(reader) }
            let bytes = Data((0..<1000).map { UInt8($0 % 251) })
            try AtomicFile.checkWritable(fifo)
            #expect(try Self.write(bytes, to: fifo) == .streamed)
            var buffer = [UInt8](repeating: 0, count: 2000)
            let count = read(reader, &buffer, buffer.count)
            #expect(count == bytes.count)
            #expect(Data(buffer.prefix(max(0, count))) == bytes)
            #expect(Self.kind(fifo.path) == S_IFIFO)
        }
    }

    @Test("a FIFO that nobody reads is refused at once, saying to start the reader, and stays a FIFO")
    func fifoWithoutReader() throws {
        try Self.withFolder { (folder: URL) throws in
            let fifo = folder.appendingPathComponent("pipe")
            #expect(mkfifo(fifo.path, 0o644) == 0)
            #expect(throws: FileWriteError(path: fifo.path, problem: .fifoNotRead)) {
                try AtomicFile.write(Data("x".utf8), to: fifo)
            }
            #expect(FileWriteError(path: "p", problem: .fifoNotRead).description.contains("start the reader first"))
            #expect(Self.kind(fifo.path) == S_IFIFO)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pipe"])
        }
    }

    @Test("a folder is refused before and at writing, and is not replaced")
    func folder() throws {
        try Self.withFolder { (folder: URL) throws in
            let target = folder.appendingPathComponent("dir", isDirectory: true)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
            let expected = FileWriteError(path: target.path, problem: .isFolder)
            #expect(throws: expected) { try AtomicFile.checkWritable(target) }
            #expect(throws: expected) { try AtomicFile.write(Data("x".utf8), to: target) }
            #expect(expected.description == "cannot write '\(target.path)': it is a folder; give a file name")
            #expect(Self.kind(target.path) == S_IFDIR)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["dir"])
        }
    }

    @Test("a socket is refused, naming what it is")
    func socketRefused() throws {
        try Self.withFolder { (folder: URL) throws in
            let path = folder.appendingPathComponent("s").path
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            #expect(fd >= 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0)
            let url = URL(fileURLWithPath: path)
            #expect(throws: FileWriteError(path: path, problem: .unsupportedKind("a socket"))) {
                try AtomicFile.write(Data("x".utf8), to: url)
            }
            #expect(Self.kind(path) == S_IFSOCK)
        }
    }

    @Test("a missing folder and a read-only folder are refused before writing, naming the folder")
    func folders() throws {
        try Self.withFolder { (folder: URL) throws in
            let missing = folder.appendingPathComponent("missing/out.png")
            #expect(throws: FileWriteError(path: missing.path, problem: .noFolder(folder.path + "/missing"))) {
                try AtomicFile.checkWritable(missing)
            }
            let locked = folder.appendingPathComponent("locked", isDirectory: true)
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            chmod(locked.path, 0o555)
            defer { chmod(locked.path, 0o755) }
            // root may write anywhere: then the check rightly passes.
            if getuid() != 0 {
                let url = locked.appendingPathComponent("out.png")
                #expect(throws: FileWriteError(path: url.path, problem: .folderNotWritable(locked.path))) {
                    try AtomicFile.checkWritable(url)
                }
                #expect(throws: FileWriteError.self) { try AtomicFile.write(Data("x".utf8), to: url) }
                #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
            }
        }
    }
}
