import Foundation
import MapGeometry
import MapGraphics
import MapStorage
import MapStyle

/// A raster tile source of a style (MBTiles, PMTiles or a `{z}/{x}/{y}` folder of PNG, JPEG or WebP images), opened
/// once per process; its decoded tiles are kept in a bounded cache.
final class RasterTileSource: Sendable {
    let tiles: any TileSource
    let minZoom: Int
    let maxZoom: Int
    /// Points per tile side (`tileSize`).
    let tileSize: Int
    /// The area the source has tiles for, in map points.
    let bounds: MapRect?
    /// A name for error messages.
    let name: String

    /// The widest tile image accepted, in pixels (a 512-point tile at scale 4 is 2,048).
    static let maximumTilePixels = 4096

    private init(name: String, spec: StyleSource.TileSet) throws {
        self.name = name
        do {
            tiles = try openTileSource(at: spec.location, scheme: spec.scheme == "tms" ? .tms : .xyz)
        } catch {
            throw RenderError.missingData(name: spec.location, reason: "raster source \"\(name)\": \(error)")
        }
        minZoom = spec.minZoom ?? tiles.info.minZoom
        maxZoom = max(minZoom, spec.maxZoom ?? tiles.info.maxZoom)
        tileSize = spec.tileSize
        bounds = spec.bounds?.mapRect
    }

    private static let opened = OnceCache<String, RasterTileSource>()
    /// Decoded tiles, the most recent 256 (64 MiB of 256-pixel tiles).
    private static let decoded = OnceCache<String, RGBAImage?>(capacity: 256)

    /// The source, opened once per process.
    static func open(id: String, spec: StyleSource.TileSet) throws -> RasterTileSource {
        let key =
            "\(spec.location)|\(spec.minZoom ?? -1)|\(spec.maxZoom ?? -1)|\(spec.scheme)|\(spec.tileSize)|"
            + "\(spec.bounds.map { "\($0)" } ?? "")"
        return try opened.value(key) { try RasterTileSource(name: id, spec: spec) }
    }

    /// The tile zoom for a view, as MapLibre picks it for raster sources: the view's zoom in tiles of
    /// `tileSize` points, rounded to the nearest, within the source's zooms (deeper views overzoom the
    /// maxzoom tiles); nil below the minzoom.
    func tileZoom(for viewport: MapViewport) -> Int? {
        let ideal = viewport.zoomLevel - 1 + log2(512 / Double(tileSize))
        let z = Int(max(0, min(24, ideal.rounded())))
        return z < minZoom ? nil : min(z, maxZoom)
    }

    /// Whether the source has any tile in `tile`'s square.
    func covers(_ tile: TileID) -> Bool {
        guard let bounds else { return true }
        return VectorSource.meets(bounds, tile)
    }

    /// The tile's image (one transparent pixel for an empty tile), or nil when the source has no such tile.
    ///
    /// - Throws: ``RenderError/missingData(name:reason:)`` naming the source and the tile when its data is
    ///   not an image.
    func image(_ tile: TileID) throws -> RGBAImage? {
        try Self.decoded.value("\(ObjectIdentifier(self))|\(tile.z)/\(tile.x)/\(tile.y)") {
            let place = "raster source \"\(name)\" tile \(tile.z)/\(tile.x)/\(tile.y)"
            do {
                guard let data = try tiles.tile(tile) else { return nil }
                // An empty tile (no data, a 204) draws nothing, and no ancestor stands in for it.
                if data.isEmpty { return RGBAImage(width: 1, height: 1, bytes: [0, 0, 0, 0]) }
                let image: RGBAImage
                if let (width, height) = RGBAImage.pngSize(data) {
                    // A PNG's size is read before decoding, so that a huge tile is refused unread.
                    guard width <= Self.maximumTilePixels, height <= Self.maximumTilePixels else {
                        throw RenderError.missingData(
                            name: tiles.location,
                            reason: "\(place): \(width)x\(height) pixels; at most \(Self.maximumTilePixels) a side")
                    }
                    image = try RGBAImage(pngData: data, source: place)
                } else {
                    // JPEG and WebP (satellite imagery): the decoders bound pixels per byte of the file.
                    image = try RGBAImage(imageData: data, source: place)
                    guard image.width <= Self.maximumTilePixels, image.height <= Self.maximumTilePixels else {
                        throw RenderError.missingData(
                            name: tiles.location,
                            reason:
                                "\(place): \(image.width)x\(image.height) pixels; at most \(Self.maximumTilePixels) a side"
                        )
                    }
                }
                return image
            } catch let error as RenderError {
                throw error
            } catch {
                throw RenderError.missingData(name: tiles.location, reason: "\(place): \(error)")
            }
        }
    }
}

/// Draws a `raster` layer from raster tiles: each tile of the chosen zoom (see
/// ``RasterTileSource/tileZoom(for:)``) scaled into its square, edges on device pixels so that tiles meet
/// without seams, with the layer's brightness, saturation, contrast and hue rotation applied as MapLibre's
/// raster shader does.
enum RasterTileLayerRenderer {
    static func draw(_ layer: StyleLayer, source: RasterTileSource, in frame: LayerFrame) throws {
        let context = EvaluationContext(zoom: frame.zoom)
        let opacity = layer.number(.rasterOpacity, context)
        let viewport = frame.viewport
        guard opacity > 0, let z = source.tileZoom(for: viewport) else { return }
        let adjustment = ColorAdjustment(layer: layer, context: context)
        let smooth = layer.string(.rasterResampling, context) != "nearest"
        let projection = viewport.projection
        guard projection.isFlat, !projection.isNorthUpAndFlat else {
            try drawTiles(
                source: source, zoom: z, viewport: viewport, adjustment: adjustment, smooth: smooth, opacity: opacity,
                into: frame.context)
            return
        }
        // Turned: the tiles are drawn north up into an image of the view's bounding square (the same scale,
        // aligned as MapLibre aligns them), which is then drawn once, turned about the centre, so tiles meet
        // without seams.
        let scale = viewport.scale
        let diagonal = (viewport.size.width * viewport.size.width + viewport.size.height * viewport.size.height)
            .squareRoot()
        let side = ((diagonal + 4) * scale / 2).rounded(.up) * 2 / scale
        let perPoint = viewport.mapPointsPerPoint
        let center = MapPoint(
            x: (projection.center.x / perPoint).rounded() * perPoint,
            y: (projection.center.y / perPoint).rounded() * perPoint)
        let north = MapViewport.layout(
            covering: MapRect(
                x: center.x - side / 2 * perPoint, y: center.y - side / 2 * perPoint, width: side * perPoint,
                height: side * perPoint), mapPointsPerPoint: perPoint, scale: scale)
        let surface = try ImageSurface(width: north.pixelSize.width, height: north.pixelSize.height)
        let offscreen = try GraphicsContext(surface: surface, scale: scale)
        try drawTiles(
            source: source, zoom: z, viewport: north, adjustment: adjustment, smooth: smooth, opacity: 1,
            into: offscreen)
        let g = frame.context
        g.withSavedState {
            // MapLibre's aligned matrix: the rounded centre at the image's centre (the fraction is dropped).
            g.translateBy(x: viewport.size.width / 2, y: viewport.size.height / 2)
            g.rotate(by: -viewport.heading * .pi / 180)
            g.setAlpha(opacity)
            g.drawTile(surface, in: Rect(x: -side / 2, y: -side / 2, width: side, height: side), smooth: true)
        }
    }

    /// The tiles of zoom `z` over `viewport` (north up, or tilted: ``drawTilted(_:zoom:viewport:look:into:)``),
    /// drawn into `g`.
    static func drawTiles(
        source: RasterTileSource, zoom z: Int, viewport: MapViewport, adjustment: ColorAdjustment, smooth: Bool,
        opacity: Double, into g: GraphicsContext
    ) throws {
        guard viewport.projection.isFlat else {
            return try drawTilted(
                source, zoom: z, viewport: viewport, look: (adjustment, smooth, opacity), into: g)
        }
        let visible = viewport.visibleMapRect
        let perPoint = viewport.mapPointsPerPoint
        let scale = viewport.scale
        // MapLibre draws raster tiles with the view aligned to whole points (its `alignedProjMatrix`): the view's
        // top-left corner rounded to a point of the world; tile edges are then on device pixels.
        let alignedX = (visible.minX / perPoint).rounded()
        let alignedY = (visible.minY / perPoint).rounded()
        func exact(_ mapX: Double, _ aligned: Double) -> Double { mapX / perPoint - aligned }
        func snapped(_ mapX: Double, _ aligned: Double) -> Double {
            (exact(mapX, aligned) * scale).rounded() / scale
        }
        try forEachTile(source: source, zoom: z, over: visible) { rect, image in
            // The tile at its exact scale from the aligned origin (texels land where MapLibre's quad puts them),
            // cut to the device pixels whose centres it covers, so that neighbours meet without a seam.
            let x0 = exact(rect.minX, alignedX)
            let x1 = exact(rect.maxX, alignedX)
            let y0 = exact(rect.minY, alignedY)
            let y1 = exact(rect.maxY, alignedY)
            let cut = Rect(
                x: snapped(rect.minX, alignedX), y: snapped(rect.minY, alignedY),
                width: snapped(rect.maxX, alignedX) - snapped(rect.minX, alignedX),
                height: snapped(rect.maxY, alignedY) - snapped(rect.minY, alignedY))
            // MapLibre samples raster tiles from mipmaps (`LINEAR_MIPMAP_NEAREST`): a tile shrunk past
            // 1/sqrt(2) is drawn from its nearest halved level, bilinear there.
            let level = image.mipmapLevel(texelsPerPixel: Double(image.width) / max((x1 - x0) * scale, 1e-9))
            let adjusted = adjustment.apply(image.mipmap(level: level))
            let surface = try ImageSurface(rgba: adjusted.bytes, width: adjusted.width, height: adjusted.height)
            g.withSavedState {
                g.setAlpha(opacity)
                g.drawTexture(
                    surface, in: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), over: cut, linear: smooth)
            }
        }
    }

    /// Calls `body` with the map rect (of the world copy it is seen in) and image of each tile of zoom `z` the
    /// source covers over `visible`, a missing tile's ancestor standing in for it (``fallback(for:in:cache:)``).
    static func forEachTile(
        source: RasterTileSource, zoom z: Int, over visible: MapRect, _ body: (MapRect, RGBAImage) throws -> Void
    ) throws {
        for offset in WorldCopies.offsets(meeting: visible) {
            let part = visible.offsetBy(dx: -offset, dy: 0).intersection(MapRect.world)
            guard !part.isNull, !part.isEmpty else { continue }
            var parents: [TileID: RGBAImage?] = [:]
            for tile in TileID.tiles(covering: part, zoom: z) where source.covers(tile) {
                guard let image = try source.image(tile) ?? fallback(for: tile, in: source, cache: &parents) else {
                    continue
                }
                try body(tile.mapRect.offsetBy(dx: offset, dy: 0), image)
            }
        }
    }
}

extension RasterTileLayerRenderer {
    /// The tiles of zoom `z` over a tilted `viewport`, each laid on the ground and projected as a GPU draws a
    /// textured quad in perspective (texels to map points to the turned ground, then the view's ground
    /// homography; ``Rasterizer/addOnGround(_:over:projection:linear:opacity:)``); the view's bounding map
    /// rect bounds the tiles (about 2.4 times the flat view's area at a pitch of 60).
    private static func drawTilted(
        _ source: RasterTileSource, zoom z: Int, viewport: MapViewport,
        look: (adjustment: ColorAdjustment, smooth: Bool, opacity: Double), into g: GraphicsContext
    ) throws {
        let (adjustment, smooth, opacity) = look
        let rasterizer = g.makeRasterizer()
        try forEachTile(source: source, zoom: z, over: viewport.visibleMapRect) { rect, image in
            let adjusted = adjustment.apply(image)
            let texture = try Texture(rgba: adjusted.bytes, width: adjusted.width, height: adjusted.height)
            rasterizer.addOnGround(
                texture, over: rect, projection: viewport.projection, linear: smooth, opacity: opacity)
        }
        g.draw(rasterizer)
    }

    /// How many zoom levels up a missing tile looks for an ancestor to stand in for it.
    static let fallbackLevels = 8

    /// The part of the nearest ancestor tile (at most ``fallbackLevels`` up, not below the source's
    /// minzoom) over a tile the source lacks, as MapLibre shows a parent tile where a child is missing (a
    /// sparse tile set); nil when none has it. Ancestors are read once per draw (`cache`).
    static func fallback(for tile: TileID, in source: RasterTileSource, cache: inout [TileID: RGBAImage?]) throws
        -> RGBAImage?
    {
        var levels = 0
        var ancestor = tile
        while levels < fallbackLevels, ancestor.z > source.minZoom, ancestor.z > 0 {
            ancestor = try TileID(z: ancestor.z - 1, x: ancestor.x / 2, y: ancestor.y / 2)
            levels += 1
            let image: RGBAImage?
            if let known = cache[ancestor] {
                image = known
            } else {
                image = try source.image(ancestor)
                cache[ancestor] = image
            }
            guard let image else { continue }
            // The child's square within the ancestor: 1/2^levels of it, at least one pixel.
            let parts = 1 << levels
            let width = image.width / parts
            let height = image.height / parts
            guard width > 0, height > 0 else { return nil }
            let x0 = (tile.x - ancestor.x * parts) * width
            let y0 = (tile.y - ancestor.y * parts) * height
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for row in 0..<height {
                let from = ((y0 + row) * image.width + x0) * 4
                bytes.replaceSubrange(
                    row * width * 4..<(row + 1) * width * 4, with: image.bytes[from..<from + width * 4])
            }
            return RGBAImage(width: width, height: height, bytes: bytes)
        }
        return nil
    }
}

/// `raster-brightness-min/max`, `raster-saturation`, `raster-contrast` and `raster-hue-rotate`, with the
/// formulas of MapLibre's raster fragment shader, on straight (not premultiplied) colours.
struct ColorAdjustment {
    let brightnessMin: Double
    let brightnessMax: Double
    let saturation: Double
    let contrast: Double
    let hueRotate: Double

    init(layer: StyleLayer, context: EvaluationContext) {
        brightnessMin = layer.number(.rasterBrightnessMin, context)
        brightnessMax = layer.number(.rasterBrightnessMax, context)
        saturation = layer.number(.rasterSaturation, context)
        contrast = layer.number(.rasterContrast, context)
        hueRotate = layer.number(.rasterHueRotate, context)
    }

    var isIdentity: Bool {
        brightnessMin == 0 && brightnessMax == 1 && saturation == 0 && contrast == 0
            && hueRotate.truncatingRemainder(dividingBy: 360) == 0
    }

    func apply(_ image: RGBAImage) -> RGBAImage {
        guard !isIdentity else { return image }
        // Hue rotation about the grey axis (MapLibre's spin matrix).
        let angle = hueRotate * .pi / 180
        let s = sin(angle)
        let c = cos(angle)
        let k = (2 * c + 1) / 3
        let a = (-sqrt(3) * s - c + 1) / 3
        let b = (sqrt(3) * s - c + 1) / 3
        let saturationFactor = saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation
        let contrastFactor = contrast > 0 ? 1 / (1 - contrast) : 1 + contrast
        var bytes = image.bytes
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let r0 = Double(bytes[i]) / 255
            let g0 = Double(bytes[i + 1]) / 255
            let b0 = Double(bytes[i + 2]) / 255
            var r = k * r0 + a * g0 + b * b0
            var g = b * r0 + k * g0 + a * b0
            var bl = a * r0 + b * g0 + k * b0
            let average = (r + g + bl) / 3
            r += (average - r) * saturationFactor
            g += (average - g) * saturationFactor
            bl += (average - bl) * saturationFactor
            r = (r - 0.5) * contrastFactor + 0.5
            g = (g - 0.5) * contrastFactor + 0.5
            bl = (bl - 0.5) * contrastFactor + 0.5
            func out(_ v: Double) -> UInt8 {
                let mixed = brightnessMin + (brightnessMax - brightnessMin) * v
                return UInt8(max(0, min(255, (mixed * 255).rounded())))
            }
            bytes[i] = out(r)
            bytes[i + 1] = out(g)
            bytes[i + 2] = out(bl)
        }
        return RGBAImage(width: image.width, height: image.height, bytes: bytes)
    }
}
