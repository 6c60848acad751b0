import Foundation
import MapData
import MapGeometry

/// Builds MapLibre sprites (`NAME.json` and `NAME.png`, `NAME@2x.json` and `NAME@2x.png`) from a folder of
/// SVG icons, as spritezero-cli and spreet do, with librsvg drawing the SVGs.
///
/// - Names: each `.svg` file's name without the extension; with `recursive`, files in subfolders too,
///   named by their path under the folder joined with `/` (`transport/bus`), as spreet's `--recursive`.
///   Names starting with `.` (files and folders) are left out, as both tools do.
/// - Sizes: the SVG's `width` and `height` in CSS pixels (its `viewBox` when it has no absolute size)
///   times the pixel ratio, truncated to whole pixels as spritezero's mapnik does (14.4 at 2x gives 28);
///   the drawing is scaled by the exact ratio and centered in the image, as mapnik centers it (0.4 px cut
///   on each side in that example).
/// - Layout: spritezero's (``ShelfPacking``), so the same sizes give the same sheet; each pixel ratio is
///   packed on its own, as two spritezero runs do.
/// - SDF (`sdf`): spreet's encoding, for `icon-color` and `icon-halo-*`: each image grown by `3 * ratio`
///   pixels a side, its alpha a signed distance field with a radius of `8 * ratio` pixels and the edge at
///   0.75 (``SignedDistanceField``), RGB black; entries get `"sdf": true`. Distances scale with the ratio,
///   so a halo of N points is N points wide at 1x and 2x.
/// - Bad input: a file that is unreadable, not SVG, without a size, or too large is skipped and listed in
///   ``SpriteBuild/skipped``; a folder with nothing usable is an error. Every size is checked before any
///   pixel is allocated.
///
/// ```swift
/// let build = try SpriteBuilder.build(folder: URL(fileURLWithPath: "icons"), options: .init(pixelRatios: [1, 2]))
/// for icon in build.skipped { print("warning: \(icon)") }
/// try build.write(prefix: "sprite")  // sprite.json, sprite.png, sprite@2x.json, sprite@2x.png
/// ```
public enum SpriteBuilder {
    /// The largest icon side in device pixels (spritezero's mapnik refuses larger images the same way).
    public static let maximumIconSide = 2048
    /// The largest sheet side in pixels (the largest MapRaster's sprite loader reads).
    public static let maximumSheetSide = 16384
    /// The most pixels a sheet may have (64 Mi pixels, 256 MiB of RGBA).
    public static let maximumSheetPixels = 1 << 26
    /// The most SVG files a folder may hold.
    public static let maximumIcons = 10_000
    /// The largest SVG file read, in bytes.
    public static let maximumSVGBytes = 4 << 20
    /// How far subfolders are followed with `recursive`.
    public static let maximumDepth = 32

    /// What to build.
    public struct Options: Sendable, Equatable {
        /// The sheets to build, one per pixel ratio (1...4), in this order.
        public var pixelRatios: [Int]
        /// Whether the images are signed distance fields (spreet's `--sdf`).
        public var sdf: Bool
        /// Whether SVG files in subfolders are included (spreet's `--recursive`).
        public var recursive: Bool

        /// Creates options; by default one sheet at pixel ratio 1, plain images, no subfolders.
        public init(pixelRatios: [Int] = [1], sdf: Bool = false, recursive: Bool = false) {
            self.pixelRatios = pixelRatios
            self.sdf = sdf
            self.recursive = recursive
        }
    }

    /// One SVG file, parsed, with its size in CSS pixels.
    private struct Icon {
        var name: String
        var path: String
        var document: SVGDocument
        var width: Double
        var height: Double
    }

    /// A file read: an icon, or why it is left out.
    private enum Loaded {
        case icon(Icon)
        case skipped(SkippedIcon)
    }

    /// Builds one sheet per pixel ratio of `options` from the SVG files of `folder`.
    ///
    /// - Returns: the sheets and the files left out (each with its reason).
    /// - Throws: ``SpriteBuildError``: an unreadable folder, more than ``maximumIcons`` files, no usable
    ///   icon, a sheet beyond ``maximumSheetSide`` or ``maximumSheetPixels``, a pixel ratio outside 1...4.
    public static func build(folder: URL, options: Options = Options()) throws(SpriteBuildError) -> SpriteBuild {
        for ratio in options.pixelRatios where !(1...4).contains(ratio) { throw .invalidPixelRatio(ratio) }
        let ratios = options.pixelRatios.isEmpty ? [1] : options.pixelRatios
        var skipped: [SkippedIcon] = []
        var icons: [Icon] = []
        for (name, url) in try svgFiles(in: folder, recursive: options.recursive) {
            switch load(name: name, url: url, ratios: ratios) {
            case .icon(let icon): icons.append(icon)
            case .skipped(let reason): skipped.append(reason)
            }
        }
        func sizes(_ icons: [Icon], _ ratio: Int) -> [ShelfPacking.Item] {
            let grow = options.sdf ? 2 * sdfBuffer(ratio) : 0
            return icons.map {
                ShelfPacking.Item(
                    name: $0.name, width: Int($0.width * Double(ratio)) + grow,
                    height: Int($0.height * Double(ratio)) + grow)
            }
        }
        // Every sheet's size is known and checked before any icon is drawn.
        for ratio in ratios {
            let layout = ShelfPacking.layout(sizes(icons, ratio))
            try checkSheet(width: layout.width, height: layout.height, ratio: ratio)
        }
        var images: [[[UInt8]]] = []
        var drawn: [Icon] = []
        for icon in icons {
            do throws(SVGParseFailure) {
                images.append(try ratios.map { ratio throws(SVGParseFailure) in try draw(icon, ratio, options.sdf) })
                drawn.append(icon)
            } catch {
                skipped.append(SkippedIcon(path: icon.path, reason: "librsvg cannot draw it: \(error.reason)"))
            }
        }
        guard !drawn.isEmpty else { throw .noIcons(folder: folder.path, skipped: skipped) }
        var sheets: [SpriteSheet] = []
        for (k, ratio) in ratios.enumerated() {
            let items = sizes(drawn, ratio)
            let layout = ShelfPacking.layout(items)
            var bytes = [UInt8](repeating: 0, count: layout.width * layout.height * 4)
            var entries: [SpriteSheet.Entry] = []
            for (i, item) in items.enumerated() {
                let (x, y) = layout.origins[i]
                let pixels = images[i][k]
                for row in 0..<item.height {
                    let to = ((y + row) * layout.width + x) * 4
                    bytes.replaceSubrange(
                        to..<to + item.width * 4, with: pixels[row * item.width * 4..<(row + 1) * item.width * 4])
                }
                entries.append(SpriteSheet.Entry(name: item.name, x: x, y: y, width: item.width, height: item.height))
            }
            sheets.append(
                SpriteSheet(
                    pixelRatio: ratio, sdf: options.sdf,
                    image: RGBAImage(width: layout.width, height: layout.height, bytes: bytes), entries: entries))
        }
        return SpriteBuild(sheets: sheets, skipped: skipped)
    }

    /// The SDF border of an image at `ratio`, in pixels a side (spreet's `3 * ratio`).
    public static func sdfBuffer(_ ratio: Int) -> Int { 3 * ratio }

    /// The `.svg` files of `folder` (and, with `recursive`, of its subfolders) with their image names, in
    /// name order; names starting with `.` are left out, and a folder reached twice through links is read once.
    static func svgFiles(in folder: URL, recursive: Bool) throws(SpriteBuildError) -> [(name: String, url: URL)] {
        var found: [(name: String, url: URL)] = []
        var visited = Set<String>()
        func walk(_ directory: URL, prefix: String, depth: Int) throws(SpriteBuildError) {
            guard visited.insert(directory.resolvingSymlinksInPath().path).inserted else { return }
            var info = stat()
            guard stat(directory.path, &info) == 0 else {
                throw .cannotReadFolder(path: directory.path, reason: String(cString: strerror(errno)))
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .cannotReadFolder(path: directory.path, reason: "not a folder")
            }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
                let reason = access(directory.path, R_OK | X_OK) != 0 ? String(cString: strerror(errno)) : "\(error)"
                throw .cannotReadFolder(path: directory.path, reason: reason)
            }
            for name in names.sorted(by: { $0.utf16.lexicographicallyPrecedes($1.utf16) }) where !name.hasPrefix(".") {
                let url = directory.appendingPathComponent(name)
                var entry = stat()
                guard stat(url.path, &entry) == 0 else { continue }
                switch entry.st_mode & S_IFMT {
                case S_IFDIR:
                    if recursive, depth < maximumDepth { try walk(url, prefix: prefix + name + "/", depth: depth + 1) }
                case S_IFREG where name.hasSuffix(".svg") && name.count > 4:
                    found.append((prefix + String(name.dropLast(4)), url))
                    if found.count > maximumIcons { throw .tooManyIcons(folder: folder.path, limit: maximumIcons) }
                default:
                    continue
                }
            }
        }
        try walk(folder, prefix: "", depth: 0)
        return found
    }

    /// Reads and parses one SVG file and checks its size at every ratio.
    private static func load(name: String, url: URL, ratios: [Int]) -> Loaded {
        func skip(_ reason: String) -> Loaded { .skipped(SkippedIcon(path: url.path, reason: reason)) }
        let data: Data
        do { data = try FileReader.read(url, limit: maximumSVGBytes) } catch { return skip("\(error.problem)") }
        let document: SVGDocument
        do { document = try SVGDocument(data: data) } catch {
            return skip("not a valid SVG (librsvg: \(error.reason))")
        }
        guard let (width, height) = document.intrinsicSize else {
            return skip("it has no width and height and no viewBox, so its size is unknown")
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            return skip("its size \(width)x\(height) is not positive")
        }
        for ratio in ratios {
            let w = width * Double(ratio)
            let h = height * Double(ratio)
            guard w <= Double(maximumIconSide), h <= Double(maximumIconSide) else {
                return skip(
                    "it is \(w)x\(h) pixels at pixel ratio \(ratio); an icon may have at most \(maximumIconSide) a side"
                )
            }
            guard w >= 1, h >= 1 else {
                return skip("it is \(w)x\(h) pixels at pixel ratio \(ratio), less than one pixel")
            }
        }
        return .icon(Icon(name: name, path: url.path, document: document, width: width, height: height))
    }

    private static func checkSheet(width: Int, height: Int, ratio: Int) throws(SpriteBuildError) {
        guard width <= maximumSheetSide, height <= maximumSheetSide, width * height <= maximumSheetPixels else {
            throw .sheetTooLarge(
                pixelRatio: ratio, width: width, height: height, maximumSide: maximumSheetSide,
                maximumPixels: maximumSheetPixels)
        }
    }

    /// One icon at `ratio` as straight RGBA bytes: drawn by librsvg, or its signed distance field.
    private static func draw(_ icon: Icon, _ ratio: Int, _ sdf: Bool) throws(SVGParseFailure) -> [UInt8] {
        let scale = Double(ratio)
        let width = Int(icon.width * scale)
        let height = Int(icon.height * scale)
        let rgba: [UInt8]
        do {
            let surface = try ImageSurface(width: width, height: height)
            let context = try CairoContext(surface: surface.cairo)
            // Centered in the truncated image, as mapnik draws it: a 14.4 px icon loses 0.2 px on each side.
            let exactWidth = icon.width * scale
            let exactHeight = icon.height * scale
            let viewport = Rect(
                x: (Double(width) - exactWidth) / 2, y: (Double(height) - exactHeight) / 2, width: exactWidth,
                height: exactHeight)
            try icon.document.render(into: context, viewport: viewport)
            try context.status("drawing \(icon.path)")
            rgba = surface.rgbaBytes()
        } catch let failure as SVGParseFailure {
            throw failure
        } catch {
            throw SVGParseFailure(reason: "\(error)")
        }
        guard sdf else { return rgba }
        let border = sdfBuffer(ratio)
        let side = width + 2 * border
        var coverage = [UInt8](repeating: 0, count: side * (height + 2 * border))
        for y in 0..<height {
            for x in 0..<width { coverage[(y + border) * side + x + border] = rgba[(y * width + x) * 4 + 3] }
        }
        let field = SignedDistanceField.encode(
            coverage: coverage, width: side, height: height + 2 * border, radius: 8 * scale, cutoff: 0.25)
        var out = [UInt8](repeating: 0, count: field.count * 4)
        for (i, alpha) in field.enumerated() { out[i * 4 + 3] = alpha }
        return out
    }
}
