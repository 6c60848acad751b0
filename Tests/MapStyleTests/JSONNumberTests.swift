import Foundation
import MapData
import Testing

@Suite("JSON numbers: the fast decimal path agrees with strtod")
struct JSONNumberTests {
    @Test("random plain decimals and edge cases parse to the same Double, bit for bit, as Double(String)")
    func agreesWithStrtod() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "0.1", "0.000001", "123456789012345", "-24.9436", "60.169900", "1.5e3", "9007199254740993",
            "0.30000000000000004", "179.999999", "-89.999999", "1234567.891234", "0.0000000000000000000001",
        ]
        for _ in 0..<5000 {
            let whole = Int.random(in: 0...999_999, using: &generator)
            let fraction = Int.random(in: 0...99_999_999, using: &generator)
            let sign = Bool.random(using: &generator) ? "-" : ""
            texts.append("\(sign)\(whole).\(String(fraction).prefix(Int.random(in: 1...8, using: &generator)))")
        }
        let json = try JSONValue.parse(Data(("[" + texts.joined(separator: ",") + "]").utf8))
        let values = try #require(json.array)
        for (text, value) in zip(texts, values) {
            let expected = try #require(Double(text))
            #expect(value.number?.bitPattern == expected.bitPattern, "\(text)")
        }
    }
}
