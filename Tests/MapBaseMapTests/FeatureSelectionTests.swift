import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

@testable import MapBaseMap

/// The features a layer draws: those meeting the view that pass its filter, in data order or by sort
/// key. One selection serves every layer of an image and keeps filter results per feature for layers
/// with the same filter; the truth is each filter evaluated directly on each feature, sorted by hand.
@Suite("Feature selection: filters, sort keys and filter results shared between layers")
struct FeatureSelectionTests {
    static let classes = ["a", "b", "c", "a", "b", "a", "c", "a"]
    static let ranks: [Double] = [3, 1, 2, 1, 5, 0, 4, 2]

    /// A z14 tile over Andorra with eight short lines inside it, ids 0..<8.
    static func source() throws -> (FeatureSource, MapViewport) {
        let z = 14
        let n = Double(1 << z)
        let lat = 42.5 * Double.pi / 180
        let x = Int((1.5 + 180) / 360 * n)
        let y = Int((1 - log(tan(lat) + 1 / cos(lat)) / Double.pi) / 2 * n)
        let tile = try TileID(z: z, x: x, y: y)
        var features: [FeatureSource.Feature] = []
        for (i, kind) in classes.enumerated() {
            let v = Int32(1000 + 250 * i)
            let line = VectorTileFeature(
                id: UInt64(i), properties: ["class": .string(kind), "rank": .double(ranks[i])],
                geometry: .lines([[VectorTilePoint(x: 1000, y: v), VectorTilePoint(x: 3000, y: v)]]))
            features.append(try #require(VectorSource.feature(line, tile: tile, extent: 4096)))
        }
        // The tile's centre, at the zoom where the tile is 512 points wide (MapLibre's zoom 14).
        let size = TileID.mapPointSize(atZoom: z)
        let centre = MapPoint(x: (Double(x) + 0.5) * size, y: (Double(y) + 0.5) * size)
        let viewport = try MapViewport(
            size: Size(width: 512, height: 512), center: centre.coordinate, zoomLevel: Double(z) + 1)
        return (FeatureSource(name: "test", features: features), viewport)
    }

    static func layer(_ id: String, filter: String?, sortKey: String? = nil) throws -> StyleLayer {
        func property(_ text: String) throws -> StyleProperty {
            let json = try JSONValue.parse(Data(text.utf8))
            return StyleProperty(json: json, expression: try StyleExpression.decode(json, path: id))
        }
        var properties: [String: StyleProperty] = [:]
        if let sortKey { properties["line-sort-key"] = try property(sortKey) }
        let filterProperty = try filter.map { text -> StyleProperty in
            let json = try JSONValue.parse(Data(text.utf8))
            return StyleProperty(json: json, expression: try StyleExpression.decodeFilter(json, path: id))
        }
        return StyleLayer(id: id, type: .line, source: "s", filter: filterProperty, properties: properties)
    }

    /// The ids a layer selects, by the filter evaluated directly and the sort key sorted by hand.
    static func truth(_ layer: StyleLayer, zoom: Double) -> [Int] {
        var ids = Array(classes.indices)
        if let filter = layer.filter?.expression {
            ids = ids.filter { i in
                let context = EvaluationContext(
                    zoom: zoom, properties: ["class": .string(classes[i]), "rank": .number(ranks[i])],
                    geometryType: "LineString", id: .number(Double(i)))
                return filter.evaluate(context).isTrue
            }
        }
        if layer.isSet(.lineSortKey) {
            ids = ids.enumerated().sorted { a, b in
                ranks[a.element] != ranks[b.element] ? ranks[a.element] < ranks[b.element] : a.offset < b.offset
            }.map(\.element)
        }
        return ids
    }

    @Test(
        "filters share results unless a sign of zero could show (division, number-format)",
        arguments: [
            (#"["==", ["get", "class"], "a"]"#, true),
            (#"["all", [">", ["get", "rank"], 1], ["!", ["has", "x"]]]"#, true),
            (#"["<", ["/", 1, ["get", "rank"]], 0]"#, false),
            (#"["==", ["number-format", ["get", "rank"], {}], "0"]"#, false),
        ])
    func shareable(_ text: String, _ shareable: Bool) throws {
        let json = try JSONValue.parse(Data(text.utf8))
        #expect(FilterMemo.isShareable(try StyleExpression.decodeFilter(json, path: "f")) == shareable)
        // `1 / -0` is negative infinity, `1 / 0` positive: equal filters, different results.
        #expect(
            try StyleExpression.decode(JSONValue.parse(Data(#"["/", 1, -0.0]"#.utf8)), path: "f")
                == StyleExpression.decode(JSONValue.parse(Data(#"["/", 1, 0]"#.utf8)), path: "f"))
    }

    @Test("each layer selects what its filter and sort key give, whatever the layers drawn before it")
    func sharedSelection() throws {
        let (source, viewport) = try Self.source()
        let layers = [
            try Self.layer("one", filter: #"["==", ["get", "class"], "a"]"#),
            try Self.layer("same filter", filter: #"["==", ["get", "class"], "a"]"#),
            try Self.layer(
                "sorted", filter: #"["match", ["get", "class"], ["a", "b"], true, false]"#, sortKey: #"["get", "rank"]"#
            ),
            try Self.layer("legacy", filter: #"["!=", "class", "a"]"#),
            try Self.layer("all", filter: nil),
            try Self.layer("same again", filter: #"["==", ["get", "class"], "a"]"#),
        ]
        let shared = FeatureSelection(viewport: viewport)
        // Twice over: the second round reads every filter's results from the first.
        for _ in 0..<2 {
            for layer in layers {
                var ids: [Int] = []
                shared.forEachFeature(of: source, layer: layer, margin: 4) { feature, _, _ in
                    ids.append(Int(feature.id.number ?? -1))
                }
                #expect(ids == Self.truth(layer, zoom: shared.zoom), "\(layer.id)")
                var fresh: [Int] = []
                FeatureSelection(viewport: viewport).forEachFeature(of: source, layer: layer, margin: 4) {
                    feature, _, _ in fresh.append(Int(feature.id.number ?? -1))
                }
                #expect(fresh == ids, "\(layer.id)")
            }
        }
        // The truth itself, by hand: class "a" is features 0, 3, 5 and 7; a or b by rank, ties in data order.
        #expect(Self.truth(layers[0], zoom: shared.zoom) == [0, 3, 5, 7])
        #expect(Self.truth(layers[2], zoom: shared.zoom) == [5, 1, 3, 7, 0, 4])
    }

    @Test("results kept from image to image serve only the same filter at the same zoom")
    func keptAcrossImages() throws {
        let (source, viewport) = try Self.source()
        // `zoom` inside a filter that also reads the feature stays unspecialized: evaluated with the image's zoom.
        let byZoom = try Self.layer("roads", filter: #"["all", [">=", ["zoom"], 14], ["==", ["get", "class"], "a"]]"#)
        let other = try Self.layer("roads", filter: #"["==", ["get", "class"], "b"]"#)
        let lower = try MapViewport(
            size: viewport.size, center: viewport.centerCoordinate, zoomLevel: viewport.zoomLevel - 1)
        func ids(_ layer: StyleLayer, _ viewport: MapViewport) -> [Int] {
            var ids: [Int] = []
            FeatureSelection(viewport: viewport).forEachFeature(of: source, layer: layer, margin: 4) { f, _, _ in
                ids.append(Int(f.id.number ?? -1))
            }
            return ids
        }
        for _ in 0..<2 {
            #expect(ids(byZoom, viewport) == [0, 3, 5, 7])
            #expect(ids(byZoom, lower).isEmpty)
            // The same layer id with another filter (another style over the same features).
            #expect(ids(other, viewport) == [1, 4])
        }
        #expect(Self.truth(byZoom, zoom: 14) == [0, 3, 5, 7] && Self.truth(byZoom, zoom: 13).isEmpty)
    }

    /// MapLibre lays out a tile's symbols together (a road's pieces are joined across the whole tile before
    /// anchors are found): with `wholeTiles`, the other features of the tiles met are selected too, in data
    /// order, and a neighbouring tile's features that miss the view are not.
    @Test("whole tiles: a view meeting one line of a tile selects all the tile's features, not its neighbour's")
    func wholeTiles() throws {
        let (tileSource, _) = try Self.source()
        var features = tileSource.features
        let tile = try #require(features.first?.tileBounds)
        // The tile to the east, one line far from the view.
        let east = try TileID(
            z: 14, x: Int((tile.minX / tile.width).rounded()) + 1, y: Int((tile.minY / tile.width).rounded()))
        let far = VectorTileFeature(
            id: 8, properties: ["class": .string("a"), "rank": .double(0)],
            geometry: .lines([[VectorTilePoint(x: 1000, y: 3000), VectorTilePoint(x: 3000, y: 3000)]]))
        features.append(try #require(VectorSource.feature(far, tile: east, extent: 4096)))
        let source = FeatureSource(name: "test", features: features)
        // 256 points around line 0 (tile y 1000) at zoom 18, where one tile unit is one point: line 1 is 250
        // points away.
        let centre = MapPoint(x: tile.minX + tile.width * 2000 / 4096, y: tile.minY + tile.width * 1000 / 4096)
        let viewport = try MapViewport(
            size: Size(width: 256, height: 256), center: centre.coordinate, zoomLevel: 18)
        let layer = try Self.layer("all", filter: nil)
        var near: [Int] = []
        FeatureSelection(viewport: viewport).forEachFeature(of: source, layer: layer, margin: 4) { feature, _, _ in
            near.append(Int(feature.id.number ?? -1))
        }
        #expect(near == [0])
        var whole: [Int] = []
        FeatureSelection(viewport: viewport).forEachFeature(of: source, layer: layer, margin: 4, wholeTiles: true) {
            feature, _, _ in whole.append(Int(feature.id.number ?? -1))
        }
        #expect(whole == Array(0..<8))
    }
}
