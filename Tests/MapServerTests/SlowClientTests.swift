import Foundation
import MapRaster
import MapServer
import Testing

/// Idle, slow and too many clients over loopback: the server closes what does not send a request head in time,
/// answers over its limits with `503` or a closed connection, and keeps answering everyone else. Every loop is
/// bounded in count, every read by a timeout (a hang fails).
@Suite("Idle, slow and too many clients", .serialized)
struct SlowClientTests {
    static let health = Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8)

    @Test("50 silent connections: another client is answered; the silent ones are closed by the server")
    func idle() throws {
        let client = HostileServer.client
        let silent = (0..<50).map { _ in client.connect() }
        #expect(silent.allSatisfy { $0 >= 0 })
        defer { silent.forEach { close($0) } }
        #expect(client.exchange(Self.health).status == 200)
        for fd in silent {
            let reply = RawHTTPClient.read(fd)
            #expect(reply.closed && !reply.timedOut && reply.status == nil)
        }
    }

    @Test("20 clients sending a byte at a time are closed before they finish; others are answered meanwhile")
    func slowLoris() throws {
        let client = HostileServer.client
        let slow = (0..<20).map { _ in client.connect() }
        #expect(slow.allSatisfy { $0 >= 0 })
        defer { slow.forEach { close($0) } }
        let head = Array("GET /health HTTP/1.1\r\nHost: x\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 200)
        var open = Set(slow.indices)
        for step in 0..<head.count where !open.isEmpty {
            for index in open.sorted() where !RawHTTPClient.write(slow[index], [head[step]]) {
                open.remove(index)
            }
            if step == 5 { #expect(client.exchange(Self.health).status == 200) }
            usleep(50_000)
        }
        // What is still open after 200 bytes (10 s at 50 ms a byte, ten times the head timeout) must be closing.
        for index in open {
            let reply = RawHTTPClient.read(slow[index])
            #expect(reply.closed && !reply.timedOut)
        }
        #expect(client.exchange(Self.health).status == 200)
    }

    @Test("over the connection limit: 503 with Retry-After or a closed connection, never a hang; per client too")
    func limits() throws {
        var config = try TestServer.configuration()
        config.styles = []
        config.connectionLimit = 20
        config.connectionsPerClient = 8
        config.headTimeout = 30
        config.accessLog = .off
        let server = try MapServer(configuration: config)
        try server.start()
        defer { server.shutdown(grace: 1) }
        let client = RawHTTPClient(port: try #require(server.port), timeout: 10)
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        // Eight from 127.0.0.1 are served; a ninth from the same address is closed at once.
        for _ in 0..<8 { held.append(client.connect(source: "127.0.0.1")) }
        // Each held connection is answered once, so the server has accepted and counted it before the
        // next client comes (a loaded machine may leave connections in the listen queue for a while).
        func answered(_ connections: ArraySlice<Int32>) {
            for fd in connections where fd >= 0 {
                RawHTTPClient.write(fd, Self.health)
                #expect(RawHTTPClient.read(fd).status == 200)
            }
        }
        answered(held[...])
        let ninth = client.connect(source: "127.0.0.1")
        if ninth >= 0 {
            RawHTTPClient.write(ninth, Self.health)
            let reply = RawHTTPClient.read(ninth)
            #expect(reply.closed && !reply.timedOut && reply.status == nil)
            close(ninth)
        }
        // Twelve more from other addresses fill the limit of 20.
        for i in 0..<12 { held.append(client.connect(source: "127.0.0.\(2 + i / 6)")) }
        #expect(held.allSatisfy { $0 >= 0 })
        answered(held[8...])
        // Each client over the limit is answered 503 + Retry-After (or closed), from any address.
        for i in 0..<5 {
            let fd = client.connect(source: "127.0.0.\(10 + i)")
            guard fd >= 0 else { continue }
            RawHTTPClient.write(fd, Self.health)
            let reply = RawHTTPClient.read(fd)
            #expect(!reply.timedOut)
            if let status = reply.status {
                #expect(status == 503 && reply.headers["retry-after"] == "1")
            } else {
                #expect(reply.closed)
            }
            close(fd)
        }
        // A held connection is still served.
        RawHTTPClient.write(held[0], Self.health)
        #expect(RawHTTPClient.read(held[0]).status == 200)
        // Once the held ones close, new clients are served again (the watch counts closes at once).
        held.forEach { close($0) }
        held = []
        var served = false
        for _ in 0..<50 where !served {
            served = RawHTTPClient(port: client.port).exchange(Self.health).status == 200
            if !served { usleep(100_000) }
        }
        #expect(served)
    }
}
