import Foundation
import MapData
import MapServer
import MapTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("mapraster serve: starts, answers, and stops cleanly on SIGTERM")
struct ServeCommandTests {
    /// Reads `handle` up to the end of the first line: the serve banner, printed once the server listens (the
    /// bound port) and stops on a signal. Empty when the process ended without one.
    static func firstLine(of handle: FileHandle) -> String {
        var bytes = Data()
        while !bytes.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The port of a banner's `serving http://127.0.0.1:PORT/`.
    static func port(ofBanner banner: String) -> Int? {
        guard let range = banner.range(of: "serving http://127.0.0.1:") else { return nil }
        return Int(banner[range.upperBound...].prefix { $0.isNumber })
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
        // Port 0: the system picks a free port and the banner says which (no pick-then-bind race).
        let process = Process()
        process.executableURL = try CLI.executable()
        process.arguments = ["serve", "--port", "0", "--quiet"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let banner = Self.firstLine(of: out.fileHandleForReading)
        let port = try #require(Self.port(ofBanner: banner), "no port in the banner: \(banner)")
        #expect(port > 0 && banner.contains("standard"), "\(banner)")
        #expect(Self.get("http://127.0.0.1:\(port)/health") == 200)
        #expect(Self.get("http://127.0.0.1:\(port)/styles/standard/0/0/0.png") == 200)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)

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

@Suite("mapraster serve and mapraster render draw the same static map for the same request")
struct ServeMatchesRenderTests {
    @Test(
        "Google /staticmap and tileserver-gl static/auto give the CLI's bytes (markers, paths, fitting, visible)",
        arguments: [
            (
                "/staticmap?size=600x300&markers=color:blue%7Clabel:S%7C40.702147,-74.015794"
                    + "&markers=color:green%7Clabel:G%7C40.711614,-74.012318"
                    + "&path=color:0x0000ff%7Cweight:5%7C40.737102,-73.990318%7C40.749825,-73.987963",
                [
                    "--size", "600x300", "--marker", "color:blue|label:S|40.702147,-74.015794", "--marker",
                    "color:green|label:G|40.711614,-74.012318", "--path",
                    "color:0x0000ff|weight:5|40.737102,-73.990318|40.749825,-73.987963",
                ]
            ),
            (
                "/staticmap?size=400x400&scale=2&center=60.17,24.94&zoom=13&path=weight:3%7Cenc:_p~iF~ps%7CU_ulLnnqC"
                    + "&visible=60.17,24.94",
                [
                    "--size", "400x400", "--scale", "2", "--center", "60.17,24.94", "--zoom", "13", "--path",
                    "weight:3|enc:_p~iF~ps|U_ulLnnqC", "--visible", "60.17,24.94",
                ]
            ),
            (
                // A place name for center, as Google accepts: the same offline geocoder as the command line's.
                "/staticmap?size=300x200&center=Helsinki&zoom=12",
                ["--size", "300x200", "--center", "Helsinki", "--zoom", "12"]
            ),
            (
                "/styles/standard/static/auto/500x300.png?padding=0.1"
                    + "&path=stroke:red%7Cwidth:4%7C24.93,60.16%7C24.95,60.17%7C24.96,60.165",
                [
                    "--size", "500x300", "--padding", "30", "--path",
                    "stroke:red|width:4|24.93,60.16|24.95,60.17|24.96,60.165",
                ]
            ),
        ])
    func sameBytes(target: String, cli: [String]) throws {
        let server = try MapServer(
            configuration: {
                var config = ServerConfiguration()
                config.styles = try ServerConfiguration.shippedStyles()
                return config
            }())
        let response = server.handle(HTTPRequest(target: target))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        try withTemporaryDirectory { dir in
            let result = try CLI.run(["render"] + cli + ["-o", "cli.png"], in: dir.url)
            #expect(result.exitCode == 0, "\(result)")
            #expect(try Data(contentsOf: dir.file("cli.png")) == response.body)
        }
    }

    @Test("bad static-map parameters are 400s naming the parameter")
    func badParameters() throws {
        var config = ServerConfiguration()
        config.styles = try ServerConfiguration.shippedStyles()
        let server = try MapServer(configuration: config)
        for (target, parameter) in [
            ("/staticmap?center=0,0&zoom=3", "size"),
            ("/staticmap?size=100x100&markers=color:purplish%7C1,2", "markers"),
            ("/staticmap?size=100x100&center=0,0&zoom=5&visible=10,10", "visible"),
            ("/staticmap?size=100x100&center=0,0", "zoom"),
            ("/staticmap?size=100x100&center=Qwxzvbnplace&zoom=3", "center"),
            ("/staticmap?size=100x100&maptype=moon&center=0,0&zoom=2", "maptype"),
            ("/staticmap?size=100x100", "center"),
            ("/staticmap?size=100x100&path=enc:%7F%7F", "path"),
            ("/styles/standard/static/auto/100x100.png", "area"),
            ("/styles/standard/static/auto/100x100.png?marker=1,2%7Cicon.png", "marker"),
            ("/styles/standard/static/auto/100x100.png?path=1,2%7C3,4&padding=2", "padding"),
        ] {
            let response = server.handle(HTTPRequest(target: target))
            #expect(response.status == 400, "\(target)")
            let json = try JSONValue.parse(response.body)
            #expect(json["parameter"]?.string == parameter, "\(target): \(json.serialized(pretty: false))")
        }
    }
}
