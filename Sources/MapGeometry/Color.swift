import Foundation

/// An sRGB color with straight (not premultiplied) alpha, each component 0...1.
///
/// ```swift
/// let red = try Color(parsing: "#ff0000")
/// let translucent = Color.red.withAlphaComponent(0.5)
/// ```
/// Mirrors UIKit's `UIColor` in the parts a map needs.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    /// Creates a color; components are clamped to 0...1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// Creates a color from 8-bit components.
    public init(red8 r: Int, green8 g: Int, blue8 b: Int, alpha: Double = 1) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: alpha)
    }

    private static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : max(0, min(1, v)) }

    /// The same color with another alpha. Mirrors `colorWithAlphaComponent:`.
    public func withAlphaComponent(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The CSS basic colors plus `transparent`.
    static let named: [String: Color] = [
        "black": Color(red8: 0, green8: 0, blue8: 0), "silver": Color(red8: 192, green8: 192, blue8: 192),
        "gray": Color(red8: 128, green8: 128, blue8: 128), "grey": Color(red8: 128, green8: 128, blue8: 128),
        "white": Color(red8: 255, green8: 255, blue8: 255), "maroon": Color(red8: 128, green8: 0, blue8: 0),
        "red": Color(red8: 255, green8: 0, blue8: 0), "purple": Color(red8: 128, green8: 0, blue8: 128),
        "fuchsia": Color(red8: 255, green8: 0, blue8: 255), "green": Color(red8: 0, green8: 128, blue8: 0),
        "lime": Color(red8: 0, green8: 255, blue8: 0), "olive": Color(red8: 128, green8: 128, blue8: 0),
        "yellow": Color(red8: 255, green8: 255, blue8: 0), "navy": Color(red8: 0, green8: 0, blue8: 128),
        "blue": Color(red8: 0, green8: 0, blue8: 255), "teal": Color(red8: 0, green8: 128, blue8: 128),
        "aqua": Color(red8: 0, green8: 255, blue8: 255), "orange": Color(red8: 255, green8: 165, blue8: 0),
        "transparent": Color(red: 0, green: 0, blue: 0, alpha: 0),
    ]

    /// Opaque black. Mirrors `UIColor.blackColor`.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Opaque pure red. Mirrors `UIColor.redColor`.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque pure green.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque pure blue.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Fully transparent.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// `#rrggbb` or `#rrggbbaa` when not opaque.
    public var hexString: String {
        func h(_ v: Double) -> String {
            let s = String(Int((v * 255).rounded()), radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(red) + h(green) + h(blue) + (alpha < 1 ? h(alpha) : "")
    }

    public var description: String { hexString }
}

/// A color that could not be parsed.
public enum ColorError: MapRasterError, Equatable {
    /// The text is not a color.
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let text):
            return
                "color \"\(text)\" is invalid: use #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), "
                + "rgb(r g b / a), hsl(h, s%, l%), hsla(h, s%, l%, a), hsl(h s% l% / a) or a CSS color name"
        }
    }
}
