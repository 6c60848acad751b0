import Foundation
import MapData
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@Suite("Tiled sources: TileJSON urls, raster tiles, bounds, promoteId, feature ids, --source replacement")
struct TiledSourceDecodingTests {
    static let base = URL(fileURLWithPath: "/styles")

    func decode(_ text: String, base: URL = Self.base) throws -> Style {
        try Style.decode(Data(text.utf8), source: "test.json", baseURL: base)
    }

    /// The error of a strict read (`--strict`: today's refusals; lenient reads warn, see StyleLeniencyTests).
    func error(_ text: String) -> String {
        do {
            _ = try Style.decode(
                Data(text.utf8), source: "test.json", baseURL: Self.base, options: StyleLoadOptions(strict: true))
            return "(no error)"
        } catch { return "\(error)" }
    }

    func styleText(sources: String, layers: String = "[]") -> String {
        #"{"version": 8, "sources": {\#(sources)}, "layers": \#(layers)}"#
    }

    @Test("a TileJSON url fills in tiles (relative to the TileJSON file), zooms, bounds and attribution")
    func tileJSON() throws {
        let folder = Fixtures.root.appendingPathComponent("render/raster")
        let style = try decode(
            styleText(sources: #""t": {"type": "raster", "url": "tiles.json", "tileSize": 256}"#), base: folder)
        guard case .rasterTiles(let tiles)? = style.sources["t"]?.kind else {
            Issue.record("not raster tiles: \(String(describing: style.sources["t"]))")
            return
        }
        #expect(tiles.location == folder.path + "/tiles/{z}/{x}/{y}.png")
        #expect(tiles.minZoom == 0 && tiles.maxZoom == 2 && tiles.tileSize == 256)
        #expect(tiles.bounds == GeoBoundingBox(west: -180, south: -85.0511, east: 180, north: 85.0511))
        #expect(style.attribution == ["MapRaster test tiles (TileJSON)"])
        // The style's own members win over the TileJSON's.
        let own = try decode(
            styleText(sources: #""t": {"type": "vector", "url": "tiles.json", "maxzoom": 1, "attribution": "mine"}"#),
            base: folder)
        guard case .vector(let vector)? = own.sources["t"]?.kind else {
            Issue.record("not vector")
            return
        }
        #expect(vector.maxZoom == 1 && vector.tileSize == 512)
        #expect(own.attribution == ["mine"])
    }

    @Test("raster sources: tiles templates, tileSize, mbtiles urls; a .png url stays a whole-world image")
    func rasterSources() throws {
        let style = try decode(
            styleText(
                sources: #"""
                    "a": {"type": "raster", "tiles": ["t/{z}/{x}/{y}.png"], "tileSize": 256, "minzoom": 1, "scheme": "tms"},
                    "b": {"type": "raster", "url": "mbtiles://imagery.mbtiles"},
                    "c": {"type": "raster", "url": "world.png"}
                    """#))
        #expect(
            style.sources["a"]?.kind
                == .rasterTiles(
                    StyleSource.TileSet(location: "/styles/t/{z}/{x}/{y}.png", minZoom: 1, scheme: "tms", tileSize: 256)
                ))
        #expect(
            style.sources["b"]?.kind == .rasterTiles(StyleSource.TileSet(location: "mbtiles:///styles/imagery.mbtiles"))
        )
        #expect(style.sources["c"]?.kind == .raster(URL(fileURLWithPath: "/styles/world.png")))
    }

    @Test(
        "bad tiled sources are refused naming the member",
        arguments: [
            (#""t": {"type": "raster", "tiles": ["a/{z}/{x}/{y}.png"], "tileSize": 300}"#, "sources.t.tileSize"),
            (#""t": {"type": "raster", "tiles": ["a/{z}/{x}/{y}.png"], "tileSize": 1e300}"#, "sources.t.tileSize"),
            (#""t": {"type": "vector", "tiles": ["a/{z}/{x}/{y}.pbf"], "bounds": [1, 2, 3]}"#, "sources.t.bounds"),
            (
                #""t": {"type": "vector", "tiles": ["a/{z}/{x}/{y}.pbf"], "bounds": [0, 50, 10, 40]}"#,
                "sources.t.bounds"
            ),
            (
                #""t": {"type": "vector", "tiles": ["a/{z}/{x}/{y}.pbf"], "minzoom": 9, "maxzoom": 3}"#,
                "sources.t.maxzoom"
            ),
            (#""t": {"type": "vector", "tiles": []}"#, "sources.t.tiles"),
            (#""t": {"type": "vector", "tiles": ["https://example.com/{z}/{x}/{y}.pbf"]}"#, "sources.t.tiles"),
            (#""t": {"type": "vector", "url": "https://example.com/tiles.json"}"#, "sources.t.url"),
            (#""t": {"type": "vector", "url": "missing-tilejson.json"}"#, "sources.t.url"),
            (#""t": {"type": "vector", "tiles": ["a/{z}/{x}/{y}.pbf"], "promoteId": 7}"#, "sources.t.promoteId"),
            (
                #""t": {"type": "vector", "tiles": ["a/{z}/{x}/{y}.pbf"], "promoteId": {"roads": 1}}"#,
                "sources.t.promoteId.roads"
            ),
            (#""t": {"type": "raster", "tiles": ["a/{z}/{x}/{y}.png"], "promoteId": "id"}"#, "sources.t.promoteId"),
        ])
    func refused(source: String, path: String) {
        let message = error(styleText(sources: source))
        #expect(message.contains(path), "\(message)")
    }

    @Test("bounds are clamped to the world and a box across the 180th meridian is kept")
    func bounds() throws {
        let style = try decode(
            styleText(
                sources: #""t": {"type": "vector", "tiles": ["a/{z}/{x}/{y}.pbf"], "bounds": [170, -95, -170, 95]}"#))
        guard case .vector(let tiles)? = style.sources["t"]?.kind else { return }
        #expect(tiles.bounds == GeoBoundingBox(west: 170, south: -90, east: -170, north: 90))
    }

    @Test("promoteId: one property, or one per source layer")
    func promoteID() throws {
        let style = try decode(
            styleText(
                sources: #"""
                    "a": {"type": "vector", "tiles": ["a/{z}/{x}/{y}.pbf"], "promoteId": "osm_id"},
                    "b": {"type": "vector", "tiles": ["a/{z}/{x}/{y}.pbf"], "promoteId": {"poi": "poi_id"}},
                    "c": {"type": "geojson", "data": "x.geojson", "promoteId": "name"}
                    """#))
        #expect(style.sources["a"]?.promoteID?.property(forSourceLayer: "water") == "osm_id")
        #expect(style.sources["b"]?.promoteID?.property(forSourceLayer: "poi") == "poi_id")
        #expect(style.sources["b"]?.promoteID?.property(forSourceLayer: "water") == nil)
        #expect(style.sources["c"]?.promoteID == .property("name"))
    }

    @Test("a GeoJSON source's maxzoom (geojson-vt's deepest tiles): default 18, clamped to 0...24")
    func geojsonMaxZoom() throws {
        let style = try decode(
            styleText(
                sources: #"""
                    "a": {"type": "geojson", "data": "x.geojson", "maxzoom": 10},
                    "b": {"type": "geojson", "data": "x.geojson"},
                    "c": {"type": "geojson", "data": "x.geojson", "maxzoom": 99.5},
                    "d": {"type": "geojson", "data": "x.geojson", "maxzoom": -3},
                    "e": {"type": "geojson", "data": "x.geojson", "maxzoom": 12.7}
                    """#))
        #expect(style.sources["a"]?.geojsonMaxZoom == 10)
        #expect(style.sources["b"]?.geojsonMaxZoom == 18)
        #expect(style.sources["c"]?.geojsonMaxZoom == 24)
        #expect(style.sources["d"]?.geojsonMaxZoom == 0)
        #expect(style.sources["e"]?.geojsonMaxZoom == 12)
    }

    @Test("[\"id\"], and $id in legacy filters, read the feature's id; a feature without one has null")
    func featureID() throws {
        let id = try StyleExpression.decode(.array([.string("id")]), path: "x")
        #expect(id.evaluate(EvaluationContext(zoom: 1, id: .number(7))) == .number(7))
        #expect(id.evaluate(EvaluationContext(zoom: 1)) == .null)
        let legacy = try StyleExpression.decodeFilter(
            .array([.string("=="), .string("$id"), .number(7)]), path: "f")
        #expect(legacy.evaluate(EvaluationContext(zoom: 1, id: .number(7))).isTrue)
        #expect(!legacy.evaluate(EvaluationContext(zoom: 1, properties: ["$id": .number(7)])).isTrue)
        let has = try StyleExpression.decodeFilter(.array([.string("has"), .string("$id")]), path: "f")
        #expect(has.evaluate(EvaluationContext(zoom: 1, id: .string("a"))).isTrue)
        #expect(!has.evaluate(EvaluationContext(zoom: 1)).isTrue)
        let listed = try StyleExpression.decodeFilter(
            .array([.string("in"), .string("$id"), .number(1), .number(2)]), path: "f")
        #expect(listed.evaluate(EvaluationContext(zoom: 1, id: .number(2))).isTrue)
        let tooMany = error(
            styleText(
                sources: "", layers: #"[{"id": "b", "type": "background", "paint": {"background-opacity": ["id", 1]}}]"#
            ))
        #expect(tooMany.contains("\"id\" takes 0 arguments"), "\(tooMany)")
    }

    @Test("replacingSource points a source at another file, keeping its type, attribution and promoteId")
    func replacingSource() throws {
        let style = try decode(
            styleText(
                sources: #"""
                    "omt": {"type": "vector", "url": "mbtiles://old.mbtiles", "maxzoom": 14, "attribution": "OSM", "promoteId": "x"},
                    "land": {"type": "geojson", "data": "land.geojson"}
                    """#))
        let cwd = URL(fileURLWithPath: "/work/here", isDirectory: true)
        let replaced = try style.replacingSource("omt", with: "planet.pmtiles", relativeTo: cwd)
            .replacingSource("land", with: "/data/other.geojson", relativeTo: cwd)
        #expect(replaced.sources["omt"]?.kind == .vector(StyleSource.TileSet(location: "/work/here/planet.pmtiles")))
        #expect(replaced.sources["omt"]?.attribution == "OSM")
        #expect(replaced.sources["omt"]?.promoteID == .property("x"))
        #expect(replaced.sources["land"]?.kind == .geojsonFile(URL(fileURLWithPath: "/data/other.geojson")))
        let template = try style.replacingSource("omt", with: "tiles/{z}/{x}/{y}.pbf", relativeTo: cwd)
        #expect(
            template.sources["omt"]?.kind == .vector(StyleSource.TileSet(location: "/work/here/tiles/{z}/{x}/{y}.pbf")))
        #expect(throws: StyleError.self) { try style.replacingSource("nope", with: "a.mbtiles", relativeTo: cwd) }
        do {
            _ = try style.replacingSource("nope", with: "a.mbtiles", relativeTo: cwd)
        } catch { #expect("\(error)".contains("the style's sources: land, omt"), "\(error)") }
    }
}
