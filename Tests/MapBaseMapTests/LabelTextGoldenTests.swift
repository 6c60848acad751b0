import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Golden images of vertical and formatted labels")
struct LabelTextGoldenTests {
    static func snapshot(_ style: String, center: LocationCoordinate2D, zoom: Double) throws -> Snapshot {
        let style = try Style.load(contentsOf: Fixtures.url("render/labels/\(style)/style.json"))
        let size = Size(width: 512, height: 384)
        let viewport = try MapViewport(size: size, center: center, zoomLevel: zoom)
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = viewport.visibleMapRect
        options.style = style
        return try MapSnapshotter(options: options).snapshot()
    }

    @Test("The Tokyo area in vertical Japanese (GeoNames names; Tokyo Bay with brackets, Latin and digits)")
    func tokyoVertical() throws {
        let snapshot = try Self.snapshot(
            "tokyo-vertical", center: LocationCoordinate2D(latitude: 35.62, longitude: 139.62), zoom: 9)
        #expect(GoldenImage.check(snapshot.image, golden: "labels/tokyo-vertical") == nil)
    }

    @Test("East Asian countries labelled in Latin over Japanese (Natural Earth NAME and NAME_JA, format sections)")
    func bilingual() throws {
        let snapshot = try Self.snapshot(
            "east-asia-bilingual", center: LocationCoordinate2D(latitude: 38, longitude: 125), zoom: 3)
        #expect(GoldenImage.check(snapshot.image, golden: "labels/east-asia-bilingual") == nil)
    }
}
