import Foundation
import MapGeometry
import MapTiles
import Testing

/// Tiles are counted from ranges and metatiles made one at a time; truth is the per-tile listing of
/// `TileID.tiles(covering:zoom:)` grouped by block.
@Suite("Tile pyramids: lazy metatiles and arithmetic counts")
struct LazyPyramidTests {
    static let areas: [(String, GeoBoundingBox)] = [
        ("world", TilePyramid.world),
        ("europe", GeoBoundingBox(west: -10, south: 35, east: 40, north: 60)),
        ("across-180", GeoBoundingBox(west: 170, south: -20, east: -170, north: -10)),
        ("across-180-wide", GeoBoundingBox(west: 100, south: -60, east: 90, north: 70)),
        ("thin", GeoBoundingBox(west: 24.9, south: 60.1, east: 24.95, north: 60.2)),
        ("pole-edge", GeoBoundingBox(west: -5, south: 80, east: 5, north: 85.0511287798066)),
    ]

    @Test(
        "lazy metatiles hold exactly the listed tiles, in (zoom, row, column) order, for metatile sizes 1, 3, 8",
        arguments: 0..<6, [1, 3, 8])
    func sameAsListing(area index: Int, size: Int) throws {
        let (name, area) = Self.areas[index]
        let pyramid = try TilePyramid(area: area, minZoom: 0, maxZoom: 7, metatileSize: size)
        let metatiles = Array(pyramid.lazyMetatiles)
        #expect(metatiles == metatiles.sorted(), "\(name)")
        for z in 0...7 {
            let listed = Set(pyramid.tiles(atZoom: z))
            let made = metatiles.filter { $0.z == z }.flatMap(\.tiles)
            #expect(made.count == listed.count && Set(made) == listed, "\(name) z\(z)")
            #expect(pyramid.grid(atZoom: z)?.count ?? 0 == listed.count, "\(name) z\(z)")
            for meta in metatiles where meta.z == z {
                #expect(meta.tiles.allSatisfy { $0.x / size == meta.x && $0.y / size == meta.y }, "\(name) \(meta)")
                #expect(meta.tiles == meta.tiles.sorted(), "\(name) \(meta)")
            }
        }
        #expect(pyramid.tileCount == (0...7).reduce(0) { $0 + pyramid.tiles(atZoom: $1).count })
    }

    @Test("the world at zoom 0-22 is counted, not listed: (4^23 - 1) / 3 tiles; its first metatiles come at once")
    func hugeWorld() throws {
        let pyramid = try TilePyramid(minZoom: 0, maxZoom: 22)
        #expect(pyramid.tileCount == ((1 << 46) - 1) / 3)
        let z22 = try TilePyramid(minZoom: 22, maxZoom: 22)
        #expect(z22.tileCount == 1 << 44)
        let first = Array(z22.lazyMetatiles.prefix(3))
        #expect(first.map(\.x) == [0, 1, 2] && first.allSatisfy { $0.y == 0 && $0.tiles.count == 64 })
    }
}
