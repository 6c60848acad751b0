import Foundation
import MapGeometry
import MapTiles
import Testing

@Suite("Tile pyramids: tiles, metatiles, shards")
struct TilePyramidTests {
    @Test("the world z0-4 has 1 + 4 + 16 + 64 + 256 tiles, each in exactly one metatile")
    func worldCounts() throws {
        let pyramid = try TilePyramid(minZoom: 0, maxZoom: 4, metatileSize: 4)
        #expect(pyramid.tileCount == 341)
        let metatiles = pyramid.metatiles()
        // z0..z2 fit one 4x4 metatile each; z3 has 2x2 metatiles, z4 4x4.
        #expect(metatiles.count == 1 + 1 + 1 + 4 + 16)
        let tiles = metatiles.flatMap(\.tiles)
        #expect(tiles.count == 341 && Set(tiles).count == 341)
    }

    @Test("a bounding box gives the tiles mercantile gives for it (Europe at z5: x 15...19, y 9...12)")
    func bboxTiles() throws {
        // mercantile.tiles(-10, 35, 40, 60, 5): x from floor((170/360)*32)=15 to floor((220/360)*32)=19,
        // y from the tile of 60 N (9) to that of 35 N (12).
        let pyramid = try TilePyramid(
            area: GeoBoundingBox(west: -10, south: 35, east: 40, north: 60), minZoom: 5, maxZoom: 5)
        let tiles = pyramid.tiles(atZoom: 5)
        #expect(Set(tiles.map(\.x)) == Set(15...19))
        #expect(Set(tiles.map(\.y)) == Set(9...12))
    }

    @Test("a box across the antimeridian wraps its columns")
    func antimeridian() throws {
        let pyramid = try TilePyramid(
            area: GeoBoundingBox(west: 170, south: -20, east: -170, north: -10), minZoom: 3, maxZoom: 3)
        #expect(Set(pyramid.tiles(atZoom: 3).map(\.x)) == [7, 0])
    }

    @Test("shards partition the metatiles: every metatile in exactly one shard")
    func shards() throws {
        let metatiles = try TilePyramid(minZoom: 0, maxZoom: 5, metatileSize: 2).metatiles()
        let parts = try (1...3).map { try Shard(parsing: "\($0)/3").select(metatiles) }
        #expect(parts.map(\.count).reduce(0, +) == metatiles.count)
        #expect(Set(parts.flatMap { $0 }) == Set(metatiles))
    }

    @Test("bad shard specs, zoom ranges and sizes are refused", arguments: ["3/2", "0/2", "1/0", "a/b", "1", "-1/2"])
    func badShard(_ text: String) {
        #expect(throws: TileError.invalidShard(text)) { try Shard(parsing: text) }
    }

    @Test("zoom range and option checks")
    func badOptions() {
        #expect(throws: TileError.invalidZoomRange(5, 3)) { try TilePyramid(minZoom: 5, maxZoom: 3) }
        #expect(throws: TileError.invalidZoomRange(0, 23)) { try TilePyramid(minZoom: 0, maxZoom: 23) }
        #expect(throws: (any Error).self) { try TilePyramid(minZoom: 0, maxZoom: 1, tileSize: 300) }
        #expect(throws: (any Error).self) { try TilePyramid(minZoom: 0, maxZoom: 1, scale: 3) }
        #expect(throws: (any Error).self) {
            try TilePyramid(minZoom: 0, maxZoom: 1, tileSize: 512, scale: 2, metatileSize: 32)
        }
    }
}
