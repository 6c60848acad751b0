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
    /// Places the labels of a whole area at once (a zoom level of a tile pyramid), so that every image
    /// cut from it draws the same labels at the same world positions. Nil when the base map has none.
    ///
    /// - Throws: ``RenderError`` when its data cannot be loaded.
    func placeLabels(for layoutViewport: MapViewport) throws -> PlacedBaseMapLabels?
}

extension BaseMap {
    public func attribution(for viewport: MapViewport) -> [String] { attribution }

    public func drawLabels(in context: GraphicsContext, viewport: MapViewport) throws {}

    public func placeLabels(for layoutViewport: MapViewport) throws -> PlacedBaseMapLabels? { nil }
}

/// Labels placed once for an area, in world points, to be drawn into any image of the same zoom.
public final class PlacedBaseMapLabels: @unchecked Sendable {
    /// Per symbol layer, bottom layer first.
    let layers: [[PlacedLabel]]
    /// The zoom level (map points per point) the labels were placed at.
    let mapPointsPerPoint: Double

    init(layers: [[PlacedLabel]], mapPointsPerPoint: Double) {
        self.layers = layers
        self.mapPointsPerPoint = mapPointsPerPoint
    }

    /// The number of labels placed.
    public var count: Int { layers.reduce(0) { $0 + $1.count } }

    /// Draws the labels that reach into the image of `viewport`, which must have the same zoom.
    func draw(in context: GraphicsContext, viewport: MapViewport) throws {
        let origin = viewport.visibleMapRect.origin
        let shift = Point(x: origin.x / viewport.mapPointsPerPoint, y: origin.y / viewport.mapPointsPerPoint)
        let view = Rect(origin: shift, size: viewport.size).insetBy(dx: -64, dy: -64)
        let world = WebMercator.worldSize / viewport.mapPointsPerPoint
        for labels in layers {
            for label in labels {
                // The image may show the label's world copy east or west of it.
                for copy in [0.0, world, -world] {
                    let bounds = Rect(
                        origin: Point(x: label.bounds.minX + copy, y: label.bounds.minY), size: label.bounds.size)
                    guard bounds.intersects(view) else { continue }
                    label.draw(in: context, shift: Point(x: shift.x - copy, y: shift.y))
                }
            }
        }
        try context.checkStatus("drawing labels")
    }
}
