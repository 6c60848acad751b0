import Foundation
import MapRaster
import MapServer
import MapTestSupport
import Testing

@Suite("The server's configuration file")
struct ServerConfigurationTests {
    static func load(_ json: String) throws -> ServerConfiguration {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-config-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config.json")
        try Data(json.utf8).write(to: file)
        return try ServerConfiguration.load(contentsOf: file)
    }

    @Test("options as tileserver-gl's config.json writes them, with the limits, log, deadline, fonts and glyphs")
    func options() throws {
        let config = try Self.load(
            """
            {"options": {"bind": "0.0.0.0", "port": 9090, "maxSize": 1024, "workers": 3, "queue": 8,
             "renderTimeout": 2.5, "accessLog": "json", "cacheBytes": 1000, "cors": null,
             "fonts": "/usr/share/fonts/truetype/dejavu", "paths": {"fonts": "\(Self.glyphs)"}},
             "data": {"omt": {"mbtiles": "\(TestServer.tilesPath)"}}}
            """)
        #expect(config.address == "0.0.0.0" && config.port == 9090 && config.maximumSize == 1024)
        #expect(config.workers == 3 && config.queueLimit == 8 && config.cacheBytes == 1000 && config.cors == nil)
        #expect(config.renderTimeout == 2.5 && config.accessLog == .json)
        #expect(config.fonts.directories.first == "/usr/share/fonts/truetype/dejavu")
        #expect(config.data.map(\.id) == ["omt"])
        // tileserver-gl's paths.fonts: a folder of glyph PBFs, a subfolder per font.
        #expect(config.glyphFolder?.fontNames == ["Open Sans Semibold,Arial Unicode MS Bold"])
    }

    static let glyphs = Fixtures.url("maplibre/assets/glyphs").path

    @Test(
        "a wrong option is an error naming it",
        arguments: [
            (#"{"options": {"renderTimeout": 0}}"#, "options.renderTimeout"),
            (#"{"options": {"accessLog": "apache"}}"#, "options.accessLog"),
            (#"{"options": {"fonts": "/no/such/folder"}}"#, "options.fonts"),
            (#"{"options": {"workers": 1.5}}"#, "options.workers"),
            (#"{"options": {"paths": {"fonts": "/no/such/folder"}}}"#, "options.paths.fonts"),
            (#"{"options": {"paths": {"styles": "styles"}}}"#, "options.paths.styles"),
            (#"{"options": {"colour": 1}}"#, "options.colour"),
        ])
    func wrong(json: String, named: String) {
        #expect {
            _ = try Self.load(json)
        } throws: { error in
            "\(error)".contains(named)
        }
    }
}
