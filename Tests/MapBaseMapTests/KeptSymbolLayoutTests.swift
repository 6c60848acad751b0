import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapRender
import MapTestSupport
import Testing

@testable import MapBaseMap
@testable import MapStyle

/// A symbol layer's layout (each feature's resolved text and icon name, the lines its line labels go along) is
/// kept by the features' source from image to image. The truth is the same view drawn by a base map that has
/// laid out nothing before: the images must be the same pixels, whatever the earlier images were.
@Suite("Symbol layout kept from image to image: the same labels as laid out afresh")
struct KeptSymbolLayoutTests {
    /// Roads in pieces that meet end to start (joined as MapLibre's `mergeLines` joins them), crossing streets,
    /// and named points with a kind, around (0, 0).
    static let data: String = {
        var features: [String] = []
        func line(_ points: [(Double, Double)], _ name: String) {
            let c = points.map { "[\($0.0), \($0.1)]" }.joined(separator: ",")
            features.append(
                #"{"type": "Feature", "properties": {"name": "\#(name)"}, "geometry": {"type": "LineString", "coordinates": [\#(c)]}}"#
            )
        }
        // A long avenue in three pieces, joined into one line before its labels are placed.
        line([(-0.03, 0.001), (-0.01, 0.002)], "Avenue des Pins")
        line([(-0.01, 0.002), (0.01, 0.001)], "Avenue des Pins")
        line([(0.01, 0.001), (0.03, 0.003)], "Avenue des Pins")
        for i in 0..<6 {
            let x = -0.025 + Double(i) * 0.01
            line([(x, -0.012), (x + 0.001, 0.012)], "Rue \(i)")
        }
        for i in 0..<12 {
            let (x, y) = (-0.028 + Double(i % 4) * 0.018, -0.009 + Double(i / 4) * 0.008)
            features.append(
                #"{"type": "Feature", "properties": {"name": "Place \#(i)", "kind": "k\#(i % 3)"}, "geometry": {"type": "Point", "coordinates": [\#(x), \#(y)]}}"#
            )
        }
        return #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
    }()

    static func style(placeTransform: String = "uppercase") throws -> Style {
        let text = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": \#(data)}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#f4f0e8"}},
                        {"id": "roads", "type": "line", "source": "s", "filter": ["==", ["geometry-type"], "LineString"],
                         "paint": {"line-color": "#c0b8a8", "line-width": 6}},
                        {"id": "road-names", "type": "symbol", "source": "s",
                         "filter": ["==", ["geometry-type"], "LineString"],
                         "layout": {"symbol-placement": "line", "text-field": "{name}", "text-size": 13,
                                    "symbol-spacing": 120},
                         "paint": {"text-color": "#303030", "text-halo-color": "#ffffff", "text-halo-width": 1.5}},
                        {"id": "places", "type": "symbol", "source": "s", "filter": ["==", ["geometry-type"], "Point"],
                         "layout": {"text-field": "{name} ({kind})", "text-transform": "\#(placeTransform)",
                                    "text-size": ["interpolate", ["linear"], ["zoom"], 14, 11, 16, 15],
                                    "text-variable-anchor": ["top", "bottom", "left", "right"],
                                    "text-radial-offset": 0.6},
                         "paint": {"text-color": "#5a3020", "text-halo-color": "#ffffff", "text-halo-width": 1}}]}
            """#
        return try Style.decode(Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: "/"))
    }

    static let size = Size(width: 480, height: 320)

    static func viewport(longitude: Double, zoom: Double) throws -> MapViewport {
        try MapViewport(
            size: size, center: LocationCoordinate2D(latitude: 0, longitude: longitude), zoomLevel: zoom)
    }

    static func render(_ map: StyledBaseMap, _ viewport: MapViewport) throws -> [UInt8] {
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = viewport.visibleMapRect
        options.showsAttribution = false
        let snapshotter = try MapSnapshotter(options: options)
        snapshotter.baseMap = map
        return try snapshotter.snapshot().image.rgbaBytes()
    }

    @Test("a base map drawing view after view draws each as a base map drawing it first")
    func sameAsAfresh() throws {
        let style = try Self.style()
        let warm = try StyledBaseMap(style: style)
        // Panned within the same features, zoomed, and back: layouts kept, kept and replaced, replaced again.
        let views = try [
            Self.viewport(longitude: 0, zoom: 15), Self.viewport(longitude: 0.004, zoom: 15),
            Self.viewport(longitude: 0.004, zoom: 16.3), Self.viewport(longitude: 0, zoom: 15),
            Self.viewport(longitude: 0, zoom: 15),
        ]
        var inked = 0
        for (k, viewport) in views.enumerated() {
            let drawn = try Self.render(warm, viewport)
            let fresh = try Self.render(try StyledBaseMap(style: style), viewport)
            let differing = zip(drawn, fresh).filter { $0 != $1 }.count
            #expect(
                drawn.count == fresh.count && differing == 0,
                "view \(k): \(differing) bytes differ from the same view drawn afresh")
            inked = drawn.indices.filter { $0 % 4 == 0 && drawn[$0] < 0x80 }.count
        }
        // The views have labels (dark text), and the warm map did keep its layouts.
        #expect(inked > 500, "\(inked) dark pixels")
        let viewport = views[0]
        for layer in style.layers where layer.type == .symbol {
            let source = try #require(try warm.featureSource(for: layer, viewport: viewport))
            let kept = try #require(source.keptLayout(layer: layer.id), "nothing kept for \(layer.id)")
            #expect(!kept.texts.isEmpty)
            #expect(kept.lines != nil)
            #expect(!kept.shapings.isEmpty, "no shaping kept for \(layer.id)")
        }
    }

    @Test("views drawn at once on several threads by one base map: each as drawn afresh")
    func concurrentViews() throws {
        let style = try Self.style()
        let warm = try StyledBaseMap(style: style)
        let views = try (0..<6).map { k in
            try Self.viewport(longitude: Double(k % 3) * 0.003, zoom: k < 3 ? 15 : 15.7)
        }
        let truths = try views.map { try Self.render(try StyledBaseMap(style: style), $0) }
        let drawn = Locked([[UInt8]?](repeating: nil, count: views.count * 2))
        // Every view twice, all at once: layouts kept and replaced by one thread while others read them.
        DispatchQueue.concurrentPerform(iterations: views.count * 2) { k in
            let image = try? Self.render(warm, views[k % views.count])
            drawn.withLock { $0[k] = image }
        }
        let images = drawn.withLock { $0 }
        for (k, image) in images.enumerated() {
            let truth = truths[k % views.count]
            let differing = image.map { zip($0, truth).filter { $0 != $1 }.count } ?? -1
            #expect(image?.count == truth.count && differing == 0, "draw \(k): \(differing) bytes differ")
        }
    }

    @Test("layouts beyond the source's byte budget are not kept")
    func bounded() throws {
        let style = try Self.style()
        let places = try #require(style.layers.first { $0.id == "places" })
        let viewport = try Self.viewport(longitude: 0, zoom: 15)
        let source = FeatureSource(name: "test", features: [])
        var small = SymbolLayerRenderer.Layout(
            layer: places, selection: FeatureSelection(viewport: viewport), imageNames: nil)
        small.keep(.init(text: "Place", iconName: "", sections: nil), for: 0)
        // Keeping a feature's text or characters again replaces them: counted once.
        let once = small.bytes
        small.keep(.init(text: "Place", iconName: "", sections: nil), for: 0)
        let characters = SymbolLayerRenderer.Layout.KeptGlyphText(
            characters: [], opacity: 1, stack: ["Noto Sans Regular"])
        small.keep(characters, for: .init(feature: 0, vertical: false))
        let withCharacters = small.bytes
        small.keep(characters, for: .init(feature: 0, vertical: false))
        #expect(small.bytes == withCharacters && withCharacters > once)
        // A kept shaping is counted once however often it is asked for; characters not kept are not.
        let glyph = SDFGlyph(
            id: 65, width: 10, height: 14, left: 1, top: -2, advance: 12, bitmap: [UInt8](repeating: 0, count: 16 * 20))
        let kept = [GlyphShaping.Character](repeating: .init(codePoint: 65, glyph: glyph, section: 0), count: 5)
        func shape(_ characters: [GlyphShaping.Character], kept: Bool) -> GlyphShaping {
            small.shaping(
                characters, kept: kept, maxWidth: 240, lineHeight: 28.8, align: (0.5, 0.5), justify: 0.5, spacing: 0,
                offset: (0, 0))
        }
        let first = shape(kept, kept: true)
        let withShaping = small.bytes
        let again = shape(kept, kept: true)
        #expect(withShaping > withCharacters && small.bytes == withShaping && small.shapings.count == 1)
        #expect(again.right == first.right && again.lines.map(\.count) == first.lines.map(\.count))
        _ = shape(Array(kept), kept: false)
        #expect(small.bytes == withShaping && small.shapings.count == 1)
        // Another offset or alignment is another shaping, each the shaping of its own parameters.
        for (align, offset) in [((0.5, 0.5), (0.0, 12.0)), ((0.0, 1.0), (0.0, 0.0)), ((0.5, 0.5), (0.0, 0.0))] {
            let memo = small.shaping(
                kept, kept: true, maxWidth: 240, lineHeight: 28.8, align: align, justify: 0.5, spacing: 0,
                offset: offset)
            let truth = GlyphShaping.shape(
                kept, maxWidth: 240, lineHeight: 28.8, align: align, justify: 0.5, spacing: 0, offset: offset)
            #expect(
                [memo.left, memo.right, memo.top, memo.bottom] == [truth.left, truth.right, truth.top, truth.bottom])
            #expect(memo.lines.flatMap { $0.map(\.x) } == truth.lines.flatMap { $0.map(\.x) })
        }
        #expect(small.shapings.count == 3 && small.bytes > withShaping)
        source.keepLayout(layer: "places", small)
        #expect(source.keptLayout(layer: "places")?.texts.count == 1)
        // A layout that alone takes more than the budget: not kept, and what was kept for the layer is dropped.
        var large = small
        let text = String(repeating: "a", count: FeatureSource.keptLayoutBytes)
        large.keep(.init(text: text, iconName: "", sections: nil), for: 1)
        #expect(large.bytes > FeatureSource.keptLayoutBytes)
        source.keepLayout(layer: "places", large)
        #expect(source.keptLayout(layer: "places") == nil)
        // Two layers sharing the budget: the second fits only while the first leaves room.
        var half = small
        half.keep(
            .init(text: String(repeating: "b", count: FeatureSource.keptLayoutBytes / 2), iconName: "", sections: nil),
            for: 2)
        source.keepLayout(layer: "places", half)
        source.keepLayout(layer: "other", half)
        #expect(source.keptLayout(layer: "places") != nil && source.keptLayout(layer: "other") == nil)
    }

    @Test("a layout serves only its own layer, zoom, image size, sprite images and glyph provider")
    func appliesToItsOwn() throws {
        let style = try Self.style()
        let other = try Self.style(placeTransform: "lowercase")
        let places = try #require(style.layers.first { $0.id == "places" })
        let otherPlaces = try #require(other.layers.first { $0.id == "places" })
        let installed = InstalledGlyphs.shared(for: .default)
        func layout(
            _ layer: StyleLayer, longitude: Double = 0, zoom: Double = 15, width: Double = 480,
            names: Set<String>? = nil, glyphs: (any GlyphRangeProvider)? = nil
        ) throws -> SymbolLayerRenderer.Layout {
            let viewport = try MapViewport(
                size: Size(width: width, height: 320), center: LocationCoordinate2D(latitude: 0, longitude: longitude),
                zoomLevel: zoom)
            return SymbolLayerRenderer.Layout(
                layer: layer, selection: FeatureSelection(viewport: viewport), imageNames: names,
                glyphProvider: glyphs ?? installed)
        }
        let kept = try layout(places)
        #expect(kept.applies(to: try layout(places)))
        // Panning keeps the zoom and size: the same layout.
        #expect(kept.applies(to: try layout(places, longitude: 0.01)))
        #expect(try !kept.applies(to: layout(otherPlaces)))
        #expect(try !kept.applies(to: layout(places, glyphs: GlyphPBFTemplate("/nonexistent/{fontstack}/{range}.pbf"))))
        #expect(try !kept.applies(to: layout(places, zoom: 15.5)))
        #expect(try !kept.applies(to: layout(places, width: 60)))
        #expect(try !kept.applies(to: layout(places, names: ["shop"])))
    }

    @Test("two styles with a layer of the same id over the same features: each its own text")
    func sameIDOtherStyle() throws {
        let upper = try Self.style()
        let lower = try Self.style(placeTransform: "lowercase")
        let viewport = try Self.viewport(longitude: 0, zoom: 15)
        // One source (the first map's) laid out by both styles' `places` in turn, against fresh sources.
        let map = try StyledBaseMap(style: upper)
        let layer = try #require(upper.layers.first { $0.id == "places" })
        let otherLayer = try #require(lower.layers.first { $0.id == "places" })
        let shared = try #require(try map.featureSource(for: layer, viewport: viewport))
        func place(_ layer: StyleLayer, _ source: FeatureSource) throws -> [Rect] {
            var collisions = SpatialGrid(cellSize: 64)
            var renderer = SymbolLayerRenderer(
                layer: layer, source: source, selection: FeatureSelection(viewport: viewport))
            renderer.glyphs = SDFGlyphSource(provider: InstalledGlyphs.shared(for: .default))
            return try renderer.place(into: &collisions).map(\.bounds)
        }
        func fresh(_ style: Style, _ layer: StyleLayer) throws -> [Rect] {
            try place(
                layer, try #require(try StyledBaseMap(style: style).featureSource(for: layer, viewport: viewport)))
        }
        let upperTruth = try fresh(upper, layer)
        let lowerTruth = try fresh(lower, otherLayer)
        #expect(!upperTruth.isEmpty && upperTruth != lowerTruth)
        for _ in 0..<2 {
            #expect(try place(layer, shared) == upperTruth)
            #expect(try place(otherLayer, shared) == lowerTruth)
        }
    }
}
