import Foundation
import MapGeometry
import MapStyle

/// Line labels: glyphs walked along a line, and MapLibre's anchors for them.
extension SymbolLayerRenderer {
    /// Where the glyphs of a line label stand, for each copy of the label along `line` (world points): glyph
    /// `k` is `advances[k]` wide and starts `pens[k]` from the label's start (points, the label `width`
    /// long); each result is the point on the line under the glyph's centre and the line's angle there
    /// (turned by half a turn where the label reads backwards to stay upright; `vertical`: a vertical
    /// label, read top to bottom; `across`: glyph centres on the line offset that far to the right of its
    /// direction, ``pointAlongOffsetLine(_:distances:anchor:offset:across:)``). Labels every
    /// `symbol-spacing` (or at the middle for `line-center`), moved along the line by `text-offset` x,
    /// dropped where the line bends more than `text-max-angle` between glyphs, where a glyph's centre is
    /// past the line's ends, near a repeat of the same text, or (as `overlap` says) where the label's collision
    /// shape meets an earlier label's: MapLibre's circles along the line (``collisionCircles``); the kept
    /// labels' shapes go into `collisions`.
    /// With a `plane` (a tilted view), the label reads upright on the image; its collision shape is MapLibre
    /// GL's circles along the glyphs' path on the image (``pathCircles(_:radius:within:)``), the path projected
    /// from the ground when the label lies on it (a path the plane cannot project drops the label). The repeat rule
    /// compares the anchor at `repeatPoint` (one anchor's: a tilted view's ground point) or its point on
    /// `line`, within `repeatTile` (the vector tile the line was cut to) or a tile of
    /// ``RepeatedAnchors/tileSize``.
    ///
    /// In an untilted view, a `companion` (the icon placed with the text) is asked at each copy whose text fits,
    /// before the text's shape is recorded, with the anchor's point on `line`, its index in `anchors` and the
    /// collision grid (where it records its own shape): false drops the copy.
    func glyphsAlongLine(
        _ line: [Point], text: String, pens: [Double], advances glyphAdvances: [Double], width: Double,
        context: EvaluationContext, padding: Double, overlap: SymbolOverlap, collisions: inout SpatialGrid,
        center: Bool, repeats: inout RepeatedAnchors, anchors: [Double]? = nil, vertical: Bool = false,
        across: Double = 0, plane: LabelPlane? = nil, repeatPoint: Point? = nil, repeatTile: Rect? = nil,
        alignX: Double = 0.5,
        companion: ((_ anchor: Point, _ index: Int, _ collisions: inout SpatialGrid) -> Bool)? = nil
    ) -> [[(index: Int, point: Point, angle: Double)]] {
        guard line.count > 1, !pens.isEmpty, pens.count == glyphAdvances.count else { return [] }
        let size = properties.number(.textSize, context)
        var distances: [Double] = [0]
        for (a, b) in zip(line, line.dropFirst()) { distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y)) }
        let along = (properties.numbers(.textOffset, context)?.first ?? 0) * size
        let total = distances.last!
        let spacing = properties.number(.symbolSpacing, context)
        // `line-center`: one label at the middle of the line.
        let centers =
            anchors
            ?? (center
                ? [total / 2] : Self.symbolCenters(total: total, spacing: spacing, width: width, padding: padding))
        guard !centers.isEmpty, width.isFinite, along.isFinite else { return [] }
        let maxAngle = properties.number(.textMaxAngle, context) * .pi / 180
        func at(_ d: Double) -> (Point, Double) {
            let (p, i) = Self.point(along: line, distances: distances, at: d)
            return (p, atan2(line[i + 1].y - line[i].y, line[i + 1].x - line[i].x))
        }
        var results: [[(index: Int, point: Point, angle: Double)]] = []
        for (index, middle) in centers.enumerated() {
            // The label starts `width x alignX` before the anchor (`text-anchor`'s horizontal part), moved along
            // the line by `text-offset` x.
            let start = middle + along - width * alignX
            var reversed = false
            /// The distance along the line of glyph `k`'s centre: read backwards, its offset from the anchor
            /// turns about the anchor (MapLibre's flipped `placeGlyphAlongLine`; `text-offset` x does not turn).
            func distanceAlong(_ k: Int) -> Double {
                let position = pens[k] + glyphAdvances[k] / 2
                return reversed ? start + 2 * width * alignX - position : start + position
            }
            // A glyph whose centre is past either end of the line has nowhere to stand (MapLibre hides the label).
            let first = (pens.first ?? 0) + (glyphAdvances.first ?? 0) / 2
            let last = (pens.last ?? 0) + (glyphAdvances.last ?? 0) / 2
            guard start + first >= 0, start + last <= total else { continue }
            // Upright: read left to right (a vertical label top to bottom) as the image shows it, judged by the
            // first and last glyphs' centres (MapLibre's `placeFirstAndLastGlyph`; a single glyph by the line
            // around it); walk the line backwards when it runs right to left (upwards).
            let single = pens.count == 1
            let (p0, _) = at(single ? start : start + first)
            let (p1, _) = at(single ? start + width : start + last)
            let (q0, q1) = plane.map { ($0.image(p0) ?? p0, $0.image(p1) ?? p1) } ?? (p0, p1)
            reversed = properties.bool(.textKeepUpright, context) && (vertical ? q1.y < q0.y : q1.x < q0.x)
            // Turned about its anchor, a label not centred on it may run off the line.
            if reversed, alignX != 0.5 {
                let ends = [distanceAlong(0), distanceAlong(pens.count - 1)]
                guard ends.allSatisfy({ $0 >= 0 && $0 <= total }) else { continue }
            }
            var glyphs: [(index: Int, point: Point, angle: Double)] = []
            var previousAngle: Double?
            var ok = true
            for k in pens.indices {
                let d = distanceAlong(k)
                var (p, angle) = at(d)
                if reversed { angle += .pi }
                // Off the line: walked along the offset line from the anchor (MapLibre's `placeGlyphAlongLine`).
                if across != 0 {
                    guard
                        let q = Self.pointAlongOffsetLine(
                            line, distances: distances, anchor: middle, offset: d - middle, across: across)
                    else {
                        ok = false
                        break
                    }
                    p = q.point
                    angle = q.angle + (reversed ? .pi : 0)
                }
                if anchors == nil, let previous = previousAngle {
                    var delta = angle - previous
                    while delta > .pi { delta -= 2 * .pi }
                    while delta < -.pi { delta += 2 * .pi }
                    if abs(delta) > maxAngle {
                        ok = false
                        break
                    }
                }
                previousAngle = angle
                glyphs.append((k, p, angle))
            }
            // MapLibre's anchors are those that pass the angle test; on `line` placement a repeat of the same
            // text near an earlier one is dropped before collisions are tested.
            guard ok,
                center
                    || !repeats.tooClose(text, repeatPoint ?? at(middle).0, within: spacing / 2, tile: repeatTile)
            else { continue }
            if let plane, !glyphs.isEmpty {
                // A tilted view: MapLibre GL's circles along the glyphs' path, projected to the image when the
                // label lies on the ground. The path runs from the first glyph's centre to the last's as laid
                // out, before any turn to keep the label upright (GL places the two glyphs unflipped).
                let d0 = start + first
                let d1 = start + last
                let planePath = Self.path(along: line, distances: distances, from: min(d0, d1), to: max(d0, d1))
                let path = planePath.compactMap { plane.image($0) }
                guard path.count == planePath.count else { continue }
                let lineHeight = properties.number(.textLineHeight, context) * GlyphShaping.oneEm
                let diameter = max(10, lineHeight) * size / GlyphShaping.oneEm
                let radius = diameter / 2 * plane.perspectiveRatio + padding
                let viewSize = selection.viewport.size
                let grid = Rect(
                    x: -Self.gridPadding, y: -Self.gridPadding, width: viewSize.width + 2 * Self.gridPadding,
                    height: viewSize.height + 2 * Self.gridPadding)
                let circles = Self.pathCircles(path, radius: radius, within: grid)
                if overlap != .always {
                    guard !circles.isEmpty, plane.perspectiveRatio >= Self.perspectiveRatioCutoff else { continue }
                    let hard = overlap == .cooperative
                    if circles.contains(where: { collisions.intersectsAny(circle: $0, radius: radius, hardOnly: hard) })
                    {
                        continue
                    }
                }
                for circle in circles {
                    collisions.insert(circle: circle, radius: radius, soft: overlap != .never)
                }
                results.append(glyphs)
                continue
            }
            // An untilted view: MapLibre's collision circles along the line.
            let c0 = -width * alignX + first
            let c1 = -width * alignX + last
            let circles = collisionCircles(
                line, distances: distances, anchor: middle, glyphs: -abs(along + c0)...abs(along + c1), width: width,
                size: size, padding: padding, context: context)
            guard !circles.isEmpty else { continue }
            if overlap != .always {
                let hard = overlap == .cooperative
                if circles.contains(where: {
                    collisions.intersectsAny(circle: $0.center, radius: $0.radius, hardOnly: hard)
                }) {
                    continue
                }
            }
            if let companion {
                guard companion(at(middle).0, index, &collisions) else { continue }
            }
            for circle in circles {
                collisions.insert(circle: circle.center, radius: circle.radius, soft: overlap != .never)
            }
            results.append(glyphs)
        }
        return results
    }

    /// Below this perspective ratio (viewport), MapLibre places no label that collides by circles: too near
    /// the horizon (`CollisionIndex.perspectiveRatioCutoff`).
    static let perspectiveRatioCutoff = 0.6

    /// The part of `line` (with its `distances`) from distance `a` to `b` (`a <= b`): the points at both, and
    /// the vertices between.
    static func path(along line: [Point], distances: [Double], from a: Double, to b: Double) -> [Point] {
        // The vertices strictly between, found by bisection (the distances ascend): the work is the label's
        // part of the line, not the whole line, for every label along it.
        func firstIndex(after d: Double, orAt: Bool) -> Int {
            var (lo, hi) = (0, distances.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if distances[mid] < d || (!orAt && distances[mid] == d) { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var path = [point(along: line, distances: distances, at: a).point]
        let first = firstIndex(after: a, orAt: false)
        let end = max(first, firstIndex(after: b, orAt: true))
        path += line[first..<end]
        path.append(point(along: line, distances: distances, at: b).point)
        return path
    }

    /// MapLibre GL's collision circles of a line label on the image (`CollisionIndex.placeCollisionCircles`):
    /// `path` (the glyph centres' path, image points) cut to `bounds` (the collision grid), and along each
    /// piece circles of `radius` no farther apart than 2.5 radii, from a quarter radius inside its start to
    /// as far inside its end (one circle for a piece under half a radius). Their centres.
    static func pathCircles(_ path: [Point], radius: Double, within bounds: Rect) -> [Point] {
        guard radius > 0, radius.isFinite, let first = path.first else { return [] }
        // A path of no length (a label of one glyph): one circle at its point.
        if path.allSatisfy({ $0 == first }) { return bounds.contains(first) ? [first] : [] }
        var circles: [Point] = []
        for piece in LineClipper.clip(path, to: bounds).pieces.map(\.points) {
            var lengths = [0.0]
            for (p, q) in zip(piece, piece.dropFirst()) { lengths.append(lengths.last! + hypot(q.x - p.x, q.y - p.y)) }
            let length = lengths.last!
            let pad = min(radius / 4, length / 2)
            let padded = length - 2 * pad
            let count =
                length <= radius / 2 ? 1 : Int(min((padded / (radius * 2.5)).rounded(.up), 10_000)) + 1
            for i in 0..<count {
                let t = Double(i) / Double(max(count - 1, 1))
                circles.append(point(along: piece, distances: lengths, at: pad + t * padded).point)
            }
        }
        return circles
    }

    /// The text size MapLibre Native spaces line anchors by (`textMaxSize`, which keeps anchors from moving
    /// as the zoom changes): `text-size` at zoom 18 when it depends on the feature; a size that depends on
    /// the zoom alone was already evaluated at the tile's zoom (the view's, rounded down) when the layout
    /// was made, and stays that.
    func textMaxSize(_ context: EvaluationContext) -> Double {
        var at = context
        if Self.isFeatureConstant(layer.properties[StylePropertyName.textSize.rawValue]?.json) {
            at.zoom.round(.down)
        } else {
            at.zoom = 18
        }
        return max(0, properties.number(.textSize, at))
    }

    /// MapLibre's collision circles of a line label in an untilted view (`CollisionFeature::bboxifyLabel`
    /// and `CollisionIndex::placeLineFeature`): circles of the label's line height plus twice `padding` across
    /// (at least 10/24 of the layout text size), every half diameter along `line` (world points) from the
    /// label's padded start before `anchor` (a distance along the line) to past its end, those whose distance
    /// from the anchor times 0.8 lies within `glyphs` (from minus the first glyph centre's distance from the
    /// anchor to the last one's, distances along the line however `text-offset` moved the glyphs, as
    /// MapLibre's tile distances are; the circle within half a diameter of the anchor always), each circle too close to the one
    /// before (less than √2 radii) left out unless the next is not used. Sizes are the layout's (`text-size`
    /// at the zoom rounded down) scaled to the view's zoom, as MapLibre scales a tile.
    func collisionCircles(
        _ line: [Point], distances: [Double], anchor: Double, glyphs: ClosedRange<Double>, width: Double,
        size: Double, padding: Double, context: EvaluationContext
    ) -> [(center: Point, radius: Double)] {
        guard let total = distances.last, line.count > 1 else { return [] }
        var tileZoom = context
        tileZoom.zoom.round(.down)
        let zoomScale = exp2(max(0, min(1, context.zoom - tileZoom.zoom)))
        let layoutSize = properties.number(.textSize, tileZoom)
        let em = GlyphShaping.oneEm
        // The label's length and the circles' diameter at the layout size, then on the view's scale.
        let layoutScale = size > 0 ? layoutSize / size : 1
        let length = (width * layoutScale + 2 * padding) * zoomScale
        let lineHeight = properties.number(.textLineHeight, context) * layoutSize
        let diameter = max(10 * layoutSize / em, lineHeight + 2 * padding) * zoomScale
        guard diameter > 0, length.isFinite, diameter.isFinite else { return [] }
        let step = diameter / 2
        let count = max(Int(min((length / step).rounded(.down), 10_000)), 1)
        let padCount = count / 2
        let start = -length / 2
        // The line must reach back to the label's start (MapLibre checks this when laying the circles out).
        guard anchor >= length / 2 - diameter / 2 else { return [] }
        var used: [(along: Double, wanted: Bool)] = []
        for i in -padCount..<(count + padCount) {
            let offset = Double(i) * step
            var fromStart = start + offset
            if offset < 0 { fromStart += offset }
            if offset > length { fromStart += offset - length }
            // The circle's centre, from the anchor along the line.
            let centre = fromStart + diameter / 2
            let at = anchor + centre
            guard at >= 0 else { continue }
            guard at <= total else { break }
            let signed = abs(centre) < step ? 0 : centre * 0.8
            used.append((at, glyphs.contains(signed)))
        }
        var result: [(center: Point, radius: Double)] = []
        var previousPlaced = false
        for (k, circle) in used.enumerated() {
            guard circle.wanted else {
                previousPlaced = false
                continue
            }
            let point = Self.point(along: line, distances: distances, at: circle.along).point
            if previousPlaced, let previous = result.last {
                let (dx, dy) = (point.x - previous.center.x, point.y - previous.center.y)
                if step * step * 2 > dx * dx + dy * dy, k + 1 < used.count, used[k + 1].wanted {
                    previousPlaced = false
                    continue
                }
            }
            previousPlaced = true
            result.append((point, step))
        }
        return result
    }

    /// The distances along `line` (world points) of MapLibre's anchors for a line label `shapedLength` layout
    /// pixels long (`getAnchors`, as for icons: ``iconLineAnchors``), without those where the line turns more
    /// than `text-max-angle` within a window of 3/5 em under the label (`checkMaxAngle`).
    ///
    /// With a `reach` (the view grown by the symbol margin, in the line's coordinates: ``labelReach(_:)``), an
    /// anchor farther outside it than half the label's length is left out: its label cannot come within the
    /// margin, where point labels are considered too.
    func textLineAnchors(
        _ line: [Point], shapedLength: Double, context: EvaluationContext, center: Bool, tileWidth: Double?,
        tile: Rect? = nil, reach: Rect? = nil
    ) -> [Double] {
        textLineAnchorsWithIconAngles(
            line, shapedLength: shapedLength, context: context, center: center, tileWidth: tileWidth, tile: tile,
            reach: reach
        ).map(\.along)
    }

    /// ``textLineAnchors(_:shapedLength:context:center:tileWidth:tile:reach:)`` with the angle MapLibre turns
    /// an icon at each anchor by (``iconLineAnchors``: from the anchor's segment start to the anchor on the
    /// tile grid).
    func textLineAnchorsWithIconAngles(
        _ line: [Point], shapedLength: Double, context: EvaluationContext, center: Bool, tileWidth: Double?,
        tile: Rect? = nil, reach: Rect? = nil
    ) -> [(along: Double, iconAngle: Double)] {
        guard line.count > 1 else { return [] }
        let boxScale = textMaxSize(context) / 24
        let scaling = Self.tileScaling(tileWidth: tileWidth)
        var distances: [Double] = [0]
        for (a, b) in zip(line, line.dropFirst()) { distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y)) }
        let size = properties.number(.textSize, context)
        let labelLength = shapedLength * size / 24
        let window = 3.0 / 5 * size
        let maxAngle = properties.number(.textMaxAngle, context) * .pi / 180
        // The distance along the line of each anchor kept: MapLibre tests the angle as it resamples, so that
        // a line whose anchors all fail it tries its middle.
        var kept: [(along: Double, iconAngle: Double)] = []
        let area = reach.map { $0.insetBy(dx: -labelLength / 2, dy: -labelLength / 2) }
        // A point's distance from segment `i` and the distance along the line of its foot there.
        func onSegment(_ point: Point, _ i: Int) -> (distance: Double, along: Double) {
            let (a, b) = (line[i], line[i + 1])
            let dx = b.x - a.x
            let dy = b.y - a.y
            let l2 = dx * dx + dy * dy
            let t = l2 > 0 ? max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / l2)) : 0
            return (
                hypot(a.x + dx * t - point.x, a.y + dy * t - point.y),
                distances[i] + t * (distances[i + 1] - distances[i])
            )
        }
        let anchors = Self.iconLineAnchors(
            line, tile: tile, spacing: properties.number(.symbolSpacing, context), shapedLength: shapedLength,
            boxScale: boxScale, scaling: scaling, center: center, window: anchorWindow()
        ) { point, segment, iconAngle in
            // On the segment resampling put the anchor on (MapLibre's `anchor.segment`).
            let at = onSegment(point, segment).along
            guard
                Self.turnsWithin(
                    line, distances: distances, segment: segment, at: at, length: labelLength, window: window,
                    maxAngle: maxAngle)
            else { return false }
            if let area, !area.contains(point) { return true }
            kept.append((at, iconAngle))
            return true
        }
        // `line-center`: the middle when the label passes the same test there (`getCenterAnchor`).
        guard center else { return kept }
        return anchors.compactMap { point, iconAngle in
            // The middle's segment: the first nearest it.
            var (segment, best) = (0, onSegment(point, 0))
            for i in 1..<(line.count - 1) {
                let here = onSegment(point, i)
                if here.distance < best.distance - 1e-9 { (segment, best) = (i, here) }
            }
            let at = best.along
            return Self.turnsWithin(
                line, distances: distances, segment: segment, at: at, length: labelLength, window: window,
                maxAngle: maxAngle) ? (at, iconAngle) : nil
        }
    }

    /// The coordinates line labels are anchored in.
    enum AnchorSpace {
        /// World points (``MapViewport/worldPoint(_:offset:)``): an untilted view.
        case world
        /// Map points over the view's map points per point, unturned: a tilted view's pieces cut to a tile.
        case scaledMap
        /// The turned ground (``ViewProjection/turned(_:)``): a tilted view's whole lines.
        case turned
    }

    /// The visible map rect grown by `margins` symbol margins (``margin``) in `space`: with one, where labels are
    /// considered.
    func labelReach(_ space: AnchorSpace, margins: Double = 1) -> Rect? {
        let viewport = selection.viewport
        let v = viewport.visibleMapRect
        guard !v.isNull, v.width.isFinite, v.height.isFinite else { return nil }
        let corners = [
            MapPoint(x: v.minX, y: v.minY), MapPoint(x: v.maxX, y: v.minY), MapPoint(x: v.maxX, y: v.maxY),
            MapPoint(x: v.minX, y: v.maxY),
        ]
        let k = viewport.mapPointsPerPoint
        let projection = viewport.projection
        let points = corners.map { p -> Point in
            switch space {
            case .world: return projection.isFlat ? viewport.worldPoint(p) : Point(x: p.x / k, y: p.y / k)
            case .scaledMap: return Point(x: p.x / k, y: p.y / k)
            case .turned: return projection.turned(p)
            }
        }
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
        let m = Self.margin * margins
        return Rect(x: minX - m, y: minY - m, width: maxX - minX + 2 * m, height: maxY - minY + 2 * m)
    }

    /// The view's visible map rect grown by four symbol margins, in the coordinates line labels are anchored
    /// in: world points on an untilted map, the turned ground under a pitch.
    func anchorWindow() -> Rect? {
        labelReach(selection.viewport.projection.isFlat ? .world : .turned, margins: 4)
    }

    /// MapLibre's `checkMaxAngle`: false when the label (`length` long, centred `at` on `segment`) runs past an
    /// end of the line, or the line's turns within any `window` of it add up to more than `maxAngle`.
    static func turnsWithin(
        _ line: [Point], distances: [Double], segment: Int, at: Double, length: Double, window: Double,
        maxAngle: Double
    ) -> Bool {
        guard at - length / 2 >= 0, at + length / 2 <= distances.last ?? 0 else { return false }
        var recent: [(distance: Double, delta: Double)] = []
        var sum = 0.0
        var first = 0
        for i in 1..<max(1, line.count - 1) {
            let d = distances[i] - at
            guard d > -length / 2 else { continue }
            guard d < length / 2 else { break }
            let (prev, current, next) = (line[i - 1], line[i], line[i + 1])
            let a1 = atan2(current.y - prev.y, current.x - prev.x)
            let a2 = atan2(next.y - current.y, next.x - current.x)
            var delta = (a1 - a2 + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi
            delta = abs(delta)
            recent.append((d, delta))
            sum += delta
            while first < recent.count, d - recent[first].distance > window {
                sum -= recent[first].delta
                first += 1
            }
            if sum > maxAngle { return false }
        }
        return true
    }
}
