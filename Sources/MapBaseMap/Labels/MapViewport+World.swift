import MapGeometry

/// Labels are laid out in world points: map points over the view's map points per point, turned by the
/// view's heading about the world's origin, so that a turned view lays them out along its own axes (text
/// upright on the image, collisions in the image's space) and draws them by a shift alone.
extension MapViewport {
    /// The world point of map point `p` of the world copy `offset` (facing north: `(p + offset) / perPoint`).
    @inline(__always) func worldPoint(_ p: MapPoint, offset: Double = 0) -> Point {
        let perPoint = mapPointsPerPoint
        let x = (p.x + offset) / perPoint
        let y = p.y / perPoint
        let projection = self.projection
        if projection.isNorthUpAndFlat { return Point(x: x, y: y) }
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
        let c = worldPoint(projection.center)
        return Point(x: c.x - size.width / 2, y: c.y - size.height / 2)
    }

    /// A vector along the map's axes (a `*-translate` anchored to the map) along the world points' axes.
    func turnedVector(_ v: Point) -> Point {
        let projection = self.projection
        if projection.isNorthUpAndFlat { return v }
        return Point(x: v.x * projection.cosH + v.y * projection.sinH, y: -v.x * projection.sinH + v.y * projection.cosH)
    }

    /// The angle (radians, clockwise on the image) by which the map's axes are turned on the image:
    /// `-heading`, for symbols aligned to the map.
    var mapAngle: Double { heading == 0 ? 0 : -heading * .pi / 180 }
}
