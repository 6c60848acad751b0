import Foundation
import MapData
import MapGeometry
import MapStorage
import MapTestSupport
import Testing

/// The OpenMapTiles-schema tiles shipped in Sources/MapBaseMap/Resources/vectortiles and their PMTiles copy in
/// fixtures/vectortiles (both made by Scripts/make-vector-tiles.py): both files hold the same tiles, and every
/// tile decodes.
@Suite struct ShippedTilesetTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Sources/MapBaseMap/Resources/vectortiles")
    static let pmtilesPath = Fixtures.root.appendingPathComponent("vectortiles/osm-omt.pmtiles").path
    static let schema: Set<String> = [
        "water", "waterway", "landcover", "landuse", "park", "boundary", "transportation", "transportation_name",
        "building", "housenumber", "place", "poi", "aeroway", "mountain_peak",
    ]

    @Test func mbtilesAndPMTilesHoldTheSameDecodableTiles() throws {
        let mbtiles = try openTileSource(at: Self.folder.appendingPathComponent("osm-omt.mbtiles").path)
        let pmtiles = try openTileSource(at: Self.pmtilesPath)
        #expect(mbtiles.info.format == .mvt && pmtiles.info.format == .mvt)
        #expect(mbtiles.info.maxZoom == 14 && pmtiles.info.maxZoom == 14)
        #expect(Set(mbtiles.info.vectorLayers) == Self.schema)
        #expect(Set(pmtiles.info.vectorLayers) == Self.schema)
        #expect(mbtiles.info.attribution == "© OpenStreetMap contributors")
        let ids = try MBTilesFile.open(at: Self.folder.appendingPathComponent("osm-omt.mbtiles")).tileIDs()
        #expect(ids.count > 900)
        var features = 0
        for id in ids.sorted() {
            let a = try #require(try mbtiles.tile(id))
            #expect(try pmtiles.tile(id) == a, "\(id)")
            let tile = try VectorTile(data: a)
            #expect(Set(tile.layerNames).isSubset(of: Self.schema), "\(id)")
            for layer in try tile.layers() { features += layer.features.count }
        }
        #expect(features > 50_000)
    }

    /// Every 8th tile has the feature counts per layer that PyPI mapbox-vector-tile decodes
    /// (`fixtures/vectortiles/shipped-truth.json`, written by Scripts/make-vector-tiles.py).
    @Test func featureCountsMatchThePythonDecoder() throws {
        let truth = try JSONValue.parse(Fixtures.data("vectortiles/shipped-truth.json"))
        let tiles = try #require(truth.members)
        #expect(tiles.count > 100)
        let source = try openTileSource(at: Self.folder.appendingPathComponent("osm-omt.mbtiles").path)
        for (key, counts) in tiles {
            let parts = key.split(separator: "/").compactMap { Int($0) }
            let id = try TileID(z: parts[0], x: parts[1], y: parts[2])
            let tile = try #require(try source.vectorTile(id), "\(key)")
            var decoded: [String: Int] = [:]
            for layer in try tile.layers() { decoded[layer.name] = layer.features.count }
            var expected: [String: Int] = [:]
            for (name, count) in counts.members ?? [] { expected[name] = Int(count.number ?? -1) }
            #expect(decoded == expected, "\(key)")
        }
    }

    /// Andorra la Vella's zoom-14 tile has streets, buildings and names in the schema's vocabulary.
    @Test func andorraLaVellaHasStreets() throws {
        let source = try openTileSource(at: Self.pmtilesPath)
        let id = TileID.containing(LocationCoordinate2D(latitude: 42.5063, longitude: 1.5218), zoom: 14)
        let tile = try VectorTile(data: try #require(try source.tile(id)))
        let roads = try #require(try tile.layer(named: "transportation"))
        let classes = Set(roads.features.compactMap { $0.properties["class"]?.string })
        #expect(classes.isSuperset(of: ["primary", "minor", "path"]))
        #expect((try tile.layer(named: "building")?.features.count ?? 0) > 100)
        let names = try #require(try tile.layer(named: "transportation_name"))
        #expect(names.features.contains { $0.properties["name"] != nil && $0.properties["name_en"] != nil })
        // Missing tiles are nil (the middle of the Atlantic).
        #expect(try source.tile(TileID(z: 14, x: 5000, y: 6000)) == nil)
    }
}
