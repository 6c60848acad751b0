import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

@testable import MapBaseMap
@testable import MapStyle

@Suite("Label placement: collisions, priority, wrapping, lines")
struct LabelPlacementTests {
    static func points(_ list: [(Double, Double, String, Double)]) -> String {
        let features = list.map { lon, lat, name, rank in
            #"{"type": "Feature", "properties": {"name": "\#(name)", "rank": \#(rank)}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
        }
        return #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
    }

    static func line(_ coordinates: [(Double, Double)], name: String) -> String {
        let c = coordinates.map { "[\($0.0), \($0.1)]" }.joined(separator: ",")
        return
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "\#(name)"}, "geometry": {"type": "LineString", "coordinates": [\#(c)]}}]}"#
    }

    static func place(
        data: String, layout: String, center: LocationCoordinate2D = LocationCoordinate2D(latitude: 0, longitude: 0),
        zoom: Double = 6
    ) throws -> [PlacedLabel] {
        var collisions = SpatialGrid(cellSize: 64)
        return try place(data: data, layout: layout, center: center, zoom: zoom, into: &collisions)
    }

    /// `place` into a grid of symbols placed before (world points of the 400x300 view).
    static func place(
        data: String, layout: String, center: LocationCoordinate2D = LocationCoordinate2D(latitude: 0, longitude: 0),
        zoom: Double = 6, into collisions: inout SpatialGrid
    ) throws -> [PlacedLabel] {
        let text = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": \#(data)}},
             "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": \#(layout)}]}
            """#
        let style = try Style.decode(Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: "/"))
        let map = try StyledBaseMap(style: style)
        let viewport = try MapViewport(size: Size(width: 400, height: 300), center: center, zoomLevel: zoom)
        let surface = try ImageSurface(width: 400, height: 300)
        let frame = LayerFrame(context: try GraphicsContext(surface: surface), viewport: viewport)
        let source = try #require(try map.featureSource(for: style.layers[0], viewport: viewport))
        return try SymbolLayerRenderer(layer: style.layers[0], source: source, selection: frame.selection).place(
            into: &collisions)
    }

    static func boxes(_ labels: [PlacedLabel]) -> [Rect] {
        labels.map { label in
            guard case .lines(let lines) = label.content else { return Rect(x: 0, y: 0, width: 0, height: 0) }
            let m = label.font.measure(lines[0].text, size: label.size)
            let top = lines.map { $0.origin.y - m.ascent }.min()!
            let bottom = lines.map { $0.origin.y + m.descent }.max()!
            let left = lines.map(\.origin.x).min()!
            let right = lines.map { $0.origin.x + label.font.measure($0.text, size: label.size).width }.max()!
            return Rect(x: left, y: top, width: right - left, height: bottom - top)
        }
    }

    static func texts(_ labels: [PlacedLabel]) -> [String] {
        labels.map {
            if case .lines(let lines) = $0.content { return lines.map(\.text).joined(separator: " ") }
            return ""
        }
    }

    @Test("crowded labels: no two overlap, and the lowest sort key wins")
    func collisions() throws {
        var list: [(Double, Double, String, Double)] = []
        for i in 0..<30 { list.append((Double(i % 6) * 1.2, Double(i / 6) * 0.3, "Place \(i)", Double(30 - i))) }
        let labels = try Self.place(
            data: Self.points(list),
            layout: #"{"text-field": "{name}", "text-size": 14, "symbol-sort-key": ["get", "rank"]}"#)
        #expect(labels.count > 1 && labels.count < 30)
        #expect(Self.texts(labels).first == "Place 29")
        let boxes = Self.boxes(labels)
        for i in boxes.indices {
            for j in boxes.indices where j > i { #expect(!boxes[i].intersects(boxes[j]), "\(i) and \(j) overlap") }
        }
    }

    @Test("text-allow-overlap places every label")
    func allowOverlap() throws {
        let list = (0..<10).map { (Double($0) * 0.01, 0.0, "Same \($0)", 0.0) }
        let labels = try Self.place(
            data: Self.points(list), layout: #"{"text-field": "{name}", "text-allow-overlap": true}"#)
        #expect(labels.count == 10)
    }

    /// The style spec's `text-overlap: cooperative`: hidden only by a symbol placed with `never`; MapLibre's
    /// render test text-overlap/cooperative checks it across layers.
    @Test("text-overlap cooperative: over always and cooperative symbols, never over a never one")
    func cooperativeOverlap() throws {
        let list = (0..<5).map { (Double($0) * 0.01, 0.0, "Same \($0)", 0.0) }
        let layout = #"{"text-field": "{name}", "text-overlap": "cooperative"}"#
        var empty = SpatialGrid(cellSize: 64)
        let alone = try Self.place(data: Self.points(list), layout: layout, into: &empty)
        #expect(alone.count == 5)  // cooperative symbols do not keep each other out
        #expect(empty.count == 5)  // and are recorded, for the layers placed after them
        let world = try MapViewport(
            size: Size(width: 400, height: 300), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 6
        ).worldPoint(MapPoint(LocationCoordinate2D(latitude: 0, longitude: 0)))
        let over = Rect(x: world.x - 100, y: world.y - 50, width: 200, height: 100)
        var soft = SpatialGrid(cellSize: 64)
        soft.insert(over, soft: true)
        #expect(try Self.place(data: Self.points(list), layout: layout, into: &soft).count == 5)
        var hard = SpatialGrid(cellSize: 64)
        hard.insert(over)
        #expect(try Self.place(data: Self.points(list), layout: layout, into: &hard).isEmpty)
        // `never` text is kept out by the cooperative symbols before it, soft or not.
        var never = SpatialGrid(cellSize: 64)
        never.insert(over, soft: true)
        #expect(try Self.place(data: Self.points(list), layout: #"{"text-field": "{name}"}"#, into: &never).isEmpty)
    }

    /// MapLibre's map option `crossSourceCollisions: false` gives each source its own collision group
    /// (render tests text-/icon-no-cross-source-collision); boxes placed around (annotations) still apply.
    @Test("crossSourceCollisions false: each source's labels collide only with its own")
    func crossSourceCollisions() throws {
        let data = Self.points([(0, 0, "Same place", 0)])
        let layers = (1...3).map { i in
            #"{"id": "l\#(i)", "type": "symbol", "source": "s\#(i)", "layout": {"text-field": "{name} \#(i)"}}"#
        }
        let sources = (1...3).map { #""s\#($0)": {"type": "geojson", "data": \#(data)}"# }
        let text =
            #"{"version": 8, "sources": {\#(sources.joined(separator: ","))}, "layers": [\#(layers.joined(separator: ","))]}"#
        var map = try StyledBaseMap(
            style: try Style.decode(Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: "/")))
        let viewport = try MapViewport(
            size: Size(width: 400, height: 300), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 6)
        let context = try GraphicsContext(surface: try ImageSurface(width: 400, height: 300))
        let middle = Rect(x: 150, y: 100, width: 100, height: 100)
        #expect(try map.drawLabelsReturningBoxes(in: context, viewport: viewport, avoiding: []).count == 1)
        map.crossSourceCollisions = false
        let boxes = try map.drawLabelsReturningBoxes(in: context, viewport: viewport, avoiding: [])
        #expect(boxes.count == 3)
        #expect(boxes.allSatisfy { $0.intersects(boxes[0]) })  // one on top of another
        #expect(try map.drawLabelsReturningBoxes(in: context, viewport: viewport, avoiding: [middle]).isEmpty)
    }

    /// Hostile text: a label of 100,000 Arabic characters is cut to 65,536 before Arabic shaping and bidi,
    /// so that their work stays proportional to what a label can draw.
    @Test("a 100,000-character Arabic label is shaped only as far as its first 65,536 characters")
    func longRightToLeftLabel() throws {
        let style = try Style.decode(
            Data(
                #"{"version": 8, "sources": {"s": {"type": "geojson", "data": \#(Self.points([(0, 0, "x", 0)]))}}, "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "{name}"}}]}"#
                    .utf8), source: "test", baseURL: URL(fileURLWithPath: "/"))
        let viewport = try MapViewport(
            size: Size(width: 400, height: 300), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 6)
        let map = try StyledBaseMap(style: style)
        let source = try #require(try map.featureSource(for: style.layers[0], viewport: viewport))
        let glyphs = SDFGlyphSource(provider: InstalledGlyphs.shared(for: .default))
        var renderer = SymbolLayerRenderer(
            layer: style.layers[0], source: source, selection: FeatureSelection(viewport: viewport))
        renderer.glyphs = glyphs
        let text = String(repeating: "سلام ", count: 20_000)
        let shaped = try #require(
            try renderer.glyphText(text, sections: nil, stack: ["DejaVu Sans"], opacity: 1, glyphs: glyphs))
        // lam-alef joins two letters into one: the first 65,536 characters shape to fewer.
        let expected = BidirectionalText.applyArabicShaping(String(text.unicodeScalars.prefix(1 << 16)))
        #expect(shaped.characters.map(\.codePoint) == expected.unicodeScalars.map(\.value))
        #expect(shaped.characters.contains { $0.codePoint == 0xFEFC })
    }

    /// MapLibre draws a layer with a data-driven `symbol-sort-key` by key (each key's icons, halos and fills
    /// in turn: render test symbol-sort-key/text-expression); without one, labels carry no key.
    @Test("a data-driven symbol-sort-key: labels come out in key order, each with its key")
    func sortKeyDrawOrder() throws {
        let list = [(0.0, 0.0, "c", 3.0), (0.5, 0.5, "a", 1.0), (1.0, 1.0, "b", 2.0)]
        let keyed = try Self.place(
            data: Self.points(list),
            layout: #"{"text-field": "{name}", "text-allow-overlap": true, "symbol-sort-key": ["get", "rank"]}"#)
        #expect(Self.texts(keyed) == ["a", "b", "c"])
        #expect(keyed.map(\.sortKey) == [1, 2, 3])
        let plain = try Self.place(
            data: Self.points(list), layout: #"{"text-field": "{name}", "text-allow-overlap": true}"#)
        #expect(plain.allSatisfy { $0.sortKey == nil })
    }

    @Test("text-max-width wraps at spaces; text-transform changes case")
    func wrapping() throws {
        let labels = try Self.place(
            data: Self.points([(0, 0, "Midtown on the River Bank", 0)]),
            layout: #"{"text-field": "{name}", "text-max-width": 6, "text-size": 12, "text-transform": "uppercase"}"#)
        guard case .lines(let lines)? = labels.first?.content else {
            Issue.record("no label")
            return
        }
        #expect(lines.count >= 2)
        #expect(lines.map(\.text).joined(separator: " ") == "MIDTOWN ON THE RIVER BANK")
    }

    @Test("labels keep their world position when the view moves: placement does not depend on the image edges")
    func frameIndependence() throws {
        let data = Self.points([(0, 0, "Fixed", 0)])
        let layout = #"{"text-field": "{name}"}"#
        let a = try Self.place(data: data, layout: layout, center: LocationCoordinate2D(latitude: 0, longitude: 0))
        let b = try Self.place(data: data, layout: layout, center: LocationCoordinate2D(latitude: 0.3, longitude: 0.5))
        guard case .lines(let la)? = a.first?.content, case .lines(let lb)? = b.first?.content else {
            Issue.record("no label")
            return
        }
        #expect(la[0].origin == lb[0].origin)
    }

    @Test("line labels read left to right on a line drawn right to left, and follow it")
    func upright() throws {
        // Inside one of MapLibre's zoom-5 tiles (east of 0°, north of the equator): a line cut by a tile edge
        // is labelled on each piece, and these pieces would be too short.
        let labels = try Self.place(
            data: Self.line([(6.5, 3.2), (5.5, 3), (3.5, 2.8)], name: "Backwards Street"),
            layout: #"{"text-field": "{name}", "symbol-placement": "line", "text-size": 12}"#,
            center: LocationCoordinate2D(latitude: 3, longitude: 5))
        #expect(!labels.isEmpty)
        for label in labels {
            guard case .glyphs(let glyphs) = label.content else {
                Issue.record("not a line label")
                continue
            }
            for g in glyphs { #expect(cos(g.angle) > 0, "glyph angle \(g.angle) is upside down") }
            // Glyph origins advance to the right.
            for (p, q) in zip(glyphs, glyphs.dropFirst()) { #expect(q.origin.x > p.origin.x) }
        }
    }

    @Test("no line label where the line turns sharper than text-max-angle")
    func sharpTurns() throws {
        var zigzag: [(Double, Double)] = []
        for i in 0..<40 { zigzag.append((-1 + Double(i) * 0.05, i % 2 == 0 ? 0 : 0.05)) }
        let labels = try Self.place(
            data: Self.line(zigzag, name: "Zigzag Lane"),
            layout: #"{"text-field": "{name}", "symbol-placement": "line", "text-size": 12, "text-max-angle": 30}"#)
        #expect(labels.isEmpty)
        let straight = try Self.place(
            data: Self.line([(4, 3), (6, 3)], name: "Zigzag Lane"),
            layout: #"{"text-field": "{name}", "symbol-placement": "line", "text-size": 12, "text-max-angle": 30}"#,
            center: LocationCoordinate2D(latitude: 3, longitude: 5))
        #expect(!straight.isEmpty)
    }
}
