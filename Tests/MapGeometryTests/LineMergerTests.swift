import MapGeometry
import Testing

@Suite("LineMerger: pieces of a line cut at tile edges joined again")
struct LineMergerTests {
    static func p(_ x: Double, _ y: Double) -> MapPoint { MapPoint(x: x, y: y) }

    @Test("pieces meeting end to start are chained in order, whatever order they come in")
    func chains() {
        let a = [Self.p(0, 0), Self.p(10, 0)]
        let b = [Self.p(10, 0), Self.p(20, 5)]
        let c = [Self.p(20, 5), Self.p(30, 5)]
        let merged = LineMerger.merge([c, a, b])
        #expect(merged == [[Self.p(0, 0), Self.p(10, 0), Self.p(20, 5), Self.p(30, 5)]])
    }

    @Test("ends within the tolerance join; farther ends, reversed pieces and separate lines do not")
    func tolerance() {
        let a = [Self.p(0, 0), Self.p(10, 0)]
        let near = [Self.p(10.000_001, 0), Self.p(20, 0)]
        #expect(LineMerger.merge([a, near]).count == 1)
        let far = [Self.p(10.5, 0), Self.p(20, 0)]
        #expect(LineMerger.merge([a, far]) == [a, far])
        let reversed = [Self.p(20, 0), Self.p(10, 0)]
        #expect(LineMerger.merge([a, reversed]).count == 2)
    }

    @Test("a loop is chained once, from its first piece; empty and single pieces pass through")
    func loops() {
        let a = [Self.p(0, 0), Self.p(10, 0)]
        let b = [Self.p(10, 0), Self.p(10, 10)]
        let c = [Self.p(10, 10), Self.p(0, 0)]
        let merged = LineMerger.merge([a, b, c])
        #expect(merged == [[Self.p(0, 0), Self.p(10, 0), Self.p(10, 10), Self.p(0, 0)]])
        #expect(LineMerger.merge([[], a]) == [a])
        #expect(LineMerger.merge([a]) == [a])
    }

    @Test("non-finite and huge coordinates neither trap nor join")
    func hostile() {
        let a = [Self.p(0, 0), Self.p(.infinity, 0)]
        let b = [Self.p(.infinity, 0), Self.p(1, 1)]
        let c = [Self.p(1e300, 0), Self.p(2, 2)]
        #expect(LineMerger.merge([a, b, c]).count == 3)
    }
}
