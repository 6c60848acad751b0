import Foundation
import MapData
import MapRaster
import MapServer
import Testing

/// The served style.json as a MapLibre GL client reads it: every URL in it (sources' TileJSON and the tiles
/// those name, GeoJSON files, the sprite's four files, the glyphs of each font stack) is absolute, on this server, and answers with the right
/// type. (No MapLibre GL build can run here, so the client's requests are made one by one.)
@Suite("The served style.json loads in a GL client: every URL in it resolves")
struct ServedStyleClientTests {
    static let host = "maps.example.test:8080"

    /// The path of an absolute URL on this server (the test fails for any other URL).
    static func path(_ url: String) throws -> String {
        let prefix = "http://\(host)"
        try #require(url.hasPrefix(prefix + "/"), "not an absolute URL on this server: \(url)")
        return String(url.dropFirst(prefix.count))
    }

    static func get(_ path: String) -> HTTPResponse {
        TestServer.shared.handle(HTTPRequest(target: path, headers: ["host": host]))
    }

    @Test(
        "standard and streets: sources, tiles, GeoJSON files, sprite and glyphs answer 200 (or 204) of the right type",
        arguments: ["standard", "streets"])
    func everyURLResolves(_ id: String) throws {
        let style = try JSONValue.parse(Self.get("/styles/\(id)/style.json").body)
        // The glyphs of every text-font stack the layers name (as literals) are served, as MapLibre asks for them.
        let glyphs = try #require(style["glyphs"]?.string)
        var stacks = Set<[String]>()
        for layer in style["layers"]?.array ?? [] {
            guard let items = layer["layout"]?["text-font"]?.array else { continue }
            let names = items.compactMap(\.string)
            if names.count == items.count, !names.isEmpty { stacks.insert(names) }
        }
        #expect(!stacks.isEmpty)
        for stack in stacks {
            let encoded = stack.joined(separator: ",").replacingOccurrences(of: " ", with: "%20")
            let url = glyphs.replacingOccurrences(of: "{fontstack}", with: encoded)
                .replacingOccurrences(of: "{range}", with: "0-255")
            let answer = Self.get(try Self.path(url))
            #expect(answer.status == 200 && answer.header("Content-Type") == "application/x-protobuf", "\(url)")
            #expect(try GlyphRange(pbf: [UInt8](answer.body), index: 0).glyphs[0x61]?.hasBitmap == true, "\(url)")
        }
        var checked = 0
        for (name, source) in try #require(style["sources"]?.members) {
            switch source["type"]?.string {
            case "vector", "raster":
                let url = try #require(source["url"]?.string, "source \(name) has no url")
                let tileJSON = Self.get(try Self.path(url))
                #expect(
                    tileJSON.status == 200 && tileJSON.header("Content-Type")?.hasPrefix("application/json") == true)
                let template = try #require(try JSONValue.parse(tileJSON.body)["tiles"]?.array?.first?.string)
                // The extract's z14 tile over Monaco, and one it does not hold (204: an empty area).
                for (tile, statuses) in [("14/8529/5975", [200]), ("14/0/0", [204])] {
                    let tilePath = try Self.path(
                        template.replacingOccurrences(of: "{z}/{x}/{y}", with: tile))
                    let answer = Self.get(tilePath)
                    #expect(statuses.contains(answer.status), "\(tilePath): \(answer.status)")
                    if answer.status == 200 { #expect(answer.header("Content-Type") == "application/x-protobuf") }
                }
            case "geojson":
                if let url = source["data"]?.string {
                    let answer = Self.get(try Self.path(url))
                    #expect(answer.status == 200 && answer.header("Content-Type") == "application/geo+json", "\(url)")
                    #expect((try? JSONValue.parse(answer.body))?["type"]?.string != nil)
                }
            default:
                Issue.record("source \(name) of type \(source["type"]?.string ?? "-") is not a GL source")
            }
            checked += 1
        }
        #expect(checked > 0)
        let sprite = try #require(style["sprite"]?.string)
        for (suffix, type) in [
            (".json", "application/json"), (".png", "image/png"), ("@2x.json", "application/json"),
            ("@2x.png", "image/png"),
        ] {
            let answer = Self.get(try Self.path(sprite + suffix))
            #expect(
                answer.status == 200 && answer.header("Content-Type")?.hasPrefix(type) == true, "\(sprite)\(suffix)")
        }
        // Every layer's source is one of the served sources.
        let sources = Set((style["sources"]?.members ?? []).map(\.0))
        for layer in style["layers"]?.array ?? [] {
            if let source = layer["source"]?.string { #expect(sources.contains(source), "\(source)") }
        }
    }

    @Test("the satellite style's equirectangular image source has no GL equivalent: it is left out with its layers")
    func imageSourceLeftOut() throws {
        let style = try JSONValue.parse(Self.get("/styles/satellite/style.json").body)
        #expect(style["sources"]?.members?.isEmpty == true)
        #expect(style["layers"]?.array?.allSatisfy { $0["source"] == nil } == true)
    }
}
