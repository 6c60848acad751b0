/// Turns a feature's geometry commands (MVT 2.1 section 4.3) into points, lines or polygons.
enum GeometryDecoder {
    struct Problem: Error {
        var reason: String
    }

    private static let moveTo: UInt32 = 1
    private static let lineTo: UInt32 = 2
    private static let closePath: UInt32 = 7

    /// Decodes `commands` of geometry `type` 1...3. With `legacyWinding` (version 1 layers, written before
    /// the specification fixed the winding), the first ring's winding marks exteriors, as MapLibre does;
    /// otherwise positive area is exterior and negative area a hole of the exterior before it.
    static func decode(_ commands: [UInt32], type: UInt64, legacyWinding: Bool) throws(Problem) -> VectorTileGeometry {
        var x: Int64 = 0
        var y: Int64 = 0
        var index = 0
        var parts: [[VectorTilePoint]] = []
        var current: [VectorTilePoint] = []
        var points: [VectorTilePoint] = []

        func readPoints(_ count: Int, into target: inout [VectorTilePoint]) throws(Problem) {
            // Each point takes two parameters; the count is checked against what is left before anything
            // is reserved, so memory stays proportional to the input.
            guard count <= (commands.count - index) / 2 else {
                throw Problem(
                    reason: "a command of \(count) points needs \(count * 2) parameters but only"
                        + " \(commands.count - index) remain")
            }
            target.reserveCapacity(target.count + count)
            for _ in 0..<count {
                let dx = commands[index]
                let dy = commands[index + 1]
                index += 2
                x += Int64(dx >> 1) ^ -Int64(dx & 1)
                y += Int64(dy >> 1) ^ -Int64(dy & 1)
                guard let px = Int32(exactly: x), let py = Int32(exactly: y) else {
                    throw Problem(reason: "coordinate (\(x), \(y)) does not fit in 32 bits")
                }
                target.append(VectorTilePoint(x: px, y: py))
            }
        }

        while index < commands.count {
            let command = commands[index] & 7
            let count = Int(commands[index] >> 3)
            let commandIndex = index
            index += 1
            switch (command, type) {
            case (moveTo, 1):
                guard count > 0 else { throw Problem(reason: "MoveTo with count 0 at integer \(commandIndex)") }
                try readPoints(count, into: &points)
            case (moveTo, _):
                guard count == 1 else {
                    throw Problem(reason: "MoveTo at integer \(commandIndex) has count \(count), expected 1")
                }
                if type == 2 {
                    try finishLine(&current, into: &parts)
                } else if !current.isEmpty {
                    throw Problem(reason: "polygon ring \(parts.count) is not closed with ClosePath")
                }
                try readPoints(1, into: &current)
            case (lineTo, 2), (lineTo, 3):
                guard !current.isEmpty else {
                    throw Problem(reason: "LineTo at integer \(commandIndex) comes before any MoveTo")
                }
                try readPoints(count, into: &current)
            case (closePath, 3):
                guard count == 1 else {
                    throw Problem(reason: "ClosePath at integer \(commandIndex) has count \(count), expected 1")
                }
                guard !current.isEmpty else {
                    throw Problem(reason: "ClosePath at integer \(commandIndex) comes before any MoveTo")
                }
                parts.append(current)
                current = []
            case (moveTo...lineTo, _), (closePath, _):
                let names = [1: "MoveTo", 2: "LineTo", 7: "ClosePath"]
                let types = [1: "point", 2: "linestring", 3: "polygon"]
                throw Problem(
                    reason: "\(names[Int(command)] ?? "?") at integer \(commandIndex) is not allowed in a"
                        + " \(types[Int(type)] ?? "?") geometry")
            default:
                throw Problem(reason: "unknown command \(command) at integer \(commandIndex)")
            }
        }

        switch type {
        case 1:
            return .points(points)
        case 2:
            try finishLine(&current, into: &parts)
            return .lines(parts)
        default:
            guard current.isEmpty else {
                throw Problem(reason: "polygon ring \(parts.count) is not closed with ClosePath")
            }
            return .polygons(try classify(parts, legacyWinding: legacyWinding))
        }
    }

    private static func finishLine(_ current: inout [VectorTilePoint], into parts: inout [[VectorTilePoint]])
        throws(Problem)
    {
        guard !current.isEmpty else { return }
        guard current.count >= 2 else { throw Problem(reason: "line \(parts.count) has a single point") }
        parts.append(current)
        current = []
    }

    /// Groups rings into polygons by the sign of their area (MVT 2.1 section 4.3.4.4); zero-area rings
    /// are dropped.
    static func classify(_ rings: [[VectorTilePoint]], legacyWinding: Bool) throws(Problem) -> [VectorTilePolygon] {
        var polygons: [VectorTilePolygon] = []
        var exteriorSign = 0
        for (number, ring) in rings.enumerated() {
            let sign = areaSign(ring)
            if sign == 0 { continue }
            if exteriorSign == 0 { exteriorSign = legacyWinding ? sign : 1 }
            if sign == exteriorSign {
                polygons.append(VectorTilePolygon(exterior: ring))
            } else {
                guard !polygons.isEmpty else {
                    throw Problem(
                        reason: "ring \(number) has negative area (a hole) but no exterior ring comes before it")
                }
                polygons[polygons.count - 1].holes.append(ring)
            }
        }
        return polygons
    }

    /// The sign of the surveyor's-formula area of a ring in tile coordinates (positive: clockwise on
    /// screen, y down). Exact in 64-bit integers, falling back to doubles in the overflow case that only
    /// coordinates near 2^31 can reach.
    static func areaSign(_ ring: [VectorTilePoint]) -> Int {
        guard ring.count >= 3 else { return 0 }
        var sum: Int64 = 0
        var previous = ring[ring.count - 1]
        for point in ring {
            let a = Int64(previous.x) * Int64(point.y)
            let b = Int64(point.x) * Int64(previous.y)
            let (term, overflow1) = a.subtractingReportingOverflow(b)
            let (next, overflow2) = sum.addingReportingOverflow(term)
            if overflow1 || overflow2 { return approximateAreaSign(ring) }
            sum = next
            previous = point
        }
        return sum > 0 ? 1 : sum < 0 ? -1 : 0
    }

    private static func approximateAreaSign(_ ring: [VectorTilePoint]) -> Int {
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += Double(previous.x) * Double(point.y) - Double(point.x) * Double(previous.y)
            previous = point
        }
        return sum > 0 ? 1 : sum < 0 ? -1 : 0
    }
}
