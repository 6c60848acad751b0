import Foundation
import MapGeometry
import MapGraphics

/// Extrudes lines into triangle strips as MapLibre's line bucket does, for the ``Rasterizer``: one pair of
/// vertices per line vertex (more at joins and caps), each pushed out from the centre along its
/// extrusion vector by the line's `outset`, with the normals MapLibre's line shader interpolates.
///
/// Joins: `miter` becomes `bevel` past the miter limit (a bevel whose miter would be longer than twice
/// the width is drawn "flipped", crossing the corner); `round` stays a miter below `line-round-limit`,
/// is a fan of 20-degree slices up to a miter length of 2 and a pair of round caps beyond. Caps: `butt`,
/// `square` (half a width out) and `round` (a square whose normals make the corners round). Extrusion
/// vectors are rounded to 1/63 as MapLibre stores them in a byte.
struct LineTessellator {
    var cap: LineCap
    var join: LineJoin
    var miterLimit: Double
    var roundLimit: Double
    /// How far the vertices are pushed out from the centre (half the width plus the antialiasing margin).
    var outset: Double
    /// `line-offset`: the strip moves this far to the right of the line's direction.
    var offset: Double
    /// MapLibre's extra vertex pairs this far (points) before and after a sharp corner (a turn of more
    /// than 75 degrees) on segments longer than twice it: they change how the strip's triangles
    /// interpolate the normal, progress and distance near the corner (0: none).
    var sharpCornerOffset = 0.0
    /// Where the next line added starts along its whole line and that line's length (points), for the
    /// vertices' progress (`line-gradient`).
    var startLength = 0.0
    var lineLength = 0.0
    /// MapLibre stores a vertex's distance along the line (dashes, patterns) in whole steps of two tile
    /// units (1/4096 of its tile; `LINE_DISTANCE_SCALE`), rounded down, and starts counting again from 0
    /// past 8192 steps (two tiles) when `wrapsDistance`: the step in points for a tile's line (0: exact).
    var distanceQuantum = 0.0
    /// Whether the distance restarts past 8192 quanta (lines not coloured by progress, see above).
    var wrapsDistance = false
    private var distance = 0.0
    private(set) var mesh = LineMesh()
    private var e1 = -1
    private var e2 = -1

    init(cap: LineCap, join: LineJoin, miterLimit: Double, roundLimit: Double, outset: Double, offset: Double) {
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.roundLimit = roundLimit
        self.outset = outset
        self.offset = offset
    }

    /// What MapLibre's line bucket makes of a line vertex: a join of the layer's kind (a round join
    /// becomes a miter or a "fake round" fan by its miter length; a miter past the limit a bevel, a
    /// bevel past a miter length of 2 a flipped bevel) or, at the line's ends, a cap.
    private enum Vertex: Equatable {
        case miter, bevel, flipBevel, round, fakeRound, butt, square

        init(_ join: LineJoin) {
            switch join {
            case .miter: self = .miter
            case .bevel: self = .bevel
            case .round: self = .round
            }
        }

        init(_ cap: LineCap) {
            switch cap {
            case .butt: self = .butt
            case .square: self = .square
            case .round: self = .round
            }
        }
    }

    private static func same(_ a: Point, _ b: Point) -> Bool { a.x == b.x && a.y == b.y }
    private static func length(_ a: Point, _ b: Point) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }
    private static func unitPerp(from a: Point, to b: Point) -> Point {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let l = (dx * dx + dy * dy).squareRoot()
        return Point(x: -dy / l, y: dx / l)
    }

    /// `v.rounded()` (half away from zero), bit for bit, without a call to libm when |v| < 2^52 (larger
    /// values are whole): the fraction `v - trunc(v)` is exact.
    @inline(__always)
    private static func roundedHalfAway(_ v: Double) -> Double {
        guard abs(v) < 4_503_599_627_370_496 else { return v.rounded() }
        let t = Double(Int64(v))
        let f = v - t
        let r = f >= 0.5 ? t + 1 : (f <= -0.5 ? t - 1 : t)
        return r == 0 ? v * 0 : r  // the sign of a zero as rounded() keeps it
    }

    /// Adds one line (a ring when `closed`: joined all round, no caps).
    mutating func add(_ input: [Point], closed: Bool) {
        var vertices = input
        if closed, let f = vertices.first, let l = vertices.last, !Self.same(f, l) { vertices.append(f) }
        var count = vertices.count
        while count >= 2, Self.same(vertices[count - 1], vertices[count - 2]) { count -= 1 }
        var first = 0
        while first < count - 1, Self.same(vertices[first], vertices[first + 1]) { first += 1 }
        guard count >= (closed ? 3 : 2), first < count else { return }
        // At least two vertices and one triangle per line vertex; capacity grown geometrically.
        let needed = mesh.vertices.count + 2 * (count - first)
        if mesh.vertices.capacity < needed {
            mesh.vertices.reserveCapacity(max(needed, 2 * mesh.vertices.capacity))
            mesh.indices.reserveCapacity(max(3 * needed, 2 * mesh.indices.capacity))
        }
        let miterLimit = join == .bevel ? 1.05 : self.miterLimit
        e1 = -1
        e2 = -1
        distance = 0
        var current: Point?
        var previous: Point?
        var previousNormal: Point?
        var nextNormal: Point?
        if closed {
            let c = vertices[count - 2]
            current = c
            nextNormal = Self.unitPerp(from: c, to: vertices[first])
        }
        for i in first..<count {
            let next: Point? = i == count - 1 ? (closed ? vertices[first + 1] : nil) : vertices[i + 1]
            if let next, Self.same(vertices[i], next) { continue }
            if let n = nextNormal { previousNormal = n }
            if let c = current { previous = c }
            let here = vertices[i]
            current = here
            nextNormal = next.map { Self.unitPerp(from: here, to: $0) } ?? previousNormal
            guard let nextN = nextNormal else { continue }
            let prevN = previousNormal ?? nextN
            previousNormal = prevN
            // The bisector of the two normals; 0 when the line turns back on itself.
            var joinNormal = Point(x: prevN.x + nextN.x, y: prevN.y + nextN.y)
            let joinLength = (joinNormal.x * joinNormal.x + joinNormal.y * joinNormal.y).squareRoot()
            if joinLength > 0 { joinNormal = Point(x: joinNormal.x / joinLength, y: joinNormal.y / joinLength) }
            let cosAngle = prevN.x * nextN.x + prevN.y * nextN.y
            let cosHalfAngle = joinNormal.x * nextN.x + joinNormal.y * nextN.y
            let miterLength = cosHalfAngle != 0 ? 1 / cosHalfAngle : Double.infinity
            let approxAngle = 2 * (max(0, 2 - 2 * cosHalfAngle)).squareRoot()
            let turnsLeft = prevN.x * nextN.y - prevN.y * nextN.x > 0
            let middle = previous != nil && next != nil
            var kind = middle ? Vertex(join) : (closed ? .butt : Vertex(cap))
            if middle, kind == .round {
                if miterLength < roundLimit {
                    kind = .miter
                } else if miterLength <= 2 {
                    kind = .fakeRound
                }
            }
            if kind == .miter, miterLength > miterLimit { kind = .bevel }
            if kind == .bevel {
                if miterLength > 2 { kind = .flipBevel }
                if miterLength < miterLimit { kind = .miter }
            }
            // cos(75 degrees / 2): the corners MapLibre calls sharp.
            let sharp = sharpCornerOffset > 0 && previous != nil && next != nil && cosHalfAngle < 0.7933533403
            if sharp, i > first, let p = previous {
                let length = Self.length(p, here)
                if length > 2 * sharpCornerOffset {
                    let step = tileStep(
                        (here.x - p.x) * sharpCornerOffset / length, (here.y - p.y) * sharpCornerOffset / length)
                    let before = Point(x: here.x - step.x, y: here.y - step.y)
                    distance += Self.length(p, before)
                    addPair(before, prevN, 0, 0)
                    previous = before
                }
            }
            if let previous { distance += Self.length(previous, here) }
            switch kind {
            case .miter:
                addPair(here, Point(x: joinNormal.x * miterLength, y: joinNormal.y * miterLength), 0, 0)
            case .flipBevel:
                var n: Point
                if miterLength > 100 {
                    n = Point(x: -nextN.x, y: -nextN.y)
                } else {
                    let sum = ((prevN.x + nextN.x) * (prevN.x + nextN.x) + (prevN.y + nextN.y) * (prevN.y + nextN.y))
                        .squareRoot()
                    let difference =
                        ((prevN.x - nextN.x) * (prevN.x - nextN.x)
                        + (prevN.y - nextN.y) * (prevN.y - nextN.y)).squareRoot()
                    let bevelLength = miterLength * sum / difference * (turnsLeft ? -1 : 1)
                    n = Point(x: -joinNormal.y * bevelLength, y: joinNormal.x * bevelLength)
                }
                addPair(here, n, 0, 0)
                addPair(here, Point(x: -n.x, y: -n.y), 0, 0)
            case .bevel, .fakeRound:
                let shift = -(max(0, miterLength * miterLength - 1)).squareRoot()
                let shiftA = turnsLeft ? shift : 0
                let shiftB = turnsLeft ? 0 : shift
                if previous != nil { addPair(here, prevN, shiftA, shiftB) }
                if kind == .fakeRound {
                    // Slices of about 20 degrees, spaced by an approximation of spherical interpolation.
                    let slices = Int((approxAngle * 180 / Double.pi / 20).rounded(.toNearestOrAwayFromZero))
                    if slices > 1 {
                        for m in 1..<slices {
                            var t = Double(m) / Double(slices)
                            if t != 0.5 {
                                let t2 = t - 0.5
                                let a = 1.0904 + cosAngle * (-3.2452 + cosAngle * (3.55645 - cosAngle * 1.43519))
                                let b = 0.848013 + cosAngle * (-1.06021 + cosAngle * 0.215638)
                                t += t * t2 * (t - 1) * (a * t2 * t2 + b)
                            }
                            var e = Point(
                                x: prevN.x + (nextN.x - prevN.x) * t, y: prevN.y + (nextN.y - prevN.y) * t)
                            let l = (e.x * e.x + e.y * e.y).squareRoot()
                            guard l > 0 else { continue }
                            let sign: Double = turnsLeft ? -1 : 1
                            e = Point(x: e.x / l * sign, y: e.y / l * sign)
                            addHalf(here, e, round: false, up: turnsLeft, direction: 0)
                        }
                    }
                }
                if next != nil { addPair(here, nextN, -shiftA, -shiftB) }
            case .square:
                let end: Double = previous != nil ? 1 : -1
                addPair(here, joinNormal, end, end)
            case .round:
                if previous != nil {
                    addPair(here, prevN, 0, 0)
                    addPair(here, prevN, 1, 1, round: true)
                }
                if next != nil {
                    addPair(here, nextN, -1, -1, round: true)
                    addPair(here, nextN, 0, 0)
                }
            case .butt:
                addPair(here, joinNormal, 0, 0)
            }
            if sharp, i < count - 1, let n = next {
                let length = Self.length(here, n)
                if length > 2 * sharpCornerOffset {
                    let step = tileStep(
                        (n.x - here.x) * sharpCornerOffset / length, (n.y - here.y) * sharpCornerOffset / length)
                    let after = Point(x: here.x + step.x, y: here.y + step.y)
                    distance += Self.length(here, after)
                    addPair(after, nextN, 0, 0)
                    current = after
                }
            }
        }
    }

    /// A sharp corner's step to its extra vertex: on a tile's line rounded to whole tile units (half a
    /// quantum, 1/8192 of the tile; `Math.round`, halves up) as MapLibre places it in its tile's grid.
    private func tileStep(_ dx: Double, _ dy: Double) -> Point {
        guard distanceQuantum > 0 else { return Point(x: dx, y: dy) }
        let unit = distanceQuantum / 2
        return Point(x: (dx / unit + 0.5).rounded(.down) * unit, y: (dy / unit + 0.5).rounded(.down) * unit)
    }

    /// The left and right vertices at `p` for `normal`, moved along the line by `endLeft`/`endRight`
    /// widths (caps and bevels).
    private mutating func addPair(
        _ p: Point, _ normal: Point, _ endLeft: Double, _ endRight: Double, round: Bool = false
    ) {
        let left = Point(x: normal.x + normal.y * endLeft, y: normal.y - normal.x * endLeft)
        let right = Point(x: -normal.x + normal.y * endRight, y: -normal.y - normal.x * endRight)
        addHalf(p, left, round: round, up: false, direction: endLeft)
        addHalf(p, right, round: round, up: true, direction: -endRight)
        // MapLibre's buffer holds 2^15 quanta; half-way it restarts from 0 and repeats the pair there.
        if wrapsDistance, distanceQuantum > 0, startLength + distance > 8192 * distanceQuantum {
            startLength = 0
            distance = 0
            addPair(p, normal, endLeft, endRight, round: round)
        }
    }

    private mutating func addHalf(_ p: Point, _ extrude: Point, round: Bool, up: Bool, direction: Double) {
        func quantized(_ v: Double) -> Double { min(max(Self.roundedHalfAway(v * 63), -128), 127) / 63 }
        let e = Point(x: quantized(extrude.x), y: quantized(extrude.y))
        let side: Double = up ? 1 : -1
        // line-offset moves the vertex along the segment's normal (e * side), turned (by about 27
        // degrees) for the vertices of round caps, as MapLibre's shader does.
        let u = direction == 0 ? 0 : (direction < 0 ? -0.5 : 0.5)
        let t = 1 - abs(u)
        let vx = -offset * e.x * side
        let vy = -offset * e.y * side
        let shifted = Point(x: vx * t - vy * u, y: vx * u + vy * t)
        let position = Point(x: p.x + e.x * outset + shifted.x, y: p.y + e.y * outset + shifted.y)
        let index = mesh.vertices.count
        let progress = lineLength > 0 ? min(max((startLength + distance) / lineLength, 0), 1) : 0
        var along = startLength + distance
        if distanceQuantum > 0 { along = (along / distanceQuantum).rounded(.down) * distanceQuantum }
        mesh.vertices.append(
            LineMesh.Vertex(
                position: position, normal: Point(x: round ? 1 : 0, y: side), progress: progress,
                distance: along))
        if e1 >= 0, e2 >= 0 {
            mesh.indices.append(Int32(e1))
            mesh.indices.append(Int32(index))
            mesh.indices.append(Int32(e2))
        }
        if up { e2 = index } else { e1 = index }
    }
}
