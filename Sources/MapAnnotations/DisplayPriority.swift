/// How important an annotation view is when views collide: views of lower priority are hidden where they
/// would overlap views of higher priority; ``required`` views are always shown.
///
/// ```swift
/// view.displayPriority = .defaultLow          // may be hidden
/// view.displayPriority = DisplayPriority(600) // between low and high
/// ```
/// Mirrors MapKit's `MKFeatureDisplayPriority`.
public struct DisplayPriority: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The priority, 0...1000.
    public var rawValue: Double

    /// Creates a priority; values are clamped into 0...1000.
    public init(_ rawValue: Double) {
        self.rawValue = rawValue.isNaN ? 0 : max(0, min(1000, rawValue))
    }

    /// Always shown (1000), the default. Mirrors `MKFeatureDisplayPriorityRequired`.
    public static let required = DisplayPriority(1000)
    /// Shown unless a required or higher view is in the way (750). Mirrors
    /// `MKFeatureDisplayPriorityDefaultHigh`.
    public static let defaultHigh = DisplayPriority(750)
    /// Hidden first (250). Mirrors `MKFeatureDisplayPriorityDefaultLow`.
    public static let defaultLow = DisplayPriority(250)

    public static func < (a: DisplayPriority, b: DisplayPriority) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch rawValue {
        case 1000: return "required"
        case 750: return "high"
        case 250: return "low"
        default: return "\(rawValue)"
        }
    }
}
