import Foundation
import MapData
import MapRaster
import MapServer
import MapTestSupport
import Testing

/// `/fonts.json` and `/fonts/{fontstack}/{range}.pbf`: glyphs from a fonts folder (combined per glyph, first
/// font wins, as tileserver-gl combines them) and made from the installed fonts, with tileserver-gl's statuses.
@Suite struct ServerFontsTests {
    /// A fonts folder: "Alpha" has A (advance 10), "Beta" has A (advance 20) and B, "Broken" a file that is not a
    /// glyph PBF.
    static func folder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-fonts-\(getpid())")
        func write(_ font: String, _ glyphs: [SDFGlyph]) throws {
            let dir = root.appendingPathComponent(font)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let range = GlyphRange(index: 0, fontStack: font, glyphs: glyphs)
            try Data(range.pbfBytes()).write(to: dir.appendingPathComponent("0-255.pbf"))
        }
        let a = SDFGlyph(id: 65, width: 0, height: 0, left: 0, top: -20, advance: 10, bitmap: [])
        try write("Alpha", [a])
        var a2 = a
        a2.advance = 20
        try write("Beta", [a2, SDFGlyph(id: 66, width: 0, height: 0, left: 0, top: -20, advance: 11, bitmap: [])])
        try write("Broken", [])
        try Data([0x0A, 0xFF, 0xFF, 0x01]).write(
            to: root.appendingPathComponent("Broken").appendingPathComponent("0-255.pbf"))
        return root
    }

    static let server: MapServer = {
        do {
            var config = try TestServer.configuration()
            config.glyphFolder = try GlyphFolder(directory: try folder().path)
            return try MapServer(configuration: config)
        } catch { fatalError("the fonts server cannot be configured: \(error)") }
    }()

    static func get(_ target: String) -> HTTPResponse {
        server.handle(HTTPRequest(target: target, headers: ["host": "maps.test:80"]))
    }

    @Test func fontsJSONListsFolderInstalledAndStyleFonts() throws {
        let response = Self.get("/fonts.json")
        #expect(response.status == 200)
        let names = try #require(try JSONValue.parse(response.body).array).compactMap(\.string)
        #expect(names == names.sorted())
        for name in ["Alpha", "Beta", "DejaVu Sans Book", "DejaVu Sans Bold"] {
            #expect(names.contains(name), "\(name)")
        }
    }

    @Test func folderStacksCombinePerGlyphFirstFontWins() throws {
        let response = Self.get("/fonts/Alpha,Beta/0-255.pbf")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/x-protobuf")
        let range = try GlyphRange(pbf: [UInt8](response.body), index: 0)
        #expect(range.glyphs[65]?.advance == 10 && range.glyphs[66]?.advance == 11)
        let reversed = try GlyphRange(pbf: [UInt8](Self.get("/fonts/Beta,Alpha/0-255.pbf").body), index: 0)
        #expect(reversed.glyphs[65]?.advance == 20)
    }

    @Test func installedFontsAreMadeAndRepeatByteForByte() throws {
        let target = "/fonts/DejaVu%20Sans%20Bold,Alpha/0-255.pbf"
        let first = Self.get(target)
        #expect(first.status == 200)
        let range = try GlyphRange(pbf: [UInt8](first.body), index: 0)
        // The folder's Alpha comes first for A; DejaVu Sans Bold, made from the installed font, gives the rest.
        #expect(range.glyphs[65]?.advance == 10)
        #expect(range.glyphs[66]?.hasBitmap == true && range.glyphs.count > 150)
        let made = try InstalledGlyphs(catalog: .default).glyphRange(fontStack: ["DejaVu Sans Bold"], index: 0)
        #expect(range.glyphs[97] == made?.glyphs[97])
        #expect(Self.get(target).body == first.body)
    }

    @Test(arguments: [
        ("/fonts/Alpha/0-254.pbf", 400), ("/fonts/Alpha/65536-65791.pbf", 400), ("/fonts/Alpha/x.pbf", 400),
        ("/fonts/Nonsense/0-255.pbf", 400), ("/fonts/Nonsense,Alpha/0-255.pbf", 400), ("/fonts/,/0-255.pbf", 400),
        ("/fonts/Alpha/0-255.json", 404), ("/fonts/Alpha", 404),
    ])
    func badRangesAndNames(target: String, status: Int) {
        #expect(Self.get(target).status == status)
    }

    @Test func aBrokenFileIsAServerErrorNamingFileAndRange() {
        let response = Self.get("/fonts/Broken/0-255.pbf")
        #expect(response.status == 500)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains("Broken/0-255.pbf") && text.contains("range 0-255"), "\(text)")
        #expect(Self.get("/metrics").body.count > 0)
        let metrics = String(decoding: Self.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("mapraster_http_requests_total{endpoint=\"fonts\",status=\"500\"}"))
    }

    @Test func servedStyleNamesTheGlyphsAbsolutely() throws {
        let style = try JSONValue.parse(Self.get("/styles/standard/style.json").body)
        #expect(style["glyphs"]?.string == "http://maps.test:80/fonts/{fontstack}/{range}.pbf")
    }
}

/// Served images draw their labels from the server's glyph folder, the glyphs GL clients get at `/fonts`, as
/// tileserver-gl renders with its fonts folder.
@Suite struct ServerGlyphFolderRenderingTests {
    @Test func labelsOfStylesAddedWithAFolderAreDrawnFromIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-glyph-render-\(getpid())")
        let font = root.appendingPathComponent("fonts/Open Sans Semibold")
        try FileManager.default.createDirectory(at: font, withIntermediateDirectories: true)
        try Fixtures.data("maplibre/assets/glyphs/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf")
            .write(to: font.appendingPathComponent("0-255.pbf"))
        let style = root.appendingPathComponent("style.json")
        try Data(
            """
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {},
              "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}},
               {"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "Glyphs", "text-size": 24,
                "text-font": ["Open Sans Semibold"]}, "paint": {"text-halo-color": "#fc0", "text-halo-width": 2}}]}
            """.utf8
        ).write(to: style)
        func image(folder: Bool) throws -> Data {
            var config = ServerConfiguration()
            if folder { config.glyphFolder = try GlyphFolder(directory: root.appendingPathComponent("fonts").path) }
            try config.addStyle(id: "s", path: style.path)
            let response = try MapServer(configuration: config).handle(
                HTTPRequest(target: "/styles/s/static/0,0,2/200x100.png"))
            #expect(response.status == 200)
            return response.body
        }
        let fromFolder = try image(folder: true)
        #expect(fromFolder != (try image(folder: false)), "SDF glyphs, not FreeType's")
        // The same map drawn by the snapshotter from the same PBFs as a style's glyphs template.
        var options = MapSnapshotter.Options(size: Size(width: 200, height: 100))
        options.visibleMapRect = try MapViewport(
            size: options.size, center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 3
        ).visibleMapRect
        options.style = try Style.load(contentsOf: style)
        options.glyphs = try GlyphPBFTemplate(root.path + "/fonts/{fontstack}/{range}.pbf")
        #expect(fromFolder == (try MapSnapshotter(options: options).snapshot().image.pngData()))
    }
}
