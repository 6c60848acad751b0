import Foundation
import MapData
import MapGeometry

/// One built sprite sheet: the image and where each icon is in it, at one pixel ratio.
public struct SpriteSheet: Sendable, Equatable {
    /// One icon's rectangle in the sheet, in pixels.
    public struct Entry: Sendable, Equatable {
        /// The image name styles give to `icon-image` and `*-pattern`.
        public var name: String
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
    }

    /// Image pixels per point (the index's `pixelRatio`).
    public let pixelRatio: Int
    /// Whether every image is a signed distance field (the index's `"sdf": true`).
    public let sdf: Bool
    /// The sheet.
    public let image: RGBAImage
    /// The icons, in packing order.
    public let entries: [Entry]

    /// The sprite index as spritezero-cli writes it: names in UTF-16 code unit order (JavaScript's sort),
    /// each entry's keys in the same order (`height`, `pixelRatio`, `sdf`, `width`, `x`, `y`), two-space
    /// indentation, no newline at the end.
    public var indexJSON: String {
        let sorted = entries.sorted { $0.name.utf16.lexicographicallyPrecedes($1.name.utf16) }
        let members: [(String, JSONValue)] = sorted.map { entry in
            var fields: [(String, JSONValue)] = [
                ("height", .number(Double(entry.height))), ("pixelRatio", .number(Double(pixelRatio))),
            ]
            if sdf { fields.append(("sdf", .bool(true))) }
            fields += [
                ("width", .number(Double(entry.width))), ("x", .number(Double(entry.x))),
                ("y", .number(Double(entry.y))),
            ]
            return (entry.name, .object(fields))
        }
        var text = JSONValue.object(members).serialized(pretty: true)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The sheet as an 8-bit RGBA PNG (MapGraphics' encoder; equal sheets give equal bytes).
    ///
    /// - Throws: ``GraphicsError/cannotWritePNG(path:reason:)``.
    public func pngData() throws -> Data { try image.pngData(compressionLevel: 9) }
}

/// The sheets built from one icon folder, one per pixel ratio, and the files left out.
public struct SpriteBuild: Sendable, Equatable {
    /// The sheets, in the order of the pixel ratios asked for.
    public var sheets: [SpriteSheet]
    /// The SVG files left out, each with its reason.
    public var skipped: [SkippedIcon]

    /// The two files of the sheet at `pixelRatio` for a prefix: `PREFIX.json` and `PREFIX.png` at 1,
    /// `PREFIX@2x.json` and `PREFIX@2x.png` at 2 (as MapLibre asks for them).
    public static func files(prefix: String, pixelRatio: Int) -> (json: URL, png: URL) {
        let stem = prefix + (pixelRatio == 1 ? "" : "@\(pixelRatio)x")
        return (URL(fileURLWithPath: stem + ".json"), URL(fileURLWithPath: stem + ".png"))
    }

    /// Writes every sheet's index and image next to `prefix` (see ``files(prefix:pixelRatio:)``).
    ///
    /// Everything is encoded and every target checked before the first file is written, and each file is
    /// written to a temporary name and renamed, so a failure leaves no half-written file.
    ///
    /// - Returns: the files written, in order.
    /// - Throws: ``FileWriteError`` or ``GraphicsError`` naming the file.
    @discardableResult
    public func write(prefix: String) throws -> [URL] {
        var outputs: [(URL, Data)] = []
        for sheet in sheets {
            let (json, png) = Self.files(prefix: prefix, pixelRatio: sheet.pixelRatio)
            outputs.append((json, Data(sheet.indexJSON.utf8)))
            outputs.append((png, try sheet.pngData()))
        }
        for (url, _) in outputs { try AtomicFile.checkWritable(url) }
        for (url, data) in outputs { try AtomicFile.write(data, to: url) }
        return outputs.map(\.0)
    }
}
