import MapGeometry

/// The colors and widths of the embedded Natural Earth base map: land over ocean with borders.
///
/// The style system of a later version generalizes this; until then it is the one seam through which the
/// base map's look can be changed.
public struct BaseMapStyle: Hashable, Sendable {
    /// The sea, and everything beyond the poles' limit.
    public var oceanColor: Color
    /// Countries.
    public var landColor: Color
    /// Country borders and coastlines.
    public var borderColor: Color
    /// Border width in points.
    public var borderWidth: Double

    /// Creates a style.
    public init(oceanColor: Color, landColor: Color, borderColor: Color, borderWidth: Double) {
        self.oceanColor = oceanColor
        self.landColor = landColor
        self.borderColor = borderColor
        self.borderWidth = borderWidth
    }

    /// The standard look: pale blue sea, light beige land, grey-brown borders.
    public static let standard = BaseMapStyle(
        oceanColor: Color(red8: 170, green8: 211, blue8: 223),
        landColor: Color(red8: 242, green8: 239, blue8: 233),
        borderColor: Color(red8: 155, green8: 140, blue8: 150),
        borderWidth: 0.6)
}
