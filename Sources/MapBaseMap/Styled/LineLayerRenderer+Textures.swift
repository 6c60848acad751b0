import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// MapLibre's line textures: the colour ramp of `line-gradient` and the distance fields of dashes.
extension LineLayerRenderer {
    /// MapLibre's ramp texel: the colour (premultiplied, as MapLibre holds colours) divided back by its
    /// alpha and floored to 8 bits, alpha floored; the upload premultiplies the bytes again, flooring
    /// (UNPACK_PREMULTIPLY_ALPHA). The colour returned premultiplies (red x alpha) to those bytes.
    static func rampTexel(_ c: Color) -> Color {
        let a8 = (c.alpha * 255).rounded(.down)
        guard a8 > 0, a8.isFinite else { return .clear }
        func f(_ v: Double) -> Double {
            let texel = min(255, max(0, (v * c.alpha * 255 / c.alpha).rounded(.down)))
            return (texel * a8 / 255).rounded(.down) / a8
        }
        return Color(red: f(c.red), green: f(c.green), blue: f(c.blue), alpha: a8 / 255)
    }

    /// `line-gradient` as MapLibre's color ramp texture: 256 texels, or for a `step` expression (drawn
    /// with the nearest texel) as many as the longest line spans at 1024 texels per tile, a power of two
    /// up to 8192. Each texel is the color at progress `i / (count - 1)`, its components floored to 8 bits.
    /// A `step` over `line-progress` on lines longer than a tile is exact (`steps`): MapLibre's ramp spans
    /// only each tile's piece of a line (about 0.4 pixel a texel), where a whole-line table would be
    /// pixels coarse.
    static func gradientTable(_ layer: StyleLayer, frame: LayerFrame, longestLine: Double)
        -> (colors: [Color], nearest: Bool, steps: [Double])
    {
        let floor8 = rampTexel
        var context = frame.constantContext
        var nearest = false
        var count = 256
        if case .step(let input, _, let stops) = layer.properties[StylePropertyName.lineGradient.rawValue]?.expression {
            nearest = true
            // The line's length in tiles of the integer zoom (512 points each at that zoom).
            let tiles = longestLine / (512 * pow(2, frame.zoom - frame.zoom.rounded(.down)))
            if tiles > 1, input == .lineProgress, let first = stops.first, stops.count < 10_000 {
                var steps = [-Double.infinity]
                context.lineProgress = first.input - 1
                var colors = [floor8(layer.color(.lineGradient, context) ?? .clear)]
                for stop in stops where stop.input.isFinite && stop.input > steps[steps.count - 1] {
                    context.lineProgress = stop.input
                    steps.append(stop.input)
                    colors.append(floor8(layer.color(.lineGradient, context) ?? .clear))
                }
                return (colors, true, steps)
            }
            let texels = tiles * 1024
            while Double(count) < texels, count < 8192 { count *= 2 }
        }
        let colors = (0..<count).map { i -> Color in
            context.lineProgress = Double(i) / Double(count - 1)
            return floor8(layer.color(.lineGradient, context) ?? .clear)
        }
        return (colors, nearest, [])
    }

    /// One dash or gap of a dash pattern on the texture (texels): where it starts and ends, and whether it
    /// has zero length. The pattern's first dash reaches back over its last part when the count is odd
    /// (the pattern repeats as dash, gap, dash, ...).
    struct DashRange {
        var left: Double
        var right: Double
        var isDash: Bool
        var zero: Bool
    }

    /// The dashes and gaps of `parts` (lengths, non-negative) stretched `stretch` texels per unit.
    static func dashRanges(_ parts: [Double], stretch: Double) -> [DashRange] {
        let odd = parts.count % 2 == 1
        var ranges = [
            DashRange(
                left: odd ? -parts[parts.count - 1] * stretch : 0, right: parts[0] * stretch, isDash: true,
                zero: parts[0] == 0)
        ]
        var along = parts[0]
        var isDash = true
        for part in parts.dropFirst() {
            isDash.toggle()
            let left = along * stretch
            along += part
            ranges.append(DashRange(left: left, right: along * stretch, isDash: isDash, zero: part == 0))
        }
        return ranges
    }

    /// A dash array as MapLibre's 256-texel dash texture: each texel the signed distance (texels, plus
    /// 128, clamped to a byte, over 255) from texel `x` to the nearest edge of the dash or gap it lies
    /// in, positive in dashes. Zero-length parts vanish, neighbours of one kind merge, and a pattern that
    /// begins and ends with dashes (or gaps) joins them across the repeat. Nil for an empty pattern.
    static func lineDashField(_ dasharray: [Double]) -> [Float]? {
        let parts = dasharray.map { max(0, $0.isFinite ? $0 : 0) }
        let length = parts.reduce(0, +)
        guard !parts.isEmpty, length > 0, length.isFinite else { return nil }
        let width = 256
        let stretch = Double(width) / length
        var ranges = dashRanges(parts, stretch: stretch)
        var i = ranges.count - 1
        while i >= 0 {
            if ranges[i].zero {
                ranges.remove(at: i)
            } else if i + 1 < ranges.count, ranges[i + 1].isDash == ranges[i].isDash {
                ranges[i + 1].left = ranges[i].left
                ranges.remove(at: i)
            }
            i -= 1
        }
        guard !ranges.isEmpty else { return nil }
        if ranges[0].isDash == ranges[ranges.count - 1].isDash {
            ranges[0].left = ranges[ranges.count - 1].left - Double(width)
            ranges[ranges.count - 1].right = ranges[0].right + Double(width)
        }
        var field = [Float](repeating: 0, count: width)
        var current = 0
        for x in 0..<width {
            while Double(x) > ranges[current].right, current + 1 < ranges.count { current += 1 }
            let r = ranges[current]
            let distance = min(abs(Double(x) - r.left), abs(Double(x) - r.right))
            let signed = r.isDash ? distance : -distance
            field[x] = Float(min(255, max(0, signed + 128)).rounded(.towardZero)) / 255
        }
        return field
    }

    /// A dash array as MapLibre's round dash texture: 15 rows of 256 texels, row `7 + k` across the line
    /// at `k / 7` of the half width; dashes are capsules, so a dash's value grows with the distance from
    /// its ends and its side (the texture's arithmetic, zero-length dashes kept as dots). Nil for an
    /// empty pattern.
    static func lineRoundDashField(_ dasharray: [Double]) -> [Float]? {
        let parts = dasharray.map { max(0, $0.isFinite ? $0 : 0) }
        let length = parts.reduce(0, +)
        guard !parts.isEmpty, length > 0, length.isFinite else { return nil }
        let width = 256
        let n = 7
        let stretch = Double(width) / length
        let ranges = dashRanges(parts, stretch: stretch)
        let halfStretch = stretch / 2
        var field = [Float](repeating: 0, count: width * (2 * n + 1))
        for y in -n...n {
            var current = 0
            for x in 0..<width {
                if Double(x) / ranges[current].right > 1, current + 1 < ranges.count { current += 1 }
                let r = ranges[current]
                let nearest = min(abs(Double(x) - r.left), abs(Double(x) - r.right))
                let middle = Double(y) / Double(n) * (halfStretch + 1)
                let signed: Double
                if r.isDash {
                    let edge = halfStretch - abs(middle)
                    signed = (nearest * nearest + edge * edge).squareRoot()
                } else {
                    signed = halfStretch - (nearest * nearest + middle * middle).squareRoot()
                }
                field[(n + y) * width + x] = Float(min(255, max(0, signed + 128)).rounded(.towardZero)) / 255
            }
        }
        return field
    }

}
