import Foundation
import MapData
import MapGeometry
import MapGraphics

/// Line labels of text that may be written vertically (CJK): as MapLibre, such a label also has a vertical
/// shaping (characters with an upright vertical orientation stood up, each one em tall, punctuation in its
/// vertical forms, other characters left sideways), drawn instead of the horizontal one where the label's
/// line runs more up and down than across (`requiresOrientationChange`, with `text-keep-upright`); it reads
/// top to bottom.
extension SymbolLayerRenderer {
    /// The characters of a line label's vertical shaping, nil when the text has no character with an upright
    /// vertical orientation (MapLibre's `allowsVerticalWritingMode`).
    func verticalLineText(_ text: GlyphText) -> GlyphText? {
        let scalars = text.characters.compactMap { Unicode.Scalar($0.codePoint) }
        guard scalars.count == text.characters.count, scalars.contains(where: VerticalText.isUpright) else {
            return nil
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        let forms = Array(VerticalText.verticalizingPunctuation(String(view)).unicodeScalars)
        guard forms.count == scalars.count else { return nil }
        var result = text
        for i in result.characters.indices where result.characters[i].image == nil {
            let form = forms[i]
            if form != scalars[i], let glyph = try? text.stacks[result.characters[i].section].glyph(form.value) {
                result.characters[i].codePoint = form.value
                result.characters[i].glyph = glyph
            }
            result.characters[i].vertical = VerticalText.isUpright(
                Unicode.Scalar(result.characters[i].codePoint) ?? " ")
        }
        return result
    }

    /// Whether the label anchored `middle` along `line` (world points, `distances` its running lengths), starting
    /// `width x alignX` before it, its first and last glyph centres `first` and `last` from its start, runs more
    /// up and down than across.
    static func runsVertically(
        _ line: [Point], distances: [Double], middle: Double, width: Double, first: Double, last: Double,
        alignX: Double = 0.5
    ) -> Bool {
        let start = middle - width * alignX
        let a = point(on: line, distances: distances, at: start + first)
        let b = point(on: line, distances: distances, at: start + last)
        return abs(b.y - a.y) > abs(b.x - a.x)
    }

    /// The point `d` along `line` (clamped to its segments).
    static func point(on line: [Point], distances: [Double], at d: Double) -> Point {
        guard line.count > 1 else { return line.first ?? Point(x: 0, y: 0) }
        var i = 0
        while i + 2 < distances.count, distances[i + 1] < d { i += 1 }
        let (a, b) = (line[i], line[i + 1])
        let seg = distances[i + 1] - distances[i]
        let t = seg > 0 ? (d - distances[i]) / seg : 0
        return Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    /// MapLibre's `rotateVerticalGlyph` for a glyph along a line: its quad (drawn from `(-half advance, 0)`)
    /// turned a quarter counter-clockwise about (-half advance, half advance + 17), moved along by 10 + half
    /// advance and across by the glyph's y (layout pixels).
    static func uprightAlongLine(half: Double, y: Double) -> Transform {
        Transform(translationX: half, y: -(half - GlyphShaping.defaultOffset))
            .concatenating(Transform(rotationAngle: -.pi / 2))
            .concatenating(Transform(translationX: -half, y: half - GlyphShaping.defaultOffset))
            .concatenating(Transform(translationX: 10 + half, y: y))
    }
}
