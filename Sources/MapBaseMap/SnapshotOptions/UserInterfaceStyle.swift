/// The appearance a map is drawn in: the shipped `standard` and `streets` styles have a dark variant
/// (`standard-dark`, `streets-dark`); other styles are drawn as they are. Mirrors UIKit's
/// `UIUserInterfaceStyle` as `MKMapSnapshotter.Options.traitCollection` carries it.
public enum UserInterfaceStyle: String, Sendable, CaseIterable {
    case light, dark
}
