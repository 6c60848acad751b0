import MapGeometry
import MapGraphics

/// Draws an overlay with your own closure, the way a subclass of MapKit's `MKOverlayRenderer` overrides
/// `drawMapRect:zoomScale:inContext:`.
///
/// The closure receives the renderer, the map rect being drawn (the visible map rect, in the frame of the
/// overlay's copy of the world being drawn, so it can be compared with the overlay's own map points), the
/// zoom scale (image points per map point, as `MKZoomScale`) and the ``GraphicsContext`` in image points.
/// Convert map points with the renderer's ``OverlayRenderer/point(for:)`` and
/// ``OverlayRenderer/rect(for:)``; a line width in points is `width` (MapKit's map-point widths are
/// `width / zoomScale`).
///
/// ```swift
/// let grid = CustomOverlayRenderer(overlay: area) { renderer, mapRect, zoomScale, context in
///     context.setStrokeColor(.black)
///     context.stroke(Path(rect: renderer.rect(for: area.boundingMapRect)))
/// }
/// ```
/// Mirrors MapKit's `MKOverlayRenderer` subclassing.
public final class CustomOverlayRenderer: OverlayRenderer {
    /// The drawing closure: renderer, map rect, zoom scale, context.
    public typealias Drawing = (CustomOverlayRenderer, MapRect, Double, GraphicsContext) -> Void

    private let drawing: Drawing

    /// Creates a renderer that draws `overlay` with `drawing`.
    public init(overlay: Overlay, drawing: @escaping Drawing) {
        self.drawing = drawing
        super.init(overlay: overlay)
    }

    public override func draw(in context: GraphicsContext, viewport: MapViewport, worldOffset: Double) {
        let mapRect = viewport.visibleMapRect.offsetBy(dx: -worldOffset, dy: 0)
        drawing(self, mapRect, 1 / viewport.mapPointsPerPoint, context)
    }
}
