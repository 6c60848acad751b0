import Foundation
import MapData
import MapGeometry
import MapGraphics

/// How an annotation looks: a drawing of `size` points whose center sits at the annotation's coordinate
/// plus ``centerOffset``.
///
/// Give it a drawing closure, an image, or subclass it and override ``draw(in:bounds:)``, the way the
/// MapKit seed's `MAnnotationView` overrides `drawRect:`:
///
/// ```swift
/// let view = AnnotationView(size: Size(width: 40, height: 40), reuseIdentifier: "triangle") { context, bounds in
///     var path = Path()
///     path.move(to: Point(x: bounds.midX, y: bounds.midY - 10))
///     path.addLine(to: Point(x: bounds.midX - 5, y: bounds.midY + 5 * 3.squareRoot()))
///     path.addLine(to: Point(x: bounds.midX + 5, y: bounds.midY + 5 * 3.squareRoot()))
///     path.close()
///     context.setFillColor(.red)
///     context.fill(path)
/// }
/// ```
/// Mirrors MapKit's `MKAnnotationView`.
open class AnnotationView {
    /// The drawing's width and height in points (the view's `frame.size`).
    public var size: Size
    /// How far the view's center sits from the annotation's point, in points (y down). Mirrors
    /// `centerOffset`.
    public var centerOffset: Point
    /// Whether the drawing covers its whole bounds; non-opaque views let the map show through. A hint
    /// only: every view is composited with its own transparency. Mirrors `opaque`.
    public var isOpaque: Bool
    /// Views with the same identifier are interchangeable. Mirrors `reuseIdentifier`.
    public let reuseIdentifier: String?
    /// An image drawn to fill the bounds before the drawing closure runs. Mirrors `image`.
    public var image: ImageSurface?
    /// The drawing closure, called with a context whose origin is the view's top-left corner.
    public var drawing: ((GraphicsContext, Rect) -> Void)?
    /// How important the view is when views collide; ``DisplayPriority/required`` views are never
    /// hidden. Mirrors `displayPriority`.
    public var displayPriority: DisplayPriority = .required
    /// The shape checked for collisions. Mirrors `collisionMode`.
    public var collisionMode: CollisionMode = .rectangle
    /// Views with the same identifier that would overlap are merged into a ``ClusterAnnotation``; nil
    /// never clusters. Mirrors `clusteringIdentifier`.
    public var clusteringIdentifier: String?
    /// Whether a selected annotation with a title shows a callout bubble. Unlike MapKit (where it is
    /// false for plain views) it is true by default, since a snapshot shows only what was selected on
    /// purpose. Mirrors `canShowCallout`.
    public var canShowCallout = true
    /// An image shown at the callout's left. Mirrors `leftCalloutAccessoryView` (an image view).
    public var leftCalloutAccessoryImage: ImageSurface?
    /// An image shown at the callout's right. Mirrors `rightCalloutAccessoryView` (an image view).
    public var rightCalloutAccessoryImage: ImageSurface?
    /// What the view draws, for the reuse cache: views with the same (non-nil) ``reuseIdentifier``, the
    /// same key and the same size are drawn once into a bitmap that is then copied. nil draws every view
    /// itself. Unless set, it is ``automaticReuseContentKey``.
    public var reuseContentKey: AnyHashable? {
        get { explicitReuseContentKey ?? automaticReuseContentKey }
        set { explicitReuseContentKey = newValue }
    }
    private var explicitReuseContentKey: AnyHashable?

    /// The reuse key when none is set: for a plain `AnnotationView` showing only an ``image``, the image's
    /// identity; nil for views with a drawing closure and for subclasses, whose drawing may differ per
    /// view. Subclasses that draw the same for equal keys override it (pins use their tint color).
    open var automaticReuseContentKey: AnyHashable? {
        guard type(of: self) == AnnotationView.self, drawing == nil, let image else { return nil }
        return AnyHashable(ObjectIdentifier(image))
    }

    /// Creates a view.
    public init(
        size: Size, centerOffset: Point = .zero, isOpaque: Bool = false, reuseIdentifier: String? = nil,
        image: ImageSurface? = nil, drawing: ((GraphicsContext, Rect) -> Void)? = nil
    ) {
        self.size = size
        self.centerOffset = centerOffset
        self.isOpaque = isOpaque
        self.reuseIdentifier = reuseIdentifier
        self.image = image
        self.drawing = drawing
    }

    /// Creates a view showing a PNG file at its size in points (pixels divided by `imageScale`).
    ///
    /// - Throws: ``AnnotationError/invalidImage(path:reason:)`` when the file is missing or not a PNG.
    public convenience init(
        contentsOfPNG path: String, imageScale: Double = 1, centerOffset: Point = .zero,
        reuseIdentifier: String? = nil
    ) throws {
        let image = try Self.loadImage(path: path)
        self.init(image: image, imageScale: imageScale, centerOffset: centerOffset, reuseIdentifier: reuseIdentifier)
    }

    /// Loads a PNG file for a view or a callout accessory.
    ///
    /// - Throws: ``AnnotationError/invalidImage(path:reason:)`` when the file is missing or not a PNG.
    public static func loadImage(path: String) throws -> ImageSurface {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AnnotationError.invalidImage(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw AnnotationError.invalidImage(path: path, reason: "it is a folder") }
        do { return try ImageSurface(contentsOfPNG: FileReader.checkedRegularFile(URL(fileURLWithPath: path))) } catch {
            throw AnnotationError.invalidImage(path: path, reason: "not a PNG (\(error))")
        }
    }

    /// Creates a view showing an image at its size in points (pixels divided by `imageScale`).
    public convenience init(
        image: ImageSurface, imageScale: Double = 1, centerOffset: Point = .zero, reuseIdentifier: String? = nil
    ) {
        self.init(
            size: Size(width: Double(image.width) / imageScale, height: Double(image.height) / imageScale),
            centerOffset: centerOffset, reuseIdentifier: reuseIdentifier, image: image)
    }

    /// The view's frame in image points for an anchor point (the annotation's coordinate converted).
    public func frame(anchoredAt point: Point) -> Rect {
        Rect(
            x: point.x + centerOffset.x - size.width / 2, y: point.y + centerOffset.y - size.height / 2,
            width: size.width, height: size.height)
    }

    /// Draws the view into `bounds` (origin zero, the view's size). The default draws ``image`` and then
    /// calls ``drawing``. Mirrors `drawRect:`.
    open func draw(in context: GraphicsContext, bounds: Rect) {
        if let image { context.draw(image, in: bounds) }
        drawing?(context, bounds)
    }
}

/// The standard pin: a colored head on a needle whose tip marks the coordinate.
///
/// Mirrors MapKit's `MKPinAnnotationView`.
public final class PinAnnotationView: AnnotationView {
    /// The classic pin colors. Mirrors `MKPinAnnotationColor`.
    public enum PinColor: String, Sendable, CaseIterable {
        case red, green, purple

        /// The classic color of a name ("red", "green", "purple").
        ///
        /// - Throws: ``AnnotationError/unknownPinColor(_:)`` naming the valid colors.
        public init(named name: String) throws {
            guard let color = PinColor(rawValue: name) else { throw AnnotationError.unknownPinColor(name) }
            self = color
        }

        /// The head color.
        public var color: Color {
            switch self {
            case .red: return Color(red8: 255, green8: 59, blue8: 48)
            case .green: return Color(red8: 76, green8: 217, blue8: 100)
            case .purple: return Color(red8: 175, green8: 82, blue8: 222)
            }
        }
    }

    /// The pin's head color. Mirrors `pinTintColor`.
    public var pinTintColor: Color

    /// The pin's size in points at scale 1.
    public static let standardSize = Size(width: 22, height: 36)

    /// Creates a pin of a classic color or any tint; `sizeFactor` scales it (simplestyle's `marker-size`).
    public init(pinTintColor: Color = PinColor.red.color, sizeFactor: Double = 1, reuseIdentifier: String? = "pin") {
        self.pinTintColor = pinTintColor
        let size = Size(width: Self.standardSize.width * sizeFactor, height: Self.standardSize.height * sizeFactor)
        // The needle's tip, at the bottom center, marks the coordinate.
        super.init(size: size, centerOffset: Point(x: 0, y: -size.height / 2), reuseIdentifier: reuseIdentifier)
    }

    /// Text drawn on the head: a letter, digit or short text (a static map's `label:`, simplestyle's
    /// `marker-symbol`), sized with the pin; nil draws the plain pin. Mirrors `MKMarkerAnnotationView`'s
    /// `glyphText`.
    public var glyphText: String?

    /// The tint color and the glyph text: pins of one color, text and size look the same.
    public override var automaticReuseContentKey: AnyHashable? {
        guard let glyphText else { return AnyHashable(pinTintColor) }
        return AnyHashable("\(pinTintColor.hexString) \(glyphText)")
    }

    /// Creates a pin of a classic color.
    public convenience init(pinColor: PinColor) {
        self.init(pinTintColor: pinColor.color)
    }

    public override func draw(in context: GraphicsContext, bounds: Rect) {
        let k = bounds.width / Self.standardSize.width
        let headRadius = 8.5 * k
        let head = Point(x: bounds.midX, y: bounds.minY + headRadius + 1 * k)
        context.withSavedState {
            // Needle: from inside the head to the tip.
            var needle = Path()
            needle.move(to: Point(x: head.x, y: head.y + headRadius - 1 * k))
            needle.addLine(to: Point(x: head.x, y: bounds.maxY))
            context.setLineWidth(2 * k)
            context.setLineCap(.round)
            context.setStrokeColor(Color(red8: 110, green8: 110, blue8: 115))
            context.stroke(needle)
            // Shadow of the head, the head, its rim and a highlight.
            let headPath = Path(
                ovalIn: Rect(
                    x: head.x - headRadius, y: head.y - headRadius, width: 2 * headRadius, height: 2 * headRadius))
            context.setFillColor(pinTintColor)
            context.fill(headPath)
            context.setLineWidth(1 * k)
            context.setStrokeColor(
                Color(
                    red: pinTintColor.red * 0.6, green: pinTintColor.green * 0.6, blue: pinTintColor.blue * 0.6,
                    alpha: pinTintColor.alpha))
            context.stroke(headPath)
            if let glyphText, !glyphText.isEmpty {
                drawGlyphText(glyphText, in: context, headCenter: head, headRadius: headRadius)
                return
            }
            let shine = 2.6 * k
            context.setFillColor(Color.white.withAlphaComponent(0.75))
            context.fill(
                Path(
                    ovalIn: Rect(
                        x: head.x - headRadius * 0.45 - shine, y: head.y - headRadius * 0.45 - shine, width: 2 * shine,
                        height: 2 * shine)))
        }
    }
}

extension PinAnnotationView {
    /// The font of glyph texts (pinned by path, like every font).
    static let glyphFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// Draws `text` centered on the head: 1.3 head radii high for one character, narrower texts shrunk to
    /// 1.5 head radii wide; black on light heads, white on dark ones.
    func drawGlyphText(_ text: String, in context: GraphicsContext, headCenter: Point, headRadius: Double) {
        guard let font = try? Font.load(path: Self.glyphFontPath) else { return }
        var size = headRadius * 1.3
        let width = font.measure(text, size: size).width
        if width > headRadius * 1.5, width > 0 { size *= headRadius * 1.5 / width }
        let measured = font.measure(text, size: size)
        let luminance = 0.299 * pinTintColor.red + 0.587 * pinTintColor.green + 0.114 * pinTintColor.blue
        // DejaVu Sans Bold's capitals and digits are 0.729 em high: centre them on the head.
        let baseline = headCenter.y + 0.729 * size / 2
        context.drawText(
            text, at: Point(x: headCenter.x - measured.width / 2, y: baseline), font: font, size: size,
            color: luminance > 0.6 ? .black : .white)
    }
}
