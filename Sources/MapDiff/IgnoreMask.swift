import MapGeometry
import MapGraphics

/// Pixels a comparison leaves out: rectangles, a mask image, or both.
///
/// A mask image must have the compared images' size; a pixel is ignored where the mask pixel is light
/// (luminance above 127) and not transparent (alpha above 0), so a white-on-black or white-on-transparent
/// PNG marks the areas to ignore.
public struct IgnoreMask: Sendable, Equatable {
    /// A rectangle in pixels; parts outside the image are cut off.
    public struct PixelRect: Hashable, Sendable {
        public var x, y, width, height: Int
        /// Creates a rectangle.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// Ignored rectangles.
    public var rects: [PixelRect]
    /// An ignore-mask image, or nil.
    public var image: RGBAImage?

    /// Creates a mask.
    public init(rects: [PixelRect] = [], image: RGBAImage? = nil) {
        self.rects = rects
        self.image = image
    }

    /// One flag per pixel: true where ignored.
    ///
    /// - Throws: ``DiffError/maskSizeMismatch(mask:image:)`` when the mask image's size differs.
    public func pixels(width: Int, height: Int) throws -> [Bool] {
        var ignored = [Bool](repeating: false, count: width * height)
        for r in rects {
            let x0 = max(0, r.x)
            let y0 = max(0, r.y)
            // Saturating: a rectangle reaching past Int.max covers the rest of the image, it does not trap.
            let (xEnd, xOverflow) = r.x.addingReportingOverflow(max(0, r.width))
            let (yEnd, yOverflow) = r.y.addingReportingOverflow(max(0, r.height))
            let x1 = xOverflow ? (r.width > 0 ? width : 0) : min(width, xEnd)
            let y1 = yOverflow ? (r.height > 0 ? height : 0) : min(height, yEnd)
            guard x0 < x1, y0 < y1 else { continue }
            for y in y0..<y1 {
                for x in x0..<x1 { ignored[y * width + x] = true }
            }
        }
        if let image {
            guard image.width == width, image.height == height else {
                throw DiffError.maskSizeMismatch(mask: (image.width, image.height), image: (width, height))
            }
            image.bytes.withUnsafeBufferPointer { mask in
                for i in 0..<(width * height) where mask[i * 4 + 3] > 0 {
                    let k = i * 4
                    let luma = PixelMatch.rgb2y(Double(mask[k]), Double(mask[k + 1]), Double(mask[k + 2]))
                    if luma > 127 { ignored[i] = true }
                }
            }
        }
        return ignored
    }
}

/// Images that cannot be compared.
public enum DiffError: MapRasterError, Equatable {
    /// The two images differ in size.
    case sizeMismatch(expected: (Int, Int), actual: (Int, Int))
    /// The mask image's size differs from the images'.
    case maskSizeMismatch(mask: (Int, Int), image: (Int, Int))

    public static func == (lhs: DiffError, rhs: DiffError) -> Bool {
        switch (lhs, rhs) {
        case let (.sizeMismatch(a, b), .sizeMismatch(c, d)): return a == c && b == d
        case let (.maskSizeMismatch(a, b), .maskSizeMismatch(c, d)): return a == c && b == d
        default: return false
        }
    }

    public var description: String {
        switch self {
        case let .sizeMismatch(expected, actual):
            return "the images differ in size: expected is \(expected.0)x\(expected.1), actual is "
                + "\(actual.0)x\(actual.1); only images of the same size can be compared"
        case let .maskSizeMismatch(mask, image):
            return "the mask is \(mask.0)x\(mask.1) but the images are \(image.0)x\(image.1); the mask must have "
                + "the images' size"
        }
    }
}
