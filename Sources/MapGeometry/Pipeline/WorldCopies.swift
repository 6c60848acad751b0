/// The copies of the world that a view shows: Web Mercator wraps east-west every
/// ``WebMercator/worldSize`` map points, so a view across the 180th meridian (or a zoomed-out view wider
/// than the world) shows a shape several times, each copy shifted by a whole number of world widths.
///
/// Every renderer that draws map-point geometry asks this type which copies to draw; nothing else
/// loops over world copies.
package enum WorldCopies {
    /// The east-west shifts (multiples of the world width, ascending) that move `bounds` to meet
    /// `window`, edges included. Both rects may lie east or west of the world (unwrapped geometry).
    package static func offsets(
        of bounds: MapRect, meeting window: MapRect, worldWidth world: Double = WebMercator.worldSize
    ) -> [Double] {
        guard !bounds.isNull, !window.isNull, bounds.minY <= window.maxY, bounds.maxY >= window.minY,
            bounds.minX.isFinite, bounds.maxX.isFinite, window.minX.isFinite, window.maxX.isFinite, world > 0
        else { return [] }
        // At most a few copies are ever visible; a window wider than that is clamped (hostile input).
        let firstK = ((window.minX - bounds.maxX) / world).rounded(.up)
        let lastK = ((window.maxX - bounds.minX) / world).rounded(.down)
        guard firstK <= lastK, let first = Int(exactly: firstK), let last = Int(exactly: min(lastK, firstK + 64))
        else { return [] }
        return (first...last).map { Double($0) * world }
    }

    /// The shifts of the whole world (x in 0...worldSize) that meet `window`: the copies a base map
    /// draws, the leftmost first.
    package static func offsets(meeting window: MapRect) -> [Double] {
        offsets(of: MapRect.world, meeting: window)
    }

    /// `x` moved by whole world widths into the world, 0 ..< `worldWidth`.
    @inlinable package static func wrap(_ x: Double, worldWidth: Double = WebMercator.worldSize) -> Double {
        let r = x.truncatingRemainder(dividingBy: worldWidth)
        return r < 0 ? r + worldWidth : r
    }

    /// `x` moved by whole world widths to lie as near `reference` as possible: the copy of a point that
    /// a view centered at `reference` shows (annotations draw only this copy).
    @inlinable package static func nearest(
        _ x: Double, to reference: Double, worldWidth: Double = WebMercator.worldSize
    )
        -> Double
    {
        x + ((reference - x) / worldWidth).rounded() * worldWidth
    }
}
