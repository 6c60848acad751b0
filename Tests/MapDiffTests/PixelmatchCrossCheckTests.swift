import Foundation
import MapDiff
import MapGraphics
import MapTestSupport
import Testing

/// One comparison of `fixtures/diff/expected.json`, made by Scripts/pixelmatch-crosscheck.py with the
/// PyPI `pixelmatch` 0.4.0 package.
struct CrossCheckCase: Decodable, Sendable, CustomTestStringConvertible {
    var id: String
    var a: String
    var b: String
    var width: Int
    var height: Int
    var threshold: Double
    var includeAA: Bool
    var alpha: Double
    var diffMask: Bool
    var diff: Int
    var output: String?

    var testDescription: String { id }

    static func all() throws -> [CrossCheckCase] {
        struct File: Decodable { var cases: [CrossCheckCase] }
        return try JSONDecoder().decode(File.self, from: try Fixtures.data("diff/expected.json")).cases
    }
}

@Suite("PixelMatch agrees with the pixelmatch package, pixel for pixel")
struct PixelmatchCrossCheckTests {
    @Test("differing-pixel counts equal pixelmatch 0.4.0's", arguments: try CrossCheckCase.all())
    func counts(_ c: CrossCheckCase) throws {
        let a = try RGBAImage(contentsOfPNG: Fixtures.url("diff/\(c.a)"))
        let b = try RGBAImage(contentsOfPNG: Fixtures.url("diff/\(c.b)"))
        #expect(a.width == c.width && a.height == c.height)
        var options = PixelMatch.Options(threshold: c.threshold, includeAA: c.includeAA, alpha: c.alpha)
        options.diffMask = c.diffMask
        if let output = c.output {
            let (result, image) = try PixelMatch.diffImage(a, b, options: options)
            #expect(result.differentPixels == c.diff, "\(c.id)")
            let expected = try RGBAImage(contentsOfPNG: Fixtures.url("diff/\(output)"))
            #expect(image == expected, "\(c.id): the diff image differs from pixelmatch's \(output)")
        } else {
            #expect(try PixelMatch.compare(a, b, options: options).differentPixels == c.diff, "\(c.id)")
        }
    }

    @Test("the corpus exercises anti-aliasing detection: some pairs count more pixels with includeAA")
    func corpusIsMeaningful() throws {
        let cases = try CrossCheckCase.all()
        #expect(cases.count >= 100)
        let pairs = Dictionary(grouping: cases.filter { $0.output == nil }) { "\($0.a)|\($0.threshold)" }
        let aaMatters = pairs.values.filter { group in
            let with = group.first { $0.includeAA }?.diff ?? 0
            let without = group.first { !$0.includeAA }?.diff ?? 0
            return with > without
        }
        #expect(aaMatters.count >= 10)
    }
}
