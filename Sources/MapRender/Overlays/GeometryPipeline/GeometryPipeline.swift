import MapGeometry
import MapGraphics

/// Turns an overlay's map-point geometry into what Cairo draws, in image points:
///
/// 1. project to image points, once for every copy of the world that the view shows (the world wraps
///    east-west, and geometry is unwrapped across the 180th meridian, so nothing is split and nothing
///    draws a line across the whole map);
/// 2. close rings that go round a pole along the map's top or bottom edge;
/// 3. clip to the image grown by a margin that covers the stroke (lines keep their distance travelled so
///    dashes continue; polygons are clipped with Sutherland-Hodgman);
/// 4. simplify in pixel space with a tolerance of 1/8 device pixel (invisible);
/// 5. build the fill path and the stroke pieces.
///
/// Clipping also keeps coordinates small: Cairo's fixed-point rasterizer cannot take the millions of
/// points a world-sized shape spans at street zoom.
struct GeometryPipeline {
    /// What to draw.
    struct Prepared {
        /// All filled rings of all copies, for one even-odd fill.
        var fill = Path()
        var hasFill = false
        /// Stroked pieces of all copies.
        var strokes: [StrokePiece] = []
    }

    let viewport: MapViewport
    /// The clip rect in image points: the image grown by the margin.
    let clipRect: Rect
    /// Simplification tolerance in image points.
    let tolerance: Double

    /// A pipeline for a view; `marginInPoints` must cover half the stroke width and its joins.
    init(viewport: MapViewport, marginInPoints: Double) {
        self.viewport = viewport
        let margin = max(2, marginInPoints + 2)
        clipRect = Rect(
            x: -margin, y: -margin, width: viewport.size.width + 2 * margin, height: viewport.size.height + 2 * margin)
        tolerance = 0.125 / viewport.scale
    }

    /// The east-west shifts (multiples of the world's width) of the copies of `bounds` that meet the
    /// clip rect.
    func worldOffsets(for bounds: MapRect) -> [Double] {
        guard !bounds.isNull else { return [] }
        let perPoint = viewport.mapPointsPerPoint
        let origin = viewport.visibleMapRect.origin
        let visible = MapRect(
            x: origin.x + clipRect.minX * perPoint, y: origin.y + clipRect.minY * perPoint,
            width: clipRect.width * perPoint, height: clipRect.height * perPoint)
        let world = WebMercator.worldSize
        let first = Int(((visible.minX - bounds.maxX) / world).rounded(.down))
        let last = Int(((visible.maxX - bounds.minX) / world).rounded(.up))
        var offsets: [Double] = []
        for k in first...max(first, last) {
            let offset = Double(k) * world
            let shifted = bounds.offsetBy(dx: offset, dy: 0)
            // Touching counts: a line along the edge of the view is still drawn.
            if shifted.minX <= visible.maxX, shifted.maxX >= visible.minX, shifted.minY <= visible.maxY,
                shifted.maxY >= visible.minY
            {
                offsets.append(offset)
            }
        }
        return offsets
    }

    /// Projects map points shifted by `offset` to image points.
    func project(_ points: [MapPoint], offset: Double) -> [Point] {
        let perPoint = viewport.mapPointsPerPoint
        let ox = viewport.visibleMapRect.minX - offset
        let oy = viewport.visibleMapRect.minY
        return points.map { Point(x: ($0.x - ox) / perPoint, y: ($0.y - oy) / perPoint) }
    }

    /// Runs the pipeline for a whole shape.
    func prepare(_ shape: ShapeGeometry, fills: Bool, strokes: Bool) -> Prepared {
        var result = Prepared()
        let offsets = worldOffsets(for: shape.bounds)
        if fills, shape.fillsOutside {
            // Everything outside the rings: the world's band across the clip rect, rings as holes.
            let top = max(clipRect.minY, (0 - viewport.visibleMapRect.minY) / viewport.mapPointsPerPoint)
            let bottom = min(
                clipRect.maxY, (WebMercator.worldSize - viewport.visibleMapRect.minY) / viewport.mapPointsPerPoint)
            if bottom > top {
                result.fill.append(
                    Path(rect: Rect(x: clipRect.minX, y: top, width: clipRect.width, height: bottom - top)))
                result.hasFill = true
            }
        }
        for offset in offsets {
            for part in shape.parts {
                switch part {
                case .line(let points):
                    if strokes {
                        for run in Self.runsOnTheMap(points) { addLine(run, offset: offset, to: &result) }
                    }
                case .ring(let points):
                    guard points.count > 1 else { continue }
                    let pole = shape.pole(forRing: points)
                    var ring = points
                    var strokeLine = points
                    if let pole {
                        // Close along the map's edge beyond the pole; stroke only the real outline.
                        let travel = Antimeridian.netEastwardTravel(ofRing: points)
                        let end = MapPoint(x: points[0].x + travel, y: points[0].y)
                        let edgeY = pole == .north ? 0.0 : WebMercator.worldSize
                        ring.append(end)
                        ring.append(MapPoint(x: end.x, y: edgeY))
                        ring.append(MapPoint(x: points[0].x, y: edgeY))
                        strokeLine.append(end)
                    }
                    if fills {
                        let clipped = PolygonClipper.clip(project(ring, offset: offset), to: clipRect)
                        let simplified = Simplifier.simplify(clipped, tolerance: tolerance)
                        if simplified.count > 2 {
                            result.fill.addLines(simplified, closed: true)
                            result.hasFill = true
                        }
                    }
                    if strokes {
                        let runs = Self.runsOnTheMap(pole == nil ? strokeLine + [strokeLine[0]] : strokeLine)
                        if runs.count == 1, pole == nil {
                            addStroke(project(strokeLine, offset: offset), closedRing: true, to: &result)
                        } else {
                            for run in runs { addLine(run, offset: offset, to: &result) }
                        }
                    }
                }
            }
        }
        return result
    }

    /// Projects, clips and simplifies one open line in a single pass (large lines never exist in image
    /// points as a whole).
    func addLine(_ points: [MapPoint], offset: Double, to result: inout Prepared) {
        let perPoint = viewport.mapPointsPerPoint
        let ox = viewport.visibleMapRect.minX - offset
        let oy = viewport.visibleMapRect.minY
        let (pieces, length) = LineClipper.clip(
            points, project: { Point(x: ($0.x - ox) / perPoint, y: ($0.y - oy) / perPoint) }, to: clipRect,
            tolerance: tolerance)
        for var piece in pieces {
            piece.points = Simplifier.simplify(piece.points, tolerance: tolerance)
            piece.lineLength = length
            result.strokes.append(piece)
        }
    }

    /// Clips and simplifies one stroked line (a ring is closed here when it is wholly inside).
    func addStroke(_ points: [Point], closedRing: Bool, to result: inout Prepared) {
        guard points.count > 1 else { return }
        if closedRing, let bounds = Self.bounds(of: points), clipRect.contains(bounds) {
            var length = 0.0
            for i in 0..<points.count { length += distance(points[i], points[(i + 1) % points.count]) }
            result.strokes.append(
                StrokePiece(
                    points: Simplifier.simplify(points, tolerance: tolerance), startLength: 0, closed: true,
                    lineLength: length))
            return
        }
        let line = closedRing ? points + [points[0]] : points
        let (pieces, length) = LineClipper.clip(line, to: clipRect)
        for var piece in pieces {
            piece.points = Simplifier.simplify(piece.points, tolerance: tolerance)
            piece.lineLength = length
            result.strokes.append(piece)
        }
    }

    /// The line cut where it runs along the map's top or bottom edge: latitudes beyond +-85.0511 degrees
    /// project onto the edge, and a stroke there would draw a line that is not on the map.
    static func runsOnTheMap(_ points: [MapPoint]) -> [[MapPoint]] {
        let world = WebMercator.worldSize
        func offEdge(_ a: MapPoint, _ b: MapPoint) -> Bool { (a.y <= 0 && b.y <= 0) || (a.y >= world && b.y >= world) }
        guard points.count > 1, zip(points, points.dropFirst()).contains(where: offEdge) else { return [points] }
        var runs: [[MapPoint]] = []
        var current: [MapPoint] = [points[0]]
        for (a, b) in zip(points, points.dropFirst()) {
            if offEdge(a, b) {
                if current.count > 1 { runs.append(current) }
                current = [b]
            } else {
                current.append(b)
            }
        }
        if current.count > 1 { runs.append(current) }
        return runs
    }

    static func bounds(of points: [Point]) -> Rect? {
        guard var minX = points.first?.x, var minY = points.first?.y else { return nil }
        var maxX = minX
        var maxY = minY
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    func distance(_ a: Point, _ b: Point) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }
}

extension Rect {
    func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
}

extension Path {
    /// Adds points as one subpath.
    mutating func addLines(_ points: [Point], closed: Bool) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { addLine(to: p) }
        if closed { close() }
    }
}
