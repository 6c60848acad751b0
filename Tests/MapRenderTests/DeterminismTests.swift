import Dispatch
import Foundation
import MapRaster
import MapTestSupport
import Testing

/// Collects results from concurrent work.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: Data] = [:]
    func set(_ index: Int, _ data: Data) {
        lock.lock()
        values[index] = data
        lock.unlock()
    }
    var all: [Int: Data] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}

@Suite("Determinism: byte-identical PNGs")
struct DeterminismTests {
    /// The golden corpus of this package's render tests, as fresh snapshotters.
    static func corpus(_ index: Int) throws -> MapSnapshotter {
        switch index {
        case 0: return try MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 512, height: 512)))
        case 1: return try GoldenRenderTests.shapesSnapshotter(scale: 1)
        case 2: return try GoldenRenderTests.shapesSnapshotter(scale: 2)
        case 3: return try GoldenRenderTests.pinsSnapshotter(GoldenCase.load("annotations/default-pins"))
        case 4: return try GoldenRenderTests.pinsSnapshotter(GoldenCase.load("annotations/default-pins@2x"))
        default: return try SeedSceneTests.snapshotter()
        }
    }
    static let count = 6

    @Test("the golden corpus rendered serially and on all cores at once gives the same bytes, twice over")
    func serialAndParallel() throws {
        let serial = try (0..<Self.count).map { try Self.corpus($0).snapshot().image.pngData() }
        let parallel = Results()
        // Every image twice, concurrently: 12 renders on however many threads Dispatch uses.
        DispatchQueue.concurrentPerform(iterations: Self.count * 2) { i in
            if let data = try? Self.corpus(i % Self.count).snapshot().image.pngData() {
                parallel.set(i, data)
            }
        }
        let results = parallel.all
        #expect(results.count == Self.count * 2)
        for i in 0..<(Self.count * 2) {
            #expect(
                results[i] == serial[i % Self.count], "corpus image \(i % Self.count), parallel run \(i / Self.count)")
        }
    }
}
