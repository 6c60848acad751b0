import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

/// Issue 25: a style is read as MapLibre reads it. What this version does not know or support is a warning
/// naming its JSON path (once per property, however many layers have it) and is left out; real errors stay
/// errors; `strict` keeps the refusals.
@Suite("Style leniency: warnings, --strict, network sources and sprites, colours in styles")
struct StyleLeniencyTests {
    static let base = URL(fileURLWithPath: "/styles")
    static let empty = #"{"type": "FeatureCollection", "features": []}"#

    func decode(_ text: String, _ options: StyleLoadOptions = StyleLoadOptions()) throws -> Style {
        try Style.decode(Data(text.utf8), source: "test.json", baseURL: Self.base, options: options)
    }

    func error(_ text: String, _ options: StyleLoadOptions = StyleLoadOptions()) -> String {
        do {
            _ = try decode(text, options)
            return "(no error)"
        } catch { return "\(error)" }
    }

    /// A style with a local GeoJSON source `g` and the given extra root members, sources and layers.
    func style(root: String = "", sources: String = "", layers: String) -> String {
        #"{"version": 8, \#(root) "sources": {"g": {"type": "geojson", "data": \#(Self.empty)} \#(sources)}, "layers": [\#(layers)]}"#
    }

    static let fill = #"{"id": "f", "type": "fill", "source": "g", "paint": {"fill-color": "red"}}"#

    @Test("root members: MapLibre's descriptive ones kept silently, `light` read, the rest warnings naming each")
    func rootMembers() throws {
        let descriptive = ["id", "owner", "created", "modified", "draft", "transition"]
        let unknown = ["terrain", "sky", "projection", "x-anything"]
        let root =
            (descriptive + unknown).map { #""\#($0)": {"a": 1},"# }.joined()
            + #""light": {"intensity": 0.8, "anchor": "map", "position": [1.5, 90, 80], "color": "hsl(0, 100%, 50%)"},"#
        let style = try decode(self.style(root: root, layers: Self.fill))
        #expect(style.layers.map(\.id) == ["f"])
        #expect(style.warnings.count == unknown.count)
        for member in unknown {
            #expect(style.warnings.messages.contains { $0.hasPrefix("\(member): unknown style member") }, "\(member)")
        }
        for member in descriptive { #expect(style.unused[member] == .object([("a", .number(1))]), "\(member)") }
        #expect(style.unused["terrain"] == .object([("a", .number(1))]))
        #expect(style.light.intensity == 0.8 && style.light.anchor == .map && style.light.color == .red)
        #expect(style.light.position == (1.5, 90, 80))
        let strict = error(self.style(root: root, layers: Self.fill), StyleLoadOptions(strict: true))
        #expect(strict.contains(": unknown style member"), "\(strict)")
        #expect(!strict.contains("test.json: id:"), "\(strict)")
        let spec = try decode(
            self.style(root: descriptive.map { #""\#($0)": 1,"# }.joined(), layers: Self.fill),
            StyleLoadOptions(strict: true))
        #expect(spec.warnings.count == 0)
    }

    @Test("a light MapRaster cannot use (an expression, out of range) keeps the default with a warning")
    func light() throws {
        let style = try decode(
            self.style(
                root:
                    #""light": {"intensity": ["interpolate", ["linear"], ["zoom"], 0, 0, 10, 1], "position": [1, 2], "anchor": "sun", "glow": 1},"#,
                layers: Self.fill))
        #expect(style.light == StyleLight())
        #expect(style.warnings.count == 4)
        #expect(style.warnings.messages.contains { $0.hasPrefix("light.intensity: must be a literal number in 0...1") })
        #expect(style.light.direction.z > 0.99 && style.light.direction.y < 0)
    }

    @Test("an image source: its url and four corners; corners out of range or missing are errors with their path")
    func imageSource() throws {
        let corners = #"[[-122.52, 37.56], [-122.51, 37.57], [-122.50, 37.56], [-122.51, 37.55]]"#
        let source = #", "i": {"type": "image", "url": "a.png", "coordinates": \#(corners)}"#
        let raster = #"{"id": "r", "type": "raster", "source": "i", "paint": {"raster-opacity": 0.5}}"#
        let style = try decode(self.style(sources: source, layers: raster))
        guard case .image(let url, let read)? = style.sources["i"]?.kind else {
            Issue.record("not an image source")
            return
        }
        #expect(url.path == "/styles/a.png")
        #expect(read.count == 4 && read[1].latitude == 37.57 && read[0].longitude == -122.52)
        for bad in [
            #"[[0, 0], [1, 0], [1, 1]]"#, #"[[0, 0], [1, 0], [1, 1], [0, 91]]"#, #"[[0, 0], [1, 0], [1, 1], "x"]"#,
        ] {
            let text = self.style(
                sources: #", "i": {"type": "image", "url": "a.png", "coordinates": \#(bad)}"#, layers: raster)
            #expect(error(text).contains("sources.i.coordinates"), "\(bad): \(error(text))")
        }
        #expect(
            error(self.style(sources: #", "i": {"type": "image", "coordinates": \#(corners)}"#, layers: raster))
                .contains("sources.i.url: missing"))
    }

    @Test("an unknown layer type is left out with a warning; the other layers are drawn")
    func layerTypes() throws {
        let heatmap = #"{"id": "b", "type": "heatmap", "source": "g", "paint": {"heatmap-radius": 9}}"#
        let extrusion = #"{"id": "x", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-height": 9}}"#
        let style = try decode(
            self.style(
                layers: [Self.fill, heatmap, #"{"id": "h", "type": "hillshade", "source": "g"}"#, extrusion].joined(
                    separator: ",")
            ))
        #expect(style.layers.map(\.id) == ["f", "x"])
        #expect(style.warnings.messages.count == 2)
        #expect(style.warnings.messages[0].hasPrefix("layers[1].type: layer \"b\""))
        #expect(style.warnings.messages[0].contains("\"heatmap\" is not supported"))
        #expect(style.warnings.messages[1].hasPrefix("layers[2].type"))
        let strict = error(self.style(layers: heatmap), StyleLoadOptions(strict: true))
        #expect(strict.contains("layers[0].type: unknown layer type \"heatmap\""), "\(strict)")
        let negative = error(
            self.style(
                layers: #"{"id": "x", "type": "fill-extrusion", "source": "g", "paint": {"fill-extrusion-height": -1}}"#
            ),
            StyleLoadOptions(strict: true))
        #expect(negative.contains("fill-extrusion-height"), "\(negative)")
    }

    @Test("an unknown property is one warning however many layers have it, naming the first path")
    func properties() throws {
        let label =
            #"{"id": "l#", "type": "symbol", "source": "g", "layout": {"symbol-z-elevate": true, "text-field": "x"}, "paint": {"text-colour": "red"}}"#
        let layers = (0..<5).map { label.replacingOccurrences(of: "#", with: "\($0)") }.joined(separator: ",")
        let style = try decode(self.style(layers: layers))
        #expect(style.layers.count == 5)
        #expect(style.layers[0].properties["symbol-z-elevate"] == nil)
        #expect(style.layers[0].properties["text-field"] != nil)
        #expect(
            style.warnings.messages == [
                #"layers[0].layout.symbol-z-elevate: the layout property "symbol-z-elevate" is unknown or not supported for a symbol layer; ignored (and 4 more layers)"#,
                #"layers[0].paint.text-colour: the paint property "text-colour" is unknown or not supported for a symbol layer; ignored (and 4 more layers)"#,
            ])
        #expect(error(self.style(layers: layers), StyleLoadOptions(strict: true)).contains("symbol-z-elevate"))
    }

    @Test("a style with 100,000 unknown properties decodes with a bounded list; strict refuses it")
    func hostile() throws {
        let paint = (0..<100_000).map { #""p\#($0)": 1"# }.joined(separator: ",")
        let text = style(layers: #"{"id": "f", "type": "fill", "source": "g", "paint": {\#(paint)}}"#)
        let style = try decode(text)
        #expect(style.layers.count == 1)
        #expect(style.warnings.count == 100_000)
        #expect(style.warnings.messages.count == StyleWarnings.maximumKept)
        let lines = style.warnings.lines(limit: 20)
        #expect(lines.count == 21)
        #expect(lines.last == "... and 99980 more warnings (mapraster style check lists them)")
        #expect(error(text, StyleLoadOptions(strict: true)).contains("layers[0].paint.p0"))
    }

    @Test(
        "real errors stay errors, lenient or strict",
        arguments: [
            (#"{"version": 8, "layers": [}"#, "line 1"),
            (#"{"version": 7, "layers": []}"#, "must be 8"),
            (#"{"version": 8, "layers": {}}"#, "layers: must be an array"),
            (#"{"version": 8, "name": 5, "layers": []}"#, "name: must be a string"),
            (
                #"{"version": 8, "layers": [{"id": "a", "type": "background", "paint": {"background-opacity": "half"}}]}"#,
                "must be a number"
            ),
            (
                #"{"version": 8, "layers": [{"id": "a", "type": "background", "paint": {"background-color": "hsl(1, 2, 3)"}}]}"#,
                "hsl(1, 2, 3)"
            ),
            (
                #"{"version": 8, "layers": [{"id": "a", "type": "background", "paint": {"background-opacity": ["frobnicate", ["get", "x"]]}}]}"#,
                "unknown expression operator"
            ),
            (
                #"{"version": 8, "layers": [{"id": "a", "type": "background", "paint": {"background-opacity": 2}}]}"#,
                "0...1"
            ),
            (#"{"version": 8, "layers": [{"id": "a", "type": "fill", "source": "nope"}]}"#, "no source \"nope\""),
        ])
    func realErrors(text: String, fragment: String) {
        for strict in [false, true] {
            let message = error(text, StyleLoadOptions(strict: strict))
            #expect(message.contains(fragment), "strict \(strict): \(message)")
        }
    }

    static let remote =
        #", "relief": {"type": "raster", "tiles": ["https://example.com/{z}/{x}/{y}.png"], "tileSize": 256}, "omt": {"type": "vector", "url": "mapbox://mapbox.mapbox-streets-v8"}"#
    static let remoteLayers = [
        fill, #"{"id": "r", "type": "raster", "source": "relief"}"#,
        #"{"id": "w1", "type": "fill", "source": "omt", "source-layer": "water"}"#,
        #"{"id": "w2", "type": "line", "source": "omt", "source-layer": "water"}"#,
    ].joined(separator: ",")

    @Test("network sources left unreplaced: one warning each naming --source, their layers left out")
    func remoteSources() throws {
        let style = try decode(self.style(sources: Self.remote, layers: Self.remoteLayers))
        #expect(style.layers.map(\.id) == ["f"])
        #expect(style.sources.keys.sorted() == ["g"])
        #expect(style.warnings.messages.count == 2)
        let omt = try #require(style.warnings.messages.first { $0.hasPrefix("sources.omt.url") })
        #expect(omt.contains("mapbox://mapbox.mapbox-streets-v8") && omt.contains("--source omt=PATH"))
        #expect(omt.hasSuffix("(2 layers left out)"), "\(omt)")
        let relief = try #require(style.warnings.messages.first { $0.hasPrefix("sources.relief.tiles") })
        #expect(relief.contains("--source relief=PATH") && relief.hasSuffix("(1 layer left out)"), "\(relief)")
        let strict = error(self.style(sources: Self.remote, layers: Self.remoteLayers), StyleLoadOptions(strict: true))
        #expect(strict.contains("no network") && strict.contains("--source"), "\(strict)")
    }

    @Test("--source replaces a network source without looking at its url; its layers are drawn")
    func replacedSources() throws {
        var options = StyleLoadOptions(strict: true, base: URL(fileURLWithPath: "/data"))
        options.sources = ["omt": "tiles/monaco.mbtiles", "relief": "relief/{z}/{x}/{y}.png"]
        let style = try decode(self.style(sources: Self.remote, layers: Self.remoteLayers), options)
        #expect(style.warnings.isEmpty)
        #expect(style.layers.map(\.id) == ["f", "r", "w1", "w2"])
        guard case .vector(let tiles)? = style.sources["omt"]?.kind else {
            Issue.record("omt is \(String(describing: style.sources["omt"]))")
            return
        }
        #expect(tiles.location == "/data/tiles/monaco.mbtiles")
        guard case .rasterTiles(let relief)? = style.sources["relief"]?.kind else {
            Issue.record("relief is \(String(describing: style.sources["relief"]))")
            return
        }
        #expect(relief.location == "/data/relief/{z}/{x}/{y}.png" && relief.tileSize == 256)
        options.sources = ["roads": "x.mbtiles"]
        let unknown = error(self.style(sources: Self.remote, layers: Self.remoteLayers), options)
        #expect(unknown.contains("--source roads=x.mbtiles") && unknown.contains("the style's sources: g, omt, relief"))
    }

    @Test("nothing left to draw (every source on the network) is an error naming the --source to give")
    func nothingToDraw() {
        let text = #"""
            {"version": 8, "sources": {"openmaptiles": {"type": "vector", "url": "https://api.maptiler.com/tiles/v3/tiles.json?key={key}"}},
             "layers": [{"id": "bg", "type": "background"}, {"id": "w", "type": "fill", "source": "openmaptiles", "source-layer": "water"}]}
            """#
        let message = error(text)
        #expect(
            message.contains("nothing can be drawn") && message.contains("--source openmaptiles=PATH"), "\(message)")
    }

    @Test("unsupported source types: a warning, and their layers are left out")
    func sourceTypes() throws {
        let sources =
            #", "dem": {"type": "raster-dem", "url": "dem.json"}, "vid": {"type": "video", "urls": ["a.mp4"], "coordinates": []}"#
        let layers = [Self.fill, #"{"id": "hs", "type": "hillshade", "source": "dem"}"#].joined(separator: ",")
        let style = try decode(self.style(sources: sources, layers: layers))
        #expect(style.layers.map(\.id) == ["f"])
        #expect(
            style.warnings.messages.contains {
                $0.hasPrefix("sources.dem.type: unsupported source type \"raster-dem\"")
                    && $0.hasSuffix("(1 layer left out)")
            })
        #expect(style.warnings.messages.contains { $0.hasPrefix("sources.vid.type") })
    }

    @Test("a network sprite is one warning and draws no icons; --sprite gives a local one; network glyphs warn")
    func spritesAndGlyphs() throws {
        let root =
            #""sprite": "https://openmaptiles.github.io/osm-bright-gl-style/sprite", "glyphs": "https://example.com/{fontstack}/{range}.pbf","#
        let style = try decode(self.style(root: root, layers: Self.fill))
        #expect(style.sprites.isEmpty)
        #expect(style.warnings.messages.count == 2)
        #expect(style.warnings.messages[0].hasPrefix("sprite: the network sprite"))
        #expect(style.warnings.messages[0].contains("--sprite PATH"))
        #expect(style.warnings.messages[1].hasPrefix("glyphs: network glyphs"))
        var options = StyleLoadOptions(strict: true, base: URL(fileURLWithPath: "/work"))
        options.sprites = ["default": "sprites/bright"]
        let local = try decode(self.style(root: root, layers: Self.fill), options)
        #expect(local.sprites == [SpriteLocation(id: "default", base: URL(fileURLWithPath: "/work/sprites/bright"))])
        #expect(local.warnings.messages.count == 1)  // glyphs only: a local sprite replaced the network one
    }

    @Test(
        "an operator of MapLibre's set this version does not evaluate: the property (or the filtered layer) is left out with one warning"
    )
    func unsupportedOperators() throws {
        let layers = [
            #"{"id": "a", "type": "fill", "source": "g", "paint": {"fill-opacity": ["distance", {"type": "Point", "coordinates": [0, 0]}], "fill-color": "red"}}"#,
            #"{"id": "b", "type": "fill", "source": "g", "paint": {"fill-opacity": ["distance", {"type": "Point", "coordinates": [1, 0]}]}}"#,
            #"{"id": "c", "type": "fill", "source": "g", "filter": ["within", {"type": "Polygon", "coordinates": []}]}"#,
            #"{"id": "d", "type": "fill", "source": "g", "paint": {"fill-opacity": ["case", ["==", ["get", "k"], "pi"], 0.5, 1]}}"#,
        ].joined(separator: ",")
        let style = try decode(self.style(layers: layers))
        let supportsWithin = StyleExpression.supportedOperators.contains("within")
        #expect(style.layers.map(\.id) == (supportsWithin ? ["a", "b", "c", "d"] : ["a", "b", "d"]))
        #expect(style.layers[0].properties["fill-opacity"] == nil && style.layers[0].properties["fill-color"] != nil)
        #expect(style.layers[1].properties["fill-opacity"] == nil)
        #expect(style.layers.last?.properties["fill-opacity"] != nil, "a string \"pi\" is data, not the operator")
        #expect(
            style.warnings.messages.first
                == #"layers[0].paint.fill-opacity: the expression operator "distance" is not supported by this version; the property is ignored (its default applies) (and 1 more place)"#
        )
        if !supportsWithin {
            #expect(
                style.warnings.messages.contains {
                    $0.hasPrefix("layers[2].filter: the expression operator \"within\"")
                        && $0.contains("layer \"c\" is not drawn")
                })
        }
        let strict = error(self.style(layers: layers), StyleLoadOptions(strict: true))
        #expect(strict.contains("unknown expression operator \"distance\""), "\(strict)")
        // An operator MapLibre does not know either is an invalid expression, leniently too.
        let invalid = error(
            self.style(
                layers: #"{"id": "x", "type": "fill", "source": "g", "paint": {"fill-opacity": ["frob", ["zoom"]]}}"#))
        #expect(invalid.contains("unknown expression operator \"frob\""), "\(invalid)")
    }

    @Test("icon-image in a style without any sprite is one warning naming --sprite")
    func noSprite() throws {
        let icons = #"{"id": "i", "type": "symbol", "source": "g", "layout": {"icon-image": "x"}}"#
        let style = try decode(
            self.style(
                layers: [Self.fill, icons, icons.replacingOccurrences(of: #""i""#, with: #""j""#)].joined(
                    separator: ",")))
        #expect(
            style.warnings.messages == [
                #"sprite: missing: the style has no sprite, so icon-image (first in layer "i") draws nothing; give --sprite PATH"#
            ])
    }

    @Test("colours of the CSS grammar in literals, zoom stops, expressions and to-color")
    func colours() throws {
        let paint = #"""
            {"fill-color": ["interpolate", ["linear"], ["zoom"], 5, "hsl(30, 19%, 90%)", 10, "hsla(120, 100%, 25%, 0.5)"],
             "fill-outline-color": ["to-color", ["get", "c"]]}
            """#
        let legacy = ##"{"stops": [[1, "rgb(100% 50% 0% / 50%)"], [2, "#abcd"]]}"##
        let layers = [
            #"{"id": "f", "type": "fill", "source": "g", "paint": \#(paint)}"#,
            #"{"id": "b", "type": "background", "paint": {"background-color": \#(legacy)}}"#,
        ].joined(separator: ",")
        let style = try decode(self.style(layers: layers))
        #expect(style.warnings.isEmpty)
        let fill = style.layers[0]
        #expect(fill.color(.fillColor, EvaluationContext(zoom: 5)) == Color(red8: 234, green8: 230, blue8: 225))
        #expect(
            fill.color(.fillColor, EvaluationContext(zoom: 10)) == Color(red8: 0, green8: 128, blue8: 0, alpha: 0.5))
        let feature = EvaluationContext(zoom: 5, properties: ["c": .string("hsl(0, 0%, 40%)")])
        #expect(fill.color(.fillOutlineColor, feature) == Color(red8: 102, green8: 102, blue8: 102))
        #expect(
            style.layers[1].color(.backgroundColor, EvaluationContext(zoom: 1))
                == Color(red8: 255, green8: 128, blue8: 0, alpha: 0.5))
    }
}
