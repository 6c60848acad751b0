import MapGeometry
import MapGraphics

/// What a snapshot draws under its overlays and annotations.
///
/// The seam between the snapshotter and the map's look: ``StyledBaseMap`` (the shipped styles and
/// style files) or the embedded ``NaturalEarthBaseMap``.
public protocol BaseMap: Sendable {
    /// Credits to print on every image made with this base map.
    var attribution: [String] { get }
    /// Credits for one image: the data it actually draws. The default is ``attribution``.
    func attribution(for viewport: MapViewport) -> [String]
    /// Draws the base map over the whole image.
    ///
    /// - Throws: ``RenderError`` when its data cannot be loaded.
    func draw(in context: GraphicsContext, viewport: MapViewport) throws
    /// Draws the base map's labels, after overlays at ``OverlayLevel/aboveRoads``. The default draws none.
    ///
    /// - Throws: ``RenderError`` when its data cannot be loaded.
    func drawLabels(in context: GraphicsContext, viewport: MapViewport) throws
}

extension BaseMap {
    public func attribution(for viewport: MapViewport) -> [String] { attribution }

    public func drawLabels(in context: GraphicsContext, viewport: MapViewport) throws {}
}
