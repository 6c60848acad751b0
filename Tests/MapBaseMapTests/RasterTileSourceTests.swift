import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Raster tile sources: MBTiles, folders and TileJSON, the tile zoom MapLibre picks, overzoom, seams")
struct RasterTileSourceTests {
    static let folder = Fixtures.root.appendingPathComponent("render/raster")

    static func style(source: String) throws -> Style {
        let text = #"""
            {"version": 8, "sources": {"r": \#(source)},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ff00ff"}},
                        {"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 0}}]}
            """#
        return try Style.decode(Data(text.utf8), source: "test", baseURL: folder)
    }

    static func render(_ style: Style, center: LocationCoordinate2D, zoom: Double, size: Size) throws -> Snapshot {
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: zoom).visibleMapRect
        options.style = style
        options.showsAttribution = false
        return try MapSnapshotter(options: options).snapshot()
    }

    /// The fixture's tile `z/x/y` decoded on its own: the truth the map's pixels are checked against.
    static func tile(_ z: Int, _ x: Int, _ y: Int) throws -> RGBAImage {
        try RGBAImage(contentsOfPNG: folder.appendingPathComponent("tiles/\(z)/\(x)/\(y).png"))
    }

    @Test("at the zoom of 256-point tiles every tile is copied pixel for pixel to its place, with no seam")
    func exactTiles() throws {
        let style = try Self.style(
            source: #"{"type": "raster", "url": "mbtiles://../../overlays/tiles.mbtiles", "tileSize": 256}"#)
        // MapRaster zoom 2 is 4x4 tiles of 256 points over a 1024-point world: tile zoom 2.
        let snapshot = try Self.render(
            style, center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 2,
            size: Size(width: 1024, height: 1024))
        for (x, y) in [(0, 0), (1, 2), (3, 3), (2, 1)] {
            let truth = try Self.tile(2, x, y)
            let drawn = snapshot.image.rgbaBytes(x: x * 256, y: y * 256, width: 256, height: 256)
            #expect(drawn == truth.bytes.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }, "tile 2/\(x)/\(y)")
        }
    }

    @Test("the same tiles from a folder through a TileJSON file draw the same image as from MBTiles")
    func tileJSONFolderMatchesMBTiles() throws {
        let mbtiles = try Self.style(
            source: #"{"type": "raster", "url": "mbtiles://../../overlays/tiles.mbtiles", "tileSize": 256}"#)
        let tileJSON = try Self.style(source: #"{"type": "raster", "url": "tiles.json", "tileSize": 256}"#)
        let center = LocationCoordinate2D(latitude: 20, longitude: -30)
        for zoom in [1.0, 1.7, 2.3, 4.5] {
            let a = try Self.render(mbtiles, center: center, zoom: zoom, size: Size(width: 300, height: 200))
            let b = try Self.render(tileJSON, center: center, zoom: zoom, size: Size(width: 300, height: 200))
            #expect(a.image.rgbaBytes() == b.image.rgbaBytes(), "zoom \(zoom)")
        }
    }

    @Test("views deeper than maxzoom scale the maxzoom tile up (overzoom); the tile zoom is rounded as MapLibre's")
    func overzoomAndRounding() throws {
        let style = try Self.style(
            source: #"{"type": "raster", "url": "mbtiles://../../overlays/tiles.mbtiles", "tileSize": 256}"#)
        // Zoom 6 is deeper than the fixture's maxzoom 2: the view's middle is the middle of tile 2/2/1, scaled
        // 16 times, so the center pixel has the color of that tile's center.
        let tile = try Self.tile(2, 2, 1)
        let center = MapPoint(x: 2.5 * TileID.mapPointSize(atZoom: 2), y: 1.5 * TileID.mapPointSize(atZoom: 2))
        let deep = try Self.render(
            style, center: center.coordinate, zoom: 6, size: Size(width: 64, height: 64))
        #expect(deep.image.pixel(x: 32, y: 32) == tile.pixel(x: 128, y: 128))
        // Zoom 1.6 reads zoom-2 tiles (1.6 rounds to 2), zoom 1.4 zoom-1 tiles. The fixture has one colour per
        // tile, so the point at 3/8 of the world's width and height shows the colour of tile 2/1/1 at zoom 1.6
        // and of tile 1/0/0 at zoom 1.4.
        let worldCenter = LocationCoordinate2D(latitude: 0, longitude: 0)
        let z16 = try Self.render(style, center: worldCenter, zoom: 1.6, size: Size(width: 800, height: 800))
        let z14 = try Self.render(style, center: worldCenter, zoom: 1.4, size: Size(width: 800, height: 800))
        let side16 = 256 * pow(2, 1.6)
        let side14 = 256 * pow(2, 1.4)
        let at16 = Int(400 - side16 / 2 + side16 * 3 / 8)
        let at14 = Int(400 - side14 / 2 + side14 * 3 / 8)
        let tile2 = try Self.tile(2, 1, 1).pixel(x: 128, y: 128)
        let tile1 = try Self.tile(1, 0, 0).pixel(x: 192, y: 192)
        #expect(tile1 != tile2)
        #expect(z16.image.pixel(x: at16, y: at16) == tile2)
        #expect(z14.image.pixel(x: at14, y: at14) == tile1)
    }

    @Test("at a fractional zoom each tile keeps its exact scale, cut to the device pixels it covers: no seam")
    func fractionalZoomSeams() throws {
        // No background: where two tiles each covered part of a pixel, it would be left partly transparent.
        let text = #"""
            {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["tiles/{z}/{x}/{y}.png"], "tileSize": 256,
             "maxzoom": 2}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}
            """#
        let style = try Style.decode(Data(text.utf8), source: "test", baseURL: Self.folder)
        for zoom in [2.3, 2.45, 1.6] {
            let snapshot = try Self.render(
                style, center: LocationCoordinate2D(latitude: 10, longitude: 15), zoom: zoom,
                size: Size(width: 301, height: 203))
            let bytes = snapshot.image.rgbaBytes()
            let partial = stride(from: 3, to: bytes.count, by: 4).filter { bytes[$0] != 255 }.count
            #expect(partial == 0, "zoom \(zoom): \(partial) pixels not wholly covered")
        }
    }

    @Test("raster tiles outside the source's bounds or zooms are not read; a tile that is not an image names the tile")
    func boundsAndBadTiles() throws {
        let outside = try Self.style(
            source:
                #"{"type": "raster", "tiles": ["tiles/{z}/{x}/{y}.png"], "tileSize": 256, "minzoom": 2, "maxzoom": 2}"#)
        let low = try Self.render(
            outside, center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0.4,
            size: Size(width: 64, height: 64))
        #expect(low.image.pixel(x: 32, y: 32) == ImageSurface.Pixel(red: 255, green: 0, blue: 255, alpha: 255))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-rt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("0/0"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not a png".utf8).write(to: dir.appendingPathComponent("0/0/0.png"))
        let broken = try Self.style(
            source: #"{"type": "raster", "tiles": ["\#(dir.path)/{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 0}"#)
        do {
            _ = try Self.render(
                broken, center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 1,
                size: Size(width: 64, height: 64))
            Issue.record("a broken tile was drawn")
        } catch {
            #expect("\(error)".contains("raster source \"r\" tile 0/0/0"), "\(error)")
        }
    }

    @Test(
        "JPEG and WebP raster tiles (satellite imagery is usually JPEG) draw as their PNG originals, within lossy error"
    )
    func lossyTiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-lossy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in [ImageFormat.jpeg, .webp] {
            for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                let folder = dir.appendingPathComponent("\(format.fileExtension)/1/\(x)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Self.tile(1, x, y).encoded(as: format, quality: 95)
                    .write(to: folder.appendingPathComponent("\(y).\(format.fileExtension)"))
            }
            let lossy = try Self.style(
                source:
                    #"{"type": "raster", "tiles": ["\#(dir.path)/\#(format.fileExtension)/{z}/{x}/{y}.\#(format.fileExtension)"], "tileSize": 256, "minzoom": 1, "maxzoom": 1}"#
            )
            let png = try Self.style(
                source:
                    #"{"type": "raster", "tiles": ["tiles/{z}/{x}/{y}.png"], "tileSize": 256, "minzoom": 1, "maxzoom": 1}"#
            )
            let center = LocationCoordinate2D(latitude: 0, longitude: 0)
            let a = try Self.render(lossy, center: center, zoom: 1, size: Size(width: 512, height: 512)).image
                .rgbaBytes()
            let b = try Self.render(png, center: center, zoom: 1, size: Size(width: 512, height: 512)).image.rgbaBytes()
            let error = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            let mean = Double(error) / Double(a.count)
            #expect(mean < 2, "\(format): mean error \(mean) per channel")
        }
    }

    /// A tilted view lays each tile on the ground: the colour under an image point is the tile's, sampled
    /// bilinearly (edges repeated) where the viewport's own inverse (``MapViewport/mapPoint(for:)``) puts the
    /// point on the map, a second method against the rasterizer's homography.
    @Test("heading 25, pitch 45: each pixel shows the tile texel under its map point (the viewport's inverse)")
    func tiltedTiles() throws {
        let style = try Self.style(
            source: #"{"type": "raster", "url": "mbtiles://../../overlays/tiles.mbtiles", "tileSize": 256}"#)
        var options = try GroundSamples.options(heading: 25, pitch: 45)
        options.style = style
        let snapshot = try MapSnapshotter(options: options).snapshot()
        // Tile zoom 2: 4 x 4 tiles of 256 texels over the world.
        let (checked, far) = try GroundSamples.compare(snapshot) { try Self.tile(2, $0, $1) }
        #expect(checked > 400)
        #expect(far == 0, "\(far) channels of \(checked) pixels differ by more than 2")
    }

    /// The satellite map's whole-world image under a camera: each pixel is the equirectangular image sampled
    /// bilinearly at the longitude and latitude the viewport's inverse puts under it.
    @Test("the satellite map at heading 30, pitch 55: each pixel samples the world image at its ground point")
    func tiltedWorldImage() throws {
        let world = try RGBAImage(
            contentsOfPNG: Fixtures.packageRoot.appendingPathComponent(
                "Sources/MapBaseMap/Resources/bluemarble/bmng_2700x1350.png"))
        let center = LocationCoordinate2D(latitude: 43.7, longitude: 7.4)
        let size = Size(width: 256, height: 192)
        var options = MapSnapshotter.Options(size: size)
        options.mapType = .satellite
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: 5).visibleMapRect
        options.camera = try MapCamera(
            lookingAtCenter: center,
            fromDistance: MapCamera.distance(forZoomLevel: 5, latitude: 43.7, height: 192), pitch: 55, heading: 30)
        options.showsAttribution = false
        let snapshot = try MapSnapshotter(options: options).snapshot()
        var far = 0
        var checked = 0
        for py in stride(from: 3, to: 192, by: 8) {
            for px in stride(from: 3, to: 256, by: 8) {
                guard
                    let ground = snapshot.viewport.groundMapPoint(
                        for: Point(x: Double(px) + 0.5, y: Double(py) + 0.5))
                else { continue }
                let c = ground.coordinate
                let sx = (c.longitude + 180) / 360 * Double(world.width) - 0.5
                let sy = (90 - c.latitude) / 180 * Double(world.height) - 0.5
                let (x0, y0) = (Int(sx.rounded(.down)), Int(sy.rounded(.down)))
                guard x0 >= 0, y0 >= 0, x0 + 1 < world.width, y0 + 1 < world.height else { continue }
                let (fx, fy) = (sx - Double(x0), sy - Double(y0))
                let drawn = snapshot.image.rgbaBytes(x: px, y: py, width: 1, height: 1)
                for k in 0..<3 {
                    func t(_ x: Int, _ y: Int) -> Double { Double(world.bytes[(y * world.width + x) * 4 + k]) }
                    let top = t(x0, y0) * (1 - fx) + t(x0 + 1, y0) * fx
                    let bottom = t(x0, y0 + 1) * (1 - fx) + t(x0 + 1, y0 + 1) * fx
                    if abs(Double(drawn[k]) - (top * (1 - fy) + bottom * fy)) > 2 { far += 1 }
                }
                checked += 1
            }
        }
        #expect(checked > 700)
        #expect(far == 0, "\(far) channels of \(checked) pixels differ by more than 2")
    }
}
