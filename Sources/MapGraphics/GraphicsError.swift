import MapGeometry

/// A failure of the graphics layer: Cairo, FreeType, HarfBuzz, or the file system.
public enum GraphicsError: MapRasterError, Equatable {
    /// Cairo reported an error; the message is Cairo's own.
    case cairo(operation: String, message: String)
    /// A PNG file could not be read.
    case cannotReadPNG(path: String, reason: String)
    /// A PNG file could not be written.
    case cannotWritePNG(path: String, reason: String)
    /// An image could not be encoded as JPEG or WebP; `format` names the format.
    case cannotEncode(format: String, reason: String)
    /// A JPEG or WebP image (or a file of unknown kind) could not be read.
    case cannotReadImage(path: String, reason: String)
    /// A font file could not be loaded.
    case cannotLoadFont(path: String, reason: String)
    /// A surface size that Cairo cannot allocate.
    case invalidSurfaceSize(width: Int, height: Int)
    /// Drawing went on past the context's deadline; `operation` is the step that finished last.
    case deadlineExceeded(operation: String)
    /// No font of a `text-font` stack is in the font catalog; `available` lists the families that are.
    case unknownFontStack(stack: [String], available: [String])
    /// A font directory given by the user could not be read.
    case cannotReadFontDirectory(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cairo(operation, message):
            return "cairo failed in \(operation): \(message)"
        case let .cannotReadPNG(path, reason):
            return "cannot read PNG '\(path)': \(reason)"
        case let .cannotWritePNG(path, reason):
            return "cannot write PNG '\(path)': \(reason)"
        case let .cannotEncode(format, reason):
            return "cannot encode the image as \(format): \(reason)"
        case let .cannotReadImage(path, reason):
            return "cannot read image '\(path)': \(reason)"
        case let .cannotLoadFont(path, reason):
            return
                "cannot load font '\(path)': \(reason); install the font (Scripts/install-system-deps.sh) or pass another path"
        case let .invalidSurfaceSize(width, height):
            return "cannot create a \(width)x\(height) image: each side must be 1...32767 pixels"
        case let .deadlineExceeded(operation):
            return "the render passed its deadline after \(operation); render a smaller image or allow more time"
        case let .unknownFontStack(stack, available):
            let names = stack.map { "\"\($0)\"" }.joined(separator: ", ")
            let list = available.isEmpty ? "none (no font files found)" : available.joined(separator: ", ")
            return
                "no font of the stack [\(names)] is installed; available families: \(list); install the fonts, give "
                + "a font directory that has them, or configure a fallback stack"
        case let .cannotReadFontDirectory(path, reason):
            return "cannot read font directory '\(path)': \(reason)"
        }
    }
}
