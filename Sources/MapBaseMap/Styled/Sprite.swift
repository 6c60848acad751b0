import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// A style's sprite sheet: `NAME.json` (each image's rectangle in the sheet and its pixel ratio) and
/// `NAME.png`, or `NAME@2x.*` for images drawn at a scale of 2 or more. Used for `*-pattern` images.
/// Every rectangle is checked to lie inside the sheet; the sheet is decoded once per process.
struct Sprite: Sendable {
    /// One image of the sheet.
    struct Entry: Sendable, Equatable {
        var x, y, width, height: Int
        /// Image pixels per point.
        var pixelRatio: Double
        /// Whether the image is a signed distance field (`sdf`), tinted by `icon-color` when drawn.
        var sdf = false
        /// The stretchable column ranges (`stretchX`), in image pixels; nil when not given.
        var stretchX: [ClosedRange<Double>]? = nil
        /// The stretchable row ranges (`stretchY`), in image pixels; nil when not given.
        var stretchY: [ClosedRange<Double>]? = nil
        /// The part text fits into (`content`: left, top, right, bottom in image pixels); nil when not given.
        var content: [Double]? = nil
    }

    let name: String
    let sheet: RGBAImage
    let entries: [String: Entry]

    /// Images larger than this a side are refused.
    static let maximumSide = 4096
    /// Sheets larger than this a side are refused.
    static let maximumSheetSide = 16384

    private static let cache = OnceCache<String, Sprite>(capacity: 16)

    /// The sprites of a style for a scale, images named `image` in the `default` sprite and `id:image`
    /// in the others (as MapLibre names them).
    static func load(_ locations: [SpriteLocation], scale: Double) throws -> [String: (Sprite, Entry)] {
        var images: [String: (Sprite, Entry)] = [:]
        for location in locations {
            let sprite = try load(location.base, scale: scale)
            for (name, entry) in sprite.entries {
                images[location.id == "default" ? name : "\(location.id):\(name)"] = (sprite, entry)
            }
        }
        return images
    }

    /// Loads `base@2x.json`/`.png` when `scale` is above 1, as MapLibre picks the @2x sheet for any pixel
    /// ratio above 1 (falling back to `base.json`/`.png` when there is
    /// no @2x sheet), else `base.json`/`.png`.
    ///
    /// - Throws: ``RenderError/missingData(name:reason:)`` naming the file and the problem.
    static func load(_ base: URL, scale: Double) throws -> Sprite {
        var stem = base.path
        if scale > 1, FileManager.default.fileExists(atPath: stem + "@2x.json") { stem += "@2x" }
        return try cache.value(stem) { try decode(stem: stem) }
    }

    static func decode(stem: String) throws -> Sprite {
        let jsonURL = URL(fileURLWithPath: stem + ".json")
        let pngURL = URL(fileURLWithPath: stem + ".png")
        func bad(_ url: URL, _ reason: String) -> RenderError { .missingData(name: url.path, reason: reason) }
        let json: JSONValue
        do { json = try JSONValue.parse(try FileReader.read(jsonURL, limit: 16 << 20)) } catch {
            throw bad(jsonURL, "cannot read the sprite index: \(error)")
        }
        let sheet: RGBAImage
        do { sheet = try RGBAImage(contentsOfPNG: FileReader.checkedRegularFile(pngURL, limit: 64 << 20)) } catch {
            throw bad(pngURL, "cannot read the sprite sheet: \(error)")
        }
        guard sheet.width <= maximumSheetSide, sheet.height <= maximumSheetSide else {
            throw bad(pngURL, "the sprite sheet is larger than \(maximumSheetSide) pixels a side")
        }
        guard let members = json.members else { throw bad(jsonURL, "a sprite index must be a JSON object") }
        var entries: [String: Entry] = [:]
        for (name, value) in members {
            func int(_ key: String) throws -> Int {
                guard let n = value[key]?.number, let i = Int(exactly: n), i >= 0, i <= maximumSheetSide else {
                    throw bad(jsonURL, "image \"\(name)\": \(key) must be a whole number in 0...\(maximumSheetSide)")
                }
                return i
            }
            var entry = Entry(
                x: try int("x"), y: try int("y"), width: try int("width"), height: try int("height"),
                pixelRatio: value["pixelRatio"]?.number ?? 1)
            guard entry.pixelRatio > 0, entry.pixelRatio <= 16 else {
                throw bad(jsonURL, "image \"\(name)\": pixelRatio must be in (0, 16]")
            }
            guard entry.width > 0, entry.height > 0, entry.width <= maximumSide, entry.height <= maximumSide,
                entry.x + entry.width <= sheet.width, entry.y + entry.height <= sheet.height
            else {
                throw bad(
                    jsonURL,
                    "image \"\(name)\" (\(entry.x),\(entry.y) \(entry.width)x\(entry.height)) is empty or outside the "
                        + "\(sheet.width)x\(sheet.height) sheet")
            }
            if let flag = value["sdf"] {
                guard case .bool(let b) = flag else {
                    throw bad(jsonURL, "image \"\(name)\": sdf must be true or false")
                }
                entry.sdf = b
            }
            func ranges(_ key: String, limit: Int) throws -> [ClosedRange<Double>]? {
                guard let list = value[key] else { return nil }
                guard let items = list.array, items.count <= 64 else {
                    throw bad(jsonURL, "image \"\(name)\": \(key) must be an array of at most 64 [from, to] pairs")
                }
                return try items.map { item in
                    guard let pair = item.array, pair.count == 2, let a = pair[0].number, let b = pair[1].number,
                        a >= 0, a <= b, b <= Double(limit)
                    else {
                        throw bad(
                            jsonURL,
                            "image \"\(name)\": each \(key) entry must be [from, to] with 0 <= from <= to <= \(limit)")
                    }
                    return a...b
                }
            }
            entry.stretchX = try ranges("stretchX", limit: entry.width)
            entry.stretchY = try ranges("stretchY", limit: entry.height)
            if let content = value["content"] {
                guard let items = content.array, items.count == 4, let box = Optional(items.compactMap(\.number)),
                    box.count == 4, box[0] >= 0, box[1] >= 0, box[0] <= box[2], box[1] <= box[3],
                    box[2] <= Double(entry.width), box[3] <= Double(entry.height)
                else {
                    throw bad(
                        jsonURL,
                        "image \"\(name)\": content must be [left, top, right, bottom] inside the image's "
                            + "\(entry.width)x\(entry.height) pixels")
                }
                entry.content = box
            }
            entries[name] = entry
        }
        return Sprite(name: stem, sheet: sheet, entries: entries)
    }

    /// One image cut out of the sheet, as straight RGBA bytes.
    func pixels(_ e: Entry) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: e.width * e.height * 4)
        for row in 0..<e.height {
            let from = ((e.y + row) * sheet.width + e.x) * 4
            bytes.replaceSubrange(
                row * e.width * 4..<(row + 1) * e.width * 4, with: sheet.bytes[from..<from + e.width * 4])
        }
        return bytes
    }
}

/// The pattern images of one image: decoded on first use.
final class PatternImages {
    private let images: [String: (Sprite, Sprite.Entry)]
    private var surfaces: [String: (ImageSurface, Double)?] = [:]
    private var textures: [String: (Texture, Double)?] = [:]

    init(images: [String: (Sprite, Sprite.Entry)]) { self.images = images }

    /// The image named `name` and its pixels per point, or nil when the sprite has no such image.
    func image(_ name: String) -> (surface: ImageSurface, pixelRatio: Double)? {
        if let known = surfaces[name] { return known.map { ($0.0, $0.1) } }
        var made: (ImageSurface, Double)?
        if let (sprite, entry) = images[name],
            let surface = try? ImageSurface(rgba: sprite.pixels(entry), width: entry.width, height: entry.height)
        {
            made = (surface, entry.pixelRatio)
        }
        surfaces[name] = made
        return made.map { ($0.0, $0.1) }
    }

    /// The image named `name` as a texture (for the rasterizer) and its pixels per point, or nil when the
    /// sprite has no such image.
    func texture(_ name: String) -> (texture: Texture, pixelRatio: Double)? {
        if let known = textures[name] { return known.map { ($0.0, $0.1) } }
        var made: (Texture, Double)?
        if let (sprite, entry) = images[name],
            let texture = try? Texture(rgba: sprite.pixels(entry), width: entry.width, height: entry.height)
        {
            made = (texture, entry.pixelRatio)
        }
        textures[name] = made
        return made.map { ($0.0, $0.1) }
    }

    /// Where one copy of a pattern image sits, in image points, for patterns aligned to the map as
    /// MapLibre aligns them: repeated from the world's top-left corner, one image pixel being
    /// 1/pixelRatio points at the integer zoom below the view's and growing with the fractional zoom.
    static func tile(for image: (surface: ImageSurface, pixelRatio: Double), viewport: MapViewport) -> Rect {
        tile(width: image.surface.width, height: image.surface.height, pixelRatio: image.pixelRatio, viewport: viewport)
    }

    /// ``tile(for:viewport:)`` of an image `width` x `height` pixels at `pixelRatio`.
    static func tile(width pixelWidth: Int, height pixelHeight: Int, pixelRatio: Double, viewport: MapViewport) -> Rect
    {
        let zoom = viewport.zoomLevel - 1
        let growth = pow(2, zoom - zoom.rounded(.down))
        let width = Double(pixelWidth) / pixelRatio * growth
        let height = Double(pixelHeight) / pixelRatio * growth
        let projection = viewport.projection
        guard projection.isNorthUpAndFlat else {
            // Turned or tilted: where the copies sit in the view facing north about the same centre.
            let x = viewport.size.width / 2 - projection.center.x / projection.perPoint
            let y = viewport.size.height / 2 - projection.center.y / projection.perPoint
            return Rect(x: x, y: y, width: width, height: height)
        }
        let origin = viewport.visibleMapRect.origin
        let x = -origin.x / viewport.mapPointsPerPoint
        let y = -origin.y / viewport.mapPointsPerPoint
        return Rect(x: x, y: y, width: width, height: height)
    }
}
