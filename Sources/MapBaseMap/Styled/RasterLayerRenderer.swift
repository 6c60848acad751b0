import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `raster` layer from a whole-world equirectangular image, reprojected to Web Mercator: each
/// image pixel's center is turned into a longitude and latitude (rows by the Mercator inverse, so
/// that rows are spaced by latitude in the source) and sampled bilinearly. Under a heading or a pitch each
/// pixel's centre is taken to the ground through the viewport's inverse (``MapViewport/groundMapPoint(for:)``),
/// the sky above the horizon left clear.
enum RasterLayerRenderer {
    static func draw(_ layer: StyleLayer, image: RGBAImage, in frame: LayerFrame) throws {
        let opacity = layer.number(.rasterOpacity, frame.constantContext)
        guard opacity > 0 else { return }
        let viewport = frame.viewport
        let w = viewport.pixelSize.width
        let h = viewport.pixelSize.height
        let perPixel = viewport.mapPointsPerPoint / viewport.scale
        let origin = viewport.visibleMapRect.origin
        let world = WebMercator.worldSize
        let sw = Double(image.width)
        let sh = Double(image.height)
        let camera = !viewport.projection.isNorthUpAndFlat
        // Source column (continuous, pixel centers at +0.5) of each output column, north up and flat.
        let columns: [Double] =
            camera
            ? [] : (0..<w).map { px in WorldCopies.wrap(origin.x + (Double(px) + 0.5) * perPixel) / world * sw - 0.5 }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        image.bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                /// The source rows of map y `y` (nil off the world) and the weight of the second.
                @inline(__always) func rows(_ y: Double) -> (y0: Int, y1: Int, fy: Double)? {
                    guard y >= 0, y <= world else { return nil }
                    let latitude = WebMercator.latitude(y: y)
                    let sy = min(max((90 - latitude) / 180 * sh - 0.5, 0), sh - 1)
                    let y0 = Int(sy.rounded(.down))
                    return (y0, min(y0 + 1, image.height - 1), sy - Double(y0))
                }
                /// Pixel (px, py) from source column `sx` (continuous) and rows `r`.
                @inline(__always) func put(_ px: Int, _ py: Int, _ sx: Double, _ r: (y0: Int, y1: Int, fy: Double)) {
                    let (y0, y1, fy) = r
                    let xf = sx.rounded(.down)
                    let fx = sx - xf
                    var x0 = Int(xf)
                    if x0 < 0 { x0 += image.width }
                    if x0 >= image.width { x0 -= image.width }
                    let x1 = x0 + 1 >= image.width ? 0 : x0 + 1
                    let o = (py * w + px) * 4
                    for c in 0..<3 {
                        let a = Double(src[(y0 * image.width + x0) * 4 + c])
                        let b = Double(src[(y0 * image.width + x1) * 4 + c])
                        let d = Double(src[(y1 * image.width + x0) * 4 + c])
                        let e = Double(src[(y1 * image.width + x1) * 4 + c])
                        let top = a + (b - a) * fx
                        let bottom = d + (e - d) * fx
                        dst[o + c] = UInt8(max(0, min(255, (top + (bottom - top) * fy).rounded())))
                    }
                    dst[o + 3] = 255
                }
                let pixel = 1 / viewport.scale
                for py in 0..<h {
                    // North up and flat: one row of the source per row of pixels.
                    let row = camera ? nil : rows(origin.y + (Double(py) + 0.5) * perPixel)
                    if !camera, row == nil { continue }
                    for px in 0..<w {
                        if let row {
                            put(px, py, columns[px], row)
                            continue
                        }
                        let point = Point(x: (Double(px) + 0.5) * pixel, y: (Double(py) + 0.5) * pixel)
                        guard let p = viewport.groundMapPoint(for: point), p.x.isFinite, p.y.isFinite,
                            let r = rows(p.y)
                        else { continue }
                        put(px, py, WorldCopies.wrap(p.x) / world * sw - 0.5, r)
                    }
                }
            }
        }
        let surface = try ImageSurface(rgba: out, width: w, height: h)
        frame.context.withSavedState {
            frame.context.setAlpha(opacity)
            frame.context.draw(surface, in: Rect(origin: .zero, size: viewport.size))
        }
    }
}

/// Equirectangular world images (straight RGBA), decoded once per process.
enum RasterImages {
    private static let cache = OnceCache<String, RGBAImage>()

    /// Loads a PNG.
    ///
    /// - Throws: ``RenderError/missingData(name:reason:)`` when it cannot be read.
    static func load(_ url: URL) throws -> RGBAImage {
        try cache.value(url.path) {
            let image: RGBAImage
            do { image = try RGBAImage(contentsOfPNG: FileReader.checkedRegularFile(url)) } catch {
                throw RenderError.missingData(name: url.path, reason: "cannot read the raster image: \(error)")
            }
            guard image.width >= 2, image.height >= 2 else {
                throw RenderError.missingData(name: url.path, reason: "the raster image is smaller than 2x2 pixels")
            }
            return image
        }
    }
}

/// Draws a `raster` layer of an `image` source as MapLibre draws it: the image's corners projected to the
/// view, two triangles (top left, top right, bottom left; top right, bottom right, bottom left) textured
/// through the rasterizer, the outer edges antialiased, with the layer's colour adjustments, resampling and
/// opacity. A quadrilateral that is not convex draws nothing.
enum ImageSourceRenderer {
    static func draw(
        _ layer: StyleLayer, image: RGBAImage, corners: [LocationCoordinate2D], in frame: LayerFrame
    ) throws {
        let context = EvaluationContext(zoom: frame.zoom)
        let opacity = layer.number(.rasterOpacity, context)
        guard opacity > 0, corners.count == 4 else { return }
        let adjusted = ColorAdjustment(layer: layer, context: context).apply(image)
        let texture = try Texture(rgba: adjusted.bytes, width: adjusted.width, height: adjusted.height)
        let viewport = frame.viewport
        let origin = viewport.visibleMapRect.origin
        let perPoint = viewport.mapPointsPerPoint
        // Longitudes as given (an image may reach past the antimeridian), latitudes clamped to Mercator's.
        let points = corners.map { c -> Point in
            let x = (c.longitude + 180) / 360 * WebMercator.worldSize
            let y = WebMercator.y(latitude: min(max(c.latitude, -85.051_128_78), 85.051_128_78))
            return Point(x: (x - origin.x) / perPoint, y: (y - origin.y) / perPoint)
        }
        let rasterizer = frame.context.makeRasterizer()
        rasterizer.addImage(
            texture, corners: points, linear: layer.string(.rasterResampling, context) != "nearest", opacity: opacity)
        frame.context.draw(rasterizer)
    }
}
