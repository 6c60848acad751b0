import MapGeometry
import MapGraphics

/// Where overlays are drawn relative to the base map. Mirrors MapKit's `MKOverlayLevel`.
public enum OverlayLevel: Sendable {
    /// Above roads and other base map features, below labels. Mirrors `MKOverlayLevelAboveRoads`.
    case aboveRoads
    /// Above the base map's labels. Mirrors `MKOverlayLevelAboveLabels`.
    case aboveLabels
}

extension MapSnapshotter {
    // MARK: - Overlays

    /// Adds an overlay on top of the others. Mirrors `addOverlay:`.
    public func addOverlay(_ overlay: Overlay) { overlays.append(overlay) }
    /// Adds overlays on top of the others, in order. Mirrors `addOverlays:`.
    public func addOverlays(_ list: [Overlay]) { overlays.append(contentsOf: list) }
    /// Removes an overlay; one that is not on the map is ignored. Mirrors `removeOverlay:`.
    public func removeOverlay(_ overlay: Overlay) { overlays.removeAll { $0 === overlay } }

    /// Draws the overlays of one level, index 0 first. Every overlay is at ``OverlayLevel/aboveLabels``
    /// in this version.
    func drawOverlays(level: OverlayLevel, in context: GraphicsContext) throws {
        guard level == .aboveLabels else { return }
        for overlay in overlays {
            guard let renderer = rendererProvider?(overlay) ?? defaultRenderer(for: overlay) else { continue }
            context.withSavedState { renderer.render(in: context, viewport: viewport) }
        }
        try context.checkStatus("drawing overlays")
    }
}
