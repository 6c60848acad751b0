import Foundation
import MapGeometry
import MapGraphics
import MapRaster
import MapTiles
import Testing

/// Labels laid out region by region (`LabelRegions`): the same labels whatever the pyramid, and work bounded
/// by the regions the drawn metatiles meet, not by the zoom level's area.
@Suite("Label regions: labels independent of the pyramid, work bounded by what is drawn")
struct LabelRegionTests {
    /// The z14 metatile of 8 x 8 tiles over Monaco (tile 8529/5974 and its neighbours; one label region).
    static let columns = 8528..<8536
    static let rows = 5968..<5976

    static func pyramid(area: GeoBoundingBox) throws -> TilePyramid {
        try TilePyramid(area: area, minZoom: 14, maxZoom: 14, metatileSize: 8)
    }

    /// The metatile's own box, shrunk by a hair so that no neighbour joins.
    static var metatileBox: GeoBoundingBox {
        let side = TileID.mapPointSize(atZoom: 14)
        return MapRect(
            x: Double(columns.lowerBound) * side, y: Double(rows.lowerBound) * side, width: 8 * side, height: 8 * side
        ).insetBy(dx: side / 100, dy: side / 100).boundingBox
    }

    static func renderer(_ pyramid: TilePyramid) -> TileRenderer {
        TileRenderer(pyramid: pyramid) { options in
            var options = options
            options.style = try ShippedStyle.streets.style()
            return try MapSnapshotter(options: options)
        }
    }

    @Test("a metatile's tiles are byte-identical whether its pyramid is the metatile alone or 3 x 3 metatiles")
    func independentOfThePyramid() throws {
        let alone = try Self.pyramid(area: Self.metatileBox)
        let side = TileID.mapPointSize(atZoom: 14)
        let around = try Self.pyramid(
            area: MapRect(
                x: Double(Self.columns.lowerBound - 8) * side, y: Double(Self.rows.lowerBound - 8) * side,
                width: 24 * side, height: 24 * side
            ).insetBy(dx: side / 100, dy: side / 100).boundingBox)
        let metatile = try #require(Array(alone.metatiles(atZoom: 14)).first)
        #expect(metatile.tiles.count == 64)
        let first = Self.renderer(alone)
        let second = Self.renderer(around)
        let a = try first.render(metatile, placement: try first.placement(forZoom: 14))
        let b = try second.render(metatile, placement: try second.placement(forZoom: 14))
        #expect(a.count == 64 && b.count == 64)
        for ((tile, x), (_, y)) in zip(a, b) { #expect(x == y, "tile \(tile)") }
    }

    @Test("the world at zoom 14: drawing one metatile lays out the one region it lies in, and labels are drawn")
    func boundedByWhatIsDrawn() throws {
        let world = try Self.pyramid(area: GeoBoundingBox(west: -180, south: -85, east: 180, north: 85))
        let renderer = Self.renderer(world)
        let placement = try #require(try renderer.placement(forZoom: 14))
        let metatile = try #require(Array(try Self.pyramid(area: Self.metatileBox).metatiles(atZoom: 14)).first)
        _ = try renderer.render(metatile, placement: placement)
        #expect(placement.regionsLaidOut == 1)
        var options = MapSnapshotter.Options(size: Size(width: 2048, height: 2048))
        let side = TileID.mapPointSize(atZoom: 14)
        options.visibleMapRect = MapRect(
            x: Double(Self.columns.lowerBound) * side, y: Double(Self.rows.lowerBound) * side, width: 8 * side,
            height: 8 * side)
        let labels = try placement.labelCount(meeting: try MapSnapshotter(options: options).viewport)
        #expect(labels >= 5, "\(labels) labels")
    }
}
