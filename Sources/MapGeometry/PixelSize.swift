/// An image size in device pixels, validated: each side 1...``maximumSide``.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// The largest side an image may have, in device pixels.
    public static let maximumSide = 16_384

    public let width: Int
    public let height: Int

    /// Creates a pixel size.
    ///
    /// - Throws: ``GeometryError/invalidSize(width:height:scale:maximum:)`` when a side is below 1 or above
    ///   ``maximumSide``.
    public init(width: Int, height: Int) throws {
        guard width >= 1, height >= 1, width <= Self.maximumSide, height <= Self.maximumSide else {
            throw GeometryError.invalidSize(
                width: Double(width), height: Double(height), scale: 1, maximum: Self.maximumSide)
        }
        self.width = width
        self.height = height
    }

    /// The pixel size of an image of `size` points at `scale` device pixels per point.
    ///
    /// - Throws: ``GeometryError/invalidSize(width:height:scale:maximum:)`` when the size is not finite, a side
    ///   is not a whole number of pixels, or the result is out of range.
    public init(points size: Size, scale: Double) throws {
        let w = size.width * scale
        let h = size.height * scale
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= Double(Self.maximumSide), h <= Double(Self.maximumSide),
            w == w.rounded(), h == h.rounded()
        else {
            throw GeometryError.invalidSize(
                width: size.width, height: size.height, scale: scale, maximum: Self.maximumSide)
        }
        try self.init(width: Int(w), height: Int(h))
    }

    /// A size that is never allocated, for viewports used only to lay things out.
    init(unchecked width: Int, _ height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}
