/// The one path from map-point geometry to what Cairo draws, in image points. Overlays, every base-map
/// layer type and label placement go through it (the model is mapnik's converter chain):
///
/// 1. world copies: the shifts by whole world widths at which the geometry meets the view
///    (``WorldCopies``; geometry may be unwrapped across the 180th meridian, so nothing is split and
///    nothing draws a line across the whole map);
/// 2. project to image points;
/// 3. clip to the image grown by a margin that covers the stroke (``LineClipper`` keeps the distance
///    travelled so that dashes continue; ``PolygonClipper`` for rings), skipped when the geometry lies
///    inside;
/// 4. simplify in pixel space within a fraction of a device pixel (``Simplifier``).
///
/// Overlay shapes add one stage in front (``prepare(_:fills:strokes:)``): rings that go round a pole are
/// closed along the map's top or bottom edge. Clipping also keeps coordinates small: Cairo's fixed-point
/// rasterizer cannot take the millions of points a world-sized shape spans at street zoom.
///
/// ```swift
/// let pipeline = GeometryPipeline(viewport: viewport, margin: 4, tolerance: 0.5)
/// for offset in pipeline.worldOffsets(for: bounds) {
///     if let ring = pipeline.ring(points, offset: offset) { path.addLines(ring, closed: true) }
/// }
/// ```
package struct GeometryPipeline: Sendable {
    /// What to draw of an overlay shape.
    package struct Prepared: Sendable {
        /// All filled rings of all copies, for one even-odd fill.
        package var fill = Path()
        /// Whether ``fill`` has anything to fill.
        package var hasFill = false
        /// Stroked pieces of all copies.
        package var strokes: [StrokePiece] = []
    }

    /// The view.
    package let viewport: MapViewport
    /// The clip rect in image points: the image grown by the margin.
    package let clipRect: Rect
    /// Simplification tolerance in image points.
    package let tolerance: Double
    /// Map points per image point.
    let perPoint: Double
    /// The visible map rect's origin.
    let origin: MapPoint
    /// The camera of a turned or tilted view; nil facing north and looking straight down (then map points
    /// go to image points by ``perPoint`` and ``origin`` alone).
    package let camera: ViewProjection?
    /// For a tilted view, the ground in front of the camera that the clip rect shows (turned y): geometry
    /// is clipped to it before it is projected (``GroundClipper``).
    package let band: ClosedRange<Double>

    /// A pipeline for a view.
    ///
    /// - Parameters:
    ///   - margin: how far outside the image geometry is kept, in points; it must cover half the stroke
    ///     width and its joins.
    ///   - tolerance: how far simplification may move the drawing, in device pixels (1/8 for overlays,
    ///     1/2 for base-map layers).
    package init(viewport: MapViewport, margin: Double, tolerance: Double) {
        self.viewport = viewport
        clipRect = Rect(
            x: -margin, y: -margin, width: viewport.size.width + 2 * margin, height: viewport.size.height + 2 * margin)
        self.tolerance = tolerance / viewport.scale
        perPoint = viewport.mapPointsPerPoint
        origin = viewport.visibleMapRect.origin
        camera = viewport.projection.isNorthUpAndFlat ? nil : viewport.projection
        band = viewport.projection.groundStrip(margin: margin)
    }

    /// The clip rect in map points (of the world copy at offset 0): under a camera, the smallest map rect
    /// containing the ground it shows.
    package var clipMapRect: MapRect {
        if camera != nil { return viewport.mapRect(covering: clipRect) }
        return MapRect(
            x: origin.x + clipRect.minX * perPoint, y: origin.y + clipRect.minY * perPoint,
            width: clipRect.width * perPoint, height: clipRect.height * perPoint)
    }

    /// The east-west shifts (multiples of the world's width) of the copies of `bounds` that meet the
    /// clip rect.
    package func worldOffsets(for bounds: MapRect) -> [Double] {
        WorldCopies.offsets(of: bounds, meeting: clipMapRect)
    }

    /// A map point of the world copy `offset` in image points.
    /// Under a tilt, a point outside the ground the clip rect shows (behind the camera, say) has no image
    /// point: the result is then NaN, which no clip rect contains.
    @inline(__always) package func project(_ p: MapPoint, offset: Double) -> Point {
        guard let camera else { return Point(x: (p.x + offset - origin.x) / perPoint, y: (p.y - origin.y) / perPoint) }
        let r = camera.turned(MapPoint(x: p.x + offset, y: p.y))
        guard band.contains(r.y) else { return Point(x: .nan, y: .nan) }
        return camera.project(turned: r).point
    }

    /// Map points of the world copy `offset` turned into the view's ground plane (``ViewProjection/turned(_:)``).
    private func turned(_ points: [MapPoint], offset: Double, _ camera: ViewProjection) -> [Point] {
        points.map { camera.turned(MapPoint(x: $0.x + offset, y: $0.y)) }
    }

    /// Map points of the world copy `offset` in image points.
    package func project(_ points: [MapPoint], offset: Double) -> [Point] {
        points.map { project($0, offset: offset) }
    }

    /// A closed ring (no repeated closing point) projected, clipped and simplified; nil when nothing
    /// is left, or, with `dropsTinyRings`, when the ring is smaller than the tolerance both ways.
    package func ring(_ ring: [MapPoint], offset: Double, dropsTinyRings: Bool = false) -> [Point]? {
        if let camera, !camera.isFlat {
            let ground = GroundClipper.clipRing(turned(ring, offset: offset, camera), to: band)
            return clipAndSimplify(ground.map { camera.project(turned: $0).point }, dropsTinyRings: dropsTinyRings)
        }
        return clipAndSimplify(project(ring, offset: offset), dropsTinyRings: dropsTinyRings)
    }

    /// A closed ring on a turned or tilted view's ground plane (``ViewProjection/turned(_:)``, points from
    /// the centre), not projected, for geometry raised off the ground: a flat view cuts it to the clip rect;
    /// a tilted one to the ground from the clip rect's far edge to `nearDepth` in front of the camera (what
    /// stands below the image's bottom edge may rise into it). Nil when nothing is left; call only under a
    /// camera.
    package func groundRing(_ ring: [MapPoint], offset: Double, nearDepth: Double) -> [Point]? {
        guard let camera, ring.count > 2 else { return nil }
        let turned = turned(ring, offset: offset, camera)
        let cut: [Point]
        if camera.isFlat {
            let local = clipRect.offsetBy(dx: -viewport.size.width / 2, dy: -viewport.size.height / 2)
            guard let bounds = boundingRect(of: turned) else { return nil }
            cut = local.contains(bounds) ? turned : PolygonClipper.clip(turned, to: local)
        } else {
            let nearest = (camera.distance - nearDepth) / camera.sinP
            cut = GroundClipper.clipRing(turned, to: band.lowerBound...max(band.upperBound, nearest))
        }
        let simplified = Simplifier.simplify(cut, tolerance: tolerance)
        return simplified.count > 2 ? simplified : nil
    }

    /// An open line of a tilted view on its ground plane (``ViewProjection/turned(_:)``), not projected, for
    /// lines extruded on the ground and then projected (MapLibre's line shader): cut to the ground in front
    /// of the camera that the clip rect shows and to the width the image can show there, simplified on the
    /// ground to `tolerance` points (the pipeline's when nil; 0 keeps every vertex, as a vector tile's lines
    /// keep theirs, so that dashes and patterns are interpolated between MapLibre's vertices). Call only under
    /// a tilted camera.
    package func groundLine(_ points: [MapPoint], offset: Double, tolerance: Double? = nil) -> [StrokePiece] {
        guard let camera, !camera.isFlat else { return [] }
        let farDepth = camera.depth(Point(x: 0, y: band.lowerBound))
        let halfWidth =
            (viewport.size.width / 2 + (clipRect.width - viewport.size.width) / 2) * farDepth
            / camera.distance
        let window = Rect(
            x: -halfWidth, y: band.lowerBound, width: 2 * halfWidth, height: band.upperBound - band.lowerBound)
        var (pieces, length) = LineClipper.clip(turned(points, offset: offset, camera), to: window)
        for i in pieces.indices {
            pieces[i].points = Simplifier.simplify(pieces[i].points, tolerance: tolerance ?? self.tolerance)
            pieces[i].lineLength = length
        }
        return pieces
    }

    /// A closed ring in image points clipped and simplified (see ``ring(_:offset:dropsTinyRings:)``).
    package func clipAndSimplify(_ projected: [Point], dropsTinyRings: Bool = false) -> [Point]? {
        guard projected.count > 2, let bounds = boundingRect(of: projected) else { return nil }
        if dropsTinyRings, bounds.width < tolerance, bounds.height < tolerance { return nil }
        let clipped = clipRect.contains(bounds) ? projected : PolygonClipper.clip(projected, to: clipRect)
        let simplified = Simplifier.simplify(clipped, tolerance: tolerance)
        return simplified.count > 2 ? simplified : nil
    }

    /// An open line projected, clipped into the pieces inside the clip rect (each with its distance from
    /// the line's start, for dashes) and simplified. Large lines never exist in image points as a whole.
    package func line(_ points: [MapPoint], offset: Double) -> [StrokePiece] {
        if let camera { return cameraLine(points, offset: offset, camera) }
        let ox = origin.x - offset
        let oy = origin.y
        let perPoint = perPoint
        var (pieces, length) = LineClipper.clip(
            points, project: { Point(x: ($0.x - ox) / perPoint, y: ($0.y - oy) / perPoint) }, to: clipRect,
            tolerance: tolerance)
        for i in pieces.indices {
            pieces[i].points = Simplifier.simplify(pieces[i].points, tolerance: tolerance)
            pieces[i].lineLength = length
        }
        return pieces
    }

    /// ``line(_:offset:)`` under a camera: cut to the ground in front of it, projected, clipped, simplified.
    /// The distances for dashes are measured on the image, from the start of each run in front of the camera.
    private func cameraLine(_ points: [MapPoint], offset: Double, _ camera: ViewProjection) -> [StrokePiece] {
        var result: [StrokePiece] = []
        for run in GroundClipper.clipLine(turned(points, offset: offset, camera), to: band) {
            var (pieces, length) = LineClipper.clip(
                run, project: { camera.project(turned: $0).point }, to: clipRect, tolerance: tolerance)
            for i in pieces.indices {
                pieces[i].points = Simplifier.simplify(pieces[i].points, tolerance: tolerance)
                pieces[i].lineLength = length
            }
            result += pieces
        }
        return result
    }

    /// A line in image points clipped and simplified; a ring (`closedRing`) that lies wholly inside
    /// stays one closed piece, joined rather than capped.
    package func stroke(_ points: [Point], closedRing: Bool) -> [StrokePiece] {
        guard points.count > 1 else { return [] }
        if closedRing, let bounds = boundingRect(of: points), clipRect.contains(bounds) {
            var length = 0.0
            for i in 0..<points.count { length += distance(points[i], points[(i + 1) % points.count]) }
            return [
                StrokePiece(
                    points: Simplifier.simplify(points, tolerance: tolerance), startLength: 0, closed: true,
                    lineLength: length)
            ]
        }
        let line = closedRing ? points + [points[0]] : points
        var (pieces, length) = LineClipper.clip(line, to: clipRect)
        for i in pieces.indices {
            pieces[i].points = Simplifier.simplify(pieces[i].points, tolerance: tolerance)
            pieces[i].lineLength = length
        }
        return pieces
    }

    /// Runs the pipeline for a whole overlay shape: every world copy, rings round a pole closed along
    /// the map's edge, fills and strokes.
    package func prepare(_ shape: ShapeGeometry, fills: Bool, strokes: Bool) -> Prepared {
        var result = Prepared()
        if fills, shape.fillsOutside {
            // Everything outside the rings: the world's band across the clip rect, rings as holes.
            // (Under a camera, the whole clip rect: the world's edges are not cut out there.)
            let top = camera != nil ? clipRect.minY : max(clipRect.minY, (0 - origin.y) / perPoint)
            let bottom =
                camera != nil ? clipRect.maxY : min(clipRect.maxY, (WebMercator.worldSize - origin.y) / perPoint)
            if bottom > top {
                result.fill.append(
                    Path(rect: Rect(x: clipRect.minX, y: top, width: clipRect.width, height: bottom - top)))
                result.hasFill = true
            }
        }
        for offset in worldOffsets(for: shape.bounds) {
            for part in shape.parts {
                switch part {
                case .line(let points):
                    if strokes {
                        for run in Self.runsOnTheMap(points) { result.strokes += line(run, offset: offset) }
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
                        let projected: [Point]
                        if let camera, !camera.isFlat {
                            projected = GroundClipper.clipRing(turned(ring, offset: offset, camera), to: band).map {
                                camera.project(turned: $0).point
                            }
                        } else {
                            projected = project(ring, offset: offset)
                        }
                        let clipped = PolygonClipper.clip(projected, to: clipRect)
                        let simplified = Simplifier.simplify(clipped, tolerance: tolerance)
                        if simplified.count > 2 {
                            result.fill.addLines(simplified, closed: true)
                            result.hasFill = true
                        }
                    }
                    if strokes {
                        let runs = Self.runsOnTheMap(pole == nil ? strokeLine + [strokeLine[0]] : strokeLine)
                        if runs.count == 1, pole == nil, camera?.isFlat ?? true {
                            result.strokes += stroke(project(strokeLine, offset: offset), closedRing: true)
                        } else {
                            for run in runs { result.strokes += line(run, offset: offset) }
                        }
                    }
                }
            }
        }
        return result
    }

    /// The line cut where it runs along the map's top or bottom edge: latitudes beyond +-85.0511 degrees
    /// project onto the edge, and a stroke there would draw a line that is not on the map.
    package static func runsOnTheMap(_ points: [MapPoint]) -> [[MapPoint]] {
        let world = WebMercator.worldSize
        func offEdge(_ a: MapPoint, _ b: MapPoint) -> Bool { (a.y <= 0 && b.y <= 0) || (a.y >= world && b.y >= world) }
        guard points.count > 1, zip(points, points.dropFirst()).contains(where: offEdge) else { return [points] }
        return runs(of: points, cutting: offEdge)
    }

    /// A polygon ring as open polylines, split where an edge exists only because the data was cut: along
    /// x = 0 or x = world width (the 180th meridian) or below 84.9 S (Antarctica's cut at the
    /// projection's limit), and along `square` when given (a vector tile's edge, where the data was cut
    /// into tiles). Outlines of such data draw no line there.
    package static func outlineWithoutCuts(_ ring: [MapPoint], cutAlong square: MapRect? = nil) -> [[MapPoint]] {
        guard ring.count > 1 else { return [] }
        let world = WebMercator.worldSize
        let southLimit = WebMercator.y(latitude: -84.9)
        func on(_ a: Double, _ b: Double, _ edge: Double, _ tolerance: Double) -> Bool {
            abs(a - edge) <= tolerance && abs(b - edge) <= tolerance
        }
        func artificial(_ a: MapPoint, _ b: MapPoint) -> Bool {
            if (a.x == b.x && (a.x == 0 || a.x == world)) || (a.y >= southLimit && b.y >= southLimit) { return true }
            guard let s = square else { return false }
            let t = s.width * 1e-9
            return on(a.x, b.x, s.minX, t) || on(a.x, b.x, s.maxX, t) || on(a.y, b.y, s.minY, t)
                || on(a.y, b.y, s.maxY, t)
        }
        // The ring's edges, the closing one included.
        return runs(of: ring + [ring[0]], cutting: artificial)
    }

    func distance(_ a: Point, _ b: Point) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }
}
