import MapGeometry

/// Why a sprite could not be built from a folder of SVG icons.
///
/// ```swift
/// do { _ = try SpriteBuilder.build(folder: icons) } catch let error as SpriteBuildError { print(error) }
/// // no usable SVG icon in 'icons' (3 skipped); ...
/// ```
public enum SpriteBuildError: MapRasterError, Equatable {
    /// The folder (or a subfolder) could not be listed.
    case cannotReadFolder(path: String, reason: String)
    /// The folder holds no SVG icon that could be drawn; `skipped` lists the files refused and why.
    case noIcons(folder: String, skipped: [SkippedIcon])
    /// The folder holds more SVG files than a sprite may have.
    case tooManyIcons(folder: String, limit: Int)
    /// The icons at `pixelRatio` need a sheet larger than allowed.
    case sheetTooLarge(pixelRatio: Int, width: Int, height: Int, maximumSide: Int, maximumPixels: Int)
    /// A pixel ratio outside 1...4.
    case invalidPixelRatio(Int)

    public var description: String {
        switch self {
        case let .cannotReadFolder(path, reason):
            return "cannot read the icon folder '\(path)': \(reason)"
        case let .noIcons(folder, skipped):
            let why = skipped.isEmpty ? "it has no .svg file" : "\(skipped.count) skipped, see the warnings"
            return "no usable SVG icon in '\(folder)' (\(why)); give a folder of .svg files"
        case let .tooManyIcons(folder, limit):
            return
                "'\(folder)' has more than \(limit) SVG files; a sprite holds at most \(limit) images, split the folder"
        case let .sheetTooLarge(ratio, width, height, side, pixels):
            return
                "the icons at pixel ratio \(ratio) need a \(width)x\(height) sheet; a sprite sheet may have at most "
                + "\(side) pixels a side and \(pixels) pixels in all; use fewer or smaller icons"
        case let .invalidPixelRatio(ratio):
            return "pixel ratio \(ratio) is not supported; use 1, 2, 3 or 4"
        }
    }
}

/// An SVG file left out of a sprite, and why: reported as a warning, the others are still built.
public struct SkippedIcon: Sendable, Equatable, CustomStringConvertible {
    /// The file, as found under the icon folder.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// Creates a record of a skipped file.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `PATH: REASON; skipped`.
    public var description: String { "\(path): \(reason); skipped" }
}
