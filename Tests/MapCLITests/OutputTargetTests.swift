import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("mapraster output targets")
struct OutputTargetTests {
    @Test(
        "-o - and -o /dev/stdout write the PNG to standard output (here a file) and the report to standard error",
        arguments: ["-", "/dev/stdout"])
    func standardOutput(output: String) throws {
        try withTemporaryDirectory { dir in
            let process = Process()
            process.executableURL = try CLI.executable()
            process.arguments = ["--size", "64x48", "-o", output]
            process.currentDirectoryURL = dir.url
            let pngURL = dir.file("piped.png")
            _ = FileManager.default.createFile(atPath: pngURL.path, contents: nil)
            let out = try FileHandle(forWritingTo: pngURL)
            let errPipe = Pipe()
            process.standardOutput = out
            process.standardError = errPipe
            try process.run()
            process.waitUntilExit()
            try out.close()
            let err = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(err)")
            #expect(err.contains("64x48 px"))
            let image = try ImageSurface(contentsOfPNG: pngURL)
            #expect(image.width == 64 && image.height == 48)
            #expect(try dir.listing() == ["piped.png"])
        }
    }

    @Test("-o /dev/null renders, writes into the device (never replacing it) and the metadata beside it")
    func devNull() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["--size", "64x48", "-o", "/dev/null", "--metadata", "meta.json"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.standardOutput.contains("wrote /dev/null (64x48 px"), "\(result)")
            #expect(try dir.listing() == ["meta.json"])
            var info = stat()
            #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        }
    }

    @Test("writing through a symbolic link replaces the file it points to and keeps the link")
    func symlink() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.file("real"), withIntermediateDirectories: true)
            _ = try dir.write("real/target.png", "old")
            try FileManager.default.createSymbolicLink(
                atPath: dir.file("link.png").path, withDestinationPath: "real/target.png")
            let result = try CLI.run(["--size", "32x32", "-o", "link.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("link.png").path)
            #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
            let image = try ImageSurface(contentsOfPNG: dir.file("real/target.png"))
            #expect(image.width == 32)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("real").path) == ["target.png"])
        }
    }

    @Test("a region so small that it needs a zoom above 22 is refused, naming the zoom it needs")
    func tooDetailed() throws {
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["--center", "0,0", "--meters", "0.000001", "--size", "64x64"], in: dir.url)
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.standardError.contains("zoom level 43.") && result.standardError.contains("22"), "\(result)")
            #expect(try dir.listing().isEmpty)
        }
    }
}
