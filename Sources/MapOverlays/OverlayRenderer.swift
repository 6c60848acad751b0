import Foundation
import MapGeometry
import MapGraphics

/// Draws one overlay into a snapshot. Mirrors MapKit's `MKOverlayRenderer`.
///
/// The world wraps east-west: the renderer draws every copy of the overlay that the view shows (once for
/// a view inside one world, twice for a view wider than the world), each shifted by a multiple of the
/// world's width. While a copy is drawn, ``point(for:)`` and ``rect(for:)`` convert map points of the
/// overlay to image points of that copy.
open class OverlayRenderer {
    /// The overlay drawn. Mirrors `overlay`.
    public let overlay: Overlay
    /// Opacity of the whole drawing, 0...1, applied once to everything the renderer draws (a transparency
    /// layer). Mirrors `alpha`.
    public var alpha: Double = 1

    /// The view being drawn, while drawing.
    public private(set) var drawingViewport: MapViewport?
    /// The east-west shift (a multiple of the world's width) of the copy being drawn, while drawing.
    public private(set) var drawingWorldOffset: Double = 0

    /// Creates a renderer for an overlay. Mirrors `initWithOverlay:`.
    public init(overlay: Overlay) {
        self.overlay = overlay
    }

    /// Whether the renderer can draw now, for the visible map rect at a zoom scale (image points per map
    /// point); returning false leaves the overlay out of the snapshot. The default is true.
    /// Mirrors `canDrawMapRect:zoomScale:`.
    open func canDraw(_ mapRect: MapRect, zoomScale: Double) -> Bool { true }

    /// Called once before ``render(in:viewport:)`` with the view about to be drawn, to load what drawing
    /// needs (tile images, for example). The default does nothing.
    ///
    /// - Throws: an error naming what could not be loaded.
    open func prepare(for viewport: MapViewport) throws {}

    /// Draws the overlay, once for every copy of the world that shows it. Subclasses override
    /// ``draw(in:viewport:worldOffset:)``.
    open func render(in context: GraphicsContext, viewport: MapViewport) {
        let margin = marginInPoints * viewport.mapPointsPerPoint
        let visible = viewport.visibleMapRect.insetBy(dx: -margin, dy: -margin)
        for offset in WorldCopies.offsets(of: overlay.boundingMapRect, meeting: visible) {
            let copy = visible.offsetBy(dx: -offset, dy: 0)
            guard overlay.boundingMapRect.intersects(copy), overlay.intersects(copy) else { continue }
            drawingViewport = viewport
            drawingWorldOffset = offset
            context.withSavedState {
                if alpha < 1 {
                    context.withTransparencyLayer(alpha: alpha) {
                        draw(in: context, viewport: viewport, worldOffset: offset)
                    }
                } else {
                    draw(in: context, viewport: viewport, worldOffset: offset)
                }
            }
        }
        drawingViewport = nil
        drawingWorldOffset = 0
    }

    /// How far outside its bounding rect the drawing reaches, in points (half the stroke, for example).
    open var marginInPoints: Double { 0 }

    /// Draws the overlay shifted east by `worldOffset` map points (a multiple of the world's width).
    open func draw(in context: GraphicsContext, viewport: MapViewport, worldOffset: Double) {}

    // MARK: - Converting (valid while drawing)

    /// The image point of a map point of the overlay, in the copy being drawn. Mirrors `pointForMapPoint:`.
    public func point(for mapPoint: MapPoint) -> Point {
        guard let viewport = drawingViewport else { return Point(x: mapPoint.x, y: mapPoint.y) }
        return viewport.point(for: MapPoint(x: mapPoint.x + drawingWorldOffset, y: mapPoint.y))
    }

    /// The image rect of a map rect of the overlay, in the copy being drawn. Mirrors `rectForMapRect:`.
    public func rect(for mapRect: MapRect) -> Rect {
        let a = point(for: mapRect.origin)
        let b = point(for: MapPoint(x: mapRect.maxX, y: mapRect.maxY))
        return Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    /// The map point of the overlay's copy being drawn at an image point. Mirrors `mapPointForPoint:`.
    public func mapPoint(for point: Point) -> MapPoint {
        guard let viewport = drawingViewport else { return MapPoint(x: point.x, y: point.y) }
        let p = viewport.mapPoint(for: point)
        return MapPoint(x: p.x - drawingWorldOffset, y: p.y)
    }

    /// The map rect of the overlay's copy being drawn covered by an image rect. Mirrors `mapRectForRect:`.
    public func mapRect(for rect: Rect) -> MapRect {
        MapRect(corner: mapPoint(for: rect.origin), corner: mapPoint(for: Point(x: rect.maxX, y: rect.maxY)))
    }
}
