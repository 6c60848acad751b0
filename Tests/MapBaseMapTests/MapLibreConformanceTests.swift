import Foundation
import MapRaster
import MapTestSupport
import Testing

/// MapLibre's own render tests as independent truth: each style drawn by MapRaster must match the
/// `expected.png` MapLibre drew, scored as MapLibre's harness scores (fixtures/maplibre/README.md).
@Suite("MapLibre render-test conformance")
struct MapLibreConformanceTests {
    static let cases = [
        "circle-blur/literal", "circle-geometry/polygon", "circle-stroke-color/default",
        "circle-color/zoom-and-property-function", "fill-translate/literal", "fill-pattern/literal",
        "background-pattern/literal", "background-color/colorSpace-lab",
        "line-dasharray/literal/line-width-zoom-function", "line-gradient/gradient",
        // Icons (#12): an SDF icon tinted by icon-color, its halo under a translucent fill, a blurred halo,
        // icon-size, icon-anchor, icon-rotate, an icon-image {token}.
        "icon-color/literal", "icon-halo-color/opacity", "icon-halo-blur/literal", "icon-size/literal",
        "icon-anchor/bottom-right", "icon-rotate/literal", "icon-image/token",
        // Lines as MapLibre's tiles hold them: a GeoJSON dash restarting in every geojson-vt
        // tile, building outlines dashed from their tile rings at distances quantized to the tile's grid
        // (overscaled z14 at z18), and gradient ramps spanning each tile's piece, premultiplied on upload.
        "line-dasharray/long-segment", "line-dasharray/slant", "line-gradient/color-interpolation-transparent",
        // A GeoJSON line's pattern starting again in each tile of the source's maxzoom, overscaled.
        "line-pattern/overscaled",
        // fill-extrusion from straight above: line features are not extruded (MapLibre's one pitch-0 case), and
        // two cases MapLibre Native drew (`native/`, Scripts/make-native-expectations.py): perspective walls
        // and roofs, holes, bases, premultiplied translucent colours, the default light; a map-anchored
        // coloured light, no vertical gradient, translate and the two-pass layer opacity.
        "fill-extrusion-geometry/linestring", "native/fill-extrusion/pitch-0-default",
        "native/fill-extrusion/pitch-0-light-opacity",
        // Tile URLs as MapLibre fetches them: a missing raster tile shown by its parent's quarter, an empty one
        // (a 204) as nothing; a `tiles` URL without placeholders, one file for every tile (a raster with alpha,
        // a vector tile of extent 1024).
        "sparse-tileset/rasterfallback", "sparse-tileset/rasterfallback204", "raster-alpha/default", "extent/1024-fill",
        // An `image` source: a rotated, not quite rectangular quadrilateral, translucent, edges antialiased.
        "image/raster-opacity",
        // Text from the style's glyph PBFs (#26): SDF glyphs and halos (width, blur), MapLibre's line breaking at
        // text-max-width, auto justification, text-rotate and letter spacing from a feature property.
        "text-halo-blur/literal", "text-halo-width/literal", "text-max-width/literal", "text-justify/auto",
        "text-rotate/literal", "text-letter-spacing/property-function",
        // Pitched line labels facing the camera on a GeoJSON line beyond the source's maxzoom: anchors laid out
        // in the maxzoom tile, overscaled (their first anchor aligned with the parent tile's), as MapLibre does.
        "text-pitch-alignment/viewport-overzoomed",
        // Pitched road labels on the ground and facing the camera: collision circles over the glyphs as laid
        // out, before a label read backwards is turned upright.
        "text-pitch-alignment/map-text-rotation-alignment-map",
        "text-pitch-alignment/viewport-text-rotation-alignment-map",
        // An icon fitted to text along a line: at the text's anchor, turned as MapLibre turns it there.
        "icon-text-fit/placement-line",
        // Point labels of vector-tile lines at each line's first point inside its tile; with variable anchors,
        // fitted icons of features without text are not drawn.
        "icon-text-fit/text-variable-anchor",
    ]

    /// Renders a case as `Scripts/maplibre-render-tests.py` does and returns the share of differing pixels
    /// and the share allowed.
    static func score(_ name: String) throws -> (differing: Double, allowed: Double) {
        let folder = Fixtures.url(name.hasPrefix("native/") ? "maplibre/\(name)" : "maplibre/tests/\(name)")
        let assets = Fixtures.url("maplibre/assets").path + "/"
        let text = try String(contentsOf: folder.appendingPathComponent("style.json"), encoding: .utf8)
            .replacingOccurrences(of: "local://", with: assets)
        let json = try JSONValue.parse(Data(text.utf8))
        let style = try Style.decode(Data(text.utf8), source: name, baseURL: folder)
        let test = json["metadata"]?["test"]
        let width = test?["width"]?.number ?? 512
        let height = test?["height"]?.number ?? 512
        let center = json["center"]?.array?.compactMap(\.number) ?? [0, 0]
        let size = Size(width: width, height: height)
        let viewport = try MapViewport(
            size: size, scale: 1, center: LocationCoordinate2D(latitude: center[1], longitude: center[0]),
            zoomLevel: (json["zoom"]?.number ?? 0) + 1)
        var options = MapSnapshotter.Options(size: size, scale: 1)
        options.visibleMapRect = viewport.visibleMapRect
        let pitch = json["pitch"]?.number ?? 0
        let bearing = json["bearing"]?.number ?? 0
        if pitch != 0 || bearing != 0 {
            options.camera = try MapCamera(
                lookingAtCenter: viewport.centerCoordinate,
                fromDistance: MapCamera.distance(
                    forZoomLevel: viewport.zoomLevel, latitude: center[1], height: size.height),
                pitch: pitch, heading: bearing)
        }
        options.style = style
        options.showsAttribution = false
        let actual = RGBAImage(try MapSnapshotter(options: options).snapshot().image)
        let expected = try RGBAImage(contentsOfPNG: folder.appendingPathComponent("expected.png"))
        let threshold = test?["threshold"]?.number ?? 0.1285
        let result = try PixelMatch.compare(expected, actual, options: PixelMatch.Options(threshold: threshold))
        return (result.differentRatio, test?["allowed"]?.number ?? 0.00025)
    }

    @Test("MapRaster draws the case as MapLibre does", arguments: cases)
    func matchesMapLibre(name: String) throws {
        let (differing, allowed) = try Self.score(name)
        #expect(differing <= allowed, "\(name): \(differing) of the pixels differ, \(allowed) allowed")
    }

    @Test("a missing pattern image draws nothing; a sprite image outside its sheet is refused")
    func spriteChecks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sprite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Fixtures.url("maplibre/assets/sprites/emerald.png"), to: folder.appendingPathComponent("bad.png"))
        try Data(#"{"far": {"x": 500, "y": 0, "width": 10, "height": 10, "pixelRatio": 1}}"#.utf8)
            .write(to: folder.appendingPathComponent("bad.json"))
        func style(_ sprite: String, pattern: String) throws -> Style {
            let text =
                #"{"version": 8, "sprite": "\#(sprite)", "layers": [{"id": "b", "type": "background", "#
                + #""paint": {"background-color": "red", "background-pattern": "\#(pattern)"}}]}"#
            return try Style.decode(Data(text.utf8), source: "test", baseURL: folder)
        }
        func render(_ style: Style) throws -> RGBAImage {
            var options = MapSnapshotter.Options(size: Size(width: 16, height: 16), scale: 1)
            options.style = style
            options.showsAttribution = false
            return RGBAImage(try MapSnapshotter(options: options).snapshot().image)
        }
        let emerald = Fixtures.url("maplibre/assets/sprites/emerald").path
        let missing = try render(try style(emerald, pattern: "no-such-image"))
        // The pattern replaces the color: with no such image the layer draws nothing, red included.
        #expect(missing.pixel(x: 8, y: 8) != ImageSurface.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(throws: (any Error).self) { try render(try style("bad", pattern: "far")) }
        #expect(try style("https://example.com/sprite", pattern: "x").sprites.isEmpty)
    }
}
