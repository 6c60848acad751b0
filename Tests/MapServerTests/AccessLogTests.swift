import Foundation
import MapData
import MapRaster
import Testing

@testable import MapServer

@Suite("The access log and the render deadline")
struct AccessLogTests {
    /// Apache's documentation of the Common Log Format, with its example request (at UTC).
    @Test("a Common Log Format line is Apache's example, field for field")
    func common() throws {
        var request = HTTPRequest(method: "GET", target: "/apache_pb.gif")
        request.clientAddress = "127.0.0.1"
        request.httpVersion = "HTTP/1.0"
        let response = HTTPResponse(status: 200, body: Data(count: 2326))
        let line = AccessLog.line(
            .common, request: request, response: response, endpoint: "other", seconds: 0.001,
            at: timespec(tv_sec: 971_186_136, tv_nsec: 0))
        #expect(line == "127.0.0.1 - - [10/Oct/2000:13:55:36 +0000] \"GET /apache_pb.gif HTTP/1.0\" 200 2326")
        // No body: "-" for the size, as Apache writes it.
        let empty = AccessLog.line(
            .common, request: request, response: HTTPResponse(status: 304), endpoint: "other", seconds: 0,
            at: timespec(tv_sec: 0, tv_nsec: 0))
        #expect(empty == "127.0.0.1 - - [01/Jan/1970:00:00:00 +0000] \"GET /apache_pb.gif HTTP/1.0\" 304 -")
    }

    @Test("a request cannot forge log lines: the target is percent-encoded, other fields escaped as \\xHH")
    func escaping() throws {
        let request = HTTPRequest(method: "GET", path: "/a\"b\\c\n127.0.0.1 - - [fake]", query: [("q", "x y&z")])
        let line = try #require(
            AccessLog.line(
                .common, request: request, response: HTTPResponse(status: 404), endpoint: "other", seconds: 0,
                at: timespec(tv_sec: 0, tv_nsec: 0)))
        #expect(!line.contains("\n"))
        // The target is percent-encoded as a client sends it, so the request line has exactly two spaces.
        #expect(line.contains("\"GET /a%22b%5Cc%0A127.0.0.1%20-%20-%20%5Bfake%5D?q=x%20y%26z HTTP/1.1\" 404 -"))
        // What is left (the method, the client, the protocol) is escaped as Apache does.
        #expect(AccessLog.escaped("a\"b\\c\n") == "a\\x22b\\x5cc\\x0a")
    }

    @Test("a JSON line has the time to the millisecond, the client, the target and the status")
    func json() throws {
        var request = HTTPRequest(method: "GET", target: "/staticmap?center=Helsinki&zoom=12")
        request.clientAddress = "::1"
        request.headers["user-agent"] = "curl/7.88.1"
        let line = try #require(
            AccessLog.line(
                .json, request: request, response: HTTPResponse(status: 200, body: Data(count: 10)),
                endpoint: "staticmap", seconds: 0.01234, at: timespec(tv_sec: 971_186_136, tv_nsec: 7_000_000)))
        let value = try JSONValue.parse(Data(line.utf8))
        #expect(value["time"]?.string == "2000-10-10T13:55:36.007Z")
        #expect(value["client"]?.string == "::1")
        #expect(value["target"]?.string == "/staticmap?center=Helsinki&zoom=12")
        #expect(value["status"]?.number == 200 && value["bytes"]?.number == 10)
        #expect(value["ms"]?.number == 12.3)
        #expect(value["endpoint"]?.string == "staticmap" && value["userAgent"]?.string == "curl/7.88.1")
        #expect(
            AccessLog.line(
                .off, request: request, response: HTTPResponse(status: 200), endpoint: "x", seconds: 0,
                at: timespec()) == nil)
    }

    @Test("a render that passes its deadline stops between layers and answers 503 with Retry-After")
    func deadline() throws {
        // A snapshot whose deadline has already passed stops after its first layer.
        var options = MapSnapshotter.Options(size: Size(width: 256, height: 256))
        options.deadline = .now()
        let snapshotter = try MapSnapshotter(options: options)
        let error = #expect(throws: GraphicsError.self) { try snapshotter.snapshot() }
        // It stops after the first step that finishes late, before the overlays, labels and attribution.
        guard case .deadlineExceeded(let operation)? = error else {
            Issue.record("expected deadlineExceeded, got \(String(describing: error))")
            return
        }
        #expect(!["drawing overlays", "drawing labels", "drawing the attribution"].contains(operation), "\(operation)")

        var config = try TestServer.configuration()
        config.renderTimeout = 0.05
        let server = try MapServer(configuration: config)
        // A large image takes far longer than 50 ms to draw in full (a debug build takes seconds).
        let late = server.handle(HTTPRequest(target: "/styles/standard/static/7.42,43.73,5/2048x2048@2x.png"))
        #expect(late.status == 503)
        #expect(late.header("Retry-After") == "1")
        #expect(TestServer.errorJSON(late).0.contains("deadline"))
        let metrics = String(decoding: server.handle(HTTPRequest(target: "/metrics")).body, as: UTF8.self)
        #expect(metrics.contains("mapraster_rejected_total{reason=\"deadline\"} 1"))
        #expect(metrics.contains("mapraster_rejected_total{reason=\"busy\"} 0"))
        // Over the wire too: the same 503, body and Retry-After.
        try server.start()
        defer { server.shutdown(grace: 5) }
        let port = try #require(server.port)
        let wire = MapServerHTTPTests.fetch(
            URL(string: "http://127.0.0.1:\(port)/styles/standard/static/7.42,43.73,5/2048x2048@2x.png")!)
        #expect(wire.status == 503 && wire.data == late.body)
        #expect((wire.headers["Retry-After"] as? String) == "1")
        // Without a deadline the same image renders.
        config.renderTimeout = 600
        let patient = try MapServer(configuration: config)
        let full = patient.handle(HTTPRequest(target: "/styles/standard/static/7.42,43.73,5/2048x2048@2x.png"))
        #expect(full.status == 200)
    }
}
