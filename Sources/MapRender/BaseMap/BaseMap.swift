import MapGeometry
import MapGraphics

/// What a snapshot draws under its overlays and annotations.
///
/// The seam between the snapshotter and the map's look: the embedded ``NaturalEarthBaseMap`` now, styled
/// maps later.
public protocol BaseMap: Sendable {
    /// Credits to print on every image made with this base map.
    var attribution: [String] { get }
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
    public func drawLabels(in context: GraphicsContext, viewport: MapViewport) throws {}
}
