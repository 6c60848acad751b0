import Foundation
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

/// `Transform` against Core Graphics' `CGAffineTransform` rules, and the context's transform, worked by hand.
@Suite("Transforms")
struct TransformTests {
    @Test("Point.applying: x' = a x + c y + tx, y' = b x + d y + ty")
    func pointApplying() {
        let t = Transform(a: 2, b: 3, c: 5, d: 7, tx: 11, ty: 13)
        #expect(Point(x: 1, y: 10).applying(t) == Point(x: 2 + 50 + 11, y: 3 + 70 + 13))
        #expect(Point(x: -4, y: 0.5).applying(.identity) == Point(x: -4, y: 0.5))
    }

    @Test("A rotation by pi/2 turns +x into +y (clockwise on screen, y down)")
    func rotation() {
        let r = Transform(rotationAngle: .pi / 2)
        #expect(near(Point(x: 1, y: 0).applying(r), Point(x: 0, y: 1)))
        #expect(near(Point(x: 0, y: 1).applying(r), Point(x: -1, y: 0)))
        #expect(near(Point(x: 3, y: 4).applying(Transform(rotationAngle: .pi)), Point(x: -3, y: -4)))
    }

    @Test("concatenating applies self first, then the argument (CGAffineTransformConcat)")
    func concatenating() {
        let scale = Transform(scaleX: 2, y: 3)
        let move = Transform(translationX: 10, y: 20)
        let p = Point(x: 1, y: 1)
        // scale then move: (2, 3) + (10, 20); move then scale: (11 * 2, 21 * 3).
        #expect(p.applying(scale.concatenating(move)) == Point(x: 12, y: 23))
        #expect(p.applying(move.concatenating(scale)) == Point(x: 22, y: 63))
        #expect(scale.concatenating(move) == Transform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 20))
        #expect(move.concatenating(scale) == Transform(a: 2, b: 0, c: 0, d: 3, tx: 20, ty: 60))
        #expect(Transform.identity.concatenating(move) == move && move.concatenating(.identity) == move)
    }

    @Test("translatedBy, rotated and scaledBy prepend: p' = T_old(op(p)), as CGAffineTransformTranslate etc.")
    func prependingOperations() {
        let t = Transform.identity.translatedBy(x: 10, y: 20).rotated(by: .pi / 2).scaledBy(x: 2, y: 3)
        // Innermost first: scale (1, 1) -> (2, 3); rotate by pi/2 -> (-3, 2); translate -> (7, 22).
        #expect(near(Point(x: 1, y: 1).applying(t), Point(x: 7, y: 22)))
        // The same by hand as a matrix: a = 0, b = 2, c = -3, d = 0 (rotation columns times the scale).
        #expect(near(t, Transform(a: 0, b: 2, c: -3, d: 0, tx: 10, ty: 20)))
        // Prepending a translation to a scale moves by scaled units: scale 2 then translate 5 -> tx 10.
        #expect(
            Transform(scaleX: 2, y: 2).translatedBy(x: 5, y: -1) == Transform(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: -2))
        // Each operation equals op.concatenating(old).
        let old = Transform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(old.translatedBy(x: 7, y: 8) == Transform(translationX: 7, y: 8).concatenating(old))
        #expect(old.scaledBy(x: 7, y: 8) == Transform(scaleX: 7, y: 8).concatenating(old))
        #expect(old.rotated(by: 0.3) == Transform(rotationAngle: 0.3).concatenating(old))
        #expect(old.translatedBy(x: 7, y: 8) == Transform(a: 1, b: 2, c: 3, d: 4, tx: 5 + 7 + 24, ty: 6 + 14 + 32))
    }

    @Test("The context's translate, rotate and scale build the same transform as Transform's methods")
    func contextTransform() throws {
        let (_, context) = try canvas(8, 8, scale: 2)
        context.translateBy(x: 10, y: 20)
        context.rotate(by: .pi / 2)
        context.scaleBy(x: 2, y: 3)
        let expected = Transform(scaleX: 2, y: 2).translatedBy(x: 10, y: 20).rotated(by: .pi / 2).scaledBy(x: 2, y: 3)
        #expect(near(context.currentTransform, expected))
        // By hand: device = 2 * (translate(rotate(scale(p)))); p = (1, 1) -> 2 * (7, 22).
        #expect(near(Point(x: 1, y: 1).applying(context.currentTransform), Point(x: 14, y: 44)))
    }

    @Test("concatenate prepends to the context's transform (CGContextConcatCTM)")
    func contextConcatenate() throws {
        let (surface, context) = try canvas(8, 8)
        context.scaleBy(x: 2, y: 2)
        context.concatenate(Transform(translationX: 1, y: 0.5))
        #expect(near(context.currentTransform, Transform(a: 2, b: 0, c: 0, d: 2, tx: 2, ty: 1)))
        context.setFillColor(.red)
        context.fill(Rect(x: 0, y: 0, width: 1, height: 1))
        expectCoverage(surface, "unit rect after scale 2, translate 1,0.5", color: .pureRed) { x, y in
            (2..<4).contains(x) && (1..<3).contains(y)
        }
    }

    @Test("translateBy then rotate(by: pi/2) puts a 4x2 rect at x 6..8, y 0..4")
    func translateRotateFill() throws {
        let (surface, context) = try canvas(8, 8)
        context.translateBy(x: 8, y: 0)
        context.rotate(by: .pi / 2)
        context.setFillColor(.blue)
        context.fill(Rect(x: 0, y: 0, width: 4, height: 2))
        // (x, y) -> (-y, x) -> (8 - y, x): x in 0...4 becomes y 0...4, y in 0...2 becomes x 6...8.
        expectCoverage(surface, "rotated rect", color: .pureBlue) { x, y in (6..<8).contains(x) && (0..<4).contains(y) }
    }

    @Test("scaleBy(x: 2, y: 3) stretches a 2x1 rect at 1,1 to device 2..6 x 3..6")
    func scaleFill() throws {
        let (surface, context) = try canvas(8, 8)
        context.scaleBy(x: 2, y: 3)
        context.setFillColor(.green)
        context.fill(Rect(x: 1, y: 1, width: 2, height: 1))
        expectCoverage(surface, "scaled rect", color: .pureGreen) { x, y in (2..<6).contains(x) && (3..<6).contains(y) }
    }

    @Test("A negative scale mirrors: scaleBy(x: -1, y: 1) after translateBy(x: 8) puts 0..2 at 6..8")
    func mirror() throws {
        let (surface, context) = try canvas(8, 4)
        context.translateBy(x: 8, y: 0)
        context.scaleBy(x: -1, y: 1)
        context.setFillColor(.red)
        context.fill(Rect(x: 0, y: 1, width: 2, height: 2))
        expectCoverage(surface, "mirrored rect", color: .pureRed) { x, y in (6..<8).contains(x) && (1..<3).contains(y) }
    }

    @Test("withSavedState restores fill and stroke colors, alpha, transform, line width and clip")
    func savedState() throws {
        let (surface, context) = try canvas(16, 16)
        context.setFillColor(.blue)
        context.setStrokeColor(.green)
        context.setLineWidth(2)
        let initial = context.currentTransform
        let result = context.withSavedState { () -> Int in
            context.setFillColor(.red)
            context.setStrokeColor(.red)
            context.setAlpha(0.5)
            context.setLineWidth(6)
            context.translateBy(x: 4, y: 4)
            context.clip(to: Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)))
            context.fill(Rect(x: -10, y: -10, width: 100, height: 100))  // only pixel 4,4, half red
            return 42
        }
        #expect(result == 42)
        #expect(context.currentTransform == initial)
        // Top half: if the clip leaked only 4,4 would change; if the transform leaked rows 4..12 would fill.
        context.fill(Rect(x: 0, y: 0, width: 16, height: 8))
        // A 2-point line on y = 12: rows 11 and 12 only; a leaked width of 6 would cover rows 9..14.
        var line = Path()
        line.move(to: Point(x: 0, y: 12))
        line.addLine(to: Point(x: 16, y: 12))
        context.stroke(line)
        expectPixels(surface, "after withSavedState") { _, y in
            y < 8 ? .pureBlue : (y == 11 || y == 12 ? .pureGreen : .transparent)
        }
    }

    @Test("withSavedState restores line cap, dash and fill rule, and nests")
    func savedLineStyle() throws {
        let (surface, context) = try canvas(16, 16)
        context.setLineWidth(2)
        context.withSavedState {
            context.setLineCap(.square)
            context.setLineDash(phase: 0, lengths: [1, 1])
            context.setFillRule(.evenOdd)
            context.withSavedState { context.setLineCap(.round) }
        }
        context.stroke(PrimitiveTests.horizontalLine(from: 4, to: 12, y: 4))
        context.fill(PrimitiveTests.nested.applying(Transform(translationX: 0, y: 2)))
        expectPixels(surface, "butt, solid, winding after restore") { x, y in
            if (y == 3 || y == 4) && (4..<12).contains(x) { return .pureBlack }
            return PrimitiveTests.inOuter(x, y - 2) ? .pureBlack : .transparent
        }
    }

    @Test("withSavedState restores the state when its body throws, and rethrows")
    func savedStateThrows() throws {
        struct Boom: Error {}
        let (surface, context) = try canvas(4, 4)
        context.setFillColor(.green)
        #expect(throws: Boom.self) {
            try context.withSavedState {
                context.setFillColor(.red)
                context.translateBy(x: 2, y: 2)
                throw Boom()
            }
        }
        #expect(context.currentTransform == .identity)
        context.fill(Rect(x: 0, y: 0, width: 4, height: 4))
        expectPixels(surface, "green everywhere") { _, _ in .pureGreen }
    }
}
