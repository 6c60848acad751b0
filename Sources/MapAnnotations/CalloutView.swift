import Foundation
import MapGeometry
import MapGraphics

/// The bubble a selected annotation shows: title, subtitle, optional left and right accessory images, and
/// an arrow pointing at the annotation's view. It is placed above the view, or below it when there is no
/// room above, and slid sideways to stay inside the image.
///
/// Mirrors the callout of MapKit's `MKAnnotationView` (`canShowCallout`).
public struct CalloutView {
    /// The first line.
    public var title: String
    /// The second line, if any.
    public var subtitle: String?
    /// An image at the left, drawn in a square as high as the text.
    public var leftAccessoryImage: ImageSurface?
    /// An image at the right, drawn in a square as high as the text.
    public var rightAccessoryImage: ImageSurface?

    /// The bubble rect in image points (arrow not included).
    public private(set) var bubble = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The arrow's tip: the middle of the view's top (or bottom) edge.
    public private(set) var arrowTip = Point.zero
    /// The middle of the arrow's base on the bubble's edge; it slides with the bubble, so near the image's
    /// sides the arrow leans toward its tip.
    public private(set) var arrowBaseX = 0.0
    /// Whether the bubble sits below the view (arrow pointing up).
    public private(set) var isBelow = false
    /// The title as drawn: cut with an ellipsis to the widest bubble (``place(pointingAt:imageSize:)``).
    public private(set) var shownTitle: String
    /// The subtitle as drawn.
    public private(set) var shownSubtitle: String?

    /// The widest text, in points, a bubble holds (MapKit's callouts are at most a screen wide).
    static let maximumTextWidth = 2048.0
    /// No glyph is narrower than this fraction of its size (wider than DejaVu's narrowest, the space: 0.32).
    static let narrowestGlyph = 0.25

    static let titleSize = 14.0
    static let subtitleSize = 11.0
    static let padding = 8.0
    static let arrowHeight = 9.0
    static let arrowHalfWidth = 9.0
    static let cornerRadius = 8.0
    static let margin = 4.0
    static let titleFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// Creates a callout; call ``place(pointingAt:imageSize:)`` before drawing.
    public init(
        title: String, subtitle: String?, leftAccessoryImage: ImageSurface? = nil,
        rightAccessoryImage: ImageSurface? = nil
    ) {
        self.title = TextLimit.cut(title, what: "annotation title")
        self.subtitle = subtitle.map { TextLimit.cut($0, what: "annotation subtitle") }
        shownTitle = self.title
        shownSubtitle = self.subtitle
        self.leftAccessoryImage = leftAccessoryImage
        self.rightAccessoryImage = rightAccessoryImage
    }

    private func fonts() throws -> (title: Font, subtitle: Font) {
        (try Font.load(path: Self.titleFontPath), try Font.load(path: Font.defaultPath))
    }

    private func textHeight() -> Double {
        Self.titleSize * 1.25 + (subtitle == nil ? 0 : Self.subtitleSize * 1.35)
    }

    /// The bubble's size for its text (as shown) and images.
    public func contentSize() throws -> Size {
        let (titleFont, subtitleFont) = try fonts()
        var width = titleFont.measure(shownTitle, size: Self.titleSize).width
        if let shownSubtitle {
            width = max(width, subtitleFont.measure(shownSubtitle, size: Self.subtitleSize).width)
        }
        let h = textHeight()
        if leftAccessoryImage != nil { width += h + Self.padding }
        if rightAccessoryImage != nil { width += h + Self.padding }
        return Size(width: ceil(width + 2 * Self.padding), height: ceil(h + 2 * Self.padding))
    }

    /// Places the bubble for a view's frame: centered above it with the arrow at the top center, below
    /// it when the top does not fit, and moved sideways (the arrow staying on the view) to keep the whole
    /// bubble inside the image when it fits.
    /// Text wider than the image (at most ``maximumTextWidth``) is cut with an ellipsis, as MapKit truncates
    /// a callout's title: the text shaped is at most what fits, however long the title.
    public mutating func place(pointingAt viewFrame: Rect, imageSize: Size) throws {
        let (titleFont, subtitleFont) = try fonts()
        var room = min(imageSize.width - 2 * Self.margin, Self.maximumTextWidth) - 2 * Self.padding
        if leftAccessoryImage != nil { room -= textHeight() + Self.padding }
        if rightAccessoryImage != nil { room -= textHeight() + Self.padding }
        room = max(room, Self.titleSize)
        shownTitle = Self.fitted(title, font: titleFont, size: Self.titleSize, width: room)
        shownSubtitle = subtitle.map { Self.fitted($0, font: subtitleFont, size: Self.subtitleSize, width: room) }
        let size = try contentSize()
        let anchorX = min(max(viewFrame.midX, 0), imageSize.width)
        let roomAbove = viewFrame.minY - Self.arrowHeight - Self.margin
        let roomBelow = imageSize.height - viewFrame.maxY - Self.arrowHeight - Self.margin
        isBelow = roomAbove < size.height && roomBelow > roomAbove
        let y =
            isBelow
            ? viewFrame.maxY + Self.arrowHeight : viewFrame.minY - Self.arrowHeight - size.height
        var x = anchorX - size.width / 2
        x = min(x, imageSize.width - Self.margin - size.width)
        x = max(x, Self.margin)
        bubble = Rect(x: x, y: y, width: size.width, height: size.height)
        // The arrow stays on the bubble's straight edge, between the rounded corners.
        let inset = Self.cornerRadius + Self.arrowHalfWidth
        arrowBaseX =
            bubble.width >= 2 * inset ? min(max(anchorX, bubble.minX + inset), bubble.maxX - inset) : bubble.midX
        arrowTip = Point(x: anchorX, y: isBelow ? viewFrame.maxY : viewFrame.minY)
    }

    /// `text`, or its longest prefix followed by "…" that is at most `width` points wide. Only the characters
    /// that can fit (`width` over the narrowest glyph) are ever shaped, a few times (a binary search).
    static func fitted(_ text: String, font: Font, size: Double, width: Double) -> String {
        let most = max(1, Int(min(width / (size * narrowestGlyph), 100_000)))
        let head = text.prefix(most + 1)
        if head.count <= most, font.measure(text, size: size).width <= width { return text }
        let characters = Array(head.prefix(most))
        var low = 0  // fits
        var high = characters.count  // unknown above low
        while low < high {
            let middle = (low + high + 1) / 2
            let candidate = String(characters[..<middle]) + "…"
            if font.measure(candidate, size: size).width <= width { low = middle } else { high = middle - 1 }
        }
        return String(characters[..<low]).trimmingCharacters(in: .whitespaces) + "…"
    }

    /// The bubble's outline with its arrow, one closed path going clockwise.
    public var outline: Path {
        let b = bubble
        let r = max(0, min(Self.cornerRadius, b.width / 2, b.height / 2))
        let w = Self.arrowHalfWidth
        var path = Path()
        path.move(to: Point(x: b.minX + r, y: b.minY))
        if isBelow {
            path.addLine(to: Point(x: arrowBaseX - w, y: b.minY))
            path.addLine(to: arrowTip)
            path.addLine(to: Point(x: arrowBaseX + w, y: b.minY))
        }
        path.addLine(to: Point(x: b.maxX - r, y: b.minY))
        path.addArc(
            center: Point(x: b.maxX - r, y: b.minY + r), radius: r, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
        path.addLine(to: Point(x: b.maxX, y: b.maxY - r))
        path.addArc(
            center: Point(x: b.maxX - r, y: b.maxY - r), radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        if !isBelow {
            path.addLine(to: Point(x: arrowBaseX + w, y: b.maxY))
            path.addLine(to: arrowTip)
            path.addLine(to: Point(x: arrowBaseX - w, y: b.maxY))
        }
        path.addLine(to: Point(x: b.minX + r, y: b.maxY))
        path.addArc(
            center: Point(x: b.minX + r, y: b.maxY - r), radius: r, startAngle: .pi / 2, endAngle: .pi, clockwise: true)
        path.addLine(to: Point(x: b.minX, y: b.minY + r))
        path.addArc(
            center: Point(x: b.minX + r, y: b.minY + r), radius: r, startAngle: .pi, endAngle: 1.5 * .pi,
            clockwise: true)
        path.close()
        return path
    }

    /// Draws the bubble, its shadow, text and images.
    public func draw(in context: GraphicsContext) throws {
        let (titleFont, subtitleFont) = try fonts()
        context.withSavedState {
            context.withSavedState {
                context.translateBy(x: 0, y: 1.5)
                context.setFillColor(Color.black.withAlphaComponent(0.22))
                context.fill(outline)
            }
            context.setFillColor(.white)
            context.fill(outline)
            context.setStrokeColor(Color.black.withAlphaComponent(0.25))
            context.setLineWidth(0.75)
            context.stroke(outline)
            let h = textHeight()
            var textX = bubble.minX + Self.padding
            let top = bubble.minY + Self.padding
            if let leftAccessoryImage {
                context.draw(leftAccessoryImage, in: Rect(x: textX, y: top, width: h, height: h))
                textX += h + Self.padding
            }
            if let rightAccessoryImage {
                context.draw(
                    rightAccessoryImage, in: Rect(x: bubble.maxX - Self.padding - h, y: top, width: h, height: h))
            }
            let titleMetrics = titleFont.measure(shownTitle, size: Self.titleSize)
            context.drawText(
                shownTitle, at: Point(x: textX, y: top + titleMetrics.ascent), font: titleFont, size: Self.titleSize,
                color: Color(red8: 20, green8: 20, blue8: 20))
            if let shownSubtitle {
                let m = subtitleFont.measure(shownSubtitle, size: Self.subtitleSize)
                context.drawText(
                    shownSubtitle, at: Point(x: textX, y: top + Self.titleSize * 1.25 + m.ascent), font: subtitleFont,
                    size: Self.subtitleSize, color: Color(red8: 110, green8: 110, blue8: 115))
            }
        }
        try context.checkStatus("drawing a callout")
    }
}
