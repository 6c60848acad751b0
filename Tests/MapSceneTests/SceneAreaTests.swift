import Foundation
import MapRaster
import Testing

@Suite("Scene areas are range-checked where they enter")
struct SceneAreaTests {
    @Test("a span of 5e-324 degrees is refused naming the span and the minimum, not drawn as the world")
    func tinySpan() {
        let data = Data(#"{"center": [0, 0], "span": [5e-324, 5e-324]}"#.utf8)
        do {
            _ = try Scene.decode(data, source: "s.json")
            Issue.record("accepted a span of 5e-324")
        } catch {
            #expect("\(error)".contains("s.json: span") && "\(error)".contains("0.000001"), "\(error)")
        }
        #expect(
            (try? Scene.decode(Data(#"{"center": [0, 0], "span": [0.000001, 0.000001]}"#.utf8), source: "s")) != nil)
    }
}
