import Foundation
import MapRaster
import MapServer
import MapTestSupport
import Testing

/// Issue 25 for `mapraster serve`: a published style with a network source is served over the configured
/// data, its warnings logged; `strict` refuses it; a configuration's `sprite` replaces a network sprite.
@Suite("Served styles: lenient reading, strict, sprites")
struct ServedStyleLeniencyTests {
    static let tiles = Fixtures.packageRoot.appendingPathComponent(
        "Sources/MapBaseMap/Resources/vectortiles/osm-omt.mbtiles"
    ).path

    /// positron with its network source pointed at the configured data, the way a tileserver-gl
    /// configuration names it (`mbtiles://{omt}`), and its `text-pitch-alignment` (drawn) renamed
    /// `symbol-z-elevate` (a MapLibre property MapRaster does not support), written to a temporary folder.
    static func positron(in folder: URL) throws -> URL {
        let original = try String(
            contentsOf: Fixtures.root.appendingPathComponent("styles/openmaptiles/positron/style.json"), encoding: .utf8
        )
        let text = original.replacingOccurrences(
            of: "https://api.maptiler.com/tiles/v3-openmaptiles/tiles.json?key={key}", with: "mbtiles://{omt}"
        ).replacingOccurrences(of: "\"text-pitch-alignment\"", with: "\"symbol-z-elevate\"")
        let url = folder.appendingPathComponent("positron.json")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("a published style's network source named like a data entry reads it; the served style.json points there")
    func publishedStyleOverData() throws {
        var config = ServerConfiguration()
        try config.addData(id: "openmaptiles", path: Self.tiles)
        let style = Fixtures.root.appendingPathComponent("styles/openmaptiles/maptiler-basic/style.json").path
        try config.addStyle(id: "basic", path: style)
        guard case .vector(let tiles)? = config.styles.first?.style.sources["openmaptiles"]?.kind else {
            Issue.record("the source was not read from the data: \(config.styleWarnings)")
            return
        }
        #expect(tiles.location.hasSuffix("osm-omt.mbtiles"))
        #expect(!config.styleWarnings.contains { $0.contains("sources.openmaptiles") }, "\(config.styleWarnings)")
    }

    @Test("lenient: the style loads, its warnings name the style and the JSON paths; strict refuses it")
    func lenientAndStrict() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-styles-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let style = try Self.positron(in: folder)
        var config = ServerConfiguration()
        try config.addData(id: "omt", path: Self.tiles)
        let sprite = Fixtures.root.appendingPathComponent("styles/openmaptiles/positron/sprite").path
        try config.addStyle(id: "positron", path: style.path, sprite: sprite)
        #expect(config.styles.map(\.id) == ["positron"])
        #expect(config.styleWarnings.contains { $0.hasPrefix("style 'positron': \(style.path): layers[") })
        #expect(!config.styleWarnings.contains { $0.contains("unknown style member") }, "`id` is the spec's")
        #expect(config.styleWarnings.contains { $0.contains("layout.symbol-z-elevate") })
        #expect(!config.styleWarnings.contains { $0.contains("network sprite") }, "the local sprite replaced it")
        #expect(config.styles[0].style.sprites.map(\.base.path) == [sprite])

        var strict = ServerConfiguration()
        strict.styleOptions.strict = true
        try strict.addData(id: "omt", path: Self.tiles)
        #expect(throws: ServerError.self) { try strict.addStyle(id: "positron", path: style.path) }
    }
}
