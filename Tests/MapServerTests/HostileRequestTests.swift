import Foundation
import MapRaster
import MapServer
import Testing

/// A server over loopback (port 0) with a secret file beside every folder it serves from, and short head and
/// keep-alive timeouts, made once for the hostile requests.
enum HostileServer {
    /// The secret's text: no response may contain it.
    static let secret = "SECRET-\(UUID().uuidString)"
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-hostile-\(getpid())")

    static let shared: MapServer = {
        do {
            let fm = FileManager.default
            try fm.createDirectory(
                at: folder.appendingPathComponent("leaflet/images"), withIntermediateDirectories: true)
            try fm.createDirectory(at: folder.appendingPathComponent("icons"), withIntermediateDirectories: true)
            for name in ["secret.txt", "secret.png", "leaflet/secret.txt", "icons/.secret.png"] {
                try Data(secret.utf8).write(to: folder.appendingPathComponent(name))
            }
            try Data("/* leaflet */".utf8).write(to: folder.appendingPathComponent("leaflet/leaflet.js"))
            var config = try TestServer.configuration()
            config.leafletDirectory = folder.appendingPathComponent("leaflet").path
            config.iconsDirectory = folder.appendingPathComponent("icons").path
            config.headTimeout = 1
            config.keepAliveTimeout = 2
            config.connectionsPerClient = 0
            config.maximumSize = 512
            config.queueLimit = 256
            config.accessLog = .off
            let server = try MapServer(configuration: config)
            try server.start()
            return server
        } catch { fatalError("the hostile-request server does not start: \(error)") }
    }()

    static var client: RawHTTPClient { RawHTTPClient(port: shared.port ?? 0) }
}

/// One hostile request: its bytes and the statuses that are right for it.
struct HostileCase: CustomTestStringConvertible, Sendable {
    let id: String
    let bytes: [UInt8]
    let allowed: Set<Int>
    var testDescription: String { id }

    static func get(_ id: String, _ target: String, _ allowed: Set<Int>) -> HostileCase {
        HostileCase(id: id, bytes: Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), allowed: allowed)
    }
    static func raw(_ id: String, _ text: String, _ allowed: Set<Int>) -> HostileCase {
        HostileCase(id: id, bytes: Array(text.utf8), allowed: allowed)
    }
}

@Suite("Hostile requests over loopback: never a 5xx, a hang or a file outside the configured ones")
struct HostileRequestTests {
    static let notFound: Set<Int> = [404]
    static let bad: Set<Int> = [400]
    static let refusedOrMissing: Set<Int> = [400, 404]

    static let traversal: [HostileCase] = {
        let targets = [
            "/leaflet/../secret.txt", "/leaflet/..%2fsecret.txt", "/leaflet/%2e%2e/secret.txt",
            "/leaflet/%2E%2E%2Fsecret.txt", "/leaflet/secret.txt", "/leaflet/images/../../secret.txt",
            "/leaflet/leaflet.js/../secret.txt", "/leaflet/..%5csecret.txt", "/leaflet/....//secret.txt",
            "/leaflet/%252e%252e/secret.txt", "/leaflet/%c0%ae%c0%ae/secret.txt", "/leaflet/.%2e/secret.txt",
            "/leaflet//secret.txt", "/leaflet/./secret.txt", "/leaflet/%2fsecret.txt", "/data/../secret.txt",
            "/data/omt/../../secret.txt", "/data/..%2f..%2fsecret.txt.json", "/data/%2e%2e.json",
            "/styles/..%2f..%2fsecret/style.json", "/styles/../../../../etc/passwd", "/styles/%2e%2e/style.json",
            "/styles/standard/../../secret.txt", "/styles/standard/sprite/../../../etc/passwd",
            "/files/../secret.txt", "/files/%2e%2e%2fsecret.txt", "/fonts/..%2f..%2fetc%2fpasswd/0-255.pbf",
            "//etc/passwd", "///secret.txt", "/./etc/passwd", "/%2fetc%2fpasswd", "/\\..\\..\\etc\\passwd",
            "/etc/passwd", "/proc/self/environ", "/leaflet/leaflet.js%00.png", "/leaflet/leaflet.js%2500",
            "/leaflet/images/marker-icon.png/..", "/..", "/.", "/%2e%2e",
        ]
        var cases = targets.enumerated().map { HostileCase.get("traversal-\($0.offset)", $0.element, [400, 404]) }
        let icons = [
            "../secret.png", "..%2fsecret.png", "/etc/passwd", ".secret.png", "%2e%2e%2fsecret.png", "secret.png%00",
            "icons/../../secret.png", "..\\secret.png",
        ]
        for (i, icon) in icons.enumerated() {
            cases.append(
                .get("icon-traversal-\(i)", "/styles/standard/static/auto/20x20.png?marker=7.42,43.73%7C\(icon)", bad))
        }
        return cases
    }()

    static let smuggling: [HostileCase] = {
        let head = "POST /render HTTP/1.1\r\nHost: x\r\n"
        var cases: [HostileCase] = [
            .raw("cl-cl-differ", head + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", bad),
            .raw("cl-list-differ", head + "Content-Length: 5, 6\r\n\r\nhello!", bad),
            .raw("cl-plus", head + "Content-Length: +5\r\n\r\nhello", bad),
            .raw("cl-minus", head + "Content-Length: -1\r\n\r\n", bad),
            .raw("cl-hex", head + "Content-Length: 0x5\r\n\r\nhello", bad),
            .raw("cl-huge", head + "Content-Length: 99999999999999999999999\r\n\r\n", [400, 413]),
            .raw("cl-over-limit", head + "Content-Length: 5000000\r\n\r\n", [413]),
            .raw("expect-over-limit", head + "Expect: 100-continue\r\nContent-Length: 5000000\r\n\r\n", [413]),
            .raw("te-and-cl", head + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", bad),
            .raw("te-gzip", head + "Transfer-Encoding: gzip\r\n\r\n", bad),
            .raw("te-chunked-gzip", head + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", bad),
            .raw("te-twice", head + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", bad),
            .raw("te-xchunked", head + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", bad),
            .raw("chunk-bad-size", head + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", bad),
            .raw("chunk-huge-size", head + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", [400, 413]),
            .raw("chunked-empty-body", head + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", bad),
            .raw("host-twice", "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", bad),
            .raw("host-missing", "GET /health HTTP/1.1\r\n\r\n", bad),
            .raw("space-before-colon", "GET /health HTTP/1.1\r\nHost : x\r\n\r\n", bad),
            .raw("absolute-form", "GET http://x/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", bad),
            .raw("connect", "CONNECT x:80 HTTP/1.1\r\nHost: x\r\n\r\n", bad),
            .raw("asterisk", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", bad),
            .raw("no-version", "GET /health\r\n\r\n", bad),
            .raw("double-space-target", "GET /health  HTTP/1.1\r\nHost: x\r\n\r\n", bad),
            .raw("space-in-target", "GET /he alth HTTP/1.1\r\nHost: x\r\n\r\n", bad),
            .raw("lowercase-method", "get /health HTTP/1.1\r\nHost: x\r\n\r\n", [405]),
            .raw("unknown-method", "FOO /health HTTP/1.1\r\nHost: x\r\n\r\n", [405]),
            .raw("delete", "DELETE /styles/standard/style.json HTTP/1.1\r\nHost: x\r\n\r\n", [405]),
            .raw("get-with-body", "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", [200]),
            .raw("render-garbage-body", head + "Content-Length: 5\r\n\r\nhello", bad),
            .raw("render-get", "GET /render HTTP/1.1\r\nHost: x\r\n\r\n", [405]),
            .raw("header-injection-query", "GET /styles/x.json?a=%0d%0aX-Injected:1 HTTP/1.1\r\nHost: x\r\n\r\n", bad),
        ]
        // A pipelined second request after a complete first one is a request of its own, not part of the first.
        cases.append(
            .raw(
                "pipelined", "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", [200]
            ))
        return cases
    }()

    static let encodings: [HostileCase] = {
        let targets: [(String, Set<Int>)] = [
            ("/styles/standard/%00/style.json", bad), ("/health%00", bad), ("/health%01", bad), ("/health%0a", bad),
            ("/health%0d%0aSet-Cookie:x", bad), ("/health%7f", bad), ("/health%zz", bad), ("/health%2", bad),
            ("/health%", bad), ("/health%%", bad), ("/health%u002e", bad), ("/health%ff", bad),
            ("/health%c3%28", bad), ("/health%ed%a0%80", bad), ("/health%f8%88%80%80%80", bad),
            ("/health%e2%80%ae", notFound), ("/h%65alth", [200]), ("/health?a=%00", bad), ("/health?%0d%0a=1", bad),
            ("/health?a=%zz", bad), ("/health?a=%", bad), ("/health?a=%ff", bad), ("/health?&&&&", [200]),
            ("/health?=", [200]), ("/health?a==b", [200]), ("/health#fragment", bad), ("/health?a=1#b", bad),
            ("/styles/standard.json?%00", bad), ("/styles/stand%61rd.json", [200]), ("/styles/standard%2ejson", [200]),
            ("/styles/standard/style.json%3f", notFound), ("/data/omt.json%23", notFound), ("/staticmap?size=%00", bad),
            ("/staticmap?size=10x10&center=%ff", bad), ("/styles/standard/0/0/0.png%00.html", bad),
            ("/styles/%e2%80%8bstandard.json", notFound), ("/health\t", bad),
        ]
        var cases = targets.enumerated().map { HostileCase.get("encoding-\($0.offset)", $0.element.0, $0.element.1) }
        let rawBytes: [(String, [UInt8])] = [
            ("raw-control", Array("GET /he".utf8) + [1] + Array("alth HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
            ("raw-del", Array("GET /he".utf8) + [0x7f] + Array("alth HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
            (
                "raw-invalid-utf8",
                Array("GET /he".utf8) + [0xff, 0xfe] + Array("alth HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            ),
            ("raw-query-control", Array("GET /health?a=".utf8) + [2] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
        ]
        for (id, bytes) in rawBytes { cases.append(HostileCase(id: id, bytes: bytes, allowed: [400])) }
        // A raw NUL ends the target for libmicrohttpd (a C string): what is left is looked up, nothing else.
        cases.append(
            HostileCase(
                id: "raw-nul", bytes: Array("GET /he".utf8) + [0] + Array("alth HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                allowed: [400, 404]))
        return cases
    }()

    static let limits: [HostileCase] = {
        let manyParameters = (0..<300).map { "a\($0)=1" }.joined(separator: "&")
        let someParameters = (0..<200).map { "a\($0)=1" }.joined(separator: "&")
        let thousand = (0..<1000).map { "p\($0)=\($0)" }.joined(separator: "&")
        var cases: [HostileCase] = [
            .get("query-16k", "/health?q=" + String(repeating: "a", count: 16_300), [200]),
            .get("query-over-16k", "/health?q=" + String(repeating: "a", count: 16_400), [414]),
            .get("query-40k", "/health?q=" + String(repeating: "a", count: 40_000), [414]),
            .get("target-100k", "/health?q=" + String(repeating: "a", count: 100_000), [414, 431]),
            .get("path-40k", "/" + String(repeating: "a", count: 40_000), [404]),
            .get("parameters-200", "/health?" + someParameters, [200]),
            .get("parameters-300", "/health?" + manyParameters, [414]),
            .get("parameters-1000", "/health?" + thousand, [414]),
            .raw(
                "header-100k",
                "GET /health HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 100_000) + "\r\n\r\n",
                [431]),
            .raw(
                "headers-3000",
                "GET /health HTTP/1.1\r\nHost: x\r\n" + (0..<3000).map { "X-\($0): 1\r\n" }.joined() + "\r\n", [431]),
            .get("size-0", "/styles/standard/static/0,0,1/0x0.png", bad),
            .get("size-huge", "/styles/standard/static/0,0,1/99999x1.png", bad),
            .get("size-negative", "/styles/standard/static/0,0,1/-1x5.png", bad),
            .get("size-exponent", "/styles/standard/static/0,0,1/1e3x5.png", bad),
            .get("size-overflow", "/styles/standard/static/0,0,1/99999999999999999999x5.png", bad),
            .get("scale-0", "/styles/standard/static/0,0,1/10x10@0x.png", refusedOrMissing),
            .get("scale-9", "/styles/standard/static/0,0,1/10x10@9x.png", bad),
            .get("scale-fraction", "/styles/standard/static/0,0,1/10x10@1.5x.png", bad),
            .get("format-unknown", "/styles/standard/static/0,0,1/10x10.gif", bad),
            .get("format-injected", "/styles/standard/static/0,0,1/10x10.png%0d%0aX:1", bad),
            .get("tile-zoom-99", "/styles/standard/99/0/0.png", refusedOrMissing),
            .get("tile-zoom-23", "/styles/standard/23/0/0.png", refusedOrMissing),
            .get("tile-zoom-negative", "/styles/standard/-1/0/0.png", refusedOrMissing),
            .get("tile-x-beyond", "/styles/standard/2/4/0.png", refusedOrMissing),
            .get("tile-overflow", "/styles/standard/1/99999999999999999999/0.png", refusedOrMissing),
            .get("tile-512-z22-3x", "/styles/standard/512/22/1/1@3x.png", bad),
            .get("tile-size-1024", "/styles/standard/1024/1/0/0.png", refusedOrMissing),
            .get("tile-scale-9", "/styles/standard/1/0/0@9x.png", bad),
            .get("center-lat-91", "/styles/standard/static/0,91,1/10x10.png", bad),
            .get("center-lon-181", "/styles/standard/static/181,0,1/10x10.png", bad),
            .get("center-zoom-30", "/styles/standard/static/0,0,30/10x10.png", bad),
            .get("center-zoom-negative", "/styles/standard/static/0,0,-5/10x10.png", refusedOrMissing),
            .get("center-nan", "/styles/standard/static/nan,0,1/10x10.png", refusedOrMissing),
            .get("center-inf", "/styles/standard/static/inf,0,1/10x10.png", refusedOrMissing),
            .get("center-huge", "/styles/standard/static/1e308,0,1/10x10.png", refusedOrMissing),
            .get("box-87-88", "/styles/standard/static/0,87,1,88/5x2.png", bad),
            .get("box-to-pole", "/styles/standard/static/0,89.9,1,90/5x2.png", bad),
            .get("box-south-pole", "/styles/standard/static/0,-90,1,-89/5x2.png", bad),
            .get("box-nan", "/styles/standard/static/0,nan,1,1/5x2.png", refusedOrMissing),
            .get("box-empty", "/styles/standard/static/1,1,1,2/5x2.png", bad),
            .get("box-inverted", "/styles/standard/static/0,2,1,1/5x2.png", bad),
            .get("box-tiny", "/styles/standard/static/0,0,0.0000001,0.0000001/500x500.png", bad),
            .get("area-6-numbers", "/styles/standard/static/1,2,3,4,5,6/5x2.png", refusedOrMissing),
            .get("area-camera-and-mapbox", "/styles/standard/static/1,2,3,4,5@6/5x2.png", refusedOrMissing),
            .get("area-camera-nan", "/styles/standard/static/1,2,3@nan,5/5x2.png", refusedOrMissing),
            .get("auto-without-content", "/styles/standard/static/auto/5x2.png", bad),
            .get("padding-5", "/styles/standard/static/auto/5x2.png?padding=5&marker=0,0", bad),
            .get("padding-nan", "/styles/standard/static/auto/5x2.png?padding=nan&marker=0,0", bad),
            .get("marker-bad", "/styles/standard/static/auto/5x2.png?marker=abc", bad),
            .get("maxzoom-nan", "/styles/standard/static/auto/5x2.png?maxzoom=nan&marker=0,0", bad),
            .get("maxzoom-text", "/styles/standard/static/auto/5x2.png?maxzoom=ten&marker=0,0", bad),
            .get("marker-lat-200", "/styles/standard/static/auto/5x2.png?marker=0,200", bad),
            .get("path-bad-width", "/styles/standard/static/auto/5x2.png?path=width:-3%7C0,0%7C1,1", bad),
            .get("path-huge-width", "/styles/standard/static/auto/5x2.png?path=width:1e9%7C0,0%7C1,1", bad),
            .get("staticmap-no-size", "/staticmap", bad),
            .get("staticmap-size-huge", "/staticmap?size=99999x1", bad),
            .get("staticmap-scale-3", "/staticmap?size=10x10&scale=3&center=0,0&zoom=1", bad),
            .get("staticmap-zoom-99", "/staticmap?size=10x10&center=0,0&zoom=99", bad),
            .get("staticmap-center-nan", "/staticmap?size=10x10&center=nan,0&zoom=1", bad),
            .get("staticmap-center-lat-89", "/staticmap?size=10x10&center=89,0&zoom=1", bad),
            .get("staticmap-maptype", "/staticmap?size=10x10&maptype=moon", bad),
            .get("staticmap-format", "/staticmap?size=10x10&format=bmp&center=0,0&zoom=1", bad),
            .get("staticmap-zoom-no-center", "/staticmap?size=10x10&zoom=1", bad),
            .get("staticmap-visible-bad", "/staticmap?size=10x10&visible=x", bad),
            .get("unknown-style", "/styles/nope/1/0/0.png", notFound),
            .get("unknown-data", "/data/nope/1/0/0.pbf", notFound),
            .get("data-tile-zoom-99", "/data/omt/99/0/0.pbf", notFound),
            .get("data-tile-bad", "/data/omt/a/b/c.pbf", notFound),
        ]
        cases.append(.get("render-query-no-post", "/render?metadata=1", [405]))
        return cases
    }()

    static var all: [HostileCase] { traversal + smuggling + encodings + limits }

    @Test("at least 150 cases")
    func count() { #expect(Self.all.count >= 150) }

    @Test("a hostile request gets a JSON or library 4xx (or the right 200), no 5xx, no hang, no secret", arguments: all)
    func hostile(_ testCase: HostileCase) throws {
        let reply = HostileServer.client.exchange(testCase.bytes)
        #expect(!reply.timedOut, "no answer: the server hung")
        let status = try #require(
            reply.status, "no status line: \(String(decoding: reply.raw.prefix(200), as: UTF8.self))")
        #expect(status < 500, "a server fault for a client's request")
        #expect(testCase.allowed.contains(status), "status \(status), expected \(testCase.allowed.sorted())")
        let text = String(decoding: reply.raw, as: UTF8.self)
        #expect(!text.contains(HostileServer.secret), "a file outside the configured ones was served")
        #expect(!text.contains("root:x:0:0"), "/etc/passwd was served")
        #expect(reply.headers["x-injected"] == nil && reply.headers["set-cookie"] == nil)
        if status >= 400, reply.headers["content-type"]?.hasPrefix("application/json") == true {
            #expect(text.contains("\"error\""))
        }
    }
}
