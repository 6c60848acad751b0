import MapGeometry

/// Labels are laid out in world points: map points over the view's map points per point, turned by the
/// view's heading about the world's origin, so that a turned view lays them out along its own axes (text
/// upright on the image, collisions in the image's space) and draws them by a shift alone. A tilted view
/// lays them out on the image itself (world points are image points): anchors and lines projected, text
/// facing the camera (MapLibre's `viewport` pitch alignment, for every label).
extension MapViewport {
    /// The world point of map point `p` of the world copy `offset` (facing north: `(p + offset) / perPoint`).
    @inline(__always) func worldPoint(_ p: MapPoint, offset: Double = 0) -> Point {
        let perPoint = mapPointsPerPoint
        let x = (p.x + offset) / perPoint
        let y = p.y / perPoint
        let projection = self.projection
        if projection.isNorthUpAndFlat { return Point(x: x, y: y) }
        if !projection.isFlat {
            let r = projection.turned(MapPoint(x: p.x + offset, y: p.y))
            let strip = projection.groundStrip(margin: 2 * SymbolLayerRenderer.gridPadding)
            guard strip.contains(r.y) else { return Point(x: .nan, y: .nan) }
            return projection.project(turned: r).point
        }
        return Point(x: x * projection.cosH + y * projection.sinH, y: -x * projection.sinH + y * projection.cosH)
    }

    /// The world-point rect of a map rect (facing north: exactly the rect over perPoint; turned: the
    /// bounding box of its turned corners).
    func worldRect(_ r: MapRect, offset: Double = 0) -> Rect {
        if projection.isNorthUpAndFlat {
            let perPoint = mapPointsPerPoint
            return Rect(
                x: (r.minX + offset) / perPoint, y: r.minY / perPoint, width: r.width / perPoint,
                height: r.height / perPoint)
        }
        let corners = [
            worldPoint(MapPoint(x: r.minX, y: r.minY), offset: offset),
            worldPoint(MapPoint(x: r.maxX, y: r.minY), offset: offset),
            worldPoint(MapPoint(x: r.minX, y: r.maxY), offset: offset),
            worldPoint(MapPoint(x: r.maxX, y: r.maxY), offset: offset),
        ]
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let minX = xs.min() ?? 0
        let minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }

    /// The image's top-left corner in world points: a label at world point `w` is drawn at `w - worldOrigin`.
    var worldOrigin: Point {
        let projection = self.projection
        if projection.isNorthUpAndFlat {
            let origin = visibleMapRect.origin
            return Point(x: origin.x / mapPointsPerPoint, y: origin.y / mapPointsPerPoint)
        }
        if !projection.isFlat { return .zero }
        let c = worldPoint(projection.center)
        return Point(x: c.x - size.width / 2, y: c.y - size.height / 2)
    }

    /// A vector along the map's axes (a `*-translate` anchored to the map) along the world points' axes.
    func turnedVector(_ v: Point) -> Point {
        let projection = self.projection
        if projection.isNorthUpAndFlat { return v }
        return Point(
            x: v.x * projection.cosH + v.y * projection.sinH, y: -v.x * projection.sinH + v.y * projection.cosH)
    }

    /// MapLibre's `perspective_ratio` for a symbol at world point `w` of a tilted view (its anchor on the
    /// image): `0.5 + 0.5 x d / depth`, within 0...4; 1 in a flat view.
    func perspectiveRatio(at w: Point) -> Double {
        let projection = self.projection
        guard !projection.isFlat, w.y.isFinite else { return 1 }
        let d = projection.distance
        let v = w.y - size.height / 2
        let denominator = d * projection.cosP + v * projection.sinP
        guard denominator > 0 else { return 1 }
        let depth = d * d * projection.cosP / denominator
        return min(max(0.5 + 0.5 * d / depth, 0), 4)
    }

    /// The angle (radians, clockwise on the image) by which the map's axes are turned on the image:
    /// `-heading`, for symbols aligned to the map.
    var mapAngle: Double { heading == 0 ? 0 : -heading * .pi / 180 }
}
