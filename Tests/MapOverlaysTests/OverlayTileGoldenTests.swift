import Foundation
import MapRaster
import MapTestSupport
import Testing

/// Makes a folder of z/x/y.png tiles for zooms 0...2: each tile a color by column and row, a dark
/// border and its "z/x/y" name, so place, orientation and seams show.
func makeTileFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-\(name)-\(UUID().uuidString)")
    try? FileManager.default.removeItem(at: folder)
    let font = try Font.load(path: Font.defaultPath)
    for z in 0...2 {
        let n = 1 << z
        for x in 0..<n {
            for y in 0..<n {
                let surface = try ImageSurface(width: 256, height: 256)
                let context = try GraphicsContext(surface: surface)
                let hue = Double(x) / Double(n)
                context.setFillColor(
                    Color(red: 0.3 + 0.6 * hue, green: 0.8 - 0.5 * Double(y) / Double(n), blue: 0.9 - 0.6 * hue))
                context.fill(Rect(x: 0, y: 0, width: 256, height: 256))
                context.setStrokeColor(Color(red8: 20, green8: 20, blue8: 20))
                context.setLineWidth(4)
                context.stroke(Path(rect: Rect(x: 2, y: 2, width: 252, height: 252)))
                context.drawText("\(z)/\(x)/\(y)", at: Point(x: 20, y: 60), font: font, size: 40, color: .black)
                let dir = folder.appendingPathComponent("\(z)/\(x)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try surface.writePNG(to: dir.appendingPathComponent("\(y).png"))
            }
        }
    }
    return folder
}

@Suite("Golden images of tile overlays from a z/x/y.png folder")
struct OverlayTileGoldenTests {
    @Test("tiles replacing the base map: the world at zoom 1 is the four z1 tiles, in place", arguments: [1.0, 2.0])
    func replacing(scale: Double) throws {
        let folder = try makeTileFolder("tiles-replace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = try goldenCase("overlays/tiles-replace", scale)
        let tiles = try TileOverlay(folder: folder)
        tiles.canReplaceMapContent = true
        tiles.maximumZ = Int(try golden.number("maximumZ"))
        let snapshot = try overlaySnapshot(golden, overlays: [tiles])
        #expect(golden.check(snapshot.image) == nil)
        // No base map: the tile 1/0/0's color at its center (the ocean color would show otherwise).
        let p = snapshot.image.pixel(x: Int(128 * scale), y: Int(200 * scale))
        #expect(p == ImageSurface.Pixel(red: 76, green: 204, blue: 230, alpha: 255), "\(p)")  // 0.3, 0.8, 0.9 in 8 bits
    }

    @Test("translucent tiles over the base map across the 180th meridian, one tile missing, TMS rows")
    func antimeridian() throws {
        let folder = try makeTileFolder("tiles-180")
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = try GoldenCase.load("overlays/tiles-antimeridian")
        // Missing tile 2/0/1 (west of 180, northern mid-latitudes): the base map shows there.
        let missingTile = try golden.numbers("missingTile").map { Int($0) }
        try FileManager.default.removeItem(
            at: folder.appendingPathComponent("\(missingTile[0])/\(missingTile[1])/\(missingTile[2]).png"))
        let tiles = try TileOverlay(folder: folder)
        tiles.maximumZ = Int(try golden.number("maximumZ"))
        let renderer = TileOverlayRenderer(tileOverlay: tiles)
        renderer.alpha = try golden.number("alpha")
        let snapshot = try overlaySnapshot(golden, overlays: [tiles], provider: { _ in renderer })
        #expect(snapshot.viewport.tileZoom == 2)
        #expect(golden.check(snapshot.image) == nil)
        let bare = try overlaySnapshot(golden, overlays: [])
        let missing = coord(30, -160)  // in tile 2/0/1
        #expect(pixel(snapshot, missing) == pixel(bare, missing))
        let present = coord(30, 160)  // in tile 2/3/1
        #expect(pixel(snapshot, present) != pixel(bare, present))
        // TMS: with flipped geometry, tile 2/0/1 is read from row 2.
        tiles.isGeometryFlipped = true
        #expect(tiles.url(forTile: try TileID(z: 2, x: 0, y: 1))?.path.hasSuffix("2/0/2.png") == true)
    }

    @Test("tiles from an MBTiles file (TMS rows): zoom 2 tiles the right way up, zoom limits from its metadata")
    func mbtiles() throws {
        let golden = try GoldenCase.load("overlays/tiles-mbtiles")
        let file = golden.url(try #require(golden.value("mbtiles").string))
        #expect(file == Fixtures.url("overlays/tiles.mbtiles").standardized)
        let tiles = try TileOverlay(mbtilesPath: file.path)
        #expect(tiles.isGeometryFlipped && tiles.minimumZ == 0 && tiles.maximumZ == 2)
        tiles.canReplaceMapContent = true
        let snapshot = try overlaySnapshot(golden, overlays: [tiles])
        #expect(snapshot.viewport.tileZoom == 2)
        #expect(golden.check(snapshot.image) == nil)
        // Tile 2/2/1 (XYZ) spans 0...90 E, 0...66.5 N; its north-west corner (the dark square) is at the
        // top left: just south-east of (66.5 N, 0 E) is dark, its middle is the tile's color.
        let corner = pixel(snapshot, coord(64, 3))
        #expect(corner == ImageSurface.Pixel(red: 30, green: 30, blue: 40, alpha: 255), "\(corner)")
        let middle = pixel(snapshot, coord(40, 45))
        #expect(middle == ImageSurface.Pixel(red: 150, green: 170, blue: 230, alpha: 255), "\(middle)")
    }

    @Test("a file that is not MBTiles is an error naming it")
    func badMBTiles() throws {
        let path = Fixtures.url("overlays/fiji.geojson").path
        #expect {
            _ = try TileOverlay(mbtilesPath: path)
        } throws: { error in
            let text = (error as? OverlayError)?.description ?? ""
            return text.contains(path) && text.contains("cannot be read")
        }
        #expect(throws: OverlayError.self) { _ = try TileOverlay(mbtilesPath: "/nonexistent.mbtiles") }
    }

    @Test("a file:// path template with another layout; a template without {y} is an error")
    func template() throws {
        let folder = try makeTileFolder("tiles-template")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Flatten z/x/y.png into z-x-y.png.
        let flat = folder.appendingPathComponent("flat")
        try FileManager.default.createDirectory(at: flat, withIntermediateDirectories: true)
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent("1/\(x)/\(y).png"), to: flat.appendingPathComponent("1-\(x)-\(y).png")
            )
        }
        let tiles = try TileOverlay(pathTemplate: "file://" + flat.path + "/{z}-{x}-{y}.png")
        tiles.canReplaceMapContent = true
        let snapshot = try overlaySnapshot(size: Size(width: 512, height: 512), overlays: [tiles])
        #expect(snapshot.image.pixel(x: 128, y: 200) == ImageSurface.Pixel(red: 76, green: 204, blue: 230, alpha: 255))
        #expect(throws: OverlayError.self) { _ = try TileOverlay(pathTemplate: flat.path + "/{z}-{x}.png") }
        #expect(throws: OverlayError.self) { _ = try TileOverlay(pathTemplate: "/nonexistent/{z}/{x}/{y}.png") }
    }

    /// Under a heading, and a heading and a pitch, each pixel is the tile texel (bilinear) at the map point the
    /// viewport's own inverse puts under it: the tiles turn and tilt with the map, as MapKit's tile overlays
    /// do in a rotated or pitched map view.
    @Test(
        "tiles under a camera: each pixel samples the tile at its ground point",
        arguments: [(30.0, 0.0), (25.0, 45.0)])
    func camera(heading: Double, pitch: Double) throws {
        let folder = try makeTileFolder("tiles-camera")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiles = try TileOverlay(folder: folder)
        tiles.canReplaceMapContent = true
        let snapshotter = try MapSnapshotter(options: GroundSamples.options(heading: heading, pitch: pitch))
            .pinnedToPlainBaseMap()
        snapshotter.addOverlays([tiles])
        let snapshot = try snapshotter.snapshot()
        #expect(snapshot.viewport.heading == heading && snapshot.viewport.pitch == pitch)
        // Tile zoom 2: 4 x 4 tiles of 256 texels over the world.
        let (checked, far) = try GroundSamples.compare(snapshot) { x, y in
            try RGBAImage(contentsOfPNG: folder.appendingPathComponent("2/\(x)/\(y).png"))
        }
        #expect(checked > 400)
        #expect(far == 0, "\(far) channels of \(checked) pixels differ by more than 2")
    }
}
