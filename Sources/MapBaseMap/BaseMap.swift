import MapGeometry
import MapGraphics

/// What a snapshot draws under its overlays and annotations.
///
/// The seam between the snapshotter and the map's look: ``StyledBaseMap`` (the shipped styles and
/// style files) or a type of your own.
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
    /// Draws the base map's labels, none over the boxes of `reserved` (image points, e.g. the attribution
    /// box): they are collision boxes placed before every label. The default ignores `reserved`.
    ///
    /// - Throws: ``RenderError`` when its data cannot be loaded.
    func drawLabels(in context: GraphicsContext, viewport: MapViewport, avoiding reserved: [Rect]) throws
    /// Draws the labels as ``drawLabels(in:viewport:avoiding:)`` does and returns a box around each label
    /// drawn (image points), for a snapshot's metadata (golden-image masks). The default returns none.
    ///
    /// - Throws: ``RenderError`` when its data cannot be loaded.
    func drawLabelsReturningBoxes(in context: GraphicsContext, viewport: MapViewport, avoiding reserved: [Rect])
        throws -> [Rect]
    /// Draws what the base map puts above its labels (a style's layers after its last symbol layer, as
    /// MapLibre draws layers in style order), after ``drawLabels(in:viewport:)``. The default draws none.
    ///
    /// - Throws: ``RenderError`` when its data cannot be loaded.
    func drawAboveLabels(in context: GraphicsContext, viewport: MapViewport) throws
    /// Places the labels of a whole area at once (a zoom level of a tile pyramid), so that every image
    /// cut from it draws the same labels at the same world positions. Nil when the base map has none.
    ///
    /// - Throws: ``RenderError`` when its data cannot be loaded.
    func placeLabels(for layoutViewport: MapViewport) throws -> PlacedBaseMapLabels?
    /// Places the labels of one region of an area (see ``LabelRegions`` in MapRender): features of the whole
    /// `layoutViewport` compete, but only labels that lie wholly within `region` (world points at the layout
    /// viewport's zoom) are kept, so that regions laid out apart never cut a label at their edge or draw it
    /// twice. The default keeps those of ``placeLabels(for:)`` that lie within.
    ///
    /// - Throws: ``RenderError`` when its data cannot be loaded.
    func placeLabels(for layoutViewport: MapViewport, within region: Rect) throws -> PlacedBaseMapLabels?
}

extension BaseMap {
    public func attribution(for viewport: MapViewport) -> [String] { attribution }

    public func drawLabels(in context: GraphicsContext, viewport: MapViewport) throws {}

    public func drawLabels(in context: GraphicsContext, viewport: MapViewport, avoiding reserved: [Rect]) throws {
        try drawLabels(in: context, viewport: viewport)
    }

    public func drawLabelsReturningBoxes(
        in context: GraphicsContext, viewport: MapViewport, avoiding reserved: [Rect]
    ) throws -> [Rect] {
        try drawLabels(in: context, viewport: viewport, avoiding: reserved)
        return []
    }

    public func drawAboveLabels(in context: GraphicsContext, viewport: MapViewport) throws {}

    public func placeLabels(for layoutViewport: MapViewport) throws -> PlacedBaseMapLabels? { nil }

    public func placeLabels(for layoutViewport: MapViewport, within region: Rect) throws -> PlacedBaseMapLabels? {
        try placeLabels(for: layoutViewport)?.keeping(within: region)
    }
}

/// Labels placed once for an area, in world points, to be drawn into any image of the same zoom.
///
/// Labels are kept in drawing order (bottom layer first) and indexed by a grid of world points, so an
/// image (a metatile) touches only the labels near it, not every label of the zoom level.
public final class PlacedBaseMapLabels: Sendable {
    private let labels: [PlacedLabel]
    private let grid: SpatialGrid
    /// The bounds of all labels, in world points.
    private let extent: MapRect

    convenience init(layers: [[PlacedLabel]]) {
        self.init(labels: layers.flatMap { $0 })
    }

    private init(labels: [PlacedLabel]) {
        self.labels = labels
        var grid = SpatialGrid(cellSize: 512)
        var extent = MapRect.null
        for label in labels {
            grid.insert(label.bounds)
            let b = label.bounds
            extent = extent.union(MapRect(x: b.minX, y: b.minY, width: b.width, height: b.height))
        }
        self.grid = grid
        self.extent = extent
    }

    /// The number of labels placed.
    public var count: Int { labels.count }

    /// A box around everything each label draws, in world points, in drawing order.
    public var bounds: [Rect] { labels.map(\.bounds) }

    /// The labels whose drawing lies wholly within `region` (world points), in the same order.
    public func keeping(within region: Rect) -> PlacedBaseMapLabels {
        PlacedBaseMapLabels(
            labels: labels.filter { label in
                let box = label.bounds.union(label.contentBounds())
                return box.minX >= region.minX && box.minY >= region.minY && box.maxX <= region.maxX
                    && box.maxY <= region.maxY
            })
    }

    /// Draws the labels that reach into the image of `viewport`, which must have the same zoom.
    package func draw(in context: GraphicsContext, viewport: MapViewport) throws {
        let origin = viewport.visibleMapRect.origin
        let shift = Point(x: origin.x / viewport.mapPointsPerPoint, y: origin.y / viewport.mapPointsPerPoint)
        let view = Rect(origin: shift, size: viewport.size).insetBy(dx: -64, dy: -64)
        let world = WebMercator.worldSize / viewport.mapPointsPerPoint
        // The image may show a label's world copy east or west of it: (label index, copy offset) pairs,
        // drawn in label order.
        struct Hit: Hashable {
            let index: Int
            let copy: Double
        }
        var hits = Set<Hit>()
        let viewRect = MapRect(x: view.minX, y: view.minY, width: view.width, height: view.height)
        for copy in WorldCopies.offsets(of: extent, meeting: viewRect, worldWidth: world) {
            let window = Rect(origin: Point(x: view.minX - copy, y: view.minY), size: view.size)
            grid.forEachCandidate(window) { i in
                if labels[i].bounds.intersects(window) { hits.insert(Hit(index: i, copy: copy)) }
            }
        }
        PlacedLabel.draw(
            hits.sorted(by: { ($0.index, $0.copy) < ($1.index, $1.copy) }).map {
                (labels[$0.index], Point(x: shift.x - $0.copy, y: shift.y))
            }, in: context)
        try context.checkStatus("drawing labels")
    }
}
