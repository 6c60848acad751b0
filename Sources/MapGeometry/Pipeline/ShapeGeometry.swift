/// An overlay's geometry in unwrapped map points, the input of the ``GeometryPipeline``.
package struct ShapeGeometry: Sendable {
    /// One part of a shape.
    package enum Part: Sendable {
        /// An open line, stroked.
        case line([MapPoint])
        /// A closed ring, filled (even-odd with the other rings) and stroked. A ring that goes once round
        /// the world encloses a pole and is closed along the map's top or bottom edge.
        case ring([MapPoint])
    }

    /// Which pole a ring that goes round the world encloses.
    package enum Pole: Sendable { case north, south }

    package var parts: [Part] = []
    /// The pole enclosed by rings that go round the world; nil decides per ring by its mean latitude.
    package var enclosedPole: Pole?
    /// Whether the filled area is everything outside the rings (a circle containing both poles).
    package var fillsOutside = false

    /// A shape of parts.
    package init(parts: [Part] = [], enclosedPole: Pole? = nil, fillsOutside: Bool = false) {
        self.parts = parts
        self.enclosedPole = enclosedPole
        self.fillsOutside = fillsOutside
    }

    /// The bounds of all parts, extended to the poles that rings going round the world enclose.
    package var bounds: MapRect {
        var rect = MapRect.null
        for part in parts {
            switch part {
            case .line(let points): rect = rect.union(boundingRect(of: points))
            case .ring(let points):
                var r = boundingRect(of: points)
                if let pole = pole(forRing: points) {
                    r = r.union(
                        MapRect(x: r.minX, y: pole == .north ? 0 : WebMercator.worldSize, width: r.width, height: 0))
                }
                rect = rect.union(r)
            }
        }
        if fillsOutside, !rect.isNull {
            rect = rect.union(MapRect(x: rect.minX, y: 0, width: rect.width, height: WebMercator.worldSize))
        }
        return rect
    }

    /// The pole a ring encloses, or nil for a ring that does not go round the world.
    package func pole(forRing points: [MapPoint]) -> Pole? {
        let travel = Antimeridian.netEastwardTravel(ofRing: points)
        guard abs(travel) > WebMercator.worldSize / 2 else { return nil }
        if let enclosedPole { return enclosedPole }
        let meanY = points.reduce(0) { $0 + $1.y } / Double(max(1, points.count))
        return meanY < WebMercator.worldSize / 2 ? .north : .south
    }
}
