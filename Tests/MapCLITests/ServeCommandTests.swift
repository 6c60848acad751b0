import Foundation
import MapTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("mapraster serve: starts, answers, and stops cleanly on SIGTERM")
struct ServeCommandTests {
    /// A free port: bind port 0, read it, close.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw HarnessError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    final class Status: @unchecked Sendable { var code = 0 }

    static func get(_ url: String) -> Int {
        let status = Status()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: URL(string: url)!) { _, response, _ in
            status.code = (response as? HTTPURLResponse)?.statusCode ?? 0
            done.signal()
        }.resume()
        done.wait()
        return status.code
    }

    @Test(
        "serve with no arguments serves the shipped styles on 127.0.0.1; SIGTERM exits 0; a bad flag is a usage error")
    func lifecycle() throws {
        let port = try Self.freePort()
        let process = Process()
        process.executableURL = try CLI.executable()
        process.arguments = ["serve", "--port", String(port), "--quiet"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var health = 0
        let deadline = Date().addingTimeInterval(20)
        while health != 200, Date() < deadline {
            usleep(100_000)
            health = Self.get("http://127.0.0.1:\(port)/health")
        }
        #expect(health == 200)
        #expect(Self.get("http://127.0.0.1:\(port)/styles/standard/0/0/0.png") == 200)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let banner = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(banner.contains("serving http://127.0.0.1:\(port)/") && banner.contains("standard"), "\(banner)")

        try withTemporaryDirectory { dir in
            let bad = try CLI.run(["serve", "--port", "99999"], in: dir.url)
            #expect(bad.exitCode == 64 && bad.standardError.contains("--port"), "\(bad)")
            let style = try CLI.run(["serve", "--style", "x=missing.json"], in: dir.url)
            #expect(style.exitCode == 64 && style.standardError.contains("missing.json"), "\(style)")
            let bind = try CLI.run(["serve", "--bind", "example.com", "--port", "0"], in: dir.url)
            #expect(bind.exitCode == 1 && bind.standardError.contains("IPv4"), "\(bind)")
        }
    }
}
