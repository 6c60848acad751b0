/// Polygon triangulation by ear clipping, the algorithm MapLibre triangulates fills and extrusion roofs
/// with (Mapbox's earcut, ISC): holes are bridged into the outer ring, ears are clipped in ring order (with a
/// z-order curve index for rings of more than 80 points, so that the point-in-ear tests stay local), and
/// what is left after a full turn (self-intersections, degenerate pieces) is cured locally or split along a
/// valid diagonal. The triangles cover the polygon under the non-zero rule of simple rings; a ring with
/// fewer than three distinct points adds none.
///
/// ```swift
/// let square = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]
/// let indices = PolygonTriangulation.triangulate([square])  // two triangles, 6 indices into the square
/// ```
public enum PolygonTriangulation {
    /// The triangles of a polygon, `rings[0]` its outer ring and the rest its holes (either winding; a
    /// closing point equal to the first is allowed): indices into the rings' points counted one ring after
    /// the other, three per triangle. Rings with non-finite points give no triangles.
    public static func triangulate(_ rings: [[Point]]) -> [Int32] {
        var count = 0
        for ring in rings {
            for p in ring where !p.x.isFinite || !p.y.isFinite { return [] }
            count += ring.count
        }
        guard let first = rings.first, first.count >= 3, count < Int(Int32.max / 2) else { return [] }
        var t = Triangulator()
        t.reserve(count + 2 * rings.count)
        guard var outer = t.linkedList(first, start: 0, clockwise: true), t.next[outer] != t.prev[outer] else {
            return []
        }
        if rings.count > 1 { outer = t.eliminateHoles(rings, outer: outer) }
        if count > 80 {
            var minX = Double.infinity
            var minY = Double.infinity
            var maxX = -Double.infinity
            var maxY = -Double.infinity
            for p in first {
                minX = min(minX, p.x)
                minY = min(minY, p.y)
                maxX = max(maxX, p.x)
                maxY = max(maxY, p.y)
            }
            let size = max(maxX - minX, maxY - minY)
            t.hash = size > 0 ? (minX, minY, 32767 / size) : nil
        }
        t.earcut(outer, pass: 0)
        return t.triangles
    }
}

/// The working state of one triangulation: a doubly linked list of the rings' points (and a second one in
/// z-order), by node index.
private struct Triangulator {
    var index: [Int32] = []  // the point's index in the input
    var x: [Double] = []
    var y: [Double] = []
    var prev: [Int] = []
    var next: [Int] = []
    var z: [Int32] = []
    var prevZ: [Int] = []
    var nextZ: [Int] = []
    var steiner: [Bool] = []
    var triangles: [Int32] = []
    /// minX, minY and 32767 / size for the z-order curve; nil without the index.
    var hash: (Double, Double, Double)?
    static let none = -1

    mutating func reserve(_ n: Int) {
        index.reserveCapacity(n)
        x.reserveCapacity(n)
        y.reserveCapacity(n)
        prev.reserveCapacity(n)
        next.reserveCapacity(n)
        z.reserveCapacity(n)
        prevZ.reserveCapacity(n)
        nextZ.reserveCapacity(n)
        steiner.reserveCapacity(n)
    }

    mutating func node(_ i: Int32, _ px: Double, _ py: Double) -> Int {
        let n = index.count
        index.append(i)
        x.append(px)
        y.append(py)
        prev.append(n)
        next.append(n)
        z.append(0)
        prevZ.append(Self.none)
        nextZ.append(Self.none)
        steiner.append(false)
        return n
    }

    /// Inserts a node after `last` (or starts a list).
    mutating func insert(_ i: Int32, _ px: Double, _ py: Double, after last: Int?) -> Int {
        let p = node(i, px, py)
        if let last {
            next[p] = next[last]
            prev[p] = last
            prev[next[last]] = p
            next[last] = p
        }
        return p
    }

    mutating func remove(_ p: Int) {
        next[prev[p]] = next[p]
        prev[next[p]] = prev[p]
        if prevZ[p] != Self.none { nextZ[prevZ[p]] = nextZ[p] }
        if nextZ[p] != Self.none { prevZ[nextZ[p]] = prevZ[p] }
    }

    /// A circular list of `ring` (input indices from `start`) in the given winding; nil when empty.
    mutating func linkedList(_ ring: [Point], start: Int, clockwise: Bool) -> Int? {
        var points = ring
        if points.count > 1, points.first == points.last { points.removeLast() }
        guard !points.isEmpty else { return nil }
        var area = 0.0
        var j = points.count - 1
        for i in 0..<points.count {
            area += (points[j].x - points[i].x) * (points[i].y + points[j].y)
            j = i
        }
        var last: Int?
        if clockwise == (area > 0) {
            for (k, p) in points.enumerated() { last = insert(Int32(start + k), p.x, p.y, after: last) }
        } else {
            for k in points.indices.reversed() {
                last = insert(Int32(start + k), points[k].x, points[k].y, after: last)
            }
        }
        if let l = last, equal(l, next[l]) {
            let n = next[l]
            remove(l)
            last = n
        }
        return last
    }

    func equal(_ a: Int, _ b: Int) -> Bool { x[a] == x[b] && y[a] == y[b] }

    /// Twice the signed area of the triangle p, q, r (negative for an ear of the list's winding).
    func area(_ p: Int, _ q: Int, _ r: Int) -> Double {
        (y[q] - y[p]) * (x[r] - x[q]) - (x[q] - x[p]) * (y[r] - y[q])
    }

    static func inTriangle(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double, _ px: Double,
        _ py: Double
    ) -> Bool {
        (cx - px) * (ay - py) >= (ax - px) * (cy - py) && (ax - px) * (by - py) >= (bx - px) * (ay - py)
            && (bx - px) * (cy - py) >= (cx - px) * (by - py)
    }

    /// Removes duplicate and collinear points from `start` to `end`; returns a node still in the list.
    mutating func filter(_ start: Int, _ end: Int? = nil) -> Int {
        var end = end ?? start
        var p = start
        var again = false
        repeat {
            again = false
            if !steiner[p] && (equal(p, next[p]) || area(prev[p], p, next[p]) == 0) {
                remove(p)
                p = prev[p]
                end = p
                if p == next[p] { break }
                again = true
            } else {
                p = next[p]
            }
        } while again || p != end
        return end
    }

    mutating func earcut(_ start: Int, pass: Int) {
        var ear = start
        if pass == 0, hash != nil { indexCurve(ear) }
        var stop = ear
        while prev[ear] != next[ear] {
            let p = prev[ear]
            let n = next[ear]
            if hash != nil ? isEarHashed(ear) : isEar(ear) {
                triangles.append(index[p])
                triangles.append(index[ear])
                triangles.append(index[n])
                remove(ear)
                ear = next[n]
                stop = next[n]
                continue
            }
            ear = n
            if ear == stop {
                switch pass {
                case 0: earcut(filter(ear), pass: 1)
                case 1: earcut(cureLocalIntersections(filter(ear)), pass: 2)
                default: splitEarcut(ear)
                }
                break
            }
        }
    }

    func isEar(_ ear: Int) -> Bool {
        let a = prev[ear]
        let c = next[ear]
        guard area(a, ear, c) < 0 else { return false }
        let (ax, ay, bx, by, cx, cy) = (x[a], y[a], x[ear], y[ear], x[c], y[c])
        let x0 = min(ax, bx, cx)
        let y0 = min(ay, by, cy)
        let x1 = max(ax, bx, cx)
        let y1 = max(ay, by, cy)
        var p = next[c]
        while p != a {
            if x[p] >= x0, x[p] <= x1, y[p] >= y0, y[p] <= y1,
                Self.inTriangle(ax, ay, bx, by, cx, cy, x[p], y[p]), area(prev[p], p, next[p]) >= 0
            {
                return false
            }
            p = next[p]
        }
        return true
    }

    func isEarHashed(_ ear: Int) -> Bool {
        let a = prev[ear]
        let c = next[ear]
        guard area(a, ear, c) < 0, let hash else { return false }
        let (ax, ay, bx, by, cx, cy) = (x[a], y[a], x[ear], y[ear], x[c], y[c])
        let x0 = min(ax, bx, cx)
        let y0 = min(ay, by, cy)
        let x1 = max(ax, bx, cx)
        let y1 = max(ay, by, cy)
        let minZ = Self.zOrder(x0, y0, hash)
        let maxZ = Self.zOrder(x1, y1, hash)
        func blocks(_ p: Int) -> Bool {
            p != a && p != c && x[p] >= x0 && x[p] <= x1 && y[p] >= y0 && y[p] <= y1
                && Self.inTriangle(ax, ay, bx, by, cx, cy, x[p], y[p]) && area(prev[p], p, next[p]) >= 0
        }
        var p = prevZ[ear]
        var n = nextZ[ear]
        while p != Self.none, z[p] >= minZ, n != Self.none, z[n] <= maxZ {
            if blocks(p) { return false }
            p = prevZ[p]
            if blocks(n) { return false }
            n = nextZ[n]
        }
        while p != Self.none, z[p] >= minZ {
            if blocks(p) { return false }
            p = prevZ[p]
        }
        while n != Self.none, z[n] <= maxZ {
            if blocks(n) { return false }
            n = nextZ[n]
        }
        return true
    }

    mutating func cureLocalIntersections(_ start0: Int) -> Int {
        var start = start0
        var p = start
        repeat {
            let a = prev[p]
            let b = next[next[p]]
            if !equal(a, b), intersects(a, p, next[p], b), locallyInside(a, b), locallyInside(b, a) {
                triangles.append(index[a])
                triangles.append(index[p])
                triangles.append(index[b])
                remove(p)
                remove(next[p])
                p = b
                start = b
            }
            p = next[p]
        } while p != start
        return filter(p)
    }

    mutating func splitEarcut(_ start: Int) {
        var a = start
        repeat {
            var b = next[next[a]]
            while b != prev[a] {
                if index[a] != index[b], isValidDiagonal(a, b) {
                    var c = split(a, b)
                    let a2 = filter(a, next[a])
                    c = filter(c, next[c])
                    earcut(a2, pass: 0)
                    earcut(c, pass: 0)
                    return
                }
                b = next[b]
            }
            a = next[a]
        } while a != start
    }

    mutating func eliminateHoles(_ rings: [[Point]], outer: Int) -> Int {
        var queue: [Int] = []
        var start = rings[0].count
        for ring in rings.dropFirst() {
            defer { start += ring.count }
            guard let list = linkedList(ring, start: start, clockwise: false) else { continue }
            if list == next[list] { steiner[list] = true }
            queue.append(leftmost(list))
        }
        queue.sort { x[$0] != x[$1] ? x[$0] < x[$1] : $0 < $1 }
        var outer = outer
        for hole in queue { outer = eliminateHole(hole, outer) }
        return outer
    }

    mutating func eliminateHole(_ hole: Int, _ outer: Int) -> Int {
        guard let bridge = holeBridge(hole, outer) else { return outer }
        let reverse = split(bridge, hole)
        _ = filter(reverse, next[reverse])
        return filter(bridge, next[bridge])
    }

    func holeBridge(_ hole: Int, _ outer: Int) -> Int? {
        var p = outer
        let hx = x[hole]
        let hy = y[hole]
        var qx = -Double.infinity
        var m: Int?
        repeat {
            let n = next[p]
            if hy <= y[p], hy >= y[n], y[n] != y[p] {
                let ix = x[p] + (hy - y[p]) * (x[n] - x[p]) / (y[n] - y[p])
                if ix <= hx, ix > qx {
                    qx = ix
                    m = x[p] < x[n] ? p : n
                    if ix == hx { return m }
                }
            }
            p = n
        } while p != outer
        guard var best = m else { return nil }
        let stop = best
        let mx = x[best]
        let my = y[best]
        var tanMin = Double.infinity
        p = best
        repeat {
            if hx >= x[p], x[p] >= mx, hx != x[p],
                Self.inTriangle(hy < my ? hx : qx, hy, mx, my, hy < my ? qx : hx, hy, x[p], y[p])
            {
                let tan = abs(hy - y[p]) / (hx - x[p])
                if locallyInside(p, hole),
                    tan < tanMin || (tan == tanMin && (x[p] > x[best] || (x[p] == x[best] && sectorContains(best, p))))
                {
                    best = p
                    tanMin = tan
                }
            }
            p = next[p]
        } while p != stop
        return best
    }

    func sectorContains(_ m: Int, _ p: Int) -> Bool {
        area(prev[m], m, prev[p]) < 0 && area(next[p], m, next[m]) < 0
    }

    func leftmost(_ start: Int) -> Int {
        var p = start
        var best = start
        repeat {
            if x[p] < x[best] || (x[p] == x[best] && y[p] < y[best]) { best = p }
            p = next[p]
        } while p != start
        return best
    }

    func isValidDiagonal(_ a: Int, _ b: Int) -> Bool {
        guard index[next[a]] != index[b], index[prev[a]] != index[b], !intersectsPolygon(a, b) else { return false }
        if locallyInside(a, b), locallyInside(b, a), middleInside(a, b),
            area(prev[a], a, prev[b]) != 0 || area(a, prev[b], b) != 0
        {
            return true
        }
        return equal(a, b) && area(prev[a], a, next[a]) > 0 && area(prev[b], b, next[b]) > 0
    }

    func intersects(_ p1: Int, _ q1: Int, _ p2: Int, _ q2: Int) -> Bool {
        func sign(_ v: Double) -> Int { v > 0 ? 1 : (v < 0 ? -1 : 0) }
        func onSegment(_ p: Int, _ q: Int, _ r: Int) -> Bool {
            x[q] <= max(x[p], x[r]) && x[q] >= min(x[p], x[r]) && y[q] <= max(y[p], y[r]) && y[q] >= min(y[p], y[r])
        }
        let o1 = sign(area(p1, q1, p2))
        let o2 = sign(area(p1, q1, q2))
        let o3 = sign(area(p2, q2, p1))
        let o4 = sign(area(p2, q2, q1))
        if o1 != o2 && o3 != o4 { return true }
        if o1 == 0 && onSegment(p1, p2, q1) { return true }
        if o2 == 0 && onSegment(p1, q2, q1) { return true }
        if o3 == 0 && onSegment(p2, p1, q2) { return true }
        if o4 == 0 && onSegment(p2, q1, q2) { return true }
        return false
    }

    func intersectsPolygon(_ a: Int, _ b: Int) -> Bool {
        var p = a
        repeat {
            let n = next[p]
            if index[p] != index[a], index[n] != index[a], index[p] != index[b], index[n] != index[b],
                intersects(p, n, a, b)
            {
                return true
            }
            p = n
        } while p != a
        return false
    }

    func locallyInside(_ a: Int, _ b: Int) -> Bool {
        area(prev[a], a, next[a]) < 0
            ? area(a, b, next[a]) >= 0 && area(a, prev[a], b) >= 0
            : area(a, b, prev[a]) < 0 || area(a, next[a], b) < 0
    }

    func middleInside(_ a: Int, _ b: Int) -> Bool {
        var p = a
        var inside = false
        let px = (x[a] + x[b]) / 2
        let py = (y[a] + y[b]) / 2
        repeat {
            let n = next[p]
            if (y[p] > py) != (y[n] > py), y[n] != y[p], px < (x[n] - x[p]) * (py - y[p]) / (y[n] - y[p]) + x[p] {
                inside.toggle()
            }
            p = n
        } while p != a
        return inside
    }

    /// Links `a` to `b` with a bridge, splitting the list in two; returns the copy of `b` in the second.
    mutating func split(_ a: Int, _ b: Int) -> Int {
        let a2 = node(index[a], x[a], y[a])
        let b2 = node(index[b], x[b], y[b])
        let an = next[a]
        let bp = prev[b]
        next[a] = b
        prev[b] = a
        next[a2] = an
        prev[an] = a2
        next[b2] = a2
        prev[a2] = b2
        next[bp] = b2
        prev[b2] = bp
        return b2
    }

    static func zOrder(_ px: Double, _ py: Double, _ hash: (Double, Double, Double)) -> Int32 {
        // The point on a 32768 x 32768 grid over the ring's box (clamped there: a hole may reach outside).
        func spread(_ v: Double) -> Int32 {
            var i = Int32(v)
            i = (i | (i << 8)) & 0x00FF_00FF
            i = (i | (i << 4)) & 0x0F0F_0F0F
            i = (i | (i << 2)) & 0x3333_3333
            i = (i | (i << 1)) & 0x5555_5555
            return i
        }
        let gx = min(max((px - hash.0) * hash.2, 0), 32767)
        let gy = min(max((py - hash.1) * hash.2, 0), 32767)
        return spread(gx) | (spread(gy) << 1)
    }

    mutating func indexCurve(_ start: Int) {
        guard let hash else { return }
        var p = start
        repeat {
            if z[p] == 0 { z[p] = Self.zOrder(x[p], y[p], hash) }
            prevZ[p] = prev[p]
            nextZ[p] = next[p]
            p = next[p]
        } while p != start
        nextZ[prevZ[p]] = Self.none
        prevZ[p] = Self.none
        sortLinked(p)
    }

    /// Merge sort of the z-order list (Simon Tatham's linked-list merge sort).
    mutating func sortLinked(_ list0: Int) {
        var list = list0
        var inSize = 1
        var merges = 0
        repeat {
            var p = list
            list = Self.none
            var tail = Self.none
            merges = 0
            while p != Self.none {
                merges += 1
                var q = p
                var pSize = 0
                for _ in 0..<inSize {
                    pSize += 1
                    q = nextZ[q]
                    if q == Self.none { break }
                }
                var qSize = inSize
                while pSize > 0 || (qSize > 0 && q != Self.none) {
                    let e: Int
                    if pSize != 0 && (qSize == 0 || q == Self.none || z[p] <= z[q]) {
                        e = p
                        p = nextZ[p]
                        pSize -= 1
                    } else {
                        e = q
                        q = nextZ[q]
                        qSize -= 1
                    }
                    if tail != Self.none { nextZ[tail] = e } else { list = e }
                    prevZ[e] = tail
                    tail = e
                }
                p = q
            }
            nextZ[tail] = Self.none
            inSize *= 2
        } while merges > 1
    }
}
