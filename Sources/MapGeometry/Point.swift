import Foundation

/// A point in an image, in points (multiply by the scale for device pixels); y grows downwards.
///
/// Mirrors Core Graphics' `CGPoint`.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = Point(x: 0, y: 0)

    /// The point transformed by an affine transform. Mirrors `CGPointApplyAffineTransform`.
    public func applying(_ t: Transform) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and height in points. Mirrors Core Graphics' `CGSize`.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// No extent.
    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in points, origin at the top-left. Mirrors Core Graphics' `CGRect`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    /// Creates a rect from its top-left corner and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rect from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// Whether the rects share some area.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The rect grown (negative) or shrunk (positive) on each side. Mirrors `CGRectInset`.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    public var description: String { "{\(minX), \(minY), \(width), \(height)}" }
}

/// Insets from the edges of an image, in points. Mirrors UIKit's `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    /// Creates insets.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// A 2-D affine transform: x' = a x + c y + tx, y' = b x + d y + ty.
///
/// Mirrors Core Graphics' `CGAffineTransform`; the `translatedBy`, `rotated` and `scaledBy` methods prepend
/// the operation the way `CGAffineTransformTranslate` and friends do.
public struct Transform: Hashable, Sendable {
    public var a, b, c, d, tx, ty: Double

    /// Creates a transform from its six coefficients.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity. Mirrors `CGAffineTransformIdentity`.
    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation. Mirrors `CGAffineTransformMakeTranslation`.
    public init(translationX tx: Double, y ty: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A rotation by `angle` radians; positive angles turn clockwise on screen (y grows downwards).
    /// Mirrors `CGAffineTransformMakeRotation`.
    public init(rotationAngle angle: Double) {
        self.init(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0)
    }

    /// A scale. Mirrors `CGAffineTransformMakeScale`.
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Returns the transform that applies `self` first and then `other`. Mirrors `CGAffineTransformConcat`.
    public func concatenating(_ other: Transform) -> Transform {
        Transform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// Prepends a translation. Mirrors `CGAffineTransformTranslate`.
    public func translatedBy(x: Double, y: Double) -> Transform {
        Transform(translationX: x, y: y).concatenating(self)
    }

    /// Prepends a rotation by `angle` radians. Mirrors `CGAffineTransformRotate`.
    public func rotated(by angle: Double) -> Transform {
        Transform(rotationAngle: angle).concatenating(self)
    }

    /// Prepends a scale. Mirrors `CGAffineTransformScale`.
    public func scaledBy(x: Double, y: Double) -> Transform {
        Transform(scaleX: x, y: y).concatenating(self)
    }
}
